//! A bar's window holding the keyboard (`obi msg focus`). On X11 it is a
//! grab of the keyboard (see `grab`), whose keys are reported to the bar's
//! loop; the window manager's focus stays where it was, so the window that
//! had it has it again when the grab ends. On Windows the bar's window
//! takes the foreground, remembering which window had it to give it back,
//! and its keys come as the window's own. A popup opened meanwhile holds
//! the keyboard itself: the bar's hold waits, and comes back as it closes.

use crate::bar::BarKey;
use std::sync::Arc;
use winit::window::Window;

/// Hands a key the bar's hold reports to the bar; false once the loop is gone.
pub type ReportKey = Arc<dyn Fn(BarKey) -> bool + Send + Sync>;

pub struct KeyboardHold {
    /// The bar asked for the keyboard and has not given it back.
    wanted: bool,
    #[cfg(free_unix)]
    grab: Option<super::grab::Grab>,
    #[cfg(free_unix)]
    report: ReportKey,
    /// The window that had the foreground before the bar took it.
    #[cfg(windows)]
    previous: Option<windows::Win32::Foundation::HWND>,
}

impl KeyboardHold {
    pub fn new(report: ReportKey) -> KeyboardHold {
        #[cfg(not(free_unix))]
        let _ = report;
        KeyboardHold {
            wanted: false,
            #[cfg(free_unix)]
            grab: None,
            #[cfg(free_unix)]
            report,
            #[cfg(windows)]
            previous: None,
        }
    }

    /// Takes the keyboard for the bar's `window`, or gives it back; whether
    /// that was done.
    pub fn hold(&mut self, window: &Window, hold: bool) -> bool {
        if hold == self.wanted {
            return true;
        }
        match self.hold_here(window, hold) {
            Ok(()) => {
                self.wanted = hold;
                true
            }
            Err(error) => {
                tracing::warn!("{error:#}; the bar cannot take the keyboard");
                false
            }
        }
    }

    /// Takes the keyboard, or gives it back, as this platform does; taken
    /// again (after a popup), it keeps the window to give it back to.
    fn hold_here(&mut self, window: &Window, hold: bool) -> anyhow::Result<()> {
        #[cfg(free_unix)]
        {
            let _ = window;
            if !hold {
                self.grab = None;
            } else if self.grab.is_none() {
                let report = self.report.clone();
                self.grab = Some(super::grab::Grab::keyboard(move |key| report(key))?);
            }
            Ok(())
        }
        #[cfg(windows)]
        {
            if hold {
                let previous = super::win32::take_foreground(window)?;
                self.previous = self.previous.or(previous);
            } else if let Some(previous) = self.previous.take() {
                super::win32::give_foreground(previous);
            }
            Ok(())
        }
        #[cfg(not(any(free_unix, windows)))]
        {
            let _ = (window, hold);
            anyhow::bail!("the bar takes the keyboard on X11, Wayland and Windows")
        }
    }

    /// Whether the bar holds the keyboard (or will again once a popup closes).
    #[cfg(windows)]
    pub fn wanted(&self) -> bool {
        self.wanted
    }

    /// Another window took the keyboard: nothing is given back.
    #[cfg(windows)]
    pub fn lost(&mut self) {
        self.wanted = false;
        self.previous = None;
    }

    /// A popup takes the keyboard: the bar's grab lets go of it meanwhile
    /// (X refuses a second grab).
    #[cfg(free_unix)]
    pub fn pause(&mut self) {
        self.grab = None;
    }

    /// The popup closed: the bar's `window` holds the keyboard again, if it did.
    pub fn resume(&mut self, window: &Window) {
        if self.wanted
            && let Err(error) = self.hold_here(window, true)
        {
            tracing::warn!("{error:#}; the bar's keys stop");
        }
    }
}

/// What `key` does on a bar that holds the keyboard, with Shift held or not.
#[cfg(windows)]
pub fn bar_key(key: &winit::keyboard::Key, shift: bool) -> Option<BarKey> {
    use winit::keyboard::{Key, NamedKey};
    let Key::Named(key) = key else {
        return None;
    };
    Some(match key {
        NamedKey::Escape => BarKey::Release,
        NamedKey::ArrowLeft | NamedKey::ArrowUp => BarKey::Previous,
        NamedKey::ArrowRight | NamedKey::ArrowDown => BarKey::Next,
        NamedKey::Tab if shift => BarKey::Previous,
        NamedKey::Tab => BarKey::Next,
        NamedKey::Enter | NamedKey::Space => BarKey::Press,
        NamedKey::F10 if shift => BarKey::Menu,
        NamedKey::ContextMenu => BarKey::Menu,
        _ => return None,
    })
}

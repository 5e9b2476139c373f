//! Holds on the pointer and the keyboard on X11, each over a connection of
//! its own (x11rb) with a thread that reports what it sees until dropped;
//! each takes the keyboard before its thread starts.
//!
//! A widget's popup holds both, as menus do: while it lasts every press on
//! the screen, the pointer's moves, and the keys a menu answers (Escape,
//! the arrows, Tab, Return, Space) come to the bar (in root coordinates,
//! through [`Grabbed`]), so that a click outside the popup closes it. A
//! press that opened the popup still holds the pointer for the bar's
//! window until it is released; the grab is tried again until then, for
//! up to a second; once the pointer is held both are.
//!
//! A bar given the keyboard (`obi msg focus`) holds the keyboard alone,
//! its keys reported as [`BarKey`]s; a refusal fails the bar's asking. A grab leaves the window manager's
//! focus where it is: the window that had it has it again when it ends.

use crate::bar::{BarKey, Grabbed, PopupKey};
use crate::view::{Input, ScrollDirection};
use anyhow::Context;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use x11rb::connection::Connection;
use x11rb::protocol::Event;
use x11rb::protocol::xproto::{
    ClientMessageEvent, ConnectionExt as _, CreateWindowAux, EventMask, GrabMode, GrabStatus, Keycode, WindowClass,
};
use x11rb::rust_connection::RustConnection;
use x11rb::{CURRENT_TIME, NONE};

/// How long a grab is tried while another client (the bar's own window,
/// under the press that opened the popup) holds the pointer.
const GRAB_TRIES_FOR: Duration = Duration::from_secs(1);
const GRAB_RETRY: Duration = Duration::from_millis(10);
/// The keysyms a popup answers, and what each does.
const POPUP_KEYS: [(u32, PopupKey); 9] = [
    (0xff1b, PopupKey::Close),    // Escape
    (0xff51, PopupKey::Previous), // Left
    (0xff52, PopupKey::Previous), // Up
    (0xff53, PopupKey::Next),     // Right
    (0xff54, PopupKey::Next),     // Down
    (0xff09, PopupKey::Next),     // Tab
    (0xff0d, PopupKey::Choose),   // Return
    (0xff8d, PopupKey::Choose),   // KP_Enter
    (0x0020, PopupKey::Choose),   // space
];

/// The keysyms a bar holding the keyboard answers, and what each does
/// without Shift and with it.
const BAR_KEYS: [(u32, ShiftedKey); 12] = [
    (0xff1b, (Some(BarKey::Release), Some(BarKey::Release))), // Escape
    (0xff51, (Some(BarKey::Previous), Some(BarKey::Previous))), // Left
    (0xff52, (Some(BarKey::Previous), Some(BarKey::Previous))), // Up
    (0xff53, (Some(BarKey::Next), Some(BarKey::Next))),       // Right
    (0xff54, (Some(BarKey::Next), Some(BarKey::Next))),       // Down
    (0xff09, (Some(BarKey::Next), Some(BarKey::Previous))),   // Tab
    (0xff0d, (Some(BarKey::Press), Some(BarKey::Press))),     // Return
    (0xff8d, (Some(BarKey::Press), Some(BarKey::Press))),     // KP_Enter
    (0x0020, (Some(BarKey::Press), Some(BarKey::Press))),     // space
    (0xffc7, (None, Some(BarKey::Menu))),                     // F10
    (0xff67, (Some(BarKey::Menu), Some(BarKey::Menu))),       // Menu
    (0xff6b, (Some(BarKey::Release), Some(BarKey::Release))), // Break
];

/// What a key does without Shift and with it.
type ShiftedKey = (Option<BarKey>, Option<BarKey>);

pub struct Grab {
    connection: Arc<RustConnection>,
    /// A window of the grab's own that nobody sees: a message to it wakes
    /// the thread, to end it.
    wake: u32,
    ending: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Grab {
    /// Holds the pointer and the keyboard for a popup and hands what they
    /// do to `report` until dropped (or until `report` says the bar is gone).
    pub fn popup(report: impl Fn(Grabbed) -> bool + Send + 'static) -> anyhow::Result<Grab> {
        // Without the keyboard a popup still takes clicks.
        Grab::start("popup", &POPUP_KEYS, false, move |connection, root, keys, ending| {
            hold_for_popup(connection, root, keys, ending, &report)
        })
    }

    /// Holds the keyboard for a bar and hands its keys to `report` until
    /// dropped (or until `report` says the bar is gone).
    pub fn keyboard(report: impl Fn(BarKey) -> bool + Send + 'static) -> anyhow::Result<Grab> {
        Grab::start("keyboard", &BAR_KEYS, true, move |connection, _, keys, ending| {
            hold_keyboard(connection, ending, keys, &report)
        })
    }

    /// Connects, reads which keys do what of `table`, takes the keyboard
    /// (failing when X refuses it and the grab `needs_keyboard`), and has
    /// `hold` hold the rest and report on a thread of its own, named after
    /// `what` it is for.
    fn start<K: Copy + Send + 'static>(
        what: &str,
        table: &[(u32, K)],
        needs_keyboard: bool,
        hold: impl FnOnce(&RustConnection, u32, &HashMap<Keycode, K>, &AtomicBool) -> anyhow::Result<()> + Send + 'static,
    ) -> anyhow::Result<Grab> {
        let (connection, screen) =
            x11rb::connect(None).with_context(|| format!("connecting to X for the {what} grab"))?;
        let root = connection.setup().roots[screen].root;
        let keys = keys_of(&connection, table)?;
        let keyboard =
            connection.grab_keyboard(false, root, CURRENT_TIME, GrabMode::ASYNC, GrabMode::ASYNC)?.reply()?.status;
        match keyboard {
            GrabStatus::SUCCESS => {}
            refused if needs_keyboard => anyhow::bail!("X refused to grab the keyboard ({refused:?})"),
            refused => tracing::info!("X refused to grab the keyboard ({refused:?}); no key reaches the {what}"),
        }
        let wake = connection.generate_id()?;
        connection.create_window(
            0,
            wake,
            root,
            -1,
            -1,
            1,
            1,
            0,
            WindowClass::INPUT_ONLY,
            0,
            &CreateWindowAux::new(),
        )?;
        connection.flush()?;
        let connection = Arc::new(connection);
        let ending = Arc::new(AtomicBool::new(false));
        let thread = {
            let (connection, ending) = (connection.clone(), ending.clone());
            let name = what.to_owned();
            std::thread::Builder::new()
                .name(format!("obi-{what}-grab"))
                .spawn(move || {
                    if let Err(error) = hold(&connection, root, &keys, &ending) {
                        tracing::warn!("the {name} grab ended: {error:#}");
                    }
                })
                .with_context(|| format!("starting the {what} grab"))?
        };
        Ok(Grab { connection, wake, ending, thread: Some(thread) })
    }
}

impl Drop for Grab {
    fn drop(&mut self) {
        self.ending.store(true, Ordering::Release);
        let _ = self.connection.ungrab_pointer(CURRENT_TIME);
        let _ = self.connection.ungrab_keyboard(CURRENT_TIME);
        let message = ClientMessageEvent::new(32, self.wake, x11rb::protocol::xproto::AtomEnum::NOTICE, [0; 5]);
        let _ = self.connection.send_event(false, self.wake, EventMask::NO_EVENT, message);
        let _ = self.connection.flush();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Takes the pointer for the popup (trying again while it is held
/// elsewhere), then reports until told to end.
fn hold_for_popup(
    connection: &RustConnection,
    root: u32,
    keys: &HashMap<Keycode, PopupKey>,
    ending: &AtomicBool,
    report: &dyn Fn(Grabbed) -> bool,
) -> anyhow::Result<()> {
    let pointer = EventMask::BUTTON_PRESS | EventMask::BUTTON_RELEASE | EventMask::POINTER_MOTION;
    let until = Instant::now() + GRAB_TRIES_FOR;
    loop {
        if ending.load(Ordering::Acquire) {
            return Ok(());
        }
        let status = connection
            .grab_pointer(false, root, pointer, GrabMode::ASYNC, GrabMode::ASYNC, NONE, NONE, CURRENT_TIME)?
            .reply()?
            .status;
        match status {
            GrabStatus::SUCCESS => break,
            _ if Instant::now() < until => std::thread::sleep(GRAB_RETRY),
            refused => {
                // Keys held by a popup nobody can click away would be lost to every other window.
                connection.ungrab_keyboard(CURRENT_TIME)?;
                connection.flush()?;
                anyhow::bail!("X refused to grab the pointer ({refused:?}); a click outside will not close it")
            }
        }
    }
    while !ending.load(Ordering::Acquire) {
        let grabbed = match connection.wait_for_event()? {
            Event::ButtonPress(press) => match input_of_button(press.detail) {
                Some(input) => Grabbed::Pressed { input, at: (press.root_x.into(), press.root_y.into()) },
                None => continue,
            },
            Event::MotionNotify(motion) => Grabbed::Moved { at: (motion.root_x.into(), motion.root_y.into()) },
            Event::ButtonRelease(_) => Grabbed::Released,
            Event::KeyPress(key) => match keys.get(&key.detail) {
                Some(&key) => Grabbed::Key(key),
                None => continue,
            },
            _ => continue,
        };
        if !report(grabbed) {
            break;
        }
    }
    Ok(())
}

/// Reports the keys a bar answers, the keyboard held, until told to end.
fn hold_keyboard(
    connection: &RustConnection,
    ending: &AtomicBool,
    keys: &HashMap<Keycode, ShiftedKey>,
    report: &dyn Fn(BarKey) -> bool,
) -> anyhow::Result<()> {
    while !ending.load(Ordering::Acquire) {
        let Event::KeyPress(press) = connection.wait_for_event()? else { continue };
        let Some(&(plain, shifted)) = keys.get(&press.detail) else { continue };
        let shift = press.state.contains(x11rb::protocol::xproto::KeyButMask::SHIFT);
        let Some(key) = (if shift { shifted } else { plain }) else { continue };
        if !report(key) {
            break;
        }
    }
    Ok(())
}

/// The input a core X button number is: 4 to 7 are the wheel's ticks.
fn input_of_button(button: u8) -> Option<Input> {
    Some(match button {
        1 => Input::PrimaryClick,
        2 => Input::MiddleClick,
        3 => Input::SecondaryClick,
        4 => Input::Scroll(ScrollDirection::Up),
        5 => Input::Scroll(ScrollDirection::Down),
        6 => Input::Scroll(ScrollDirection::Left),
        7 => Input::Scroll(ScrollDirection::Right),
        8 => Input::Extra1Click,
        9 => Input::Extra2Click,
        _ => return None,
    })
}

/// What each key the keyboard's map gives a keysym of `table` does, by keycode.
fn keys_of<K: Copy>(connection: &RustConnection, table: &[(u32, K)]) -> anyhow::Result<HashMap<Keycode, K>> {
    let setup = connection.setup();
    let (first, count) = (setup.min_keycode, setup.max_keycode - setup.min_keycode + 1);
    let map = connection.get_keyboard_mapping(first, count)?.reply().context("reading the keyboard's map")?;
    let per_key = usize::from(map.keysyms_per_keycode).max(1);
    let mut keys = HashMap::new();
    for (index, keysyms) in map.keysyms.chunks(per_key).enumerate() {
        // The key's own symbol, unshifted: a layout's Tab is Tab wherever it sits.
        if let Some(&(_, key)) = table.iter().find(|(keysym, _)| keysyms.first() == Some(keysym)) {
            keys.insert(first + index as u8, key);
        }
    }
    Ok(keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buttons_are_the_inputs_the_bar_knows() {
        assert_eq!(input_of_button(1), Some(Input::PrimaryClick));
        assert_eq!(input_of_button(3), Some(Input::SecondaryClick));
        assert_eq!(input_of_button(5), Some(Input::Scroll(ScrollDirection::Down)));
        assert_eq!(input_of_button(9), Some(Input::Extra2Click));
        assert_eq!(input_of_button(12), None);
    }
}

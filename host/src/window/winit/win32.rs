//! The bar's window as Windows should have it: a tool window (no taskbar
//! button, and no tile for komorebi, which leaves tool windows alone),
//! without a frame or caption, above other windows and never taking the
//! focus from them. winit writes a window's styles again whenever it shows
//! or hides it, so the bar is shown and hidden here, not through winit.
//! Where no tiler keeps the bar's space (komorebi does, for a
//! `work_area_offset`), the bar is an AppBar, as the taskbar is: Windows
//! leaves its rectangle out of its monitor's work area, and tells it when
//! a program goes full screen, when the bar steps behind it, as the
//! taskbar does, to come back on top once the program leaves full screen.
//! Tooltips and popups are top-most tool windows too; a popup alone takes
//! the focus, and the bar's window when it is given the keyboard (`obi msg
//! focus`), which it gives back to the window that had it. Monitors that come, go or change mode are told by
//! `WM_DISPLAYCHANGE`, which Windows sends to top-level windows (winit does
//! not pass it on): a hidden one on a thread of its own listens.

use crate::bar::ScreenRect;
use crate::hidden_window;
use raw_window_handle::{HasWindowHandle, RawWindowHandle};
use windows::Win32::Foundation::{HWND, LPARAM, LRESULT, RECT, WPARAM};
use windows::Win32::UI::Shell::{
    ABE_BOTTOM, ABE_TOP, ABM_NEW, ABM_REMOVE, ABM_SETPOS, ABN_FULLSCREENAPP, APPBARDATA, DefSubclassProc,
    RemoveWindowSubclass, SHAppBarMessage, SetWindowSubclass,
};
use windows::Win32::UI::WindowsAndMessaging::{
    DefWindowProcW, GWL_EXSTYLE, GWL_STYLE, GetForegroundWindow, HWND_BOTTOM, HWND_TOPMOST, SW_HIDE, SW_SHOWNOACTIVATE,
    SWP_FRAMECHANGED, SWP_NOACTIVATE, SWP_NOMOVE, SWP_NOSIZE, SWP_SHOWWINDOW, SetForegroundWindow, SetWindowLongPtrW,
    SetWindowPos, ShowWindow, WINDOW_EX_STYLE, WINDOW_STYLE, WM_APP, WM_DISPLAYCHANGE, WS_CLIPCHILDREN,
    WS_CLIPSIBLINGS, WS_EX_LAYERED, WS_EX_NOACTIVATE, WS_EX_TOOLWINDOW, WS_EX_TOPMOST, WS_POPUP,
};
use windows::core::w;
use winit::window::Window;

/// Makes `window`, not yet shown, the bar's kind of window; a layered one
/// when it is see-through (see `layered`).
pub fn make_bar(window: &Window, see_through: bool) -> anyhow::Result<()> {
    let mut extended = WS_EX_TOOLWINDOW | WS_EX_TOPMOST | WS_EX_NOACTIVATE;
    if see_through {
        extended |= WS_EX_LAYERED;
    }
    set_styles(window, WS_POPUP | WS_CLIPSIBLINGS | WS_CLIPCHILDREN, extended)
}

/// Makes `window`, not yet shown, a window beside the bar, of the bar's
/// kind: a tooltip never takes the focus; a popup (`takes_focus`) takes it
/// when shown, so that a click anywhere else, which takes the focus from
/// it, and Escape, which reaches it as a key, close it.
pub fn make_aside(window: &Window, takes_focus: bool) -> anyhow::Result<()> {
    let mut extended = WS_EX_TOOLWINDOW | WS_EX_TOPMOST;
    if !takes_focus {
        extended |= WS_EX_NOACTIVATE;
    }
    set_styles(window, WS_POPUP | WS_CLIPSIBLINGS, extended)
}

fn set_styles(window: &Window, style: WINDOW_STYLE, extended: WINDOW_EX_STYLE) -> anyhow::Result<()> {
    let hwnd = hwnd(window)?;
    // SAFETY: `hwnd` is the live window winit made on this thread.
    unsafe {
        SetWindowLongPtrW(hwnd, GWL_STYLE, style.0 as isize);
        SetWindowLongPtrW(hwnd, GWL_EXSTYLE, extended.0 as isize);
        SetWindowPos(
            hwnd,
            Some(HWND_TOPMOST),
            0,
            0,
            0,
            0,
            SWP_NOMOVE | SWP_NOSIZE | SWP_NOACTIVATE | SWP_FRAMECHANGED,
        )?;
    }
    Ok(())
}

/// Shows a window beside the bar at `rect`, above every other, giving it
/// the focus when `activate`. Moved and sized here in one step, not
/// through winit, which would size the frame its own styles have.
pub fn show_aside_at(window: &Window, rect: ScreenRect, activate: bool) {
    let Ok(hwnd) = hwnd(window) else { return };
    let mut flags = SWP_SHOWWINDOW;
    if !activate {
        flags |= SWP_NOACTIVATE;
    }
    let (width, height) = (rect.width as i32, rect.height as i32);
    // SAFETY: `hwnd` is the live window winit made on this thread.
    unsafe {
        if let Err(error) = SetWindowPos(hwnd, Some(HWND_TOPMOST), rect.x, rect.y, width, height, flags) {
            tracing::warn!("placing a window beside the bar: {error}");
        }
        // Windows lets the process the user's last input went to (the
        // press that opened the popup went to the bar) take the foreground.
        if activate && !SetForegroundWindow(hwnd).as_bool() {
            tracing::warn!("the popup did not get the focus: a click elsewhere will not close it");
        }
    }
}

/// Makes the bar's `window` the foreground window, which has the
/// keyboard; the window that had it, to give it back to.
pub fn take_foreground(window: &Window) -> anyhow::Result<Option<HWND>> {
    let hwnd = hwnd(window)?;
    // SAFETY: `hwnd` is the live window winit made on this thread; the
    // foreground window is only read.
    unsafe {
        let previous = GetForegroundWindow();
        // Windows gives the foreground to the process the user's last input
        // went to, or one that process allows (`obi msg focus` does).
        anyhow::ensure!(SetForegroundWindow(hwnd).as_bool(), "Windows kept the keyboard with another window");
        Ok((!previous.is_invalid() && previous != hwnd).then_some(previous))
    }
}

/// Gives the foreground back to `window`, if it still is one.
pub fn give_foreground(window: HWND) {
    // SAFETY: a window that is gone is refused, not touched.
    unsafe {
        let _ = SetForegroundWindow(window);
    }
}

/// Shows `window` without activating it, or hides it.
pub fn show(window: &Window, visible: bool) {
    let Ok(hwnd) = hwnd(window) else { return };
    // SAFETY: `hwnd` is the live window winit made on this thread.
    unsafe {
        let _ = ShowWindow(hwnd, if visible { SW_SHOWNOACTIVATE } else { SW_HIDE });
    }
}

fn hwnd(window: &Window) -> anyhow::Result<HWND> {
    match window.window_handle()?.as_raw() {
        RawWindowHandle::Win32(handle) => Ok(HWND(handle.hwnd.get() as *mut _)),
        other => anyhow::bail!("a window on Windows has a {other:?} handle"),
    }
}

/// The message Windows sends the bar about its AppBar.
const APPBAR_NOTICE: u32 = WM_APP + 1;
/// The bar's window's subclass that hears [`APPBAR_NOTICE`] (winit passes
/// on no message it does not know).
const APPBAR_SUBCLASS: usize = 1;

/// The bar registered as an AppBar on its monitor's edge, until dropped.
pub struct AppBar {
    hwnd: HWND,
}

impl AppBar {
    /// Registers `window` as an AppBar keeping `rect` free, on the top or
    /// bottom edge of `monitor`, whichever it is nearer.
    pub fn register(window: &Window, rect: ScreenRect, monitor: ScreenRect) -> anyhow::Result<AppBar> {
        let hwnd = hwnd(window)?;
        let mut data = appbar_data(hwnd);
        data.uCallbackMessage = APPBAR_NOTICE;
        // SAFETY: `data` is a whole APPBARDATA of a live window, for the call's length.
        if unsafe { SHAppBarMessage(ABM_NEW, &mut data) } == 0 {
            anyhow::bail!("Windows did not take the bar as an AppBar");
        }
        // SAFETY: a subclass of this thread's window, with no data; removed on drop.
        if !unsafe { SetWindowSubclass(hwnd, Some(appbar_notices), APPBAR_SUBCLASS, 0) }.as_bool() {
            tracing::warn!("the bar will not step behind programs that go full screen");
        }
        let appbar = AppBar { hwnd };
        appbar.keep(rect, monitor);
        Ok(appbar)
    }

    /// Keeps `rect` free from now on.
    pub fn keep(&self, rect: ScreenRect, monitor: ScreenRect) {
        let mut data = appbar_data(self.hwnd);
        let middle = monitor.y + monitor.height as i32 / 2;
        data.uEdge = if rect.y + rect.height as i32 / 2 > middle { ABE_BOTTOM } else { ABE_TOP };
        data.rc =
            RECT { left: rect.x, top: rect.y, right: rect.x + rect.width as i32, bottom: rect.y + rect.height as i32 };
        // SAFETY: as in `register`.
        unsafe { SHAppBarMessage(ABM_SETPOS, &mut data) };
    }
}

impl Drop for AppBar {
    fn drop(&mut self) {
        let mut data = appbar_data(self.hwnd);
        // SAFETY: as in `register`; the window outlives its AppBar.
        unsafe {
            SHAppBarMessage(ABM_REMOVE, &mut data);
            let _ = RemoveWindowSubclass(self.hwnd, Some(appbar_notices), APPBAR_SUBCLASS);
            // Back on top: a program may have left it behind.
            let _ = restack(self.hwnd, HWND_TOPMOST);
        }
    }
}

/// What Windows tells the bar as an AppBar: a program went full screen
/// (`lparam` true) or left it. Other notices (another AppBar moved) leave
/// the bar where its config puts it.
unsafe extern "system" fn appbar_notices(
    window: HWND,
    message: u32,
    wparam: WPARAM,
    lparam: LPARAM,
    _: usize,
    _: usize,
) -> LRESULT {
    if message == APPBAR_NOTICE && wparam.0 as u32 == ABN_FULLSCREENAPP {
        // At the bottom a top-most window is top-most no more.
        let place = if lparam.0 != 0 { HWND_BOTTOM } else { HWND_TOPMOST };
        if let Err(error) = restack(window, place) {
            tracing::warn!("the bar did not make way for a full-screen program: {error}");
        }
        return LRESULT(0);
    }
    // SAFETY: the window's own handling of its other messages.
    unsafe { DefSubclassProc(window, message, wparam, lparam) }
}

/// Moves `window` in the z-order alone, after `after` (HWND_TOPMOST: first
/// of all; HWND_BOTTOM: last, and top-most no more).
fn restack(window: HWND, after: HWND) -> windows::core::Result<()> {
    // SAFETY: moves a window of this thread, neither moving nor sizing nor activating it.
    unsafe { SetWindowPos(window, Some(after), 0, 0, 0, 0, SWP_NOMOVE | SWP_NOSIZE | SWP_NOACTIVATE) }
}

fn appbar_data(hwnd: HWND) -> APPBARDATA {
    APPBARDATA { cbSize: size_of::<APPBARDATA>() as u32, hWnd: hwnd, ..APPBARDATA::default() }
}

/// Calls `changed` on a thread of its own each time the monitors change.
pub fn watch_monitors(changed: impl Fn() + Send + 'static) -> anyhow::Result<()> {
    let (started, start) = std::sync::mpsc::channel();
    std::thread::Builder::new().name("obi-monitors".into()).spawn(move || {
        // Boxed twice: the window keeps a thin pointer to it.
        let mut changed: Box<dyn Fn()> = Box::new(changed);
        // `changed` outlives the window's messages, all served below.
        let made = hidden_window::make(w!("ObiMonitors"), Some(display_changes), &raw mut changed);
        let made = made.map(|_| ());
        let ready = made.is_ok();
        let _ = started.send(made);
        if ready {
            hidden_window::serve_messages();
        }
    })?;
    start.recv().unwrap_or_else(|_| Err(anyhow::anyhow!("the monitors' thread ended")))
}

extern "system" fn display_changes(window: HWND, message: u32, wparam: WPARAM, lparam: LPARAM) -> LRESULT {
    if message == WM_DISPLAYCHANGE {
        // SAFETY: `watch_monitors` gave the window its callback, which
        // lives while the window's messages are served, on this thread.
        if let Some(changed) = unsafe { hidden_window::state_of::<Box<dyn Fn()>>(window) } {
            changed();
        }
    }
    // SAFETY: the default handling of the hidden window's messages.
    unsafe { DefWindowProcW(window, message, wparam, lparam) }
}

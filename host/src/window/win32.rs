//! The bar's window as Windows should have it: a tool window (no taskbar
//! button, and no tile for komorebi, which leaves tool windows alone),
//! without a frame or caption, above other windows and never taking the
//! focus from them. winit writes a window's styles again whenever it shows
//! or hides it, so the bar is shown and hidden here, not through winit.
//! Where no tiler keeps the bar's space (komorebi does, for a
//! `work_area_offset`), the bar is an AppBar, as the taskbar is: Windows
//! leaves its rectangle out of its monitor's work area. Monitors that
//! come, go or change mode are told by `WM_DISPLAYCHANGE`, which Windows
//! sends to top-level windows (winit does not pass it on): a hidden one on
//! a thread of its own listens.

use crate::bar::ScreenRect;
use raw_window_handle::{HasWindowHandle, RawWindowHandle};
use windows::Win32::Foundation::{HWND, LPARAM, LRESULT, RECT, WPARAM};
use windows::Win32::UI::Shell::{ABE_BOTTOM, ABE_TOP, ABM_NEW, ABM_REMOVE, ABM_SETPOS, APPBARDATA, SHAppBarMessage};
use windows::Win32::UI::WindowsAndMessaging::{
    CreateWindowExW, DefWindowProcW, DispatchMessageW, GWL_EXSTYLE, GWL_STYLE, GWLP_USERDATA, GetMessageW,
    GetWindowLongPtrW, HWND_TOPMOST, MSG, RegisterClassExW, SW_HIDE, SW_SHOWNOACTIVATE, SWP_FRAMECHANGED,
    SWP_NOACTIVATE, SWP_NOMOVE, SWP_NOSIZE, SetWindowLongPtrW, SetWindowPos, ShowWindow, WM_APP, WM_DISPLAYCHANGE,
    WNDCLASSEXW, WS_CLIPCHILDREN, WS_CLIPSIBLINGS, WS_EX_NOACTIVATE, WS_EX_TOOLWINDOW, WS_EX_TOPMOST, WS_POPUP,
};
use windows::core::w;
use winit::window::Window;

/// Makes `window`, not yet shown, the bar's kind of window.
pub fn make_bar(window: &Window) -> anyhow::Result<()> {
    let hwnd = hwnd(window)?;
    let style = WS_POPUP | WS_CLIPSIBLINGS | WS_CLIPCHILDREN;
    let extended = WS_EX_TOOLWINDOW | WS_EX_TOPMOST | WS_EX_NOACTIVATE;
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

/// The bar registered as an AppBar on its monitor's edge, until dropped.
pub struct AppBar {
    hwnd: HWND,
}

impl AppBar {
    /// Registers `window` as an AppBar keeping `rect` free, on the top or
    /// bottom edge of `monitor`, whichever it is nearer.
    pub fn register(window: &Window, rect: ScreenRect, monitor: ScreenRect) -> anyhow::Result<AppBar> {
        let hwnd = hwnd(window)?;
        // The notifications Windows sends with this message (another
        // AppBar moved) are not needed: the bar's rectangle is its own.
        let mut data = appbar_data(hwnd);
        data.uCallbackMessage = WM_APP + 1;
        // SAFETY: `data` is a whole APPBARDATA of a live window, for the call's length.
        if unsafe { SHAppBarMessage(ABM_NEW, &mut data) } == 0 {
            anyhow::bail!("Windows did not take the bar as an AppBar");
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
        unsafe { SHAppBarMessage(ABM_REMOVE, &mut data) };
    }
}

fn appbar_data(hwnd: HWND) -> APPBARDATA {
    APPBARDATA { cbSize: size_of::<APPBARDATA>() as u32, hWnd: hwnd, ..APPBARDATA::default() }
}

/// Calls `changed` on a thread of its own each time the monitors change.
pub fn watch_monitors(changed: impl Fn() + Send + 'static) -> anyhow::Result<()> {
    let (started, start) = std::sync::mpsc::channel();
    std::thread::Builder::new().name("obi-monitors".into()).spawn(move || {
        let changed: Box<dyn Fn()> = Box::new(changed);
        match hidden_window(&changed) {
            Ok(()) => {
                let _ = started.send(Ok(()));
                let mut message = MSG::default();
                // SAFETY: the message loop of this thread's hidden window.
                while unsafe { GetMessageW(&mut message, None, 0, 0) }.as_bool() {
                    unsafe { DispatchMessageW(&message) };
                }
            }
            Err(error) => {
                let _ = started.send(Err(error));
            }
        }
    })?;
    start.recv().unwrap_or_else(|_| Err(anyhow::anyhow!("the monitors' thread ended")))
}

/// The hidden top-level window told of display changes, which calls
/// `changed` for each: it must outlive the window's messages.
fn hidden_window(changed: &Box<dyn Fn()>) -> anyhow::Result<()> {
    let class = WNDCLASSEXW {
        cbSize: size_of::<WNDCLASSEXW>() as u32,
        lpfnWndProc: Some(display_changes),
        lpszClassName: w!("ObiMonitors"),
        ..WNDCLASSEXW::default()
    };
    // SAFETY: the class names a procedure of this module and a static name;
    // the window is this thread's, never shown.
    let window = unsafe {
        RegisterClassExW(&class);
        CreateWindowExW(WS_EX_TOOLWINDOW, w!("ObiMonitors"), w!(""), WS_POPUP, 0, 0, 0, 0, None, None, None, None)?
    };
    // SAFETY: the caller keeps `changed` while the window's messages are handled.
    unsafe { SetWindowLongPtrW(window, GWLP_USERDATA, std::ptr::from_ref(changed) as isize) };
    Ok(())
}

extern "system" fn display_changes(window: HWND, message: u32, wparam: WPARAM, lparam: LPARAM) -> LRESULT {
    if message == WM_DISPLAYCHANGE {
        // SAFETY: set by `hidden_window` to the callback that
        // outlives this window's messages, read on its thread.
        if let Some(changed) = unsafe { (GetWindowLongPtrW(window, GWLP_USERDATA) as *const Box<dyn Fn()>).as_ref() } {
            changed();
        }
    }
    // SAFETY: the default handling of the hidden window's messages.
    unsafe { DefWindowProcW(window, message, wparam, lparam) }
}

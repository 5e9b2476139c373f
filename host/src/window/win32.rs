//! The bar's window as Windows should have it: a tool window (no taskbar
//! button, and no tile for komorebi, which leaves tool windows alone),
//! without a frame or caption, above other windows and never taking the
//! focus from them. winit writes a window's styles again whenever it shows
//! or hides it, so the bar is shown and hidden here, not through winit.

use raw_window_handle::{HasWindowHandle, RawWindowHandle};
use windows::Win32::Foundation::HWND;
use windows::Win32::UI::WindowsAndMessaging::{
    GWL_EXSTYLE, GWL_STYLE, HWND_TOPMOST, SW_HIDE, SW_SHOWNOACTIVATE, SWP_FRAMECHANGED, SWP_NOACTIVATE, SWP_NOMOVE,
    SWP_NOSIZE, SetWindowLongPtrW, SetWindowPos, ShowWindow, WS_CLIPCHILDREN, WS_CLIPSIBLINGS, WS_EX_NOACTIVATE,
    WS_EX_TOOLWINDOW, WS_EX_TOPMOST, WS_POPUP,
};
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

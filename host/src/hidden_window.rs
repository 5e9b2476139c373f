//! Windows' hidden windows: a top-level window of a class of Obi's own that
//! nobody sees, made to hear what Windows tells such windows (the tray's
//! notifications, display changes), with the state its procedure reads
//! kept in the window, and the loop that serves its messages on the thread
//! that made it.

use anyhow::Context;
use windows::Win32::Foundation::HWND;
use windows::Win32::UI::WindowsAndMessaging::{
    CreateWindowExW, DispatchMessageW, GWLP_USERDATA, GetMessageW, GetWindowLongPtrW, MSG, RegisterClassExW,
    SetWindowLongPtrW, WNDCLASSEXW, WNDPROC, WS_EX_TOOLWINDOW, WS_POPUP,
};
use windows::core::{PCWSTR, w};

/// A hidden window of the class `class`, registered here, whose messages
/// go to `procedure`, carrying `state` for it ([`state_of`]). The caller
/// keeps `state` alive, unmoved, while the window's messages are served.
pub fn make<T>(class: PCWSTR, procedure: WNDPROC, state: *mut T) -> anyhow::Result<HWND> {
    let description = WNDCLASSEXW {
        cbSize: size_of::<WNDCLASSEXW>() as u32,
        lpfnWndProc: procedure,
        lpszClassName: class,
        ..WNDCLASSEXW::default()
    };
    // SAFETY: the class names a procedure and a static name; the window is
    // this thread's, never shown; `state` is the caller's to keep.
    unsafe {
        if RegisterClassExW(&description) == 0 {
            let name = class.to_string().unwrap_or_default();
            anyhow::bail!("the window class {name} is taken: {}", windows::core::Error::from_thread());
        }
        let window = CreateWindowExW(WS_EX_TOOLWINDOW, class, w!(""), WS_POPUP, 0, 0, 0, 0, None, None, None, None)
            .context("making a hidden window")?;
        SetWindowLongPtrW(window, GWLP_USERDATA, state as isize);
        Ok(window)
    }
}

/// The state [`make`] gave `window`; none before it was given.
///
/// # Safety
/// `T` is the type given to [`make`], and the state is still alive.
pub unsafe fn state_of<'a, T>(window: HWND) -> Option<&'a mut T> {
    // SAFETY: as the caller promises.
    unsafe { (GetWindowLongPtrW(window, GWLP_USERDATA) as *mut T).as_mut() }
}

/// Serves this thread's windows' messages until it is told to quit.
pub fn serve_messages() {
    let mut message = MSG::default();
    // SAFETY: the message loop of this thread's windows.
    while unsafe { GetMessageW(&mut message, None, 0, 0) }.as_bool() {
        unsafe { DispatchMessageW(&message) };
    }
}

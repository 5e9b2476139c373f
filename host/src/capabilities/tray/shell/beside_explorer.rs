//! The tray's window beside Explorer's taskbar. `Shell_NotifyIcon` and
//! `SHAppBarMessage` send to the first `Shell_TrayWnd` they find, top-most
//! first, and Explorer's is top-most too: the tray's window puts itself in
//! front when it is made, when a taskbar announces itself (`TaskbarCreated`,
//! as Explorer does when it starts again) and whenever another window comes
//! to the foreground or takes the focus (a click on the taskbar brings
//! Explorer's forward).
//! What it is sent it hands on to the other taskbar, with that one's
//! answer: AppBars (komorebi-bar's, Obi's own) are Explorer's to keep, and
//! Explorer's own tray keeps its icons.

use std::cell::Cell;
use windows::Win32::Foundation::{HWND, LPARAM, LRESULT, WPARAM};
use windows::Win32::UI::Accessibility::{HWINEVENTHOOK, SetWinEventHook};
use windows::Win32::UI::WindowsAndMessaging::{
    EVENT_OBJECT_FOCUS, EVENT_SYSTEM_FOREGROUND, FindWindowExW, HWND_TOPMOST, SMTO_ABORTIFHUNG, SWP_NOACTIVATE,
    SWP_NOMOVE, SWP_NOSIZE, SendMessageTimeoutW, SetWindowPos, WINEVENT_OUTOFCONTEXT, WINEVENT_SKIPOWNPROCESS,
};
use windows::core::w;

/// How long a hung taskbar may keep a program's message waiting.
const ANSWER_WITHIN_MS: u32 = 1000;

thread_local! {
    /// The tray's window, on the thread that serves it.
    static OURS: Cell<Option<isize>> = const { Cell::new(None) };
    /// A message is being handed on: one handed back (another Obi's tray
    /// beside this one) is answered here, not handed on again.
    static HANDING_ON: Cell<bool> = const { Cell::new(false) };
}

/// Puts `window` in front of the other taskbars, now and from now on. On
/// the thread that serves `window`'s messages.
pub fn stay_in_front(window: HWND) {
    OURS.set(Some(window.0 as isize));
    come_forward(window);
    // Windows tells a new foreground window; Wine 8 tells only the focus,
    // which moves with it.
    let hooked = [EVENT_SYSTEM_FOREGROUND, EVENT_OBJECT_FOCUS].map(|event| {
        // SAFETY: an out-of-context hook, called on this thread while it
        // serves messages, for as long as the thread lives.
        unsafe {
            SetWinEventHook(
                event,
                event,
                None,
                Some(foreground_changed),
                0,
                0,
                WINEVENT_OUTOFCONTEXT | WINEVENT_SKIPOWNPROCESS,
            )
        }
    });
    if hooked.iter().all(HWINEVENTHOOK::is_invalid) {
        tracing::warn!("the tray cannot follow the foreground: Explorer's taskbar may take icons when it is clicked");
    }
}

/// Puts `window` first among the top-most windows again.
pub fn come_forward(window: HWND) {
    // SAFETY: moves a window of this thread in the z-order alone.
    if let Err(error) =
        unsafe { SetWindowPos(window, Some(HWND_TOPMOST), 0, 0, 0, 0, SWP_NOMOVE | SWP_NOSIZE | SWP_NOACTIVATE) }
    {
        tracing::debug!("the tray's window did not come forward: {error}");
    }
}

extern "system" fn foreground_changed(_: HWINEVENTHOOK, _: u32, _: HWND, _: i32, _: i32, _: u32, _: u32) {
    if let Some(ours) = OURS.get() {
        come_forward(HWND(ours as *mut _));
    }
}

/// Hands `message` on to the other taskbar and gives its answer; none when
/// there is none, it did not answer in time, or this is a message handed
/// back.
pub fn hand_on(message: u32, wparam: WPARAM, lparam: LPARAM) -> Option<LRESULT> {
    let ours = HWND(OURS.get()? as *mut _);
    if HANDING_ON.get() {
        return None;
    }
    let other = other_taskbar(ours)?;
    HANDING_ON.set(true);
    let mut answer = 0usize;
    // SAFETY: a message (WM_COPYDATA's data is copied across) sent with a
    // bound on the wait; while it waits, this thread answers what it is sent.
    let sent = unsafe {
        SendMessageTimeoutW(other, message, wparam, lparam, SMTO_ABORTIFHUNG, ANSWER_WITHIN_MS, Some(&mut answer))
    };
    HANDING_ON.set(false);
    (sent.0 != 0).then_some(LRESULT(answer as isize))
}

/// The first `Shell_TrayWnd` that is not `ours`.
fn other_taskbar(ours: HWND) -> Option<HWND> {
    let mut after = None;
    loop {
        // SAFETY: looks windows up by class; fails when none is left.
        let found = unsafe { FindWindowExW(None, after, w!("Shell_TrayWnd"), None) }.ok()?;
        if found != ours {
            return Some(found);
        }
        after = Some(found);
    }
}

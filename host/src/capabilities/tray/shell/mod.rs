//! The tray on Windows: Obi hosts the notification icons itself, as the
//! taskbar does. A hidden window of the taskbar's class (`Shell_TrayWnd`)
//! takes what programs send with `Shell_NotifyIcon` ([`notification`]);
//! once it is there, every program is told the taskbar was made again
//! (`TaskbarCreated`), so that those running add their icons to it. Items
//! are keyed by their GUID, else by their window and number; an item whose
//! window is gone goes at a sweep. Clicks are the icon's callback message,
//! posted to its window as the taskbar posts it, in the form its version
//! asks for. The window, and everything it holds, lives on the following
//! thread; the widgets' requests reach it as a posted message. Beside
//! Explorer's taskbar it keeps in front and hands on what it is sent
//! ([`beside_explorer`]).

#[cfg(windows)]
mod beside_explorer;
#[cfg(windows)]
mod host;
pub mod notification;

#[cfg(windows)]
pub use host::follow;

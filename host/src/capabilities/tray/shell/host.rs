//! The tray's window on Windows, its notifications and its clicks.

use super::beside_explorer;
use super::notification::{
    self, Icon, Message, NIF_GUID, NIF_ICON, NIF_MESSAGE, NIF_STATE, NIF_TIP, NIS_HIDDEN, Notification,
};
use crate::capabilities::tray::follow::Request;
use crate::capabilities::tray::icons::HeldIcons;
use crate::capabilities::tray::{ItemStatus, TrayAction, TrayItem};
use crate::hidden_window;
use crate::sync::lock;
use crate::view::Pixels;
use crate::view::images::HeldImages;
use crate::view::program_icons;
use crate::wake::Pushed;
use anyhow::Context;
use std::collections::{HashSet, VecDeque};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use windows::Win32::Foundation::{CloseHandle, HWND, LPARAM, LRESULT, WPARAM};
use windows::Win32::System::DataExchange::COPYDATASTRUCT;
use windows::Win32::System::Threading::{
    OpenProcess, PROCESS_NAME_WIN32, PROCESS_QUERY_LIMITED_INFORMATION, QueryFullProcessImageNameW,
};
use windows::Win32::UI::WindowsAndMessaging::{
    AllowSetForegroundWindow, DefWindowProcW, GetWindowThreadProcessId, HICON, HWND_BROADCAST, IsWindow, PostMessageW,
    RegisterWindowMessageW, SendNotifyMessageW, WM_APP, WM_CONTEXTMENU, WM_COPYDATA, WM_LBUTTONDOWN, WM_LBUTTONUP,
    WM_MBUTTONDOWN, WM_MBUTTONUP, WM_RBUTTONDOWN, WM_RBUTTONUP,
};
use windows::core::w;

/// Posted to the tray's window when a widget's request is waiting.
const WM_REQUEST: u32 = WM_APP + 1;
/// `NIN_SELECT`: what a version 4 icon is told after a click.
const NIN_SELECT: u32 = 0x400;
/// The version from which the callback message carries the icon's number
/// with the mouse message, and the pointer's place in `wParam`.
const VERSION_4: u32 = 4;

/// Hosts the tray until the bar ends.
pub fn follow(items: &Pushed<Vec<TrayItem>>, images: &HeldImages, requests: Receiver<Request>) {
    if let Err(error) = host(items, images, requests) {
        tracing::warn!("the tray cannot be hosted: {error:#}");
    }
    items.publish(Vec::new());
}

/// One icon, as its program last described it.
struct Entry {
    key: String,
    window: u32,
    id: u32,
    callback_message: u32,
    version: u32,
    tip: String,
    hidden: bool,
    guid: String,
    exe: String,
    icon: Option<u64>,
}

/// What the tray's window holds, on the following thread.
struct Host<'a> {
    items: &'a Pushed<Vec<TrayItem>>,
    icons: HeldIcons,
    entries: Vec<Entry>,
    requests: Arc<Mutex<VecDeque<Request>>>,
    /// `TaskbarCreated`, which a taskbar broadcasts when it is made.
    taskbar_created: u32,
}

fn host(items: &Pushed<Vec<TrayItem>>, images: &HeldImages, requests: Receiver<Request>) -> anyhow::Result<()> {
    let waiting = Arc::new(Mutex::new(VecDeque::new()));
    // SAFETY: registers a message name.
    let taskbar_created = unsafe { RegisterWindowMessageW(w!("TaskbarCreated")) };
    let mut host = Host {
        items,
        icons: HeldIcons::new("tray icon", images.clone()),
        entries: Vec::new(),
        requests: waiting.clone(),
        taskbar_created,
    };
    // `host` outlives the window's messages: they are all served below,
    // before it ends.
    let window = hidden_window::make(w!("Shell_TrayWnd"), Some(window_procedure), &raw mut host)
        .context("the taskbar's window")?;
    beside_explorer::stay_in_front(window);
    let address = window.0 as isize;
    std::thread::Builder::new().name("obi-tray-requests".into()).spawn(move || {
        for request in requests {
            lock(&waiting).push_back(request);
            // SAFETY: posting to a window is allowed from any thread; one gone fails.
            if unsafe { PostMessageW(Some(HWND(address as *mut _)), WM_REQUEST, WPARAM(0), LPARAM(0)) }.is_err() {
                return;
            }
        }
    })?;
    items.publish(Vec::new());
    // SAFETY: a broadcast message registered by name, sent without waiting.
    unsafe { SendNotifyMessageW(HWND_BROADCAST, taskbar_created, WPARAM(0), LPARAM(0))? };
    hidden_window::serve_messages();
    Ok(())
}

extern "system" fn window_procedure(window: HWND, message: u32, wparam: WPARAM, lparam: LPARAM) -> LRESULT {
    // SAFETY: `host` gave the window its `Host`, which lives while the
    // window's messages are served, on this thread.
    let host = unsafe { hidden_window::state_of::<Host>(window) };
    match (message, host) {
        (WM_COPYDATA, Some(host)) => {
            // SAFETY: WM_COPYDATA's lParam is a COPYDATASTRUCT whose data
            // is `cbData` bytes, valid while the message is handled.
            let (kind, bytes) = unsafe {
                let data = &*(lparam.0 as *const COPYDATASTRUCT);
                let bytes = match data.lpData.is_null() {
                    true => &[][..],
                    false => std::slice::from_raw_parts(data.lpData as *const u8, data.cbData as usize),
                };
                (data.dwData, bytes)
            };
            let taken = notification::read(kind, bytes).is_some_and(|notification| host.take(notification));
            // `host` is not touched past here: handing on answers what is
            // sent meanwhile, on this thread.
            let answered = beside_explorer::hand_on(message, wparam, lparam);
            match taken {
                true => LRESULT(1),
                false => answered.unwrap_or_default(),
            }
        }
        (_, Some(host)) if message == host.taskbar_created => {
            beside_explorer::come_forward(window);
            LRESULT(0)
        }
        (WM_REQUEST, Some(host)) => {
            let waiting: Vec<Request> = lock(&host.requests).drain(..).collect();
            for request in waiting {
                host.obey(request);
            }
            LRESULT(0)
        }
        // SAFETY: the default handling of this window's other messages.
        _ => unsafe { DefWindowProcW(window, message, wparam, lparam) },
    }
}

impl Host<'_> {
    /// Applies `notification`; whether it was taken.
    fn take(&mut self, notification: Notification) -> bool {
        let key = match notification.flags & NIF_GUID {
            0 => format!("{:x}:{}", notification.window, notification.id),
            _ => notification::guid_text(&notification.guid),
        };
        let at = self.entries.iter().position(|entry| entry.key == key);
        let taken = match (notification.message, at) {
            (Message::Add, None) => {
                let entry = Entry {
                    key: key.clone(),
                    window: notification.window,
                    id: notification.id,
                    callback_message: 0,
                    version: 0,
                    tip: String::new(),
                    hidden: false,
                    guid: String::new(),
                    exe: exe_of(notification.window),
                    icon: None,
                };
                tracing::info!("tray icon added by {} ({key})", entry.exe);
                self.entries.push(entry);
                self.update(self.entries.len() - 1, &notification);
                true
            }
            (Message::Add | Message::Modify, Some(at)) => {
                self.update(at, &notification);
                true
            }
            (Message::SetVersion, Some(at)) => {
                self.entries[at].version = notification.version;
                true
            }
            (Message::Delete, Some(at)) => {
                self.entries.remove(at);
                true
            }
            (Message::SetFocus, Some(_)) => true,
            (_, None) => false,
        };
        if taken {
            self.publish();
        }
        taken
    }

    fn update(&mut self, at: usize, notification: &Notification) {
        let flags = notification.flags;
        let entry = &mut self.entries[at];
        if flags & NIF_MESSAGE != 0 {
            entry.callback_message = notification.callback_message;
        }
        if flags & NIF_TIP != 0 {
            entry.tip = notification.tip.clone();
        }
        if flags & NIF_STATE != 0 && notification.state_mask & NIS_HIDDEN != 0 {
            entry.hidden = notification.state & NIS_HIDDEN != 0;
        }
        if flags & NIF_GUID != 0 {
            entry.guid = notification::guid_text(&notification.guid);
        }
        if flags & NIF_ICON != 0 {
            let pixels = notification.icon.as_ref().and_then(pixels);
            entry.icon = self.icons.set(&entry.key, pixels);
        }
    }

    fn publish(&mut self) {
        let alive: HashSet<String> = self.entries.iter().map(|entry| entry.key.clone()).collect();
        self.icons.keep_only(&alive);
        let items = self
            .entries
            .iter()
            .filter(|entry| !entry.hidden)
            .map(|entry| TrayItem {
                key: entry.key.clone(),
                id: entry.guid.clone(),
                title: entry.tip.clone(),
                exe: entry.exe.clone(),
                status: ItemStatus::Active,
                icon: entry.icon,
                tooltip: entry.tip.clone(),
                menu: Vec::new(),
                item_is_menu: false,
            })
            .collect();
        self.items.publish(items);
    }

    fn obey(&mut self, request: Request) {
        match request {
            Request::Sweep => {
                let before = self.entries.len();
                // SAFETY: asks whether a window handle still names a window.
                self.entries.retain(|entry| unsafe { IsWindow(Some(handle(entry.window))) }.as_bool());
                if self.entries.len() != before {
                    self.publish();
                }
            }
            Request::Act(key, action) => {
                let Some(entry) = self.entries.iter().find(|entry| entry.key == key) else { return };
                if let Err(error) = click(entry, &action) {
                    tracing::warn!("the tray icon of {} did not take {action:?}: {error}", entry.exe);
                }
            }
        }
    }
}

/// Posts the mouse messages a click on `entry` makes, as the taskbar does.
fn click(entry: &Entry, action: &TrayAction) -> windows::core::Result<()> {
    let presses: &[u32] = match action {
        TrayAction::Activate => &[WM_LBUTTONDOWN, WM_LBUTTONUP],
        TrayAction::SecondaryActivate => &[WM_MBUTTONDOWN, WM_MBUTTONUP],
        TrayAction::ContextMenu => &[WM_RBUTTONDOWN, WM_RBUTTONUP],
        TrayAction::Scroll { .. } | TrayAction::MenuChosen(_) => return Ok(()),
    };
    let window = handle(entry.window);
    // The program may bring a window or its menu to the front.
    let mut process = 0;
    // SAFETY: reads the process of a window handle into a local.
    unsafe {
        GetWindowThreadProcessId(window, Some(&mut process));
        let _ = AllowSetForegroundWindow(process);
    }
    let follow_up = match action {
        TrayAction::ContextMenu => WM_CONTEXTMENU,
        _ => NIN_SELECT,
    };
    let version_4 = entry.version >= VERSION_4;
    let sent = presses.iter().copied().chain(version_4.then_some(follow_up));
    for mouse in sent {
        let (wparam, lparam) = match version_4 {
            true => (0, ((entry.id as usize) << 16) | mouse as usize),
            false => (entry.id as usize, mouse as usize),
        };
        // SAFETY: posting to another program's window; one gone fails.
        unsafe { PostMessageW(Some(window), entry.callback_message, WPARAM(wparam), LPARAM(lparam as isize)) }?;
    }
    Ok(())
}

fn handle(window: u32) -> HWND {
    // Window handles are 32 bits wide across processes, whatever their size.
    HWND(window as usize as *mut _)
}

/// The file name of the program that owns `window` ("Discord.exe").
fn exe_of(window: u32) -> String {
    let mut process = 0;
    let mut path = [0u16; 1024];
    let mut length = path.len() as u32;
    // SAFETY: reads into locals; the process handle is closed before returning.
    let read = unsafe {
        GetWindowThreadProcessId(handle(window), Some(&mut process));
        OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, false, process).and_then(|opened| {
            let named = QueryFullProcessImageNameW(
                opened,
                PROCESS_NAME_WIN32,
                windows::core::PWSTR(path.as_mut_ptr()),
                &mut length,
            );
            let _ = CloseHandle(opened);
            named
        })
    };
    match read {
        Ok(()) => {
            let full = String::from_utf16_lossy(&path[..length as usize]);
            full.rsplit(['\\', '/']).next().unwrap_or(&full).to_owned()
        }
        Err(_) => String::new(),
    }
}

/// An icon's pixels: sent along (Wine), or read from its handle (Windows).
fn pixels(icon: &Icon) -> Option<Pixels> {
    match icon {
        Icon::Bits { width, height, bits_per_pixel, mask, colour } => {
            let rgba = notification::rgba(*width, *height, *bits_per_pixel, mask, colour)?;
            Some(Pixels { width: *width, height: *height, rgba })
        }
        Icon::Handle(handle) => program_icons::pixels_of(HICON(*handle as usize as *mut _)),
    }
}

//! The `tray` capability: the desktop's status icons, as Obi hosts them:
//! on Windows the notification icons programs add with `Shell_NotifyIcon`
//! (`shell`); elsewhere StatusNotifierItems over the D-Bus session bus. Obi registers as a
//! StatusNotifierHost, and runs the StatusNotifierWatcher itself when no one
//! else does (`watcher`); threads of its own follow the items and their
//! menus (`follow`), read each item on a thread of its own (`items`) and
//! push the list to the widgets that read it. Icons
//! (the item's pixmaps, or its icon name looked up in the icon theme) are
//! held by the host and reach widgets as handles (`icons`). Clicks, scrolls
//! and menu choices go to the items from a thread of their own, so an item
//! that hangs holds up nobody.
//!
//! The threads start at the first reading: a bar without a Systray widget
//! opens no bus connection.

mod follow;
pub(crate) mod icons;
mod items;
mod menu;
#[cfg(any(windows, test))]
mod shell;
mod watcher;

pub use icons::find_named;
pub use menu::MenuEntry;

use crate::view::images::HeldImages;
use crate::wake::{Follower, Waker};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemStatus {
    Passive,
    Active,
    NeedsAttention,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TrayItem {
    /// Its bus name and object path: stable while the item lives.
    pub key: String,
    /// The application's name for it (`Id`).
    pub id: String,
    pub title: String,
    /// The executable of the program that owns it ("nm-applet").
    pub exe: String,
    pub status: ItemStatus,
    /// The handle of its icon among the held images.
    pub icon: Option<u64>,
    pub tooltip: String,
    /// Its menu, flattened (empty without one).
    pub menu: Vec<MenuEntry>,
    /// The item is only a menu: a click shows the menu rather than activating it.
    pub item_is_menu: bool,
}

/// What a widget asks of an item.
#[derive(Debug, Clone, PartialEq)]
pub enum TrayAction {
    Activate,
    SecondaryActivate,
    /// The item shows its own menu.
    ContextMenu,
    /// `delta` steps; horizontal or vertical.
    Scroll {
        delta: i32,
        horizontal: bool,
    },
    /// The menu entry `id` was chosen.
    MenuChosen(i32),
}

pub trait Tray: Send + Sync {
    /// The items there are; `waker`'s widget is woken at each change.
    fn items(&self, waker: &Waker) -> Vec<TrayItem>;

    /// Sends `action` to the item `key`. Fails at once for an unknown item;
    /// an item that does not take it is logged.
    fn act(&self, key: &str, action: TrayAction) -> Result<(), String>;

    /// Drops the items whose owner has gone without saying so.
    fn sweep(&self);
}

/// The tray's items, followed on the session bus; an item's icons are held
/// in `held` while it is there. Actions are requests to the following thread.
pub struct SystemTray(Follower<Vec<TrayItem>, follow::Request>);

impl SystemTray {
    /// The tray of the platform: StatusNotifierItems on the session bus,
    /// or on Windows the notification icons Obi hosts (`shell`).
    pub fn new(held: HeldImages) -> SystemTray {
        #[cfg(not(windows))]
        return SystemTray::on_bus(held, None);
        #[cfg(windows)]
        return SystemTray(Follower::new("the tray", "obi-tray", Vec::new(), move |items, requests| {
            shell::follow(items, &held, requests)
        }));
    }

    /// Items on the bus at `address` (a test's own bus), or the session's.
    pub fn on_bus(held: HeldImages, address: Option<String>) -> SystemTray {
        SystemTray(Follower::new("the tray", "obi-tray", Vec::new(), move |items, requests| {
            follow::follow(address, items, &held, requests)
        }))
    }

    fn request(&self, request: follow::Request) -> Result<(), String> {
        match self.0.request(request) {
            true => Ok(()),
            false => Err("the tray is not followed".into()),
        }
    }
}

impl Tray for SystemTray {
    fn items(&self, waker: &Waker) -> Vec<TrayItem> {
        self.0.read(waker)
    }

    fn act(&self, key: &str, action: TrayAction) -> Result<(), String> {
        if !self.0.current().iter().any(|item| item.key == key) {
            return Err(format!("no tray item {key}"));
        }
        self.request(follow::Request::Act(key.to_owned(), action))
    }

    fn sweep(&self) {
        let _ = self.request(follow::Request::Sweep);
    }
}

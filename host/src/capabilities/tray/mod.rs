//! The `tray` capability: the desktop's status icons, as Obi hosts them
//! (StatusNotifierItem over the D-Bus session bus). Obi registers as a
//! StatusNotifierHost, and runs the StatusNotifierWatcher itself when no one
//! else does (`watcher`); threads of its own follow the items and their
//! menus (`follow`) and push the list to the widgets that read it. Icons
//! (the item's pixmaps, or its icon name looked up in the icon theme) are
//! held by the host and reach widgets as handles (`icons`). Clicks, scrolls
//! and menu choices go to the items from a thread of their own, so an item
//! that hangs holds up nobody.
//!
//! The threads start at the first reading: a bar without a Systray widget
//! opens no bus connection.

mod follow;
mod icons;
mod menu;
mod watcher;

pub use menu::MenuEntry;

use crate::sync::lock;
use crate::view::images::HeldImages;
use crate::wake::{Pushed, Waker};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, Once};

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

pub struct SystemTray {
    held: HeldImages,
    items: Arc<Pushed<Vec<TrayItem>>>,
    started: Once,
    requests: Mutex<Option<Sender<follow::Request>>>,
    /// The bus to use; the session bus of the environment when none.
    address: Option<String>,
}

impl SystemTray {
    pub fn new(held: HeldImages) -> SystemTray {
        SystemTray::on_bus(held, None)
    }

    /// Items on the bus at `address` (a test's own bus), or the session's.
    pub fn on_bus(held: HeldImages, address: Option<String>) -> SystemTray {
        SystemTray {
            held,
            items: Arc::new(Pushed::new(Vec::new())),
            started: Once::new(),
            requests: Mutex::new(None),
            address,
        }
    }

    fn request(&self, request: follow::Request) -> Result<(), String> {
        let requests = lock(&self.requests);
        match requests.as_ref().map(|requests| requests.send(request)) {
            Some(Ok(())) => Ok(()),
            _ => Err("the tray is not followed".into()),
        }
    }
}

impl Tray for SystemTray {
    fn items(&self, waker: &Waker) -> Vec<TrayItem> {
        self.started.call_once(|| {
            let (requests, received) = mpsc::channel();
            *lock(&self.requests) = Some(requests);
            let (items, held, address) = (self.items.clone(), self.held.clone(), self.address.clone());
            let spawned = std::thread::Builder::new()
                .name("obi-tray".into())
                .spawn(move || follow::follow(address, &items, &held, received));
            if let Err(error) = spawned {
                tracing::warn!("cannot follow the tray: {error}");
                self.items.publish(Vec::new());
            }
        });
        self.items.read(waker)
    }

    fn act(&self, key: &str, action: TrayAction) -> Result<(), String> {
        if !self.items.current().iter().any(|item| item.key == key) {
            return Err(format!("no tray item {key}"));
        }
        self.request(follow::Request::Act(key.to_owned(), action))
    }

    fn sweep(&self) {
        let _ = self.request(follow::Request::Sweep);
    }
}

//! The `notifications` capability: the desktop's notifications as Obi's
//! own server keeps them, read by widgets and changed at the user's
//! request. The server (`crate::notifications`) is started by the bars,
//! the first whose config enables it, so the capability begins empty and
//! is handed the server when there is one; every change the server makes
//! wakes the widgets that read it.

use crate::wake::{Subscribers, Waker};
use std::sync::{Arc, OnceLock};

/// The server's state, as a widget reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overview {
    /// Why notifications do not come to Obi; none while they do.
    pub not_serving: Option<String>,
    pub do_not_disturb: bool,
    pub unseen: usize,
    pub kept: usize,
}

/// A notification of the history, as a widget reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptNotification {
    pub id: u32,
    pub app_name: String,
    pub summary: String,
    /// In the specification's markup, as its sender wrote it.
    pub body: String,
    pub received_seconds: i64,
    pub critical: bool,
    pub has_default_action: bool,
    pub on_screen: bool,
    pub seen: bool,
}

/// The notification server, as widgets see it.
pub trait NotificationServer: Send + Sync {
    fn overview(&self) -> Overview;
    /// The newest `most` of the history, newest first.
    fn history(&self, most: usize) -> Vec<KeptNotification>;
    /// Has `listener` called after every change.
    fn listen(&self, listener: Box<dyn Fn() + Send + Sync>);
    fn set_do_not_disturb(&self, on: bool);
    fn mark_seen(&self);
    /// Invokes `id`'s default action for the user, as a click on its card
    /// does. Fails when there is no such notification.
    fn invoke(&self, id: u32) -> Result<(), String>;
    fn dismiss(&self, id: u32) -> Result<(), String>;
    fn dismiss_all(&self);
}

/// What widgets read: the server once the bars started one.
#[derive(Default)]
pub struct Notifications {
    server: OnceLock<Arc<dyn NotificationServer>>,
    readers: Arc<Subscribers>,
}

/// Why there is nothing to read before a bar enabled the server.
const NOT_ENABLED: &str = match cfg!(free_unix) {
    true => "Obi is not the notification server: no bar's config enables `notifications`",
    false => "Obi is a notification server on Linux only",
};

impl Notifications {
    /// Has widgets read `server` from now on (the first given is kept:
    /// there is one server per process).
    pub fn serve(&self, server: Arc<dyn NotificationServer>) {
        if self.server.set(server.clone()).is_ok() {
            let readers = self.readers.clone();
            server.listen(Box::new(move || readers.wake_all()));
            self.readers.wake_all();
        }
    }

    fn read(&self, waker: &Waker) -> Option<&dyn NotificationServer> {
        self.readers.subscribe(waker);
        self.server.get().map(Arc::as_ref)
    }

    pub fn overview(&self, waker: &Waker) -> Overview {
        match self.read(waker) {
            Some(server) => server.overview(),
            None => Overview { not_serving: Some(NOT_ENABLED.into()), do_not_disturb: false, unseen: 0, kept: 0 },
        }
    }

    pub fn history(&self, waker: &Waker, most: usize) -> Vec<KeptNotification> {
        self.read(waker).map(|server| server.history(most)).unwrap_or_default()
    }

    pub fn set_do_not_disturb(&self, on: bool) {
        if let Some(server) = self.server.get() {
            server.set_do_not_disturb(on);
        }
    }

    pub fn mark_seen(&self) {
        if let Some(server) = self.server.get() {
            server.mark_seen();
        }
    }

    pub fn invoke(&self, id: u32) -> Result<(), String> {
        self.server.get().ok_or(NOT_ENABLED)?.invoke(id)
    }

    pub fn dismiss(&self, id: u32) -> Result<(), String> {
        self.server.get().ok_or(NOT_ENABLED)?.dismiss(id)
    }

    pub fn dismiss_all(&self) {
        if let Some(server) = self.server.get() {
            server.dismiss_all();
        }
    }
}

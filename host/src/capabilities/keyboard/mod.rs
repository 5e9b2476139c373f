//! The `keyboard` capability: the keyboard layout in use. Under a tiler that
//! tells it (sway), it is the tiler's word, pushed with the tiler's state.
//! Otherwise a thread of its own follows the platform's layout and pushes
//! each change to the widgets that read it: on X11, XKB's group, waiting on
//! the server's XKB events (a switch between layouts, a new set of them
//! from `setxkbmap`); on Windows, the input language of the window in the
//! foreground. The thread starts at the first reading, so a bar without a
//! Keyboard widget opens nothing.

use super::Tiler;
use crate::tiler::{KeyboardLayout, Status};
use crate::wake::{Follower, Pushed, Waker};
use std::sync::Arc;

pub trait Keyboard: Send + Sync {
    /// The layout in use, when the host can tell; `waker`'s widget is woken
    /// at each change from now on.
    fn layout(&self, waker: &Waker) -> Option<KeyboardLayout>;
}

pub struct SystemKeyboard {
    /// The bar's tiler, which may tell the layout.
    tiler: Option<Arc<dyn Tiler>>,
    /// The layout as the platform tells it.
    system: Follower<Option<KeyboardLayout>>,
}

impl SystemKeyboard {
    pub fn new(tiler: Option<Arc<dyn Tiler>>) -> SystemKeyboard {
        SystemKeyboard {
            tiler,
            system: Follower::new("the keyboard layout", "obi-keyboard", None, |layout, _| watch(layout)),
        }
    }
}

impl Default for SystemKeyboard {
    fn default() -> Self {
        SystemKeyboard::new(None)
    }
}

impl Keyboard for SystemKeyboard {
    fn layout(&self, waker: &Waker) -> Option<KeyboardLayout> {
        if let Some(tiler) = self.tiler.as_ref().filter(|tiler| tiler.tells_keyboard_layout()) {
            return match tiler.status(waker) {
                Status::Connected(state) => state.keyboard,
                Status::Disconnected(_) => None,
            };
        }
        self.system.read(waker)
    }
}

#[cfg(free_unix)]
mod xkb;
#[cfg(free_unix)]
use self::xkb as platform;

#[cfg(windows)]
mod win32;
#[cfg(windows)]
use self::win32 as platform;

#[cfg(any(free_unix, windows))]
fn watch(layout: &Pushed<Option<KeyboardLayout>>) {
    if let Err(error) = platform::follow(layout) {
        tracing::warn!("the keyboard layout cannot be shown: {error:#}");
    }
    layout.publish(None);
}

#[cfg(not(any(free_unix, windows)))]
fn watch(layout: &Pushed<Option<KeyboardLayout>>) {
    tracing::warn!("the keyboard layout is read from X11 and Windows alone for now");
    layout.publish(None);
}

//! The `tiler` capability: the window manager's state as the bar last heard
//! it, and messages to it. The state changes on its own, so it is pushed:
//! a widget that reads it is subscribed and woken at every change (see
//! [`crate::wake::Subscribers`]). The connection itself lives in [`crate::tiler`].

use crate::tiler::{Connection, Message, Status};
use crate::wake::Waker;

pub trait Tiler: Send + Sync {
    /// The state as last heard, or why there is none. `waker`'s widget is
    /// woken at every change from now on.
    fn status(&self, waker: &Waker) -> Status;

    /// Sends `messages` to the tiler as one batch.
    fn send(&self, messages: &[Message]) -> Result<(), String>;

    /// Whether the keyboard layout in use is this tiler's to tell (sway's:
    /// on Wayland no X server knows it).
    fn tells_keyboard_layout(&self) -> bool {
        false
    }
}

impl Tiler for Connection {
    fn status(&self, waker: &Waker) -> Status {
        Connection::status(self, waker)
    }

    fn send(&self, messages: &[Message]) -> Result<(), String> {
        self.send_batch(messages.to_vec())
    }

    fn tells_keyboard_layout(&self) -> bool {
        Connection::tells_keyboard_layout(self)
    }
}

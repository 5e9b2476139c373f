//! The `tiler` capability: the window manager's state as the bar last heard
//! it, and messages to it. The state changes on its own, so it is pushed:
//! a widget that reads it is subscribed and woken at every change (see
//! [`super::Subscribers`]). The connection itself lives in [`crate::tiler`].

use super::Waker;
use crate::tiler::{Message, Status};

pub trait Tiler: Send + Sync {
    /// The state as last heard, or why there is none. `waker`'s widget is
    /// woken at every change from now on.
    fn status(&self, waker: &Waker) -> Status;

    /// Sends `messages` to the tiler as one batch.
    fn send(&self, messages: &[Message]) -> Result<(), String>;
}

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

/// `messages` as a widget sends them, each komorebi's JSON, read and
/// checked: the first that is not a message komorebi reads fails the
/// batch, named by its number, with where in it and why.
pub fn read_messages(messages: &[String]) -> Result<Vec<Message>, String> {
    let read = |(index, json): (usize, &String)| {
        let value = serde_json::from_str(json).map_err(|error| format!("message {index}: {error}"))?;
        Message::parse(&value).map_err(|invalid| {
            let at = if invalid.at.is_empty() { String::new() } else { format!(" at `{}`", invalid.at) };
            format!("message {index}{at}: {}", invalid.reason)
        })
    };
    messages.iter().enumerate().map(read).collect()
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

#[cfg(test)]
mod tests {
    use super::read_messages;

    #[test]
    fn a_batch_is_read_whole_or_refused_at_its_first_bad_message() {
        let good =
            [r#"{"type":"TogglePause"}"#.to_owned(), r#"{"type":"FocusWorkspaceNumber","content":2}"#.to_owned()];
        let read = read_messages(&good).unwrap();
        assert_eq!(read.iter().map(|message| message.to_json()).collect::<Vec<_>>(), good);

        let bad = [good[0].clone(), r#"{"type":"FocusWindow","content":"Upward"}"#.to_owned(), "[".to_owned()];
        let refused = read_messages(&bad).unwrap_err();
        assert!(refused.starts_with("message 1 at `content`: "), "{refused}");
        let unreadable = read_messages(&bad[2..]).unwrap_err();
        assert!(unreadable.starts_with("message 0: "), "{unreadable}");
    }
}

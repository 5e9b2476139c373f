//! komorebi's socket protocol.

mod messages;

pub use messages::{Invalid, MESSAGES, Message};

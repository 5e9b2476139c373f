//! How much of what a sender hands the notification server is kept: the
//! sender is anyone on the session bus, and the bar's memory and screen are
//! not theirs to fill.

use std::time::Duration;

pub use crate::config::model::{LONGEST_TIMEOUT_MS, MOST_HISTORY, MOST_VISIBLE, NARROWEST, WIDEST};

/// How many wait for their turn on screen; past them the oldest go to the
/// history unseen, as if they had been shown and expired.
pub const MOST_WAITING: usize = 64;

/// Bytes kept of an application's name, a summary and a body (cut at a
/// character, with an ellipsis).
pub const APP_NAME_BYTES: usize = 128;
pub const SUMMARY_BYTES: usize = 1024;
pub const BODY_BYTES: usize = 16 * 1024;
/// Actions kept (the `default` one among them), and bytes of each key and label.
pub const MOST_ACTIONS: usize = 8;
pub const ACTION_BYTES: usize = 256;
/// Bytes of a category, a desktop entry, an icon's name or path.
pub const NAME_BYTES: usize = 1024;

/// The most pixels a side an image hint may claim; a larger one is not
/// read at all (its bytes could not be what it claims anyway).
pub const IMAGE_SIDE: u32 = 4096;
/// The side an image is kept at, at most.
pub const KEPT_IMAGE_SIDE: u32 = 128;

/// A timeout no sender can make longer than this (a day).
pub const LONGEST_TIMEOUT: Duration = Duration::from_millis(LONGEST_TIMEOUT_MS as u64);

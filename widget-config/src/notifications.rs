//! The Notifications widget's config (an Obi extension of the format): how
//! it is labelled, whether it hides with nothing unseen, and how many the
//! history popup lists.

use crate::LabelPrefix;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The desktop's notifications, as Obi's notification server keeps them
/// (the root `notifications` key starts it): a bell with the count of
/// unseen ones; a click opens the history, a secondary click switches
/// do-not-disturb:
/// `{ "Notifications": { "enable": true, "hide_when_none": true, "history_shown": 10 } }`
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NotificationsConfig {
    pub enable: bool,
    pub label_prefix: Option<LabelPrefix>,
    /// Hidden while nothing is unseen and do-not-disturb is off (default
    /// false).
    pub hide_when_none: Option<bool>,
    /// How many notifications the history popup lists, newest first
    /// (default 10, 1 to 25).
    pub history_shown: Option<u8>,
}

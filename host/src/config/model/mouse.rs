//! `mouse`: what clicks and scrolls on the bar (outside a widget's own
//! handling) send to the tiler or run as a command.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct MouseConfig {
    pub on_primary_double_click: Option<MouseMessage>,
    pub on_secondary_click: Option<MouseMessage>,
    pub on_middle_click: Option<MouseMessage>,
    pub on_extra1_click: Option<MouseMessage>,
    pub on_extra2_click: Option<MouseMessage>,
    pub on_scroll_up: Option<MouseMessage>,
    pub on_scroll_down: Option<MouseMessage>,
    pub on_scroll_left: Option<MouseMessage>,
    pub on_scroll_right: Option<MouseMessage>,
    /// Points of scrolling per tick (default 30, clamped to 10..=300).
    pub vertical_scroll_threshold: Option<f32>,
    pub horizontal_scroll_threshold: Option<f32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged, expecting = "a command string, or an object with a tiler `message`")]
pub enum MouseMessage {
    Command(String),
    Tiler(TilerMouseMessage),
}

/// A message to the tiler. The message itself is komorebi's
/// `{ "type": ..., "content": ... }` (or a batch of them as an array).
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TilerMouseMessage {
    pub message: serde_json::Value,
    pub focus_monitor_at_cursor: Option<bool>,
    pub ignore_mouse_follows_focus: Option<bool>,
}

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

impl MouseConfig {
    /// Every configured trigger by its property name (`on_scroll_up`).
    pub fn messages(&self) -> impl Iterator<Item = (&'static str, &MouseMessage)> {
        [
            ("on_primary_double_click", &self.on_primary_double_click),
            ("on_secondary_click", &self.on_secondary_click),
            ("on_middle_click", &self.on_middle_click),
            ("on_extra1_click", &self.on_extra1_click),
            ("on_extra2_click", &self.on_extra2_click),
            ("on_scroll_up", &self.on_scroll_up),
            ("on_scroll_down", &self.on_scroll_down),
            ("on_scroll_left", &self.on_scroll_left),
            ("on_scroll_right", &self.on_scroll_right),
        ]
        .into_iter()
        .filter_map(|(name, message)| message.as_ref().map(|message| (name, message)))
    }

    /// Points of scrolling per tick, vertically: default 30, clamped to 10..=300.
    pub fn vertical_scroll_threshold(&self) -> f32 {
        self.vertical_scroll_threshold.unwrap_or(30.0).clamp(10.0, 300.0)
    }

    /// Points of scrolling per tick, horizontally: default 30, clamped to 10..=300.
    pub fn horizontal_scroll_threshold(&self) -> f32 {
        self.horizontal_scroll_threshold.unwrap_or(30.0).clamp(10.0, 300.0)
    }
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

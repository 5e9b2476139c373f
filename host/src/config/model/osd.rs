//! `osd`: Obi's own root key (komorebi-bar does not read it). With it
//! enabled the bar shows an on-screen display, for a moment, whenever the
//! default output's volume or mute or the screen's brightness changes.

use super::{ScreenPlace, ShownOn};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The shortest and longest an on-screen display may stay, in milliseconds.
pub const SHORTEST_OSD_MS: u32 = 100;
pub const LONGEST_OSD_MS: u32 = 60_000;

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct OsdConfig {
    pub enable: bool,
    /// Where on the monitor of the bar whose config enables it the display
    /// is shown (default `bottom-center`).
    pub position: Option<ScreenPlace>,
    /// On that bar's monitor (`bar`, the default) or the focused one (`focused`).
    pub monitor: Option<ShownOn>,
    /// How long it stays after the last change, in milliseconds (default 1200).
    pub timeout_ms: Option<u32>,
    /// How wide it is, in logical pixels (default 300).
    pub width: Option<f32>,
}

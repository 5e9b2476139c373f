//! `notifications`: Obi's own root key (komorebi-bar does not read it).
//! With it enabled the bar is the desktop's notification server and shows
//! each notification beside itself.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The most notifications shown at once a config may ask for.
pub const MOST_VISIBLE: u32 = 16;
/// The most the history may keep.
pub const MOST_HISTORY: u32 = 1000;
/// The longest timeout a config may set: a day.
pub const LONGEST_TIMEOUT_MS: u32 = 24 * 60 * 60 * 1000;
/// The narrowest and widest a notification may be drawn, in logical pixels.
pub const NARROWEST: f32 = 120.0;
pub const WIDEST: f32 = 1200.0;

/// Where on its monitor something the bar shows on its own is put.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ScreenPlace {
    TopLeft,
    TopCenter,
    TopRight,
    BottomLeft,
    BottomCenter,
    BottomRight,
}

/// Which monitor something the bar shows on its own goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ShownOn {
    /// The monitor of the bar that shows it.
    #[default]
    Bar,
    /// The monitor with the focus: the tiler's focused one on X11 and
    /// Windows, the compositor's choice (where the user last was) on Wayland.
    Focused,
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct NotificationServerConfig {
    pub enable: bool,
    /// Where on the monitor of the bar whose config enables them the
    /// notifications are stacked, the newest nearest the corner (default
    /// `top-right`).
    pub position: Option<ScreenPlace>,
    /// On that bar's monitor (`bar`, the default) or the focused one (`focused`).
    pub monitor: Option<ShownOn>,
    /// How long a notification that does not say stays, in milliseconds
    /// (default 5000).
    pub timeout_ms: Option<u32>,
    /// How many are shown at once (default 3); the others wait their turn.
    pub max_visible: Option<u32>,
    /// How many the history keeps (default 100, at most 1000; 0 keeps none).
    pub history: Option<u32>,
    /// How wide each is, in logical pixels (default 360).
    pub width: Option<f32>,
}

//! The typed model of `komorebi.bar.json`: every property with its exact
//! name, optional where the format allows it to be left out. Defaults are
//! not filled in here (so a file round-trips as written); the accessors on
//! [`BarConfig`] apply komorebi-bar's defaults and clamps.

mod grouping;
mod layout;
mod mouse;
mod notifications;
mod osd;
mod theme;
mod widgets;

pub use grouping::*;
pub use layout::*;
pub use mouse::*;
pub use notifications::*;
pub use osd::*;
pub use theme::*;
pub use widgets::*;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "komorebi.bar.json, as Obi reads it")]
pub struct BarModel {
    /// Ignored: editors use it to find the schema.
    #[serde(rename = "$schema")]
    pub schema: Option<String>,
    pub left_widgets: Vec<WidgetConfig>,
    pub center_widgets: Option<Vec<WidgetConfig>>,
    pub right_widgets: Vec<WidgetConfig>,
    pub font_family: Option<String>,
    pub font_size: Option<f32>,
    pub frame: Option<FrameConfig>,
    pub grouping: Option<Grouping>,
    pub height: Option<f32>,
    pub icon_scale: Option<f32>,
    pub margin: Option<SpacingKind>,
    pub max_label_width: Option<f32>,
    pub monitor: Option<MonitorConfigOrIndex>,
    pub mouse: Option<MouseConfig>,
    /// `Bottom` puts the bar along its monitor's bottom edge (an Obi
    /// extension of the format; `position.start` wins).
    pub edge: Option<Edge>,
    /// Obi shows the desktop's notifications (Obi's own key).
    pub notifications: Option<NotificationServerConfig>,
    /// Obi shows the volume and the brightness as they change (Obi's own key).
    pub osd: Option<OsdConfig>,
    pub padding: Option<SpacingKind>,
    #[serde(alias = "viewport")]
    pub position: Option<PositionConfig>,
    pub theme: Option<KomobarTheme>,
    pub transparency_alpha: Option<u8>,
    pub widget_spacing: Option<f32>,
}

impl BarModel {
    /// Every widget entry, enabled or not, with where the file has it
    /// (`right_widgets[2]`).
    pub fn entries(&self) -> impl Iterator<Item = (String, &WidgetConfig)> {
        [
            ("left_widgets", Some(&self.left_widgets)),
            ("center_widgets", self.center_widgets.as_ref()),
            ("right_widgets", Some(&self.right_widgets)),
        ]
        .into_iter()
        .flat_map(|(list, widgets)| {
            widgets.into_iter().flatten().enumerate().map(move |(index, widget)| (format!("{list}[{index}]"), widget))
        })
    }
}

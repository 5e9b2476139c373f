//! Turns the widgets' states into pixels: [`Scene`] is what to draw, the
//! [`Painter`] lays it out (left, centre, right, spacing, truncation) and
//! paints it with femtovg on whatever GL target is current, returning the
//! boxes that mouse input is hit-tested against.

pub mod fonts;
mod offscreen;
mod painter;

pub use fonts::{ICON_FONT, find_text_font};
pub use offscreen::{Offscreen, write_png};
pub use painter::{HitBox, Painter};

use crate::config::{BarConfig, Side};
use crate::theme::Theme;
use crate::view::WidgetState;

/// Everything about the look that comes from the config.
#[derive(Debug, Clone, PartialEq)]
pub struct Style {
    pub height: f32,
    pub font_size: f32,
    pub icon_scale: f32,
    pub widget_spacing: f32,
    /// Room kept free at the bar's left and right ends.
    pub padding_left: f32,
    pub padding_right: f32,
    pub max_label_width: f32,
    pub theme: Theme,
}

impl Style {
    pub fn from_config(config: &BarConfig) -> Style {
        let (_, _, padding_left, padding_right) = config.padding().sides();
        Style {
            height: config.height(),
            font_size: config.font_size(),
            icon_scale: config.icon_scale(),
            widget_spacing: config.widget_spacing(),
            padding_left,
            padding_right,
            max_label_width: config.max_label_width(),
            theme: Theme::from_config(config.model.theme.as_ref(), config.transparency_alpha()),
        }
    }
}

/// One widget on the bar as the painter sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneWidget {
    pub side: Side,
    pub name: String,
    pub state: WidgetState,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    pub style: Style,
    pub widgets: Vec<SceneWidget>,
}

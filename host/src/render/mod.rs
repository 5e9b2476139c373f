//! Turns the widgets' states into pixels: [`Scene`] is what to draw, the
//! [`Measure`] lays it out ([`Layout`]: margins, sides, groups, truncation;
//! popups, notifications and on-screen displays)
//! and the [`Painter`] paints the [`Frame`] with femtovg on whatever GL
//! target is current, all of it or only a damaged region.

mod damage;
mod font_data;
mod font_memory;
pub mod fonts;
mod framebuffer;
mod geometry;
mod glyph_budget;
mod grouping;
mod layout;
mod measure;
mod notice_layout;
mod offscreen;
mod osd_layout;
mod painter;
mod popup_layout;
pub mod text;

pub use damage::damage;
pub use font_data::{FontBytes, FontData};
pub use fonts::{find_text_font, icon_font};
pub use framebuffer::Framebuffer;
pub use geometry::{Insets, Rect};
pub use grouping::{GroupKind, Grouping};
pub use layout::{FAILED_KEY, Layout, PlacedItem, lay_out};
pub use measure::Measure;
pub use notice_layout::{ACTION_PREFIX, BODY_LINES, DISMISS_KEY, NoticeCard, lay_out_notice};
pub use offscreen::{Offscreen, write_png};
pub use osd_layout::{OsdCard, lay_out_osd};
pub use painter::{Face, Painter};
pub use popup_layout::{PlacedCell, PopupLayout, lay_out_popup};

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
    /// Between the window's edges and the bar's background.
    pub margin: Insets,
    /// Between the background's edges and the widgets.
    pub padding: Insets,
    pub max_label_width: f32,
    pub theme: Theme,
    pub grouping: Grouping,
    /// What lies outside the background (the margins) shows what is behind
    /// the window; on a window that cannot show through, it is background.
    pub see_through: bool,
    /// The font texts are drawn in first, once the bar has found the one
    /// its `font_family` names; until then texts take the system's fonts.
    pub text_font: Option<FontData>,
}

impl Style {
    pub fn from_config(config: &BarConfig) -> Style {
        let theme = Theme::from_config(config.model.theme.as_ref(), config.transparency_alpha());
        Style {
            height: config.height(),
            font_size: config.font_size(),
            icon_scale: config.icon_scale(),
            widget_spacing: config.widget_spacing(),
            margin: Insets::from_spacing(&config.margin()),
            padding: Insets::from_spacing(&config.padding()),
            max_label_width: config.max_label_width(),
            grouping: Grouping::from_config(config.model.grouping.as_ref(), &theme),
            theme,
            see_through: true,
            text_font: None,
        }
    }
}

impl Style {
    /// Whether anything behind the bar can show through it.
    pub fn is_translucent(&self) -> bool {
        let Insets { top, bottom, left, right } = self.margin;
        self.theme.background.3 < 255 || top + bottom + left + right > 0.0
    }

    /// On a window that cannot show through, the background is painted
    /// opaque (its alpha would only darken it), margins included: cleared
    /// to nothing, they would show black.
    pub fn fit_window(&mut self, opaque: bool) {
        if opaque {
            self.theme.background.3 = 255;
            self.see_through = false;
        }
    }

    /// The height left for widgets inside the margin and padding.
    pub fn content_height(&self) -> f32 {
        let vertical = self.margin.top + self.margin.bottom + self.padding.top + self.padding.bottom;
        (self.height - vertical).max(0.0)
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

/// A bar's frame as a surface takes it, finished: laid out in its style,
/// and the region of it that changed since the last frame (the whole
/// window after an expose, a resize or a reload).
#[derive(Debug, Clone, Copy)]
pub struct Frame<'a> {
    pub style: &'a Style,
    pub layout: &'a Layout,
    pub damage: Rect,
    /// The item the keyboard is on (its index in the layout's items),
    /// ringed, while the bar holds the keyboard (`obi msg focus`).
    pub focus: Option<usize>,
}

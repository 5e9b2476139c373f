//! How groups look: the config's `grouping` turned into a fill, four corner
//! radii and an optional shadow or glow, and the painting of one group.
//!
//! The shadow and glow styles spell their geometry in their names
//! (`DefaultWithShadowB4O1S3`: blur 4, offset 1, spread 3). Shadows are
//! black, glows take the theme's accent; both are drawn under the group as a
//! rounded box grown by the spread, moved down and right by the offset, with
//! edges feathered over the blur.

use super::geometry::Rect;
use crate::colour::Rgba;
use crate::config::model::{Grouping as GroupingConfig, GroupingStyle, RoundingConfig};
use crate::theme::Theme;
use femtovg::{Canvas, Color, Paint, Path, Renderer};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GroupKind {
    #[default]
    None,
    Bar,
    Alignment,
    Widget,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Effect {
    pub blur: f32,
    pub offset: f32,
    pub spread: f32,
    pub colour: Rgba,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Grouping {
    pub kind: GroupKind,
    pub fill: Rgba,
    /// Top-left, top-right, bottom-right, bottom-left.
    pub radii: [f32; 4],
    pub effect: Option<Effect>,
}

impl Default for Grouping {
    fn default() -> Grouping {
        Grouping { kind: GroupKind::None, fill: Rgba(0, 0, 0, 0), radii: [0.0; 4], effect: None }
    }
}

/// A group's `transparency_alpha` when the config gives none.
pub const DEFAULT_GROUP_ALPHA: u8 = 200;

/// A group's corner radius when the config gives none.
pub const DEFAULT_ROUNDING: f32 = 5.0;

/// The opacity of shadows (egui's, whose styles komorebi-bar names) and of
/// glows, which are meant to be seen.
const SHADOW_ALPHA: u8 = 96;
const GLOW_ALPHA: u8 = 150;

impl Grouping {
    pub fn from_config(config: Option<&GroupingConfig>, theme: &Theme) -> Grouping {
        let (kind, settings) = match config {
            None | Some(GroupingConfig::None) => return Grouping::default(),
            Some(GroupingConfig::Bar(settings)) => (GroupKind::Bar, settings),
            Some(GroupingConfig::Alignment(settings)) => (GroupKind::Alignment, settings),
            Some(GroupingConfig::Widget(settings)) => (GroupKind::Widget, settings),
        };
        let radii = match settings.rounding {
            None => [DEFAULT_ROUNDING; 4],
            Some(RoundingConfig::Same(radius)) => [radius; 4],
            // The config lists NW, NE, SW, SE; painting goes round the corners.
            Some(RoundingConfig::Individual([nw, ne, sw, se])) => [nw, ne, se, sw],
        }
        .map(|radius| radius.max(0.0));
        let shadow = Rgba(0, 0, 0, SHADOW_ALPHA);
        let glow = theme.accent.with_alpha(GLOW_ALPHA);
        let effect = |blur: f32, offset: f32, spread: f32, colour: Rgba| Some(Effect { blur, offset, spread, colour });
        let effect = match settings.style.unwrap_or(GroupingStyle::Default) {
            GroupingStyle::Default => None,
            GroupingStyle::DefaultWithShadowB4O1S3 => effect(4.0, 1.0, 3.0, shadow),
            GroupingStyle::DefaultWithShadowB4O0S3 => effect(4.0, 0.0, 3.0, shadow),
            GroupingStyle::DefaultWithShadowB0O1S3 => effect(0.0, 1.0, 3.0, shadow),
            GroupingStyle::DefaultWithGlowB3O1S2 => effect(3.0, 1.0, 2.0, glow),
            GroupingStyle::DefaultWithGlowB3O0S2 => effect(3.0, 0.0, 2.0, glow),
            GroupingStyle::DefaultWithGlowB0O1S2 => effect(0.0, 1.0, 2.0, glow),
        };
        let alpha = settings.transparency_alpha.unwrap_or(DEFAULT_GROUP_ALPHA);
        Grouping { kind, fill: theme.background.with_alpha(alpha), radii, effect }
    }

    /// How far past a group's rectangle its painting reaches.
    pub fn reach(&self) -> f32 {
        self.effect.map_or(0.0, |effect| effect.spread + effect.offset + effect.blur)
    }

    pub fn paint<R: Renderer>(&self, canvas: &mut Canvas<R>, group: &Rect) {
        if let Some(effect) = self.effect {
            paint_effect(canvas, group, &self.radii, effect);
        }
        let mut path = Path::new();
        rounded(&mut path, group, &self.radii);
        canvas.fill_path(&path, &Paint::color(color(self.fill)));
    }
}

fn paint_effect<R: Renderer>(canvas: &mut Canvas<R>, group: &Rect, radii: &[f32; 4], effect: Effect) {
    let mut shape = group.grow(effect.spread);
    shape.x += effect.offset;
    shape.y += effect.offset;
    let radii = radii.map(|radius| radius + effect.spread);
    let mut path = Path::new();
    if effect.blur <= 0.0 {
        rounded(&mut path, &shape, &radii);
        canvas.fill_path(&path, &Paint::color(color(effect.colour)));
        return;
    }
    // A box gradient fades from the colour inside the shape to nothing over
    // the blur; it has one radius, so it takes the largest corner's.
    let area = shape.grow(effect.blur);
    path.rect(area.x, area.y, area.width, area.height);
    let radius = radii.iter().copied().fold(0.0, f32::max);
    let paint = Paint::box_gradient(
        shape.x,
        shape.y,
        shape.width,
        shape.height,
        radius,
        effect.blur,
        color(effect.colour),
        color(effect.colour.with_alpha(0)),
    );
    canvas.fill_path(&path, &paint);
}

fn rounded(path: &mut Path, rect: &Rect, [top_left, top_right, bottom_right, bottom_left]: &[f32; 4]) {
    path.rounded_rect_varying(
        rect.x,
        rect.y,
        rect.width,
        rect.height,
        *top_left,
        *top_right,
        *bottom_right,
        *bottom_left,
    );
}

pub fn color(rgba: Rgba) -> Color {
    Color::rgba(rgba.0, rgba.1, rgba.2, rgba.3)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grouping(json: &str) -> Grouping {
        let theme = Theme::from_config(None, 255);
        Grouping::from_config(Some(&serde_json::from_str(json).unwrap()), &theme)
    }

    #[test]
    fn style_names_spell_blur_offset_and_spread() {
        let shadow = grouping(r#"{ "kind": "Widget", "style": "DefaultWithShadowB4O1S3" }"#).effect.unwrap();
        assert_eq!((shadow.blur, shadow.offset, shadow.spread), (4.0, 1.0, 3.0));
        assert_eq!(shadow.colour, Rgba(0, 0, 0, SHADOW_ALPHA));
        let glow = grouping(r#"{ "kind": "Bar", "style": "DefaultWithGlowB0O1S2" }"#).effect.unwrap();
        assert_eq!((glow.blur, glow.offset, glow.spread), (0.0, 1.0, 2.0));
        assert_eq!(glow.colour, Theme::from_config(None, 255).accent.with_alpha(GLOW_ALPHA));
        assert_eq!(grouping(r#"{ "kind": "Alignment", "style": "Default" }"#).effect, None);
    }

    #[test]
    fn rounding_and_alpha() {
        // NW, NE, SW, SE in the config; top-left, top-right, bottom-right, bottom-left painted.
        let four = grouping(r#"{ "kind": "Widget", "rounding": [1, 2, 3, -4], "transparency_alpha": 17 }"#);
        assert_eq!(four.radii, [1.0, 2.0, 0.0, 3.0]);
        assert_eq!(four.fill.3, 17);
        let defaults = grouping(r#"{ "kind": "Widget" }"#);
        assert_eq!(defaults.radii, [DEFAULT_ROUNDING; 4]);
        assert_eq!(defaults.fill.3, DEFAULT_GROUP_ALPHA);
        assert_eq!(grouping(r#"{ "kind": "None" }"#).kind, GroupKind::None);
    }
}

//! Colour glyphs, which femtovg draws only as outlines: emoji and other
//! colour fonts' glyphs painted into images. COLR glyphs (v0's layers and
//! v1's gradients, transforms and compositing: Segoe UI Emoji, Fedora's
//! Noto Color Emoji) are painted from skrifa's paint graph with tiny-skia;
//! bitmap glyphs (CBDT as Debian and Arch ship Noto Color Emoji, sbix) are
//! their PNG, decoded within the image limits. The painter draws each image
//! in its glyph's advance, centred on the line, so that no colour glyph
//! moves or grows the line it is on.

use crate::colour::Rgba;
use parley::FontData;
use skrifa::color::{Brush, ColorPainter, ColorStop, CompositeMode, Extend, Transform};
use skrifa::instance::{LocationRef, Size};
use skrifa::outline::{DrawSettings, OutlinePen};
use skrifa::raw::types::BoundingBox;
use skrifa::{FontRef, GlyphId, MetadataProvider, Tag};
use tiny_skia::{
    BlendMode, FillRule, GradientStop, LinearGradient, Mask, Paint, Path, PathBuilder, Pixmap, PixmapPaint, Point,
    RadialGradient, Rect, Shader, SpreadMode, SweepGradient,
};

/// The largest side a colour glyph is painted at, in pixels: more than any
/// bar's text, small enough that a lying font costs little.
const LARGEST: f32 = 512.0;

/// A colour glyph as an image of straight (not premultiplied) RGBA, made
/// at the size it is drawn, pixel for pixel.
#[derive(Debug, Clone, PartialEq)]
pub struct ColourGlyph {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

/// Whether `font` has colour glyphs of a kind painted here.
pub fn is_colour_font(font: &FontData) -> bool {
    let Ok(face) = FontRef::from_index(font.data.as_ref(), font.index) else { return false };
    [b"COLR", b"CBDT", b"sbix"].iter().any(|tag| face.table_data(Tag::new(tag)).is_some())
}

/// The glyph `glyph` of `font` painted `size` pixels to the em, drawing
/// its foreground-coloured parts in `foreground`; none when the font has
/// no colour for it (a space in an emoji font: its outline, if any, is
/// drawn as text).
pub fn paint(font: &FontData, glyph: u32, size: f32, foreground: Rgba) -> Option<ColourGlyph> {
    let face = FontRef::from_index(font.data.as_ref(), font.index).ok()?;
    let size = size.clamp(1.0, LARGEST);
    let glyph = GlyphId::new(glyph);
    if let Some(colour) = face.color_glyphs().get(glyph) {
        return paint_colr(&face, &colour, glyph, size, foreground);
    }
    paint_bitmap(&face, glyph, size)
}

fn paint_colr(
    face: &FontRef,
    colour: &skrifa::color::ColorGlyph,
    glyph: GlyphId,
    size: f32,
    foreground: Rgba,
) -> Option<ColourGlyph> {
    let metrics = face.metrics(Size::new(size), LocationRef::default());
    let advance = face.glyph_metrics(Size::new(size), LocationRef::default()).advance_width(glyph).unwrap_or(size);
    let (ascent, descent) = (metrics.ascent, metrics.descent);
    let width = advance.clamp(1.0, LARGEST).ceil();
    let height = (ascent - descent).clamp(1.0, LARGEST).ceil();
    let scale = Size::new(size).linear_scale(metrics.units_per_em);
    // Font units (y up, from the glyph's origin) to the image's pixels.
    let base = tiny_skia::Transform::from_row(scale, 0.0, 0.0, -scale, 0.0, ascent);
    let palette = skrifa::color::ColorPalettes::new(face)
        .get(0)
        .map(|palette| palette.colors().iter().map(|c| Rgba(c.red, c.green, c.blue, c.alpha)).collect())
        .unwrap_or_default();
    let mut painter = ColrPainter {
        face,
        layers: vec![Pixmap::new(width as u32, height as u32)?],
        transforms: vec![base],
        clips: Vec::new(),
        palette,
        foreground,
    };
    colour.paint(LocationRef::default(), &mut painter).ok()?;
    let pixmap = painter.layers.into_iter().next()?;
    let rgba = pixmap.pixels().iter().flat_map(|pixel| {
        let straight = pixel.demultiply();
        [straight.red(), straight.green(), straight.blue(), straight.alpha()]
    });
    Some(ColourGlyph { width: width as u32, height: height as u32, rgba: rgba.collect() })
}

/// Paints a COLR glyph's graph: a stack of layers (the first is the image),
/// of transforms and of clips.
struct ColrPainter<'a> {
    face: &'a FontRef<'a>,
    layers: Vec<Pixmap>,
    transforms: Vec<tiny_skia::Transform>,
    clips: Vec<Mask>,
    palette: Vec<Rgba>,
    foreground: Rgba,
}

impl ColrPainter<'_> {
    fn transform(&self) -> tiny_skia::Transform {
        self.transforms.last().copied().unwrap_or_default()
    }

    fn push_clip_path(&mut self, path: Option<Path>) {
        let (width, height) = (self.layers[0].width(), self.layers[0].height());
        let transform = self.transform();
        let mask = match (self.clips.last(), path) {
            (Some(outer), Some(path)) => {
                let mut mask = outer.clone();
                mask.intersect_path(&path, FillRule::Winding, true, transform);
                mask
            }
            (None, Some(path)) => {
                let mut mask = Mask::new(width, height).expect("the image's size");
                mask.fill_path(&path, FillRule::Winding, true, transform);
                mask
            }
            // An empty outline clips everything away.
            (_, None) => Mask::new(width, height).expect("the image's size"),
        };
        self.clips.push(mask);
    }

    fn colour(&self, palette_index: u16, alpha: f32) -> tiny_skia::Color {
        let Rgba(r, g, b, a) = match palette_index {
            0xFFFF => self.foreground,
            index => self.palette.get(usize::from(index)).copied().unwrap_or(self.foreground),
        };
        let alpha = (f32::from(a) / 255.0 * alpha).clamp(0.0, 1.0);
        let mut colour = tiny_skia::Color::from_rgba8(r, g, b, 255);
        colour.set_alpha(alpha);
        colour
    }

    fn stops(&self, stops: &[ColorStop]) -> Vec<GradientStop> {
        stops.iter().map(|stop| GradientStop::new(stop.offset, self.colour(stop.palette_index, stop.alpha))).collect()
    }

    fn shader(&self, brush: &Brush) -> Option<Shader<'static>> {
        let transform = self.transform();
        let point = |p: skrifa::raw::types::Point<f32>| Point::from_xy(p.x, p.y);
        match brush {
            Brush::Solid { palette_index, alpha } => Some(Shader::SolidColor(self.colour(*palette_index, *alpha))),
            Brush::LinearGradient { p0, p1, color_stops, extend } => {
                LinearGradient::new(point(*p0), point(*p1), self.stops(color_stops), spread(*extend), transform)
            }
            Brush::RadialGradient { c0, r0, c1, r1, color_stops, extend } => RadialGradient::new(
                point(*c0),
                *r0,
                point(*c1),
                *r1,
                self.stops(color_stops),
                spread(*extend),
                transform,
            ),
            Brush::SweepGradient { c0, start_angle, end_angle, color_stops, extend } => SweepGradient::new(
                point(*c0),
                *start_angle,
                *end_angle,
                self.stops(color_stops),
                spread(*extend),
                transform,
            ),
        }
    }
}

impl ColorPainter for ColrPainter<'_> {
    fn push_transform(&mut self, transform: Transform) {
        let Transform { xx, yx, xy, yy, dx, dy } = transform;
        let pushed = self.transform().pre_concat(tiny_skia::Transform::from_row(xx, yx, xy, yy, dx, dy));
        self.transforms.push(pushed);
    }

    fn pop_transform(&mut self) {
        if self.transforms.len() > 1 {
            self.transforms.pop();
        }
    }

    fn push_clip_glyph(&mut self, glyph: GlyphId) {
        let path = self.face.outline_glyphs().get(glyph).and_then(|outline| {
            let mut pen = PathPen(PathBuilder::new());
            outline.draw(DrawSettings::unhinted(Size::unscaled(), LocationRef::default()), &mut pen).ok()?;
            pen.0.finish()
        });
        self.push_clip_path(path);
    }

    fn push_clip_box(&mut self, clip_box: BoundingBox<f32>) {
        let rect = Rect::from_ltrb(clip_box.x_min, clip_box.y_min, clip_box.x_max, clip_box.y_max);
        self.push_clip_path(rect.map(PathBuilder::from_rect));
    }

    fn pop_clip(&mut self) {
        self.clips.pop();
    }

    fn fill(&mut self, brush: Brush<'_>) {
        let Some(shader) = self.shader(&brush) else { return };
        let paint = Paint { shader, anti_alias: true, ..Paint::default() };
        let Some(layer) = self.layers.last_mut() else { return };
        let area = Rect::from_xywh(0.0, 0.0, layer.width() as f32, layer.height() as f32).expect("the image's size");
        layer.fill_rect(area, &paint, tiny_skia::Transform::identity(), self.clips.last());
    }

    fn push_layer(&mut self, _: CompositeMode) {
        let (width, height) = (self.layers[0].width(), self.layers[0].height());
        self.layers.push(Pixmap::new(width, height).expect("the image's size"));
    }

    fn pop_layer_with_mode(&mut self, mode: CompositeMode) {
        if self.layers.len() < 2 {
            return;
        }
        let layer = self.layers.pop().expect("a layer above the image");
        let paint = PixmapPaint { blend_mode: blend_mode(mode), ..PixmapPaint::default() };
        let below = self.layers.last_mut().expect("the image");
        below.draw_pixmap(0, 0, layer.as_ref(), &paint, tiny_skia::Transform::identity(), None);
    }
}

/// Draws an outline into a tiny-skia path, in font units.
struct PathPen(PathBuilder);

impl OutlinePen for PathPen {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.move_to(x, y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.0.line_to(x, y);
    }
    fn quad_to(&mut self, cx0: f32, cy0: f32, x: f32, y: f32) {
        self.0.quad_to(cx0, cy0, x, y);
    }
    fn curve_to(&mut self, cx0: f32, cy0: f32, cx1: f32, cy1: f32, x: f32, y: f32) {
        self.0.cubic_to(cx0, cy0, cx1, cy1, x, y);
    }
    fn close(&mut self) {
        self.0.close();
    }
}

fn spread(extend: Extend) -> SpreadMode {
    match extend {
        Extend::Repeat => SpreadMode::Repeat,
        Extend::Reflect => SpreadMode::Reflect,
        _ => SpreadMode::Pad,
    }
}

fn blend_mode(mode: CompositeMode) -> BlendMode {
    use CompositeMode as C;
    match mode {
        C::Clear => BlendMode::Clear,
        C::Src => BlendMode::Source,
        C::Dest => BlendMode::Destination,
        C::DestOver => BlendMode::DestinationOver,
        C::SrcIn => BlendMode::SourceIn,
        C::DestIn => BlendMode::DestinationIn,
        C::SrcOut => BlendMode::SourceOut,
        C::DestOut => BlendMode::DestinationOut,
        C::SrcAtop => BlendMode::SourceAtop,
        C::DestAtop => BlendMode::DestinationAtop,
        C::Xor => BlendMode::Xor,
        C::Plus => BlendMode::Plus,
        C::Screen => BlendMode::Screen,
        C::Overlay => BlendMode::Overlay,
        C::Darken => BlendMode::Darken,
        C::Lighten => BlendMode::Lighten,
        C::ColorDodge => BlendMode::ColorDodge,
        C::ColorBurn => BlendMode::ColorBurn,
        C::HardLight => BlendMode::HardLight,
        C::SoftLight => BlendMode::SoftLight,
        C::Difference => BlendMode::Difference,
        C::Exclusion => BlendMode::Exclusion,
        C::Multiply => BlendMode::Multiply,
        C::HslHue => BlendMode::Hue,
        C::HslSaturation => BlendMode::Saturation,
        C::HslColor => BlendMode::Color,
        C::HslLuminosity => BlendMode::Luminosity,
        _ => BlendMode::SourceOver,
    }
}

/// A bitmap glyph (CBDT, sbix) as its PNG, drawn one em high.
fn paint_bitmap(face: &FontRef, glyph: GlyphId, size: f32) -> Option<ColourGlyph> {
    let strikes = skrifa::bitmap::BitmapStrikes::new(face);
    let bitmap = strikes.glyph_for_size(Size::new(size), glyph)?;
    let skrifa::bitmap::BitmapData::Png(png) = bitmap.data else { return None };
    let decoded = crate::view::images::decode_image_bytes(png.to_vec()).ok()?;
    if decoded.width == 0 || decoded.height == 0 {
        return None;
    }
    // Resized here to the pixels it is drawn on (Noto Color Emoji's bitmaps
    // are 136 × 128, 68 kB each): drawn pixel for pixel, it needs no
    // mipmaps, which on a software rasteriser cost a shader's compile. A
    // lying font's vast bitmap is first shrunk by sampling, at bounded cost.
    let height = size.round().max(1.0) as u32;
    let width = (decoded.width as f32 * size / decoded.height as f32).round().clamp(1.0, LARGEST) as u32;
    let bounded = crate::view::images::shrink(decoded, 2 * width.max(height));
    let crate::view::Pixels { width, height, rgba } = crate::view::images::resize(&bounded, width, height);
    Some(ColourGlyph { width, height, rgba })
}

//! Paints a [`Layout`] with femtovg: the whole window, or only a damaged
//! region of it (cleared, then everything that reaches into it drawn again
//! under a scissor), so that a ticking clock repaints a clock's worth of
//! pixels. Colours land premultiplied, as femtovg blends them and as a
//! compositor expects them of an ARGB window.
//!
//! Layouts are in the surface's logical pixels; on a scaled surface (a
//! Wayland output at scale 2) the painter draws them `scale` times larger,
//! so that text is rasterised at the size it is shown, not enlarged.
//!
//! Text is shaped through the [`Measure`] the bars laid it out with (each
//! character in the first font that has it) and drawn run by run: outlines
//! through femtovg's glyph atlas, colour glyphs (emoji) as images painted
//! once and kept.
//!
//! One painter (one canvas: its shaders compiled once, one glyph atlas)
//! can paint for several bars of a process, each its own [`Face`]: its
//! scale, and the images it shows, kept apart from the other bars'. Its
//! glyphs are held to a [`GlyphBudget`]: past it, the painter's owner
//! hands it a fresh renderer and it starts over.

use super::geometry::Rect;
use super::glyph_budget::GlyphBudget;
use super::grouping::color;
use super::layout::{FAILED_KEY, FOCUS_RING_REACH, FOCUS_RING_WIDTH, Layout, PlacedItem, SEPARATOR_WIDTH, piece_gap};
use super::measure::{BINARY_COLUMNS, Measure, binary_cell, icon_size};
use super::popup_layout::{self, PlacedCell, PopupLayout};
use super::text::{self, ShapedText, TextKind};
use super::{Frame, Style};
use crate::colour::Rgba;
use crate::view::images::HeldImages;
use crate::view::look::Border;
use crate::view::popup::Content;
use crate::view::{BinaryClock, BinaryClockStyle, Emphasis, Image, Piece};
use anyhow::Context;
use femtovg::imgref::Img;
use femtovg::rgb::RGBA8;
use femtovg::{Canvas, Color, FontId, ImageFlags, ImageId, Paint, Path, PositionedGlyph, Renderer, TextContext};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

pub struct Painter<R: Renderer> {
    canvas: Canvas<R>,
    /// The fonts, kept apart from the canvas so that a fresh canvas has
    /// them (under the same ids) without loading them again.
    text_context: TextContext,
    glyph_budget: GlyphBudget,
    /// The images capabilities hold for widgets (window icons).
    held: HeldImages,
    /// Shapes texts as the bars measured them.
    measure: Measure,
    /// The fonts texts were shaped in, loaded into femtovg, by their
    /// blob's id and face index; and whether each has colour glyphs.
    run_fonts: HashMap<(u64, u32), (FontId, bool)>,
    /// Colour glyphs painted into images of this canvas, with the size
    /// they are drawn at (none: the glyph has no colour, and is drawn as an
    /// outline).
    colour_glyphs: HashMap<ColourKey, Option<(ImageId, f32, f32)>>,
    /// Uploaded images, by the face that shows them and the image's key.
    images: HashMap<(u64, u64), ImageId>,
    /// Whom the painter paints for now.
    face: Face,
}

/// Whom a painter paints for: one bar's scale (device pixels to a
/// logical one), and its own images.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Face {
    /// Tells the bar's images apart from other bars'.
    pub owner: u64,
    pub scale: f32,
}

/// A colour glyph by its font (blob id, face index), glyph, size in device
/// pixels and the foreground its uncoloured parts take.
type ColourKey = (u64, u32, u32, u32, [u8; 4]);

/// Colour glyphs kept as images, past which they are painted again.
const COLOUR_GLYPHS: usize = 512;

/// How much of the accent lights a popup's cell under the pointer.
const HOVER_VEIL: f32 = 0.25;

impl<R: Renderer> Painter<R> {
    /// A painter for one face (owner 0, scale 1) drawing with `renderer`
    /// texts shaped through `measure`.
    pub fn new(renderer: R, measure: Measure) -> anyhow::Result<Painter<R>> {
        let text_context = TextContext::default();
        let canvas = Canvas::new_with_text_context(renderer, text_context.clone()).context("creating the canvas")?;
        Ok(Painter {
            canvas,
            text_context,
            glyph_budget: GlyphBudget::default(),
            held: HeldImages::default(),
            measure,
            run_fonts: HashMap::new(),
            colour_glyphs: HashMap::new(),
            images: HashMap::new(),
            face: Face { owner: 0, scale: 1.0 },
        })
    }

    /// Whether the glyphs rasterised so far hold more textures than the
    /// budget allows: the owner then calls [`Painter::start_over`] before
    /// the next frame.
    pub fn glyphs_over_budget(&self) -> bool {
        self.glyph_budget.exceeded_by(self.glyph_textures())
    }

    /// How many textures the glyphs rasterised so far fill.
    pub fn glyph_textures(&self) -> usize {
        self.canvas.debug_inspector_get_font_textures().len()
    }

    /// Paints with `renderer` on a fresh canvas from now on: the old one's
    /// glyphs and images are freed (the context they were made on must be
    /// current), and are rasterised or uploaded again as they are shown.
    /// The caller points the new renderer at the frame being drawn.
    pub fn start_over(&mut self, renderer: R) -> anyhow::Result<()> {
        let canvas =
            Canvas::new_with_text_context(renderer, self.text_context.clone()).context("creating a fresh canvas")?;
        drop(std::mem::replace(&mut self.canvas, canvas));
        self.images.clear();
        self.colour_glyphs.clear();
        self.glyph_budget.started_over();
        tracing::debug!(
            textures = self.glyph_budget.textures(),
            "the painter started over: its glyphs filled their budget"
        );
        Ok(())
    }

    /// Draws `held-image` pieces from `held` (the capabilities' images).
    pub fn use_held_images(&mut self, held: HeldImages) {
        self.held = held;
    }

    /// The images `held-image` pieces are drawn from.
    pub fn held_images(&self) -> HeldImages {
        self.held.clone()
    }

    /// What the painter shapes its texts with.
    pub fn measure(&self) -> Measure {
        self.measure.clone()
    }

    /// Draws `scale` device pixels to a logical one from now on.
    pub fn set_scale(&mut self, scale: f32) {
        self.face.scale = scale;
    }

    pub fn scale(&self) -> f32 {
        self.face.scale
    }

    /// Paints for `face` from now on.
    pub fn select(&mut self, face: Face) {
        self.face = face;
    }

    /// Frees the images of `owner`, a bar that is gone.
    pub fn forget_owner(&mut self, owner: u64) {
        let canvas = &mut self.canvas;
        self.images.retain(|(of, _), id| {
            let keep = *of != owner;
            if !keep {
                canvas.delete_image(*id);
            }
            keep
        });
    }

    pub fn canvas(&mut self) -> &mut Canvas<R> {
        &mut self.canvas
    }

    /// Paints what of `frame` lies in its damage (the whole window, or what
    /// changed). The caller flushes the canvas and presents the frame.
    pub fn paint(&mut self, frame: Frame) {
        let Frame { style, layout, damage: region, focus } = frame;
        let (window, scale) = (layout.window, self.face.scale);
        let device = window.scaled(scale);
        self.canvas.set_size(device.width.round() as u32, device.height.round() as u32, 1.0);
        // In whole device pixels: at a fractional scale a logical edge may
        // fall inside one, which would be cleared whole but painted in part.
        let device_region = snap(snap(region, &window).scaled(scale), &device);
        if device_region.is_empty() {
            return;
        }
        let region = device_region.scaled(1.0 / scale);
        let background = snap(layout.background.scaled(scale), &device).intersection(&device_region);
        if background != device_region {
            let margins =
                if style.see_through { Color::rgba(0, 0, 0, 0) } else { premultiplied(style.theme.background) };
            clear(&mut self.canvas, &device_region, margins);
        }
        clear(&mut self.canvas, &background, premultiplied(style.theme.background));

        self.canvas.save();
        self.canvas.scale(scale, scale);
        self.canvas.scissor(region.x, region.y, region.width, region.height);
        let reach = style.grouping.reach();
        for group in layout.groups.iter().filter(|group| group.grow(reach).intersects(&region)) {
            style.grouping.paint(&mut self.canvas, group);
        }
        for placed in layout.items.iter().filter(|placed| placed.reach(&window).intersects(&region)) {
            self.paint_item(style, placed);
        }
        let focused = focus.and_then(|index| layout.items.get(index));
        if let Some(placed) = focused.filter(|placed| placed.reach(&window).intersects(&region)) {
            self.paint_focus_ring(style, placed);
        }
        self.canvas.reset_scissor();
        self.canvas.restore();
        self.forget_images_not_in(layout);
        self.glyph_budget.frame_painted();
    }

    /// The size of a tooltip showing `text`: its lines in the bar's font,
    /// with room around them.
    pub fn tooltip_size(&mut self, style: &Style, text: &str) -> (u32, u32) {
        let lines = tooltip_lines(text);
        let widest = lines
            .iter()
            .map(|line| self.shape(line, TextKind::Label, style, style.font_size).width)
            .fold(0.0, f32::max);
        let margin = tooltip_margin(style);
        let width = (widest + 2.0 * margin).ceil().min(TOOLTIP_MAX_WIDTH);
        let height = (lines.len() as f32 * tooltip_line_height(style) + 2.0 * margin).ceil();
        (width as u32, height as u32)
    }

    /// Paints a whole `width` x `height` tooltip window (in logical pixels,
    /// drawn at the painter's scale) showing `text`: the theme's text on its
    /// background, opaque, framed in the accent. The caller flushes the
    /// canvas and presents the frame.
    pub fn paint_tooltip(&mut self, style: &Style, text: &str, width: u32, height: u32) {
        self.paint_aside(style, width as f32, height as f32, |painter| {
            let theme = &style.theme;
            let colour = Rgba(theme.text.0, theme.text.1, theme.text.2, 255);
            let (margin, line_height) = (tooltip_margin(style), tooltip_line_height(style));
            for (index, line) in tooltip_lines(text).iter().enumerate() {
                let middle = margin + line_height * (index as f32 + 0.5);
                let shaped = painter.shape(line, TextKind::Label, style, style.font_size);
                painter.draw_text(&shaped, margin, middle, colour);
            }
        });
    }

    /// Paints a whole window beside the bar, `width` x `height` logical
    /// pixels at the painter's scale: the theme's background, opaque,
    /// framed in the accent, and what `paint` draws on it.
    fn paint_aside(&mut self, style: &Style, width: f32, height: f32, paint: impl FnOnce(&mut Painter<R>)) {
        let scale = self.face.scale;
        let device = Rect::new(0.0, 0.0, width, height).scaled(scale);
        self.canvas.set_size(device.width.round() as u32, device.height.round() as u32, 1.0);
        let theme = &style.theme;
        let Rgba(r, g, b, _) = theme.background;
        clear(&mut self.canvas, &device, Color::rgb(r, g, b));
        self.canvas.save();
        self.canvas.scale(scale, scale);
        let mut frame = Path::new();
        frame.rect(0.5, 0.5, width - 1.0, height - 1.0);
        self.canvas.stroke_path(&frame, &Paint::color(color(theme.accent)).with_line_width(1.0));
        paint(self);
        self.canvas.restore();
        self.glyph_budget.frame_painted();
    }

    /// Paints a whole popup window laid out as `layout` (in logical pixels,
    /// drawn at the painter's scale): its cells as items are drawn (a
    /// button framed, a slider as a track filled to its value), on the
    /// theme's background, opaque, framed in the accent. The caller flushes
    /// the canvas and presents the frame.
    pub fn paint_popup(&mut self, style: &Style, layout: &PopupLayout) {
        let (width, height) = (layout.width.ceil(), layout.height.ceil());
        self.paint_aside(style, width, height, |painter| {
            let margin = popup_layout::popup_margin(style);
            for &y in &layout.separators {
                let mut line = Path::new();
                line.move_to(margin, y.floor() + 0.5);
                line.line_to(width - margin, y.floor() + 0.5);
                painter.canvas.stroke_path(&line, &Paint::color(color(style.theme.muted)).with_line_width(1.0));
            }
            for (index, placed) in layout.cells.iter().enumerate() {
                painter.paint_cell(style, placed, layout.hovered == Some(index));
            }
        });
    }

    /// Paints a cell of a popup; one `lit` (under the pointer, a click
    /// away) is filled with a veil of the accent, or one of its text's
    /// colour over a selected or urgent fill (the accent's own colour, by
    /// default), so that the keys' light shows on every cell.
    fn paint_cell(&mut self, style: &Style, placed: &PlacedCell, lit: bool) {
        let theme = &style.theme;
        let rect = placed.rect.grow(-1.0);
        let radius = corner_radius(style);
        let mut area = Path::new();
        area.rounded_rect(rect.x, rect.y, rect.width, rect.height, radius);
        let (foreground, veil) = match placed.cell.emphasis {
            Emphasis::Selected | Emphasis::Urgent => {
                let fill = if placed.cell.emphasis == Emphasis::Urgent { theme.urgent } else { theme.selected_fill };
                self.canvas.fill_path(&area, &Paint::color(color(fill)));
                (theme.selected_text, theme.selected_text)
            }
            Emphasis::Muted => (theme.muted, theme.accent),
            Emphasis::Normal => (theme.text, theme.accent),
        };
        if lit {
            let mut veil = color(veil);
            veil.a = HOVER_VEIL;
            self.canvas.fill_path(&area, &Paint::color(veil));
        }
        let middle = rect.y + rect.height / 2.0;
        match placed.cell.content {
            Content::Label(_) => {}
            Content::Button(_) => {
                self.canvas.stroke_path(&area, &Paint::color(color(theme.accent)).with_line_width(1.0));
            }
            Content::Slider(value) => {
                let track_height = (style.font_size * 0.35).max(2.0);
                let (x, width) = (placed.content_x, placed.content_width);
                let mut track = Path::new();
                track.rounded_rect(x, middle - track_height / 2.0, width, track_height, track_height / 2.0);
                self.canvas.fill_path(&track, &Paint::color(color(theme.muted)));
                let filled = width * f32::from(value.min(100)) / 100.0;
                let mut level = Path::new();
                level.rounded_rect(x, middle - track_height / 2.0, filled, track_height, track_height / 2.0);
                self.canvas.fill_path(&level, &Paint::color(color(theme.accent)));
                let mut knob = Path::new();
                knob.circle(x + filled, middle, track_height * 1.6);
                self.canvas.fill_path(&knob, &Paint::color(color(foreground)));
                return;
            }
        }
        self.paint_pieces(style, &placed.pieces, placed.content_x, middle, foreground);
    }

    /// `text` shaped at `size` in `style`'s text font (or the icon font first).
    fn shape(&self, text: &str, kind: TextKind, style: &Style, size: f32) -> Arc<ShapedText> {
        self.measure.shape(text, kind, style, size)
    }

    /// Draws `shaped` from `x`, centred on `middle`, in `colour` (unless a
    /// run has its own): each run in its font, on the baseline of the
    /// text's first font, over its fill and under its lines.
    fn draw_text(&mut self, shaped: &ShapedText, x: f32, middle: f32, colour: Rgba) {
        let baseline = middle + (shaped.ascent + shaped.descent) / 2.0;
        for (run, background) in shaped.runs.iter().filter_map(|run| Some((run, run.paint.background?))) {
            let mut fill = Path::new();
            fill.rect(x + run.x, baseline - shaped.ascent, run.advance, shaped.ascent - shaped.descent);
            self.canvas.fill_path(&fill, &Paint::color(color(background)));
        }
        for run in &shaped.runs {
            let Some((font, has_colour)) = self.run_font(&run.font) else { continue };
            let colour = run.paint.colour.unwrap_or(colour);
            let paint = Paint::color(color(colour)).with_font_size(run.size);
            let mut outlines = Vec::with_capacity(run.glyphs.len());
            for glyph in &run.glyphs {
                let drawn_in_colour = has_colour && self.draw_colour_glyph(run, glyph, x, middle, colour);
                if !drawn_in_colour {
                    let glyph_id = u16::try_from(glyph.id).unwrap_or(0);
                    outlines.push(PositionedGlyph { x: x + glyph.x, y: baseline + glyph.y, glyph_id });
                }
            }
            if !outlines.is_empty() {
                self.draw_outlines(run, font, outlines, (x + run.x, baseline), &paint);
            }
            for &(below, thickness) in &run.paint.lines {
                let mut line = Path::new();
                line.rect(x + run.x, baseline + below - thickness / 2.0, run.advance, thickness);
                self.canvas.fill_path(&line, &Paint::color(color(colour)));
            }
        }
    }

    /// Fills a run's `outlines` with `paint`; slanted about `origin` when
    /// its font has no italic, and stroked too when it has no face as heavy
    /// as the run asks.
    fn draw_outlines(
        &mut self,
        run: &text::ShapedRun,
        font: FontId,
        outlines: Vec<PositionedGlyph>,
        (origin_x, origin_y): (f32, f32),
        paint: &Paint,
    ) {
        let slanted = run.paint.skew.is_some();
        if let Some(degrees) = run.paint.skew {
            self.canvas.save();
            self.canvas.translate(origin_x, origin_y);
            self.canvas.skew_x(-degrees.to_radians());
            self.canvas.translate(-origin_x, -origin_y);
        }
        if run.paint.embolden {
            let stroke = paint.clone().with_line_width(run.size / 24.0);
            let _ = self.canvas.stroke_glyph_run(font, &run.coords, outlines.clone(), &stroke);
        }
        let _ = self.canvas.fill_glyph_run(font, &run.coords, outlines, paint);
        if slanted {
            self.canvas.restore();
        }
    }

    /// The femtovg font of a run's `font`, loaded the first time, and
    /// whether it has colour glyphs; none for a font femtovg cannot read.
    fn run_font(&mut self, font: &parley::FontData) -> Option<(FontId, bool)> {
        let key = (font.data.id(), font.index);
        if let Some(known) = self.run_fonts.get(&key) {
            return Some(*known);
        }
        let loaded = match self.text_context.add_shared_font_with_index(font.data.clone(), font.index) {
            Ok(id) => Some((id, text::colour::is_colour_font(font))),
            Err(error) => {
                tracing::warn!("a font the text was shaped in cannot be drawn: {error:?}");
                None
            }
        };
        loaded.inspect(|known| {
            self.run_fonts.insert(key, *known);
        })
    }

    /// Draws `glyph` of `run` as a colour image, in its advance and centred
    /// on `middle`; false when it has no colour (it is then an outline).
    fn draw_colour_glyph(
        &mut self,
        run: &text::ShapedRun,
        glyph: &text::ShapedGlyph,
        x: f32,
        middle: f32,
        foreground: Rgba,
    ) -> bool {
        let scale = self.face.scale;
        let pixels = run.size * scale;
        let Rgba(red, green, blue, alpha) = foreground;
        let key = (run.font.data.id(), run.font.index, glyph.id, pixels.to_bits(), [red, green, blue, alpha]);
        let image = match self.colour_glyphs.get(&key) {
            Some(image) => *image,
            None => {
                if self.colour_glyphs.len() >= COLOUR_GLYPHS {
                    for (image, ..) in self.colour_glyphs.drain().filter_map(|(_, image)| image) {
                        self.canvas.delete_image(image);
                    }
                }
                let image = text::colour::paint(&run.font, glyph.id, pixels, foreground).and_then(|painted| {
                    let pixels: Vec<RGBA8> =
                        painted.rgba.chunks_exact(4).map(|p| RGBA8::new(p[0], p[1], p[2], p[3])).collect();
                    let image = Img::new(pixels.as_slice(), painted.width as usize, painted.height as usize);
                    let id = self.canvas.create_image(image, ImageFlags::empty()).ok()?;
                    Some((id, painted.width as f32 / scale, painted.height as f32 / scale))
                });
                self.colour_glyphs.insert(key, image);
                image
            }
        };
        let Some((image, width, height)) = image else { return false };
        // Centred on the line, moved as the glyph is (a raised span's), on
        // whole pixels: the image is drawn pixel for pixel.
        let on_pixels = |at: f32| (at * scale).round() / scale;
        let left = on_pixels(x + glyph.x + (glyph.advance - width) / 2.0);
        let top = on_pixels(middle + glyph.y - height / 2.0);
        let mut area = Path::new();
        area.rect(left, top, width, height);
        self.canvas.fill_path(&area, &Paint::image(image, left, top, width, height, 0.0, 1.0));
        true
    }

    /// A ring around the item the keyboard is on, in the theme's accent,
    /// a pixel off it: an item filled with the accent (a selected one) is
    /// ringed as clearly as any other, and no text is crossed.
    fn paint_focus_ring(&mut self, style: &Style, placed: &PlacedItem) {
        let around = placed.rect.grow(FOCUS_RING_REACH - FOCUS_RING_WIDTH / 2.0);
        let mut ring = Path::new();
        let corners = corner_radius(style) + FOCUS_RING_REACH;
        ring.rounded_rect(around.x, around.y, around.width, around.height, corners);
        let mut paint = Paint::color(color(style.theme.accent));
        paint.set_line_width(FOCUS_RING_WIDTH);
        self.canvas.stroke_path(&ring, &paint);
    }

    fn paint_item(&mut self, style: &Style, placed: &PlacedItem) {
        let theme = &style.theme;
        let (rect, look) = (placed.rect, placed.item.look.as_deref());
        let (fill, foreground) = match placed.item.emphasis {
            Emphasis::Selected => (Some(theme.selected_fill), theme.selected_text),
            Emphasis::Urgent => (Some(theme.urgent), theme.selected_text),
            Emphasis::Muted => (None, theme.muted),
            Emphasis::Normal if placed.item.key == FAILED_KEY => (None, theme.error),
            Emphasis::Normal => (None, theme.text),
        };
        let fill = look.and_then(|look| look.background).or(fill);
        let foreground = look.and_then(|look| look.colour).unwrap_or(foreground);
        if let Some(fill) = fill {
            let mut path = Path::new();
            // A look's box is square: blocks side by side make one band (powerline).
            let corners = if look.is_some() { 0.0 } else { corner_radius(style) };
            path.rounded_rect(rect.x, rect.y, rect.width, rect.height, corners);
            self.canvas.fill_path(&path, &Paint::color(color(fill)));
        }
        if let Some(border) = look.and_then(|look| look.border) {
            self.paint_border(&rect, &border);
        }
        if let Some(at) = placed.separator_at {
            let inset = rect.height * 0.2;
            let mut line = Path::new();
            line.rect(at, rect.y + inset, SEPARATOR_WIDTH, rect.height - 2.0 * inset);
            self.canvas.fill_path(&line, &Paint::color(color(theme.muted)));
        }
        let middle = rect.y + rect.height / 2.0;
        self.paint_pieces(style, &placed.pieces, placed.content_x(style), middle, foreground);
    }

    /// Draws `border`'s sides just inside `rect`.
    fn paint_border(&mut self, rect: &Rect, border: &Border) {
        let mut sides = Path::new();
        sides.rect(rect.x, rect.y, rect.width, border.top);
        sides.rect(rect.x, rect.bottom() - border.bottom, rect.width, border.bottom);
        sides.rect(rect.x, rect.y, border.left, rect.height);
        sides.rect(rect.right() - border.right, rect.y, border.right, rect.height);
        self.canvas.fill_path(&sides, &Paint::color(color(border.colour)));
    }

    /// Draws `pieces` from `x` along `middle` in `foreground`.
    fn paint_pieces(&mut self, style: &Style, pieces: &[(Piece, f32)], x: f32, middle: f32, foreground: Rgba) {
        // Text starts on a whole device pixel, so that a label drawn again
        // elsewhere (a neighbour grew) reuses its rasterised glyphs: femtovg
        // keeps one per tenth of a pixel a glyph lands on.
        let scale = self.face.scale;
        let whole_pixel = |x: f32| (x * scale).round() / scale;
        let mut cursor = x;
        for (piece, width) in pieces {
            match piece {
                Piece::Text(text) => {
                    let shaped = self.shape(text, TextKind::Label, style, style.font_size);
                    self.draw_text(&shaped, whole_pixel(cursor), middle, foreground);
                }
                Piece::Icon(glyph) => {
                    let shaped = self.shape(glyph, TextKind::Icon, style, icon_size(style));
                    self.draw_text(&shaped, whole_pixel(cursor), middle, foreground);
                }
                Piece::Styled(spans) => {
                    let shaped = self.measure.shape_styled(spans, style, style.font_size);
                    self.draw_text(&shaped, whole_pixel(cursor), middle, foreground);
                }
                Piece::Image(image) => {
                    self.paint_image(image_key(image), cursor, middle, icon_size(style), || image.clone())
                }
                // A handle nobody holds any more (the window just closed) draws nothing.
                Piece::HeldImage(handle) => {
                    if let Some(pixels) = self.held.get(*handle) {
                        self.paint_image(*handle, cursor, middle, icon_size(style), || Image::Pixels(pixels));
                    }
                }
                Piece::BinaryClock(clock) => {
                    paint_binary_clock(&mut self.canvas, clock, style, cursor, middle, foreground)
                }
            }
            cursor += width + piece_gap(style);
        }
    }

    /// Draws the image known by `key`, uploading what `load` gives the first time.
    fn paint_image(&mut self, key: u64, x: f32, middle: f32, size: f32, load: impl FnOnce() -> Image) {
        let key = (self.face.owner, key);
        let id = match self.images.get(&key) {
            Some(id) => *id,
            None => match self.upload(&load()) {
                Ok(id) => {
                    self.images.insert(key, id);
                    id
                }
                Err(error) => {
                    tracing::warn!("{error:#}");
                    return;
                }
            },
        };
        let top = middle - size / 2.0;
        let mut rect = Path::new();
        rect.rect(x, top, size, size);
        self.canvas.fill_path(&rect, &Paint::image(id, x, top, size, size, 0.0, 1.0));
    }

    fn upload(&mut self, image: &Image) -> anyhow::Result<ImageId> {
        let (width, height, rgba) = match image {
            Image::Pixels(pixels) => (pixels.width, pixels.height, pixels.rgba.clone()),
            // The runtime reads the files widgets name; the painter opens none.
            Image::Path(path) => anyhow::bail!("image {path} was not read by the runtime"),
        };
        let pixels: Vec<RGBA8> = rgba.chunks_exact(4).map(|p| RGBA8::new(p[0], p[1], p[2], p[3])).collect();
        self.canvas
            .create_image(Img::new(pixels.as_slice(), width as usize, height as usize), ImageFlags::empty())
            .context("uploading an image")
    }

    /// Frees the GPU images that no item of `layout` shows.
    fn forget_images_not_in(&mut self, layout: &Layout) {
        if self.images.is_empty() {
            return;
        }
        let shown: Vec<u64> = layout
            .items
            .iter()
            .flat_map(|placed| &placed.pieces)
            .filter_map(|(piece, _)| match piece {
                Piece::Image(image) => Some(image_key(image)),
                Piece::HeldImage(handle) => Some(*handle),
                _ => None,
            })
            .collect();
        let (canvas, owner) = (&mut self.canvas, self.face.owner);
        self.images.retain(|(of, key), id| {
            let keep = *of != owner || shown.contains(key);
            if !keep {
                canvas.delete_image(*id);
            }
            keep
        });
    }
}

fn image_key(image: &Image) -> u64 {
    let mut hasher = DefaultHasher::new();
    match image {
        Image::Path(path) => path.hash(&mut hasher),
        Image::Pixels(pixels) => (pixels.width, pixels.height, &pixels.rgba).hash(&mut hasher),
    }
    hasher.finish()
}

fn paint_binary_clock<R: Renderer>(
    canvas: &mut Canvas<R>,
    clock: &BinaryClock,
    style: &Style,
    x: f32,
    middle: f32,
    colour: Rgba,
) {
    let cell = binary_cell(style);
    let digits =
        [clock.hour / 10, clock.hour % 10, clock.minute / 10, clock.minute % 10, clock.second / 10, clock.second % 10];
    let bottom = middle + 2.0 * cell;
    let on = Paint::color(color(colour));
    let off = Paint::color(color(colour.with_alpha(60)));
    for (column, (digit, rows)) in digits.iter().zip(BINARY_COLUMNS).enumerate() {
        let left = x + column as f32 * cell + (column / 2) as f32 * cell;
        for row in 0..rows {
            let top = bottom - (row as f32 + 1.0) * cell;
            let mut mark = Path::new();
            let inset = cell * 0.15;
            match clock.style {
                BinaryClockStyle::Circle => mark.circle(left + cell / 2.0, top + cell / 2.0, cell / 2.0 - inset),
                BinaryClockStyle::Rectangle => {
                    mark.rect(left + inset, top + inset, cell - 2.0 * inset, cell - 2.0 * inset)
                }
            }
            canvas.fill_path(&mark, if digit >> row & 1 == 1 { &on } else { &off });
        }
    }
}

/// A tooltip wider than this is cut (its text runs out of the window).
const TOOLTIP_MAX_WIDTH: f32 = 1200.0;
/// A tooltip shows this many lines at most.
const TOOLTIP_LINES: usize = 20;

fn tooltip_lines(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().take(TOOLTIP_LINES).collect();
    if lines.is_empty() { vec![""] } else { lines }
}

fn tooltip_margin(style: &Style) -> f32 {
    style.font_size * 0.5
}

fn tooltip_line_height(style: &Style) -> f32 {
    style.font_size * 1.4
}

/// How round the corners of an item's fill, a popup's cell and the
/// keyboard's ring around an item are.
fn corner_radius(style: &Style) -> f32 {
    style.font_size * 0.4
}

fn premultiplied(Rgba(r, g, b, a): Rgba) -> Color {
    let scale = |channel: u8| ((channel as u32 * a as u32 + 127) / 255) as u8;
    Color::rgba(scale(r), scale(g), scale(b), a)
}

/// A raw clear of device pixels (the scissor does not apply to it).
fn clear<R: Renderer>(canvas: &mut Canvas<R>, rect: &Rect, colour: Color) {
    if !rect.is_empty() {
        canvas.clear_rect(rect.x as u32, rect.y as u32, rect.width as u32, rect.height as u32, colour);
    }
}

/// `rect` grown to whole pixels and cut to the window.
fn snap(rect: Rect, window: &Rect) -> Rect {
    let x = rect.x.floor().max(window.x);
    let y = rect.y.floor().max(window.y);
    let right = rect.right().ceil().min(window.right());
    let bottom = rect.bottom().ceil().min(window.bottom());
    Rect::new(x, y, (right - x).max(0.0), (bottom - y).max(0.0))
}

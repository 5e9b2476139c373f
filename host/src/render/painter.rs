//! Lays out and paints a [`Scene`] with femtovg.
//!
//! Each side is measured first, then placed: left from the left padding,
//! right ending at the right padding, centre centred on the bar. Widgets are
//! `widget_spacing` apart; items of one widget are half a font size apart;
//! text longer than `max_label_width` is cut with an ellipsis.

use super::{ICON_FONT, Scene, SceneWidget, Style};
use crate::config::Side;
use crate::theme::Rgba;
use crate::view::{BinaryClock, BinaryClockStyle, Image, Item, Piece, WidgetState};
use femtovg::imgref::Img;
use femtovg::rgb::RGBA8;
use femtovg::{Align, Baseline, Canvas, Color, FontId, ImageFlags, ImageId, Paint, Path, Renderer};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

/// Where an item was drawn, for mouse hit-testing.
#[derive(Debug, Clone, PartialEq)]
pub struct HitBox {
    pub widget: usize,
    pub key: String,
    pub x: f32,
    pub width: f32,
    pub tooltip: Option<String>,
}

pub struct Painter<R: Renderer> {
    canvas: Canvas<R>,
    text_font: FontId,
    icon_font: FontId,
    images: HashMap<u64, ImageId>,
    images_used: Vec<u64>,
}

const ELLIPSIS: &str = "…";

/// One item once measured: its pieces as drawn (text truncated) with their widths.
struct Placed {
    widget: usize,
    item: Item,
    pieces: Vec<(Piece, f32)>,
    width: f32,
}

impl<R: Renderer> Painter<R> {
    pub fn new(mut canvas: Canvas<R>, text_font: &[u8]) -> Result<Painter<R>, String> {
        let text_font = canvas.add_font_mem(text_font).map_err(|error| format!("loading the text font: {error}"))?;
        let icon_font = canvas.add_font_mem(ICON_FONT).map_err(|error| format!("loading the icon font: {error}"))?;
        Ok(Painter { canvas, text_font, icon_font, images: HashMap::new(), images_used: Vec::new() })
    }

    /// Draws text with another font from now on (a reloaded `font_family`).
    pub fn set_text_font(&mut self, data: &[u8]) -> Result<(), String> {
        self.text_font = self.canvas.add_font_mem(data).map_err(|error| format!("loading the text font: {error}"))?;
        Ok(())
    }

    pub fn canvas(&mut self) -> &mut Canvas<R> {
        &mut self.canvas
    }

    /// Paints the whole bar at `width` x `height` device pixels. The caller
    /// flushes the canvas and presents the frame.
    pub fn paint(&mut self, scene: &Scene, width: u32, height: u32) -> Vec<HitBox> {
        let style = &scene.style;
        self.canvas.set_size(width, height, 1.0);
        let background = style.theme.background;
        self.canvas.clear_rect(0, 0, width, height, color(background));
        self.images_used.clear();

        let mut hits = Vec::new();
        for side in [Side::Left, Side::Center, Side::Right] {
            let placed = self.measure_side(scene, side);
            let total = side_width(&placed, style);
            let mut x = match side {
                Side::Left => style.padding_left,
                Side::Center => (width as f32 - total) / 2.0,
                Side::Right => width as f32 - style.padding_right - total,
            };
            let mut previous_widget = None;
            for placed in placed {
                if let Some(previous) = previous_widget {
                    x += if previous == placed.widget { item_gap(style) } else { style.widget_spacing };
                }
                previous_widget = Some(placed.widget);
                self.paint_item(style, &placed, x);
                hits.push(HitBox {
                    widget: placed.widget,
                    key: placed.item.key.clone(),
                    x,
                    width: placed.width,
                    tooltip: placed.item.tooltip.clone(),
                });
                x += placed.width;
            }
        }
        self.forget_unused_images();
        hits
    }

    fn measure_side(&mut self, scene: &Scene, side: Side) -> Vec<Placed> {
        let style = &scene.style;
        let mut placed = Vec::new();
        for (index, widget) in scene.widgets.iter().enumerate().filter(|(_, widget)| widget.side == side) {
            for item in displayed_items(widget) {
                let pieces: Vec<(Piece, f32)> = item.pieces.iter().map(|piece| self.fit_piece(piece, style)).collect();
                let content: f32 = pieces.iter().map(|(_, width)| width).sum::<f32>()
                    + piece_gap(style) * pieces.len().saturating_sub(1) as f32;
                let width = content + 2.0 * item_padding(style);
                placed.push(Placed { widget: index, item, pieces, width });
            }
        }
        placed
    }

    /// The piece as it will be drawn (text truncated) and its width.
    fn fit_piece(&mut self, piece: &Piece, style: &Style) -> (Piece, f32) {
        match piece {
            Piece::Text(text) => {
                let paint = self.text_paint(style, Rgba(0, 0, 0, 255));
                let (text, width) = self.truncate(text, &paint, style.max_label_width);
                (Piece::Text(text), width)
            }
            Piece::Icon(glyph) => {
                let paint = self.icon_paint(style, Rgba(0, 0, 0, 255));
                (piece.clone(), self.text_width(glyph, &paint))
            }
            Piece::Image(_) => (piece.clone(), icon_size(style)),
            Piece::BinaryClock(_) => (piece.clone(), binary_clock_width(style)),
        }
    }

    fn truncate(&mut self, text: &str, paint: &Paint, max_width: f32) -> (String, f32) {
        let width = self.text_width(text, paint);
        if width <= max_width {
            return (text.to_owned(), width);
        }
        // The longest prefix that fits with the ellipsis, by bisection over char boundaries.
        let boundaries: Vec<usize> = text.char_indices().map(|(index, _)| index).collect();
        let (mut low, mut high) = (0, boundaries.len());
        while low < high {
            let middle = (low + high).div_ceil(2);
            let candidate = format!("{}{ELLIPSIS}", &text[..boundaries[middle.min(boundaries.len() - 1)]]);
            if self.text_width(&candidate, paint) <= max_width { low = middle } else { high = middle - 1 }
        }
        let cut = format!("{}{ELLIPSIS}", text[..boundaries[low.min(boundaries.len() - 1)]].trim_end());
        let width = self.text_width(&cut, paint);
        (cut, width)
    }

    fn text_width(&mut self, text: &str, paint: &Paint) -> f32 {
        self.canvas.measure_text(0.0, 0.0, text, paint).map(|metrics| metrics.width()).unwrap_or(0.0)
    }

    fn text_paint(&self, style: &Style, colour: Rgba) -> Paint {
        Paint::color(color(colour))
            .with_font(&[self.text_font, self.icon_font])
            .with_font_size(style.font_size)
            .with_text_baseline(Baseline::Middle)
            .with_text_align(Align::Left)
    }

    fn icon_paint(&self, style: &Style, colour: Rgba) -> Paint {
        Paint::color(color(colour))
            .with_font(&[self.icon_font, self.text_font])
            .with_font_size(style.font_size * style.icon_scale)
            .with_text_baseline(Baseline::Middle)
            .with_text_align(Align::Left)
    }

    fn paint_item(&mut self, style: &Style, placed: &Placed, x: f32) {
        let theme = &style.theme;
        let failed = placed.item.key == FAILED_KEY;
        let foreground = if placed.item.selected {
            let mut fill = Path::new();
            let inset = style.height * 0.15;
            fill.rounded_rect(x, inset, placed.width, style.height - 2.0 * inset, style.font_size * 0.4);
            self.canvas.fill_path(&fill, &Paint::color(color(theme.selected_fill)));
            theme.selected_text
        } else if failed {
            theme.error
        } else {
            theme.text
        };
        let middle = style.height / 2.0;
        let mut cursor = x + item_padding(style);
        for (piece, width) in &placed.pieces {
            match piece {
                Piece::Text(text) => {
                    let _ = self.canvas.fill_text(cursor, middle, text, &self.text_paint(style, foreground));
                }
                Piece::Icon(glyph) => {
                    let _ = self.canvas.fill_text(cursor, middle, glyph, &self.icon_paint(style, foreground));
                }
                Piece::Image(image) => self.paint_image(image, cursor, middle, icon_size(style)),
                Piece::BinaryClock(clock) => paint_binary_clock(&mut self.canvas, clock, style, cursor, foreground),
            }
            cursor += width + piece_gap(style);
        }
    }

    fn paint_image(&mut self, image: &Image, x: f32, middle: f32, size: f32) {
        let mut hasher = DefaultHasher::new();
        image.hash_content(&mut hasher);
        let key = hasher.finish();
        let id = match self.images.get(&key) {
            Some(id) => *id,
            None => match self.upload(image) {
                Ok(id) => {
                    self.images.insert(key, id);
                    id
                }
                Err(error) => {
                    tracing::warn!("{error}");
                    return;
                }
            },
        };
        self.images_used.push(key);
        let top = middle - size / 2.0;
        let mut rect = Path::new();
        rect.rect(x, top, size, size);
        self.canvas.fill_path(&rect, &Paint::image(id, x, top, size, size, 0.0, 1.0));
    }

    fn upload(&mut self, image: &Image) -> Result<ImageId, String> {
        let (width, height, rgba) = match image {
            Image::Pixels(pixels) => (pixels.width, pixels.height, pixels.rgba.clone()),
            Image::Path(path) => decode_png(path)?,
        };
        let pixels: Vec<RGBA8> = rgba.chunks_exact(4).map(|p| RGBA8::new(p[0], p[1], p[2], p[3])).collect();
        self.canvas
            .create_image(Img::new(pixels.as_slice(), width as usize, height as usize), ImageFlags::empty())
            .map_err(|error| format!("uploading an image: {error}"))
    }

    /// Frees the GPU images no item showed in this frame.
    fn forget_unused_images(&mut self) {
        let used = std::mem::take(&mut self.images_used);
        let canvas = &mut self.canvas;
        self.images.retain(|key, id| {
            let keep = used.contains(key);
            if !keep {
                canvas.delete_image(*id);
            }
            keep
        });
        self.images_used = used;
    }
}

impl Image {
    fn hash_content(&self, hasher: &mut DefaultHasher) {
        match self {
            Image::Path(path) => path.hash(hasher),
            Image::Pixels(pixels) => (pixels.width, pixels.height, &pixels.rgba).hash(hasher),
        }
    }
}

fn decode_png(path: &str) -> Result<(u32, u32, Vec<u8>), String> {
    let file = std::fs::File::open(path).map_err(|error| format!("opening image {path}: {error}"))?;
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    decoder.set_transformations(png::Transformations::normalize_to_color8() | png::Transformations::ALPHA);
    let mut reader = decoder.read_info().map_err(|error| format!("reading image {path}: {error}"))?;
    let mut buffer = vec![0; reader.output_buffer_size().ok_or_else(|| format!("image {path} is too large"))?];
    let info = reader.next_frame(&mut buffer).map_err(|error| format!("decoding image {path}: {error}"))?;
    buffer.truncate(info.buffer_size());
    let rgba = match info.color_type {
        png::ColorType::Rgba => buffer,
        png::ColorType::GrayscaleAlpha => buffer.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect(),
        other => return Err(format!("image {path} has unsupported colour type {other:?}")),
    };
    Ok((info.width, info.height, rgba))
}

/// Phosphor's "warning" glyph, drawn in front of a failed widget's name.
const WARNING_GLYPH: &str = "\u{e4e0}";

/// The key of the item drawn in place of a failed widget.
const FAILED_KEY: &str = "\u{0}failed";

/// The items a widget shows: its view, or one warning item when it failed.
fn displayed_items(widget: &SceneWidget) -> Vec<Item> {
    match &widget.state {
        WidgetState::Pending => Vec::new(),
        WidgetState::Ready(view) => view.items.clone(),
        WidgetState::Failed { message } => vec![Item {
            key: FAILED_KEY.into(),
            pieces: vec![Piece::Icon(WARNING_GLYPH.into()), Piece::Text(widget.name.clone())],
            selected: false,
            tooltip: Some(message.clone()),
        }],
    }
}

fn side_width(placed: &[Placed], style: &Style) -> f32 {
    let mut total = 0.0;
    for (index, item) in placed.iter().enumerate() {
        if index > 0 {
            total += if placed[index - 1].widget == item.widget { item_gap(style) } else { style.widget_spacing };
        }
        total += item.width;
    }
    total
}

fn item_gap(style: &Style) -> f32 {
    style.font_size * 0.5
}

fn item_padding(style: &Style) -> f32 {
    style.font_size * 0.4
}

fn piece_gap(style: &Style) -> f32 {
    style.font_size * 0.35
}

fn icon_size(style: &Style) -> f32 {
    style.font_size * style.icon_scale
}

/// hh:mm:ss as six columns of bits: 2, 4, 3, 4, 3, 4 rows.
const BINARY_COLUMNS: [u8; 6] = [2, 4, 3, 4, 3, 4];

fn binary_cell(style: &Style) -> f32 {
    (style.height * 0.6 / 4.0).min(style.font_size * 0.8)
}

fn binary_clock_width(style: &Style) -> f32 {
    let cell = binary_cell(style);
    // Columns touch within a pair; pairs are one cell apart.
    6.0 * cell + 2.0 * cell
}

fn paint_binary_clock<R: Renderer>(canvas: &mut Canvas<R>, clock: &BinaryClock, style: &Style, x: f32, colour: Rgba) {
    let cell = binary_cell(style);
    let digits =
        [clock.hour / 10, clock.hour % 10, clock.minute / 10, clock.minute % 10, clock.second / 10, clock.second % 10];
    let bottom = style.height / 2.0 + 2.0 * cell;
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

fn color(rgba: Rgba) -> Color {
    Color::rgba(rgba.0, rgba.1, rgba.2, rgba.3)
}

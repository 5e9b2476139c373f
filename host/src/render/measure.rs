//! How wide what the bar shows is: the [`Measure`] that bars lay out with
//! (their scene, their popups) before a surface paints anything, and that
//! the painters shape their texts with when they draw what was laid out.
//! One text engine for all of it, so that a text is shaped once whether it
//! is measured or drawn, and texts and icons as fitted before, with their
//! widths: shaping every label on every frame would cost more than painting
//! the damage.

use super::layout::{self, Layout};
use super::notice_layout::{self, NoticeCard};
use super::osd_layout::{self, OsdCard};
use super::popup_layout::{self, PopupLayout};
use super::text::{self, ShapedText, TextEngine, TextKind};
use super::{FontData, Scene, Style, icon_font};
use crate::view::popup::Popup;
use crate::view::{Piece, Span};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// The bars' metrics and the painters' shaping, on one thread; its clones
/// share them.
#[derive(Clone)]
pub struct Measure {
    inner: Rc<RefCell<Metrics>>,
}

struct Metrics {
    /// Shapes texts: which font each character is drawn in, and where.
    text: TextEngine,
    /// The text engine's generation the fitted texts were measured in.
    text_generation: u64,
    fitted_texts: FittedTexts,
}

/// Texts (or icons) by how they were fitted: their font's key, font size
/// (negative for icons) and the label width they were cut to. Looked up by
/// `&str`, so that a label shown again costs no copy to find.
type FittedTexts = HashMap<FitStyle, HashMap<String, (String, f32)>>;
type FitStyle = (u64, u32, u32);

const FITTED_TEXTS: usize = 1024;

impl Default for Measure {
    fn default() -> Measure {
        Measure::new()
    }
}

impl Measure {
    /// Measures with the embedded icon font and each style's text font.
    pub fn new() -> Measure {
        let mut metrics =
            Metrics { text: TextEngine::new(&icon_font()), text_generation: 0, fitted_texts: HashMap::new() };
        // Shaping's first use (its tables, ICU's data) is the start's, not
        // that of whichever text comes first.
        metrics.shape("0", TextKind::Label, None, 12.0);
        Measure { inner: Rc::new(RefCell::new(metrics)) }
    }

    /// Where everything in `scene` goes on a window of `width` x `height`
    /// logical pixels.
    pub fn lay_out(&self, scene: &Scene, width: f32, height: f32) -> Layout {
        let metrics = &mut *self.inner.borrow_mut();
        layout::lay_out(scene, width, height, &mut |piece, max_width| metrics.fit_piece(piece, &scene.style, max_width))
    }

    /// Where everything in `popup` goes, its texts cut to the bar's
    /// `max_label_width`.
    pub fn lay_out_popup(&self, popup: &Popup, style: &Style) -> PopupLayout {
        let metrics = &mut *self.inner.borrow_mut();
        popup_layout::lay_out_popup(popup, style, &mut |piece| metrics.fit_piece(piece, style, style.max_label_width))
    }

    /// Where everything on the card of a notification goes, `width` wide.
    pub fn lay_out_notice(&self, card: &NoticeCard, width: f32, style: &Style) -> PopupLayout {
        let metrics = &mut *self.inner.borrow_mut();
        notice_layout::lay_out_notice(card, width, style, &mut |piece, room| metrics.fit_piece(piece, style, room))
    }

    /// Where everything on an on-screen display goes, `width` wide.
    pub fn lay_out_osd(&self, card: &OsdCard, width: f32, style: &Style) -> PopupLayout {
        let metrics = &mut *self.inner.borrow_mut();
        osd_layout::lay_out_osd(card, width, style, &mut |piece, room| metrics.fit_piece(piece, style, room))
    }

    /// `text` shaped at `size` in `style`'s text font (or the icon font first).
    pub(super) fn shape(&self, text: &str, kind: TextKind, style: &Style, size: f32) -> Arc<ShapedText> {
        self.inner.borrow_mut().shape(text, kind, style.text_font.as_ref(), size)
    }

    /// `spans` shaped at `size` in `style`'s text font.
    pub(super) fn shape_styled(&self, spans: &[Span], style: &Style, size: f32) -> Arc<ShapedText> {
        self.inner.borrow_mut().shape_styled(spans, style.text_font.as_ref(), size)
    }
}

impl Metrics {
    /// The piece as it will be drawn (text cut to `max_width`) and its width.
    fn fit_piece(&mut self, piece: &Piece, style: &Style, max_width: f32) -> (Piece, f32) {
        if self.text.generation() != self.text_generation {
            // The fonts texts are drawn in changed: widths are measured again.
            self.fitted_texts.clear();
            self.text_generation = self.text.generation();
        }
        let font = style.text_font.as_ref();
        let fit_style = |size: f32| (font.map_or(0, FontData::key), size.to_bits(), max_width.to_bits());
        match piece {
            Piece::Text(text) => {
                let fit_style = fit_style(style.font_size);
                if let Some((fitted, width)) = self.fitted(fit_style, text) {
                    return (Piece::Text(fitted.clone()), *width);
                }
                let size = style.font_size;
                let (fitted, width) =
                    text::cut(text, max_width, |text| self.shape(text, TextKind::Label, font, size).width);
                self.remember(fit_style, text, fitted.clone(), width);
                (Piece::Text(fitted), width)
            }
            Piece::Icon(glyph) => {
                // Icons are told apart from texts by their size's sign.
                let fit_style = fit_style(-style.font_size * style.icon_scale);
                if let Some((_, width)) = self.fitted(fit_style, glyph) {
                    return (piece.clone(), *width);
                }
                let width = self.shape(glyph, TextKind::Icon, font, icon_size(style)).width;
                self.remember(fit_style, glyph, glyph.clone(), width);
                (piece.clone(), width)
            }
            Piece::Image(_) | Piece::HeldImage(_) => (piece.clone(), icon_size(style)),
            Piece::BinaryClock(_) => (piece.clone(), binary_clock_width(style)),
            // Measured through the engine's own cache of shaped texts.
            Piece::Styled(spans) => {
                let size = style.font_size;
                let (fitted, width) =
                    text::cut_spans(spans, max_width, |spans| self.shape_styled(spans, font, size).width);
                (Piece::Styled(fitted), width)
            }
        }
    }

    fn fitted(&self, fit_style: FitStyle, text: &str) -> Option<&(String, f32)> {
        self.fitted_texts.get(&fit_style)?.get(text)
    }

    fn remember(&mut self, fit_style: FitStyle, text: &str, fitted: String, width: f32) {
        // Labels come and go (titles, rates): start over rather than grow without bound.
        if self.fitted_texts.values().map(HashMap::len).sum::<usize>() >= FITTED_TEXTS {
            self.fitted_texts.clear();
        }
        self.fitted_texts.entry(fit_style).or_default().insert(text.to_owned(), (fitted, width));
    }

    fn shape(&mut self, text: &str, kind: TextKind, font: Option<&FontData>, size: f32) -> Arc<ShapedText> {
        let font = self.font_key(font);
        self.text.shape(text, kind, font, size)
    }

    fn shape_styled(&mut self, spans: &[Span], font: Option<&FontData>, size: f32) -> Arc<ShapedText> {
        let font = self.font_key(font);
        self.text.shape_styled(spans, font, size)
    }

    /// The engine's key of `font`, added the first time it is seen; with
    /// none, texts are drawn in the system's fonts alone.
    fn font_key(&mut self, font: Option<&FontData>) -> u64 {
        font.map_or(0, |font| {
            self.text.add_font(font);
            font.key()
        })
    }
}

pub(super) fn icon_size(style: &Style) -> f32 {
    style.font_size * style.icon_scale
}

/// hh:mm:ss as six columns of bits: 2, 4, 3, 4, 3, 4 rows.
pub(super) const BINARY_COLUMNS: [u8; 6] = [2, 4, 3, 4, 3, 4];

pub(super) fn binary_cell(style: &Style) -> f32 {
    (style.content_height() * 0.8 / 4.0).min(style.font_size * 0.8)
}

fn binary_clock_width(style: &Style) -> f32 {
    let cell = binary_cell(style);
    // Columns touch within a pair; pairs are one cell apart.
    6.0 * cell + 2.0 * cell
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{BarConfig, Side};
    use crate::render::{SceneWidget, find_text_font};
    use crate::view::{Emphasis, Inputs, Item, View, WidgetState};

    /// A bar showing `text` in `font`.
    fn scene(text: &str, font: Option<FontData>) -> Scene {
        let json = r#"{ "left_widgets": [], "right_widgets": [] }"#;
        let mut style = Style::from_config(&BarConfig::parse(json, "test").unwrap().config);
        style.text_font = font;
        let item = Item {
            key: "text".into(),
            pieces: vec![Piece::Text(text.into())],
            emphasis: Emphasis::Normal,
            takes: Inputs::NONE,
            tooltip: None,
            look: None,
        };
        let state = WidgetState::Ready(View::of(vec![item]));
        Scene { style, widgets: vec![SceneWidget { side: Side::Left, name: "text".into(), state }] }
    }

    fn width_of_text(layout: &Layout) -> f32 {
        layout.items[0].pieces[0].1
    }

    #[test]
    fn a_text_is_measured_in_its_bars_font_and_each_bar_keeps_its_own() {
        let sans = find_text_font(Some("DejaVu Sans")).expect("a fallback, at least");
        let mono = find_text_font(Some("DejaVu Sans Mono")).expect("a fallback, at least");
        if sans.family != "DejaVu Sans" || mono.family != "DejaVu Sans Mono" {
            return obi_test_support::skip::unavailable("DejaVu Sans (Mono) is not installed (fonts-dejavu-core)");
        }
        let measure = Measure::new();
        let in_sans = measure.lay_out(&scene("iiii", Some(sans.data.clone())), 800.0, 30.0);
        let in_mono = measure.lay_out(&scene("iiii", Some(mono.data)), 800.0, 30.0);
        assert!(
            width_of_text(&in_mono) > width_of_text(&in_sans) * 1.5,
            "a monospaced i is wider: {} against {}",
            width_of_text(&in_mono),
            width_of_text(&in_sans)
        );
        let again = measure.lay_out(&scene("iiii", Some(sans.data)), 800.0, 30.0);
        assert_eq!(width_of_text(&again), width_of_text(&in_sans), "a text fitted before is fitted in its own font");
    }
}

//! An on-screen display laid out in the cells the painter draws a popup's
//! in: one row of what changed (its icon), its level as a slider, and the
//! level in percent. It answers no input.

use super::Style;
use super::geometry::Rect;
use super::layout::item_padding;
use super::popup_layout::{PlacedCell, PopupLayout, popup_margin, row_height};
use crate::view::Piece;
use crate::view::popup::{Cell, Content};

/// What a display shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OsdCard {
    /// The icon font's glyph for what changed.
    pub icon: &'static str,
    /// The level, which may be past 100 (a volume).
    pub percent: u32,
}

/// `card` laid out `width` logical pixels wide in `style`; `fit` gives
/// each piece as drawn within a width (texts cut), and its width.
pub fn lay_out_osd(
    card: &OsdCard,
    width: f32,
    style: &Style,
    fit: &mut dyn FnMut(&Piece, f32) -> (Piece, f32),
) -> PopupLayout {
    let (margin, padding) = (popup_margin(style), item_padding(style));
    // Taller than a popup's line: it is read at a glance.
    let height = row_height(style) * 1.25;
    let inner = width - 2.0 * margin;
    // Wide enough for the widest level, so the slider keeps its length.
    let (_, number_width) = fit(&Piece::Text("150%".into()), f32::INFINITY);
    let number_column = number_width + 2.0 * padding;
    let icon_column = height;
    let label = |piece: Piece, rect: Rect, fit: &mut dyn FnMut(&Piece, f32) -> (Piece, f32)| {
        let (drawn, content_width) = fit(&piece, rect.width - 2.0 * padding);
        let content_x = rect.x + (rect.width - content_width) / 2.0;
        PlacedCell {
            cell: Cell::label(vec![piece]),
            rect,
            pieces: vec![(drawn, content_width)],
            content_x,
            content_width,
        }
    };
    let icon = label(Piece::Icon(card.icon.into()), Rect::new(margin, margin, icon_column, height), fit);
    let slider_rect = Rect::new(margin + icon_column, margin, (inner - icon_column - number_column).max(0.0), height);
    let slider = PlacedCell {
        cell: Cell { content: Content::Slider(card.percent.min(100) as u8), ..Cell::label(Vec::new()) },
        rect: slider_rect,
        pieces: Vec::new(),
        content_x: slider_rect.x + padding,
        content_width: (slider_rect.width - 2.0 * padding).max(0.0),
    };
    let number = Piece::Text(format!("{}%", card.percent));
    let number = label(number, Rect::new(slider_rect.right(), margin, number_column, height), fit);
    PopupLayout {
        width,
        height: height + 2.0 * margin,
        cells: vec![icon, slider, number],
        separators: Vec::new(),
        hovered: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ten pixels a character, an icon twenty.
    fn fit(piece: &Piece, _room: f32) -> (Piece, f32) {
        match piece {
            Piece::Text(text) => (piece.clone(), text.chars().count() as f32 * 10.0),
            _ => (piece.clone(), 20.0),
        }
    }

    #[test]
    fn a_display_is_its_icon_its_level_as_a_slider_and_in_percent() {
        let style = Style::from_config(&crate::config::BarConfig::embedded_default());
        let card = OsdCard { icon: "\u{e44a}", percent: 130 };
        let layout = lay_out_osd(&card, 300.0, &style, &mut fit);
        assert_eq!(layout.width, 300.0);
        let [icon, slider, number] = &layout.cells[..] else { panic!("{:?}", layout.cells) };
        assert!(matches!(&icon.pieces[0].0, Piece::Icon(glyph) if glyph == "\u{e44a}"));
        assert_eq!(slider.cell.content, Content::Slider(100), "past 100 the slider is full");
        assert!(matches!(&number.pieces[0].0, Piece::Text(text) if text == "130%"));
        assert_eq!(number.rect.right(), 300.0 - popup_margin(&style), "the number ends at the margin");
        assert!(slider.content_width > 100.0, "the slider takes the rest: {}", slider.content_width);
        assert!(layout.cells.iter().all(|placed| placed.cell.key.is_empty()), "nothing on it takes input");
        assert_eq!(layout.height, icon.rect.height + 2.0 * popup_margin(&style));
    }
}

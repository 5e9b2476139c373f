//! A notification laid out as a card of a set width, in the cells the
//! painter draws a popup's in: a header (its icon, the application and the
//! time, muted) with a button that dismisses it, the summary, the body
//! broken into lines, and a row of its actions' buttons. A click on a
//! button is that button's; anywhere else on the card it is the card's.

use super::Style;
use super::geometry::Rect;
use super::layout::item_padding;
use super::popup_layout::{PlacedCell, PopupLayout, popup_margin, row_height};
use super::text::wrap::wrap_spans;
use crate::view::popup::{Cell, Content};
use crate::view::{Emphasis, Inputs, Piece, Span, SpanStyle};

/// The body's lines shown at most; the last ends with an ellipsis when
/// there is more.
pub const BODY_LINES: usize = 4;

/// The key of the button that dismisses the card.
pub const DISMISS_KEY: &str = "dismiss";
/// What an action's button's key starts with, before the action's key.
pub const ACTION_PREFIX: &str = "action:";

/// What a card shows, as the bar makes it of a notification.
#[derive(Debug, Clone, PartialEq)]
pub struct NoticeCard {
    /// The application's name and the time it came.
    pub header: String,
    pub summary: String,
    pub body: Vec<Span>,
    /// The handle of its icon among the held images.
    pub icon: Option<u64>,
    /// Each action's key and label, as buttons.
    pub buttons: Vec<(String, String)>,
    /// Critical: its summary is drawn in the urgent colours.
    pub urgent: bool,
}

/// `card` laid out `width` logical pixels wide in `style`; `fit` gives
/// each piece as drawn within a width (texts cut), and its width.
pub fn lay_out_notice(
    card: &NoticeCard,
    width: f32,
    style: &Style,
    fit: &mut dyn FnMut(&Piece, f32) -> (Piece, f32),
) -> PopupLayout {
    let (margin, height, padding) = (popup_margin(style), row_height(style), item_padding(style));
    let inner = width - 2.0 * margin;
    let mut cells = Vec::new();
    let mut y = margin;
    let mut place = |cell: Cell, rect: Rect, fit: &mut dyn FnMut(&Piece, f32) -> (Piece, f32)| {
        let room = rect.width - 2.0 * padding;
        let pieces: Vec<(Piece, f32)> = match &cell.content {
            Content::Label(pieces) | Content::Button(pieces) => pieces.iter().map(|piece| fit(piece, room)).collect(),
            Content::Slider(_) => Vec::new(),
        };
        let content_width = pieces.iter().map(|(_, width)| width).sum::<f32>();
        let content_x = match cell.content {
            Content::Button(_) => rect.x + (rect.width - content_width) / 2.0,
            _ => rect.x + padding,
        };
        cells.push(PlacedCell { cell, rect, pieces, content_x, content_width });
    };

    let mut header = Vec::new();
    header.extend(card.icon.map(Piece::HeldImage));
    header.push(Piece::Text(card.header.clone()));
    let header = Cell { emphasis: Emphasis::Muted, ..Cell::label(header) };
    place(header, Rect::new(margin, y, inner - height, height), fit);
    let dismiss = Cell {
        key: DISMISS_KEY.into(),
        content: Content::Button(vec![Piece::Text("×".into())]),
        emphasis: Emphasis::Normal,
        takes: Inputs::NONE,
    };
    place(dismiss, Rect::new(margin + inner - height, y, height, height), fit);
    y += height;

    let bold = SpanStyle { weight: Some(700), ..SpanStyle::default() };
    let summary = Piece::Styled(vec![Span { text: card.summary.clone(), style: bold }]);
    let emphasis = if card.urgent { Emphasis::Urgent } else { Emphasis::Normal };
    place(Cell { emphasis, ..Cell::label(vec![summary]) }, Rect::new(margin, y, inner, height), fit);
    y += height;

    let room = inner - 2.0 * padding;
    let lines = wrap_spans(&card.body, room, BODY_LINES, |spans| fit(&Piece::Styled(spans.to_vec()), f32::INFINITY).1);
    for line in lines.into_iter().filter(|line| !line.is_empty()) {
        place(Cell::label(vec![Piece::Styled(line)]), Rect::new(margin, y, inner, height), fit);
        y += height;
    }

    if !card.buttons.is_empty() {
        let column = inner / card.buttons.len() as f32;
        for (index, (key, label)) in card.buttons.iter().enumerate() {
            let button = Cell {
                key: format!("{ACTION_PREFIX}{key}"),
                content: Content::Button(vec![Piece::Text(label.clone())]),
                emphasis: Emphasis::Normal,
                takes: Inputs::NONE,
            };
            place(button, Rect::new(margin + column * index as f32, y, column, height), fit);
        }
        y += height;
    }
    PopupLayout { width, height: y + margin, cells, separators: Vec::new(), hovered: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ten pixels a character, cut with nothing in place.
    fn fit(piece: &Piece, room: f32) -> (Piece, f32) {
        let text: String = match piece {
            Piece::Text(text) => text.clone(),
            Piece::Styled(spans) => spans.iter().map(|span| span.text.as_str()).collect(),
            _ => return (piece.clone(), 20.0),
        };
        let kept: String = text.chars().take((room / 10.0).max(0.0) as usize).collect();
        let width = kept.chars().count() as f32 * 10.0;
        (Piece::Text(kept), width)
    }

    fn card() -> NoticeCard {
        NoticeCard {
            header: "Mail · 12:04".into(),
            summary: "New mail".into(),
            body: vec![Span { text: "Ann wrote a long letter about the meeting".into(), style: SpanStyle::default() }],
            icon: Some(7),
            buttons: vec![("reply".into(), "Reply".into()), ("later".into(), "Later".into())],
            urgent: false,
        }
    }

    fn texts(layout: &PopupLayout) -> Vec<String> {
        let text = |piece: &Piece| match piece {
            Piece::Text(text) => text.clone(),
            _ => String::new(),
        };
        layout.cells.iter().map(|placed| placed.pieces.iter().map(|(piece, _)| text(piece)).collect()).collect()
    }

    #[test]
    fn a_card_is_its_header_summary_body_and_buttons_at_its_width() {
        let style = Style::from_config(&crate::config::BarConfig::embedded_default());
        let layout = lay_out_notice(&card(), 300.0, &style, &mut fit);
        assert_eq!(layout.width, 300.0);
        let texts = texts(&layout);
        assert_eq!(texts[0], "Mail · 12:04", "the icon, then the header");
        assert_eq!(texts[1], "×");
        assert_eq!(texts[2], "New mail");
        assert!(texts[3..texts.len() - 2].len() >= 2, "the body is broken into lines: {texts:?}");
        assert_eq!(&texts[texts.len() - 2..], ["Reply", "Later"]);
        let keys: Vec<&str> =
            layout.cells.iter().map(|placed| placed.cell.key.as_str()).filter(|key| !key.is_empty()).collect();
        assert_eq!(keys, ["dismiss", "action:reply", "action:later"]);
        let last = layout.cells.last().unwrap().rect;
        assert_eq!(layout.height, last.bottom() + popup_margin(&style));
        assert!(matches!(layout.cells[0].pieces[0].0, Piece::HeldImage(7)));
    }

    #[test]
    fn a_long_body_is_cut_to_its_lines_and_a_critical_summary_is_urgent() {
        let style = Style::from_config(&crate::config::BarConfig::embedded_default());
        let words = "word ".repeat(500);
        let card = NoticeCard {
            body: vec![Span { text: words, style: SpanStyle::default() }],
            buttons: Vec::new(),
            urgent: true,
            ..card()
        };
        let layout = lay_out_notice(&card, 300.0, &style, &mut fit);
        assert_eq!(layout.cells.len(), 3 + BODY_LINES);
        assert_eq!(layout.cells[2].cell.emphasis, Emphasis::Urgent);
    }
}

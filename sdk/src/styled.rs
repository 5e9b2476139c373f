//! Styled text: a piece of spans, each with its own colour, background,
//! weight, slant, size, family, rise and lines, which the host shapes as one
//! text (0.1.5). [`markup`] reads Pango markup — what Waybar's scripts and
//! i3's modes print — into one.

use crate::Piece;
use crate::bindings::obi::widget::view::{Colour, Length, Span, TextStyle};
use crate::limits::{FAMILY_BYTES, SPANS, TEXT_BYTES};

/// A styled text of `spans`, kept within what a view holds: past
/// [`SPANS`] spans the rest of the text takes the last one's style, past
/// [`TEXT_BYTES`] it is cut with "…", and a family named in more than
/// [`FAMILY_BYTES`] is dropped. Spans that set no style are a plain text.
pub fn styled(spans: impl IntoIterator<Item = Span>) -> Piece {
    let mut kept: Vec<Span> = Vec::new();
    let mut room = TEXT_BYTES;
    for mut span in spans {
        if room == 0 {
            break;
        }
        if span.text.len() > room {
            span.text = obi_markup::cut(span.text, room);
        }
        room -= span.text.len();
        span.style.family = span.style.family.filter(|family| family.len() <= FAMILY_BYTES);
        let full = kept.len() == SPANS;
        match kept.last_mut() {
            Some(last) if full => last.text.push_str(&span.text),
            _ => kept.push(span),
        }
    }
    if kept.iter().all(|span| span.style == plain()) {
        return Piece::Text(kept.into_iter().map(|span| span.text).collect());
    }
    Piece::Styled(kept)
}

/// `markup` (Pango's) as a styled text; see [`styled`] for its bounds.
pub fn markup(markup: &str) -> Piece {
    styled(obi_markup::spans(markup).into_iter().map(Span::from))
}

/// A span of `text` in the item's own style, to set with its fields.
pub fn span(text: impl Into<String>) -> Span {
    Span { text: text.into(), style: plain() }
}

/// The item's own style: nothing set.
pub fn plain() -> TextStyle {
    TextStyle {
        colour: None,
        background: None,
        weight: None,
        italic: false,
        size: None,
        family: None,
        rise: None,
        underline: false,
        strikethrough: false,
    }
}

impl From<obi_markup::Span> for Span {
    fn from(span: obi_markup::Span) -> Span {
        let style = span.style;
        let colour = |[red, green, blue, alpha]: [u8; 4]| Colour { red, green, blue, alpha };
        let length = |length: obi_markup::Length| match length {
            obi_markup::Length::Ems(ems) => Length::Ems(ems),
            obi_markup::Length::Points(points) => Length::Points(points),
        };
        Span {
            text: span.text,
            style: TextStyle {
                colour: style.colour.map(colour),
                background: style.background.map(colour),
                weight: style.weight,
                italic: style.italic,
                size: style.size.map(length),
                family: style.family,
                rise: style.rise.map(length),
                underline: style.underline,
                strikethrough: style.strikethrough,
            },
        }
    }
}

//! The system's fonts listed ahead of need. A bar's widgets report their
//! first views on the widgets' thread while the main thread is still
//! making the bar's window and GL; a text there that the bar's own fonts
//! cannot draw (a workspace named in Japanese, an emoji) has the listing
//! start at once on a thread of its own, so that the painter finds it done
//! (or under way) instead of beginning it on the way to the frame that
//! shows the text. Only the items' texts are looked at, and only until the
//! listing starts: a tooltip or a popup is shown later, when the painter
//! lists the fonts itself if need be.

use super::{shaped, system_fonts};
use crate::render::{FontData, icon_font};
use crate::view::{Piece, WidgetState};
use skrifa::MetadataProvider;

pub struct ListAhead {
    own: [FontData; 2],
    started: bool,
}

impl ListAhead {
    /// Watches for texts that neither `text_font` nor the icon font has.
    pub fn new(text_font: FontData) -> ListAhead {
        ListAhead { own: [text_font, icon_font()], started: false }
    }

    /// Starts listing the system's fonts, unless it has started, when one
    /// of `states` shows a text that the bar's own fonts cannot draw.
    pub fn look_at<'a>(&mut self, states: impl IntoIterator<Item = &'a WidgetState>) {
        if self.started {
            return;
        }
        let views = states.into_iter().filter_map(|state| match state {
            WidgetState::Ready(view) => Some(view),
            WidgetState::Pending | WidgetState::Failed { .. } => None,
        });
        let mut pieces = views.flat_map(|view| &view.items).flat_map(|item| &item.pieces);
        if pieces.any(|piece| self.cannot_draw(piece)) {
            system_fonts::list_in_background();
            self.started = true;
        }
    }

    fn cannot_draw(&self, piece: &Piece) -> bool {
        match piece {
            Piece::Text(text) | Piece::Icon(text) => self.lacks(text),
            // A face named is the system's to find, as the painter does.
            Piece::Styled(spans) => super::needs_system_fonts(spans) || spans.iter().any(|span| self.lacks(&span.text)),
            Piece::Image(_) | Piece::BinaryClock(_) | Piece::HeldImage(_) => false,
        }
    }

    /// Whether `text` holds an emoji or a character neither own font has.
    /// Text in ASCII is taken as drawn: a text font without it is rare
    /// enough to be left to the painter.
    fn lacks(&self, text: &str) -> bool {
        if text.is_ascii() {
            return false;
        }
        if shaped::has_emoji(text) {
            return true;
        }
        let faces: Vec<_> =
            self.own.iter().filter_map(|font| skrifa::FontRef::from_index(&font.bytes, font.index).ok()).collect();
        let charmaps: Vec<_> = faces.iter().map(|face| face.charmap()).collect();
        text.chars()
            .filter(|&character| !shaped::is_invisible(character))
            .any(|character| charmaps.iter().all(|charmap| charmap.map(character).is_none()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::{Item, View};

    fn showing(pieces: Vec<Piece>) -> WidgetState {
        let item = Item {
            key: "a".into(),
            pieces,
            emphasis: Default::default(),
            takes: Default::default(),
            tooltip: None,
            look: None,
        };
        WidgetState::Ready(View { items: vec![item], item_spacing: None, popup: None })
    }

    fn lacks(text: &str) -> bool {
        ListAhead::new(icon_font()).lacks(text)
    }

    #[test]
    fn a_text_the_bars_fonts_lack_is_told() {
        // The icon font stands in for the text font: it has its icons, and
        // no Japanese.
        assert!(lacks("1: 日本語"));
        assert!(!lacks("\u{e4e0}"), "an icon of the icon font");
        assert!(lacks("\u{e4e0} \u{f0001}"), "a Nerd Font's icon");
        assert!(lacks("a ❤\u{FE0F} b"), "an emoji asks for the emoji font");
        assert!(!lacks("12:30"));
        assert!(!lacks("\u{200B}\u{200E}"), "what is drawn as nothing");
    }

    #[test]
    fn only_items_that_are_shown_are_looked_at() {
        let mut ahead = ListAhead::new(icon_font());
        ahead.look_at([&WidgetState::Pending, &WidgetState::Failed { message: "日本語".into() }]);
        assert!(!ahead.started);
        ahead.look_at([&showing(vec![Piece::Text("12:30".into()), Piece::Icon("\u{e4e0}".into())])]);
        assert!(!ahead.started);
        ahead.look_at([&showing(vec![Piece::Text("12:30".into()), Piece::Text("東京".into())])]);
        assert!(ahead.started);
    }
}

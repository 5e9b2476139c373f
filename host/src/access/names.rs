//! What a screen reader says for what the bar shows: the words of an
//! item (its texts; icons and images have none, nor has a text of
//! symbols alone, `‹`), and, where its icon says what it is, the widget's
//! name in the icon's place; an item without words is named by its widget
//! and its tooltip's first line, a popup's cell by its key (`previous`).

use crate::view::popup::Cell;
use crate::view::{Item, Piece};

/// The words of `pieces`: their texts, plain or styled, and a binary
/// clock's time, one space between two.
pub fn words(pieces: &[Piece]) -> String {
    let mut words = String::new();
    for piece in pieces {
        let text = match piece {
            Piece::Text(text) => text.clone(),
            Piece::Styled(spans) => spans.iter().map(|span| span.text.as_str()).collect(),
            Piece::BinaryClock(clock) => format!("{:02}:{:02}:{:02}", clock.hour, clock.minute, clock.second),
            Piece::Icon(_) | Piece::Image(_) | Piece::HeldImage(_) => continue,
        };
        for word in text.split_whitespace() {
            if !words.is_empty() {
                words.push(' ');
            }
            words.push_str(word);
        }
    }
    match words.chars().any(char::is_alphanumeric) {
        true => words,
        false => String::new(),
    }
}

/// The name of `item` of the widget named `widget`. An item in a list is
/// named by its words alone (the list says what they are: workspaces); one
/// on its own that shows an icon beside its words (a CPU glyph before
/// `12%`) has the widget's name in the icon's place, unless its words say
/// it already.
pub fn item_name(widget: &str, item: &Item, in_list: bool) -> String {
    let words = words(&item.pieces);
    let has_icon = item.pieces.iter().any(|piece| matches!(piece, Piece::Icon(_)));
    if words.is_empty() {
        return match first_line(item.tooltip.as_deref()) {
            Some(line) => with_name(widget, line),
            None => widget.to_owned(),
        };
    }
    match has_icon && !in_list {
        true => with_name(widget, &words),
        false => words,
    }
}

/// The name of a popup's cell: its words, else its key as words.
pub fn cell_name(cell: &Cell, pieces: &[Piece]) -> String {
    let words = words(pieces);
    match words.is_empty() {
        true => key_as_words(&cell.key),
        false => words,
    }
}

/// The name of a list of items whose keys begin with `prefix:`
/// (`workspace:0`, `workspace:1`): the prefix, as words.
pub fn list_name(prefix: &str) -> String {
    key_as_words(prefix)
}

/// A key (`layout-option`, `next`) as words.
fn key_as_words(key: &str) -> String {
    key.replace(['-', '_'], " ")
}

/// The first line of `text` that has words, trimmed.
pub fn first_line(text: Option<&str>) -> Option<&str> {
    text?.lines().map(str::trim).find(|line| !line.is_empty())
}

/// `words`, after the widget's name unless they begin with it already.
fn with_name(widget: &str, words: &str) -> String {
    let said = words.get(..widget.len()).is_some_and(|start| start.eq_ignore_ascii_case(widget));
    match said {
        true => words.to_owned(),
        false => format!("{widget} {words}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::{BinaryClock, BinaryClockStyle, Emphasis, Inputs, Span, SpanStyle};

    fn item(pieces: Vec<Piece>, tooltip: Option<&str>) -> Item {
        Item {
            key: "k".into(),
            pieces,
            emphasis: Emphasis::Normal,
            takes: Inputs::NONE,
            tooltip: tooltip.map(str::to_owned),
            look: None,
        }
    }

    #[test]
    fn words_are_the_texts_without_icons_and_a_binary_clock_says_its_time() {
        let styled = Piece::Styled(vec![
            Span { text: "hot ".into(), style: SpanStyle::default() },
            Span { text: "  tea".into(), style: SpanStyle::default() },
        ]);
        let clock = Piece::BinaryClock(BinaryClock { hour: 9, minute: 5, second: 0, style: BinaryClockStyle::Circle });
        let pieces = vec![Piece::Icon("\u{e000}".into()), Piece::Text(" 1\tweb ".into()), styled, clock];
        assert_eq!(words(&pieces), "1 web hot tea 09:05:00");
        assert_eq!(words(&[Piece::HeldImage(3), Piece::Icon("x".into())]), "");
        assert_eq!(words(&[Piece::Text("‹ ·".into())]), "", "symbols alone say nothing");
    }

    #[test]
    fn an_icon_is_said_as_its_widget_and_icons_alone_with_the_tooltip() {
        let cpu = item(vec![Piece::Icon("\u{e000}".into()), Piece::Text("12%".into())], None);
        assert_eq!(item_name("Cpu", &cpu, false), "Cpu 12%");
        assert_eq!(item_name("Cpu", &cpu, true), "12%", "a list's items are said by their words");
        let said = item(vec![Piece::Icon("x".into()), Piece::Text("CPU: 12%".into())], None);
        assert_eq!(item_name("Cpu", &said, false), "CPU: 12%");
        let plain = item(vec![Piece::Text("12:00".into())], Some("Friday"));
        assert_eq!(item_name("Time", &plain, false), "12:00");

        let muted = item(vec![Piece::Icon("x".into())], Some("\n 40%, muted \nHDMI"));
        assert_eq!(item_name("Volume", &muted, false), "Volume 40%, muted");
        assert_eq!(item_name("Volume", &item(vec![Piece::Icon("x".into())], None), false), "Volume");
    }

    #[test]
    fn a_cell_of_symbols_is_named_by_its_key() {
        let cell = |key: &str| Cell { key: key.into(), ..Cell::label(Vec::new()) };
        assert_eq!(cell_name(&cell("previous"), &[Piece::Text("‹".into())]), "previous");
        assert_eq!(cell_name(&cell("month"), &[Piece::Text("November 2026".into())]), "November 2026");
        assert_eq!(cell_name(&cell("layout_option"), &[]), "layout option");
    }

    #[test]
    fn a_list_is_named_by_its_keys_prefix() {
        assert_eq!(list_name("workspace"), "workspace");
        assert_eq!(list_name("layout-option"), "layout option");
    }
}

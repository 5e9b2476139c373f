//! One block of an i3bar status line, read as i3bar and swaybar read it:
//! every key the protocol gives, each that is missing or malformed taking
//! its default (a status program's mistake hides nothing but itself), and
//! the block as an item of the bar with a look of its own.

use obi_sdk::{Align, Border, Colour, Emphasis, Inputs, Item, LeastWidth, Look, Piece, Sides, limits};
use serde_json::{Map, Value};

/// The room after a block, where it says none.
const SEPARATOR_BLOCK_WIDTH: u32 = 9;

/// The width of a border's sides, where it says none.
const BORDER_WIDTH: u16 = 1;

/// Of a block's widths, the most that is drawn: a program's typo in pixels
/// does not push every other block off the bar.
const MAX_WIDTH: u64 = 2000;
const MAX_BORDER: u64 = 32;

#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub full_text: String,
    pub short_text: Option<String>,
    pub colour: Option<Colour>,
    pub background: Option<Colour>,
    pub border: Option<Colour>,
    pub border_widths: Sides,
    pub min_width: Option<LeastWidth>,
    pub align: Align,
    pub urgent: bool,
    pub separator: bool,
    pub separator_block_width: u32,
    pub pango: bool,
    /// Name it in click events.
    pub name: Option<String>,
    pub instance: Option<String>,
}

impl Block {
    /// The block `value` holds, or none when it is no object.
    pub fn read(value: &Value) -> Option<Block> {
        let block = value.as_object()?;
        let text = |key| block.get(key).and_then(Value::as_str).map(str::to_owned);
        let flag = |key, default| block.get(key).and_then(Value::as_bool).unwrap_or(default);
        let side = |key| pixels(block, key, MAX_BORDER).map_or(BORDER_WIDTH, |width| width as u16);
        Some(Block {
            full_text: text("full_text").unwrap_or_default(),
            short_text: text("short_text"),
            colour: colour(block, "color"),
            background: colour(block, "background"),
            border: colour(block, "border"),
            border_widths: Sides {
                top: side("border_top"),
                right: side("border_right"),
                bottom: side("border_bottom"),
                left: side("border_left"),
            },
            min_width: match block.get("min_width") {
                Some(Value::String(text)) => Some(LeastWidth::TextOf(limits::fit(text.as_str()))),
                Some(_) => pixels(block, "min_width", MAX_WIDTH).map(|width| LeastWidth::Pixels(width as u32)),
                None => None,
            },
            align: match block.get("align").and_then(Value::as_str) {
                Some("center") => Align::Center,
                Some("right") => Align::Right,
                _ => Align::Left,
            },
            urgent: flag("urgent", false),
            separator: flag("separator", true),
            separator_block_width: pixels(block, "separator_block_width", MAX_WIDTH)
                .map_or(SEPARATOR_BLOCK_WIDTH, |width| width as u32),
            pango: block.get("markup").and_then(Value::as_str) == Some("pango"),
            name: text("name"),
            instance: text("instance"),
        })
    }

    /// The block as an item keyed `key`, taking clicks when its program
    /// reads them; none when its text is empty (the protocol's way to hide
    /// a block).
    pub fn item(&self, key: String, clicks: bool) -> Option<Item> {
        if self.full_text.is_empty() {
            return None;
        }
        // An urgent block is drawn in the theme's urgent colours, as i3bar
        // draws it in its urgent workspace's.
        let (colour, background) = if self.urgent { (None, None) } else { (self.colour, self.background) };
        let look = Look {
            colour,
            background,
            border: self.border.filter(|_| !self.urgent).map(|colour| Border { colour, widths: self.border_widths }),
            least_width: self.min_width.clone(),
            padding: 0,
            align: self.align,
            room_after: Some(self.separator_block_width),
            separator: self.separator,
            short: self.short_text.as_deref().filter(|short| !short.is_empty()).map(|short| vec![self.piece(short)]),
        };
        Some(Item {
            key,
            pieces: vec![self.piece(&self.full_text)],
            emphasis: if self.urgent { Emphasis::Urgent } else { Emphasis::Normal },
            // A second click soon after the first is a click, as i3bar sends it.
            takes: if clicks { Inputs::all() - Inputs::DOUBLE_CLICK } else { Inputs::empty() },
            tooltip: None,
            look: Some(look),
        })
    }

    /// `text` as a piece, kept within what a view holds.
    fn piece(&self, text: &str) -> Piece {
        if self.pango { obi_sdk::markup(text) } else { Piece::Text(limits::fit(text)) }
    }
}

/// A colour as the protocol writes one: `#rrggbb`, or `#rrggbbaa` as
/// swaybar reads it too.
fn colour(block: &Map<String, Value>, key: &str) -> Option<Colour> {
    obi_sdk::hex_colour(block.get(key)?.as_str()?)
}

/// A width in pixels, at most `most`: a number, however the program wrote
/// it (`9`, `9.0`).
fn pixels(block: &Map<String, Value>, key: &str, most: u64) -> Option<u64> {
    let number = block.get(key)?.as_f64().filter(|number| number.is_finite() && *number >= 0.0)?;
    Some((number.round() as u64).min(most))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(value: Value) -> Block {
        Block::read(&value).unwrap()
    }

    #[test]
    fn a_bare_block_takes_the_protocol_defaults() {
        let block = read(json!({ "full_text": "load 0.5" }));
        assert_eq!((block.separator, block.separator_block_width, block.urgent, block.pango), (true, 9, false, false));
        assert_eq!((block.colour, &block.min_width, block.align), (None, &None, Align::Left));
        let item = block.item("0".into(), false).unwrap();
        let look = item.look.unwrap();
        assert_eq!((look.room_after, look.separator, look.short), (Some(9), true, None));
        assert_eq!(item.takes, Inputs::empty(), "no clicks when its program reads none");
    }

    #[test]
    fn every_key_is_read() {
        let block = read(json!({
            "full_text": "<b>E:</b> up", "short_text": "E", "color": "#00FF00", "background": "#10203080",
            "border": "#ff0000", "border_top": 2, "border_left": 0, "min_width": "E: 100.100.100.100",
            "align": "right", "urgent": false, "separator": false, "separator_block_width": 0,
            "markup": "pango", "name": "ethernet", "instance": "eth0", "_custom": 1
        }));
        assert_eq!(block.colour, Some(Colour { red: 0, green: 255, blue: 0, alpha: 255 }));
        assert_eq!(block.background, Some(Colour { red: 0x10, green: 0x20, blue: 0x30, alpha: 0x80 }));
        assert_eq!(block.border_widths, Sides { top: 2, right: 1, bottom: 1, left: 0 });
        assert_eq!(block.min_width, Some(LeastWidth::TextOf("E: 100.100.100.100".into())));
        assert_eq!((block.align, block.separator, block.separator_block_width), (Align::Right, false, 0));
        assert_eq!((block.name.as_deref(), block.instance.as_deref()), (Some("ethernet"), Some("eth0")));
        let item = block.item("0".into(), true).unwrap();
        assert!(matches!(&item.pieces[..], [Piece::Styled(spans)] if spans[0].style.weight == Some(700)));
        let look = item.look.unwrap();
        assert_eq!(look.border.unwrap().widths.top, 2);
        assert!(matches!(look.short.as_deref(), Some([Piece::Text(short)]) if short == "E"));
        assert!(
            item.takes.contains(Inputs::PRIMARY_CLICK | Inputs::SCROLL) && !item.takes.contains(Inputs::DOUBLE_CLICK)
        );
    }

    /// A program chooses how long its texts are; a view holds so much.
    #[test]
    fn texts_longer_than_a_view_holds_are_cut() {
        let long = "x".repeat(3 * limits::TEXT_BYTES);
        for markup in ["none", "pango"] {
            let block = read(json!({ "full_text": long, "short_text": long, "min_width": long, "markup": markup }));
            let item = block.item("0".into(), false).unwrap();
            let look = item.look.unwrap();
            let within = |piece: &Piece| match piece {
                Piece::Text(text) => text.len() <= limits::TEXT_BYTES,
                Piece::Styled(spans) => spans.iter().map(|span| span.text.len()).sum::<usize>() <= limits::TEXT_BYTES,
                _ => false,
            };
            assert!(within(&item.pieces[0]) && within(&look.short.unwrap()[0]), "{markup}");
            assert!(matches!(look.least_width, Some(LeastWidth::TextOf(text)) if text.len() <= limits::TEXT_BYTES));
        }
    }

    #[test]
    fn an_urgent_block_takes_the_themes_urgent_colours() {
        let item = read(json!({ "full_text": "low", "urgent": true, "color": "#000000", "border": "#ffffff" }))
            .item("0".into(), false)
            .unwrap();
        let look = item.look.unwrap();
        assert_eq!((item.emphasis, look.colour, look.border), (Emphasis::Urgent, None, None));
    }

    #[test]
    fn what_is_malformed_takes_its_default_and_an_empty_text_hides_the_block() {
        let block = read(json!({ "full_text": "x", "color": "green", "min_width": -5, "separator_block_width": 1e12,
            "border_top": "2", "align": 3, "urgent": "yes" }));
        assert_eq!((block.colour, &block.min_width, block.separator_block_width), (None, &None, 2000));
        assert_eq!((block.border_widths.top, block.align, block.urgent), (1, Align::Left, false));
        assert_eq!(read(json!({ "full_text": "" })).item("0".into(), true), None);
        assert_eq!(read(json!({ "color": "#ffffff" })).item("0".into(), true), None);
        assert_eq!(Block::read(&json!("text")), None);
    }
}

//! What a widget shows, as the host keeps it: plain data, checked once when
//! it crosses the sandbox boundary, then handed to layout and painting.

use std::sync::Arc;

#[derive(Debug, Clone, PartialEq)]
pub struct View {
    pub items: Vec<Item>,
    /// Pixels between two of these items, when the widget sets its own.
    pub item_spacing: Option<f32>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub key: String,
    pub pieces: Vec<Piece>,
    pub selected: bool,
    pub tooltip: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    Text(String),
    Icon(String),
    Image(Image),
    BinaryClock(BinaryClock),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Image {
    Path(String),
    Pixels(Arc<Pixels>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Pixels {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryClockStyle {
    Circle,
    Rectangle,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BinaryClock {
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
    pub style: BinaryClockStyle,
}

/// What the bar shows for one widget.
#[derive(Debug, Clone, PartialEq)]
pub enum WidgetState {
    /// Not refreshed yet.
    Pending,
    Ready(View),
    /// The widget failed (config error, trap, deadline, memory, bad view);
    /// the message says which and when it will be restarted.
    Failed {
        message: String,
    },
}

/// Bounds on what a widget may hand back; past them the view is rejected
/// as the widget's fault, like a trap.
pub mod limits {
    pub const ITEMS: usize = 256;
    pub const PIECES_PER_ITEM: usize = 32;
    pub const TEXT_BYTES: usize = 4096;
    pub const IMAGE_SIDE: u32 = 1024;
    /// Pixels between items, at most (wider than any screen is a mistake).
    pub const MAX_SPACING: f32 = 1000.0;
}

impl View {
    /// Items at the theme's spacing.
    pub fn of(items: Vec<Item>) -> View {
        View { items, item_spacing: None }
    }

    /// Checks the limits above and that item keys are unique.
    pub fn validate(&self) -> Result<(), String> {
        use limits::*;
        if let Some(spacing) = self.item_spacing.filter(|spacing| !(0.0..=MAX_SPACING).contains(spacing)) {
            return Err(format!("item spacing {spacing} is outside 0..={MAX_SPACING}"));
        }
        if self.items.len() > ITEMS {
            return Err(format!("view has {} items; at most {ITEMS} are allowed", self.items.len()));
        }
        let mut keys = std::collections::HashSet::with_capacity(self.items.len());
        for item in &self.items {
            if !keys.insert(item.key.as_str()) {
                return Err(format!("item key {:?} is used twice", item.key));
            }
            if item.pieces.len() > PIECES_PER_ITEM {
                return Err(format!(
                    "item {:?} has {} pieces; at most {PIECES_PER_ITEM} are allowed",
                    item.key,
                    item.pieces.len()
                ));
            }
            let texts = item.pieces.iter().filter_map(|piece| match piece {
                Piece::Text(text) | Piece::Icon(text) => Some(text.as_str()),
                _ => None,
            });
            for text in texts.chain(item.tooltip.as_deref()).chain([item.key.as_str()]) {
                if text.len() > TEXT_BYTES {
                    return Err(format!(
                        "item {:?} has a text of {} bytes; at most {TEXT_BYTES} are allowed",
                        item.key,
                        text.len()
                    ));
                }
            }
            for piece in &item.pieces {
                match piece {
                    Piece::Image(Image::Pixels(pixels)) => {
                        let expected = pixels.width as usize * pixels.height as usize * 4;
                        if pixels.width > IMAGE_SIDE || pixels.height > IMAGE_SIDE {
                            return Err(format!(
                                "item {:?} has a {}x{} image; at most {IMAGE_SIDE} pixels a side",
                                item.key, pixels.width, pixels.height
                            ));
                        }
                        if pixels.rgba.len() != expected {
                            return Err(format!(
                                "item {:?} has an image of {} bytes; {}x{} RGBA needs {expected}",
                                item.key,
                                pixels.rgba.len(),
                                pixels.width,
                                pixels.height
                            ));
                        }
                    }
                    Piece::BinaryClock(clock) if clock.hour > 23 || clock.minute > 59 || clock.second > 60 => {
                        return Err(format!(
                            "item {:?} has a binary clock at {}:{}:{}",
                            item.key, clock.hour, clock.minute, clock.second
                        ));
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_item(key: &str, text: &str) -> Item {
        Item { key: key.into(), pieces: vec![Piece::Text(text.into())], selected: false, tooltip: None }
    }

    #[test]
    fn accepts_an_ordinary_view() {
        let view = View::of(vec![text_item("a", "CPU: 3%"), text_item("b", "12:00")]);
        assert_eq!(view.validate(), Ok(()));
    }

    #[test]
    fn rejects_duplicate_keys() {
        let view = View::of(vec![text_item("a", "1"), text_item("a", "2")]);
        assert!(view.validate().unwrap_err().contains("used twice"));
    }

    #[test]
    fn rejects_too_many_items_and_long_texts() {
        let many = View::of((0..=limits::ITEMS).map(|n| text_item(&n.to_string(), "x")).collect());
        assert!(many.validate().unwrap_err().contains("items"));
        let long = View::of(vec![text_item("a", &"x".repeat(limits::TEXT_BYTES + 1))]);
        assert!(long.validate().unwrap_err().contains("bytes"));
    }

    #[test]
    fn rejects_pixels_that_do_not_match_their_size() {
        let pixels = Arc::new(Pixels { width: 2, height: 2, rgba: vec![0; 15] });
        let item =
            Item { key: "i".into(), pieces: vec![Piece::Image(Image::Pixels(pixels))], selected: false, tooltip: None };
        assert!(View::of(vec![item]).validate().unwrap_err().contains("RGBA"));
        for spacing in [-1.0, f32::NAN, f32::INFINITY] {
            let view = View { item_spacing: Some(spacing), ..View::of(Vec::new()) };
            assert!(view.validate().unwrap_err().contains("spacing"), "{spacing}");
        }
    }
}

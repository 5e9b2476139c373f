//! An item that looks its own way, as a status program's block does: its
//! colours, border, least width and alignment, the room and separator
//! after it, and the short form it takes on a crowded bar. Whatever it
//! leaves unset the theme gives, by the item's emphasis.

use super::Piece;
use crate::colour::Rgba;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Look {
    /// Its text's colour.
    pub colour: Option<Rgba>,
    /// The fill of its box.
    pub background: Option<Rgba>,
    pub border: Option<Border>,
    pub least_width: Option<LeastWidth>,
    /// Pixels between its border and its pieces, left and right.
    pub padding: f32,
    /// Where its pieces sit in a box wider than they are.
    pub align: Align,
    /// Pixels between it and the next item, instead of the view's spacing.
    pub room_after: Option<f32>,
    /// A line halfway across the room after it, when an item follows.
    pub separator: bool,
    /// What it shows instead on a bar too crowded for its widget's items.
    pub short: Option<Vec<Piece>>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Border {
    pub colour: Rgba,
    pub top: f32,
    pub right: f32,
    pub bottom: f32,
    pub left: f32,
}

/// The least width of an item's box.
#[derive(Debug, Clone, PartialEq)]
pub enum LeastWidth {
    Pixels(f32),
    /// As wide as this text drawn in the item's font.
    TextOf(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Align {
    #[default]
    Left,
    Center,
    Right,
}

/// Bounds on a look, past which the view is refused as the widget's fault.
pub mod limits {
    /// Pixels of a border's side, or of padding, at most.
    pub const BORDER: f32 = 64.0;
    /// Pixels of a least width, at most: wider than any screen is a mistake.
    pub const LEAST_WIDTH: f32 = 4096.0;
}

impl Look {
    /// Checks the look of `owner` against the limits above; the short
    /// form's pieces and the least width's text are checked as the item's
    /// own texts are.
    pub fn validate(&self, owner: &str) -> Result<(), String> {
        if let Some(border) = &self.border {
            let sides = [border.top, border.right, border.bottom, border.left];
            if sides.iter().any(|side| !(0.0..=limits::BORDER).contains(side)) {
                return Err(format!("{owner} has a border of {sides:?} pixels; at most {} a side", limits::BORDER));
            }
        }
        if !(0.0..=limits::BORDER).contains(&self.padding) {
            return Err(format!("{owner} has a padding of {} pixels; at most {}", self.padding, limits::BORDER));
        }
        if let Some(LeastWidth::Pixels(width)) = self.least_width
            && !(0.0..=limits::LEAST_WIDTH).contains(&width)
        {
            return Err(format!("{owner} has a least width of {width} pixels; at most {}", limits::LEAST_WIDTH));
        }
        if let Some(room) = self.room_after.filter(|room| !(0.0..=super::limits::MAX_SPACING).contains(room)) {
            return Err(format!("{owner} keeps {room} pixels after it; at most {}", super::limits::MAX_SPACING));
        }
        Ok(())
    }

    /// The texts it holds besides its pieces (the least width's).
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        match &self.least_width {
            Some(LeastWidth::TextOf(text)) => Some(text.as_str()),
            _ => None,
        }
        .into_iter()
    }
}

//! Rectangles and insets in the bar's logical pixels, as layout, grouping,
//! damage and painting measure them.

use crate::config::model::SpacingKind;

#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
}

impl Rect {
    pub const fn new(x: f32, y: f32, width: f32, height: f32) -> Rect {
        Rect { x, y, width, height }
    }

    pub fn right(&self) -> f32 {
        self.x + self.width
    }

    pub fn bottom(&self) -> f32 {
        self.y + self.height
    }

    pub fn is_empty(&self) -> bool {
        self.width <= 0.0 || self.height <= 0.0
    }

    /// This rectangle less `insets`; never narrower or lower than nothing.
    pub fn inset(&self, insets: Insets) -> Rect {
        let x = self.x + insets.left;
        let y = self.y + insets.top;
        Rect::new(x, y, (self.right() - insets.right - x).max(0.0), (self.bottom() - insets.bottom - y).max(0.0))
    }

    /// Grown by `by` on every side.
    /// The same rectangle in units `factor` times smaller (device pixels
    /// of a scaled surface).
    pub fn scaled(&self, factor: f32) -> Rect {
        Rect::new(self.x * factor, self.y * factor, self.width * factor, self.height * factor)
    }

    pub fn grow(&self, by: f32) -> Rect {
        Rect::new(self.x - by, self.y - by, self.width + 2.0 * by, self.height + 2.0 * by)
    }

    pub fn union(&self, other: &Rect) -> Rect {
        if self.is_empty() {
            return *other;
        }
        if other.is_empty() {
            return *self;
        }
        let x = self.x.min(other.x);
        let y = self.y.min(other.y);
        Rect::new(x, y, self.right().max(other.right()) - x, self.bottom().max(other.bottom()) - y)
    }

    pub fn intersects(&self, other: &Rect) -> bool {
        self.x < other.right() && other.x < self.right() && self.y < other.bottom() && other.y < self.bottom()
    }

    pub fn intersection(&self, other: &Rect) -> Rect {
        let x = self.x.max(other.x);
        let y = self.y.max(other.y);
        Rect::new(
            x,
            y,
            (self.right().min(other.right()) - x).max(0.0),
            (self.bottom().min(other.bottom()) - y).max(0.0),
        )
    }
}

/// Space kept free inside an edge: `padding` and `margin`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Insets {
    pub top: f32,
    pub bottom: f32,
    pub left: f32,
    pub right: f32,
}

impl Insets {
    /// Negative values (seen in real configs) would push the bar off its
    /// window; they count as zero.
    pub fn from_spacing(spacing: &SpacingKind) -> Insets {
        let (top, bottom, left, right) = spacing.sides();
        Insets { top: top.max(0.0), bottom: bottom.max(0.0), left: left.max(0.0), right: right.max(0.0) }
    }
}

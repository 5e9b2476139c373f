//! Where things are on the screen: a rectangle in physical pixels, as the
//! display server lists its monitors, as komorebi tells where its monitors
//! are, and as the bar's placement puts its window.

/// A rectangle on the screen, in physical pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScreenRect {
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
}

impl ScreenRect {
    /// Whether the point (`x`, `y`) lies within.
    pub fn contains(&self, x: i32, y: i32) -> bool {
        let (right, bottom) = (i64::from(self.x) + i64::from(self.width), i64::from(self.y) + i64::from(self.height));
        x >= self.x && y >= self.y && i64::from(x) < right && i64::from(y) < bottom
    }

    /// The point in the middle.
    pub fn centre(&self) -> (i32, i32) {
        (
            (i64::from(self.x) + i64::from(self.width / 2)) as i32,
            (i64::from(self.y) + i64::from(self.height / 2)) as i32,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rectangle_holds_its_own_pixels_and_no_others() {
        let rect = ScreenRect { x: -1920, y: 0, width: 1920, height: 1080 };
        assert!(rect.contains(-1920, 0) && rect.contains(-1, 1079));
        assert!(!rect.contains(0, 0) && !rect.contains(-1, 1080) && !rect.contains(-1921, 5));
        assert_eq!(rect.centre(), (-960, 540));
    }
}

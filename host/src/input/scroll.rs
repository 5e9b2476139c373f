//! Scroll ticks, as komorebi-bar counts them: scrolling accumulates, in
//! points, and every `threshold` points along an axis is one tick, which
//! fires its trigger once. A wheel notch is 40 points (egui's line), so at
//! the default threshold of 30 each notch is a tick; a touchpad's pixels add
//! up until they make one. Turning back starts the axis from nothing.

use crate::view::ScrollDirection;

/// Points one line of scrolling (a wheel notch) is worth.
pub const POINTS_PER_LINE: f32 = 40.0;

/// The one scroll a wheel event makes on a popup's cell, of `(x, y)`
/// points (positive: left, up): one a turn of the wheel, however far, along
/// the axis it moved more on (a touchpad's diagonal stroke is one way);
/// none when it did not move.
pub fn one_scroll((x, y): (f32, f32)) -> Option<ScrollDirection> {
    Some(match (x, y) {
        (x, y) if y.abs() >= x.abs() && y > 0.0 => ScrollDirection::Up,
        (x, y) if y.abs() >= x.abs() && y < 0.0 => ScrollDirection::Down,
        (x, _) if x > 0.0 => ScrollDirection::Left,
        (x, _) if x < 0.0 => ScrollDirection::Right,
        _ => return None,
    })
}

#[derive(Debug, Default)]
pub struct ScrollTicks {
    /// Points scrolled along each axis and not yet ticked: x (positive
    /// left), y (positive up).
    pending: (f32, f32),
}

impl ScrollTicks {
    /// Adds a scroll of `(x, y)` points (positive: left, up) and gives the
    /// ticks it completes, horizontal ones first.
    pub fn scroll(&mut self, (x, y): (f32, f32), horizontal: f32, vertical: f32) -> Vec<ScrollDirection> {
        let mut ticks = Vec::new();
        let axes = [
            (&mut self.pending.0, x, horizontal, ScrollDirection::Left, ScrollDirection::Right),
            (&mut self.pending.1, y, vertical, ScrollDirection::Up, ScrollDirection::Down),
        ];
        for (pending, delta, threshold, positive, negative) in axes {
            if delta == 0.0 {
                continue;
            }
            if pending.signum() != delta.signum() {
                *pending = 0.0;
            }
            *pending += delta;
            while pending.abs() >= threshold {
                ticks.push(if *pending > 0.0 { positive } else { negative });
                *pending -= threshold.copysign(*pending);
            }
        }
        ticks
    }

    /// Forgets what did not make a tick (the cursor left the bar).
    pub fn reset(&mut self) {
        self.pending = (0.0, 0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_popup_takes_one_scroll_along_the_larger_axis() {
        assert_eq!(one_scroll((0.0, -40.0)), Some(ScrollDirection::Down));
        assert_eq!(one_scroll((0.0, 120.0)), Some(ScrollDirection::Up));
        assert_eq!(one_scroll((-2.0, 1.0)), Some(ScrollDirection::Right));
        assert_eq!(one_scroll((2.0, 0.0)), Some(ScrollDirection::Left));
        assert_eq!(one_scroll((3.0, -3.0)), Some(ScrollDirection::Down), "a tie goes to the vertical");
        assert_eq!(one_scroll((0.0, 0.0)), None);
    }
    use ScrollDirection::*;

    #[test]
    fn a_wheel_notch_is_one_tick_at_the_default_threshold() {
        let mut ticks = ScrollTicks::default();
        assert_eq!(ticks.scroll((0.0, -POINTS_PER_LINE), 30.0, 30.0), [Down]);
        // 10 points were left over: with two more notches, 90 points are three ticks.
        assert_eq!(ticks.scroll((0.0, -2.0 * POINTS_PER_LINE), 30.0, 30.0), [Down, Down, Down]);
    }

    #[test]
    fn touchpad_pixels_accumulate_into_ticks() {
        let mut ticks = ScrollTicks::default();
        for _ in 0..5 {
            assert!(ticks.scroll((0.0, 11.0), 30.0, 60.0).is_empty());
        }
        assert_eq!(ticks.scroll((0.0, 11.0), 30.0, 60.0), [Up], "66 points past a threshold of 60");
    }

    #[test]
    fn turning_back_starts_again_and_axes_are_apart() {
        let mut ticks = ScrollTicks::default();
        assert!(ticks.scroll((0.0, 25.0), 30.0, 30.0).is_empty());
        assert!(ticks.scroll((0.0, -25.0), 30.0, 30.0).is_empty(), "the 25 up are forgotten");
        assert_eq!(ticks.scroll((0.0, -5.0), 30.0, 30.0), [Down]);
        assert_eq!(ticks.scroll((45.0, 0.0), 15.0, 30.0), [Left, Left, Left]);
        assert_eq!(ticks.scroll((-15.0, 0.0), 15.0, 30.0), [Right]);
        ticks.scroll((0.0, 29.0), 30.0, 30.0);
        ticks.reset();
        assert!(ticks.scroll((0.0, 1.0), 30.0, 30.0).is_empty());
    }
}

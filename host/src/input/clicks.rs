//! Double clicks, as egui (and so komorebi-bar) tells them: a second press
//! of the primary button within 0.3 s of the first and within 6 points of
//! where it was.

use std::time::{Duration, Instant};

const DELAY: Duration = Duration::from_millis(300);
const DISTANCE: f32 = 6.0;

#[derive(Debug, Default)]
pub struct DoubleClicks {
    /// The last press that did not end a double click.
    first: Option<(Instant, (f32, f32))>,
}

impl DoubleClicks {
    /// A press of the primary button at `position`: whether it ends a double
    /// click. A third press starts counting anew.
    pub fn press(&mut self, at: Instant, position: (f32, f32)) -> bool {
        let double = self.first.is_some_and(|(then, (x, y))| {
            at.saturating_duration_since(then) <= DELAY && (position.0 - x).hypot(position.1 - y) <= DISTANCE
        });
        self.first = if double { None } else { Some((at, position)) };
        double
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_presses_close_in_time_and_place_are_a_double_click() {
        let start = Instant::now();
        let mut clicks = DoubleClicks::default();
        assert!(!clicks.press(start, (10.0, 10.0)));
        assert!(clicks.press(start + Duration::from_millis(250), (13.0, 12.0)));
        assert!(!clicks.press(start + Duration::from_millis(300), (13.0, 12.0)), "a third press starts anew");
        assert!(clicks.press(start + Duration::from_millis(400), (13.0, 12.0)));
    }

    #[test]
    fn too_slow_or_too_far_is_two_clicks() {
        let start = Instant::now();
        let mut clicks = DoubleClicks::default();
        assert!(!clicks.press(start, (10.0, 10.0)));
        assert!(!clicks.press(start + Duration::from_millis(301), (10.0, 10.0)), "too slow");
        assert!(!clicks.press(start + Duration::from_millis(350), (20.0, 10.0)), "too far");
        assert!(clicks.press(start + Duration::from_millis(360), (20.0, 10.0)));
    }
}

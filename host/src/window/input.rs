//! Mouse events of the window as the bar's inputs: buttons as clicks, and
//! wheel and touchpad movement as points of scrolling (see
//! [`crate::input::ScrollTicks`], which makes ticks of them), or as one
//! scroll of a popup's cell.

use crate::input::scroll::POINTS_PER_LINE;
use crate::view::{Input, ScrollDirection};
use winit::event::{MouseButton, MouseScrollDelta};

pub fn from_button(button: MouseButton) -> Option<Input> {
    Some(match button {
        MouseButton::Left => Input::PrimaryClick,
        MouseButton::Right => Input::SecondaryClick,
        MouseButton::Middle => Input::MiddleClick,
        MouseButton::Back => Input::Extra1Click,
        MouseButton::Forward => Input::Extra2Click,
        MouseButton::Other(_) => return None,
    })
}

/// Points scrolled: x (positive: left), y (positive: up). winit's positive
/// deltas move the content right and down, which is scrolling left and up.
pub fn points(delta: MouseScrollDelta) -> (f32, f32) {
    match delta {
        MouseScrollDelta::LineDelta(x, y) => (x * POINTS_PER_LINE, y * POINTS_PER_LINE),
        MouseScrollDelta::PixelDelta(position) => (position.x as f32, position.y as f32),
    }
}

/// The one scroll a wheel event makes on a popup's cell (as on Wayland and
/// X11, one a turn of the wheel, however far): along the axis it moved
/// more on, none when it did not move.
#[cfg_attr(not(windows), allow(dead_code))]
pub fn one_scroll((x, y): (f32, f32)) -> Option<ScrollDirection> {
    Some(match (x, y) {
        (x, y) if y.abs() >= x.abs() && y > 0.0 => ScrollDirection::Up,
        (x, y) if y.abs() >= x.abs() && y < 0.0 => ScrollDirection::Down,
        (x, _) if x > 0.0 => ScrollDirection::Left,
        (x, _) if x < 0.0 => ScrollDirection::Right,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wheel_turn_is_one_scroll_along_its_larger_axis() {
        let down = points(MouseScrollDelta::LineDelta(0.0, -1.0));
        assert_eq!(one_scroll(down), Some(ScrollDirection::Down));
        assert_eq!(one_scroll(points(MouseScrollDelta::LineDelta(0.0, 3.0))), Some(ScrollDirection::Up));
        assert_eq!(one_scroll((-2.0, 1.0)), Some(ScrollDirection::Right));
        assert_eq!(one_scroll((2.0, 0.0)), Some(ScrollDirection::Left));
        assert_eq!(one_scroll((0.0, 0.0)), None);
    }
}

//! Mouse events of the window as the bar's inputs: buttons as clicks, and
//! wheel and touchpad movement as points of scrolling (see
//! [`crate::input::ScrollTicks`], which makes ticks of them, or one
//! scroll of a popup's cell).

use crate::input::scroll::POINTS_PER_LINE;
use crate::view::Input;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::scroll::one_scroll;
    use crate::view::ScrollDirection;

    #[test]
    fn a_wheel_turned_down_scrolls_down() {
        let down = points(MouseScrollDelta::LineDelta(0.0, -1.0));
        assert_eq!(one_scroll(down), Some(ScrollDirection::Down));
        assert_eq!(one_scroll(points(MouseScrollDelta::LineDelta(0.0, 3.0))), Some(ScrollDirection::Up));
    }
}

//! Mouse events of the window as the widget inputs of the WIT contract.

use crate::runtime::{Input, ScrollDirection};
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

pub fn from_wheel(delta: MouseScrollDelta) -> Option<Input> {
    let (x, y) = match delta {
        MouseScrollDelta::LineDelta(x, y) => (x as f64, y as f64),
        MouseScrollDelta::PixelDelta(position) => (position.x, position.y),
    };
    let direction = if y.abs() >= x.abs() {
        if y > 0.0 {
            ScrollDirection::Up
        } else if y < 0.0 {
            ScrollDirection::Down
        } else {
            return None;
        }
    } else if x > 0.0 {
        ScrollDirection::Right
    } else {
        ScrollDirection::Left
    };
    Some(Input::Scroll(direction))
}

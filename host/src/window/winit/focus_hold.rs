//! An open popup's hold on Windows, where there is no grab to be had: when
//! shown, the popup's window takes the focus (the bar's never does), so a
//! click anywhere else, which takes the focus away, closes the popup, and
//! the keys reach it: Escape closes it, the arrows and Tab light another
//! cell, Enter and Space click the lit one. The pointer on it is input for its cells. A
//! press on the bar reaches the bar's own window, which closes the popup
//! there (see `Running::pressed`).

use super::{WindowSurface, input};
use crate::bar::{PopupKey, Running};
use crate::view::Input;
use winit::event::{ElementState, KeyEvent, WindowEvent};
use winit::keyboard::{Key, NamedKey};

/// `event` of the popup's window, for the bar `running` shows it for.
pub fn on_popup_window(running: &mut Running, surface: &mut WindowSurface, event: WindowEvent) {
    match event {
        WindowEvent::CursorMoved { position, .. } => {
            let logical = position.to_logical::<f32>(surface.aside_scale().into());
            surface.popup_pointer = (logical.x, logical.y);
            running.popup_moved(Some((logical.x, logical.y)), surface);
        }
        WindowEvent::CursorLeft { .. } => running.popup_moved(None, surface),
        WindowEvent::MouseInput { state: ElementState::Pressed, button, .. } => {
            if let Some(input) = input::from_button(button) {
                let (x, y) = surface.popup_pointer;
                running.popup_pressed(input, x, y);
            }
        }
        WindowEvent::MouseInput { state: ElementState::Released, .. } => running.popup_released(),
        WindowEvent::MouseWheel { delta, .. } => {
            if let Some(direction) = crate::input::scroll::one_scroll(input::points(delta)) {
                let (x, y) = surface.popup_pointer;
                running.popup_pressed(Input::Scroll(direction), x, y);
            }
        }
        WindowEvent::Focused(false) => running.close_popup(surface),
        WindowEvent::KeyboardInput {
            event: KeyEvent { logical_key: Key::Named(key), state: ElementState::Pressed, .. },
            ..
        } => {
            let key = match key {
                NamedKey::Escape => PopupKey::Close,
                NamedKey::ArrowUp | NamedKey::ArrowLeft => PopupKey::Previous,
                NamedKey::ArrowDown | NamedKey::ArrowRight | NamedKey::Tab => PopupKey::Next,
                NamedKey::Enter | NamedKey::Space => PopupKey::Choose,
                _ => return,
            };
            running.popup_key(key, surface);
        }
        _ => {}
    }
}

//! The seat's keyboard on Wayland, read by the evdev codes of its keys
//! (the bar reads no keymap): while a widget's popup is open its keys are
//! the popup's (Escape closes it, the arrows and Tab light another cell,
//! Return, Enter and Space click the lit one); while a bar holds the
//! keyboard (`obi msg focus`: its layer surface asks for it exclusively,
//! and gives it back, as a layer surface's keyboard interactivity says)
//! they are the bar's, Shift taken from its own keys. A compositor that
//! takes the keyboard from the bar (sway does, to the window of the
//! workspace a workspace button switched to) ends its hold.

use super::{LayerBar, Panel};
use crate::bar::{BarKey, PopupKey};
use smithay_client_toolkit::reexports::client::protocol::{wl_keyboard, wl_seat};
use smithay_client_toolkit::reexports::client::{Connection, Dispatch, QueueHandle, WEnum};
use smithay_client_toolkit::shell::WaylandSurface;
use smithay_client_toolkit::shell::wlr_layer::KeyboardInteractivity;

/// Linux's codes of the keys read here (`input-event-codes.h`).
mod code {
    pub const ESC: u32 = 1;
    pub const TAB: u32 = 15;
    pub const ENTER: u32 = 28;
    pub const LEFT_SHIFT: u32 = 42;
    pub const RIGHT_SHIFT: u32 = 54;
    pub const SPACE: u32 = 57;
    pub const F10: u32 = 68;
    pub const KP_ENTER: u32 = 96;
    pub const UP: u32 = 103;
    pub const LEFT: u32 = 105;
    pub const RIGHT: u32 = 106;
    pub const DOWN: u32 = 108;
    pub const COMPOSE: u32 = 127;
}

/// What a key does to a popup.
fn popup_key(key: u32) -> Option<PopupKey> {
    Some(match key {
        code::ESC => PopupKey::Close,
        code::UP | code::LEFT => PopupKey::Previous,
        code::RIGHT | code::DOWN | code::TAB => PopupKey::Next,
        code::ENTER | code::KP_ENTER | code::SPACE => PopupKey::Choose,
        _ => return None,
    })
}

/// What a key does to a bar that holds the keyboard, with Shift held or not.
fn bar_key(key: u32, shift: bool) -> Option<BarKey> {
    Some(match key {
        code::ESC => BarKey::Release,
        code::UP | code::LEFT => BarKey::Previous,
        code::RIGHT | code::DOWN => BarKey::Next,
        code::TAB if shift => BarKey::Previous,
        code::TAB => BarKey::Next,
        code::ENTER | code::KP_ENTER | code::SPACE => BarKey::Press,
        code::F10 if shift => BarKey::Menu,
        code::COMPOSE => BarKey::Menu,
        _ => return None,
    })
}

impl LayerBar {
    /// The seat's keyboard, which a popup's grab, or a bar holding the
    /// keyboard, is given.
    pub(super) fn take_keyboard(&mut self, seat: &wl_seat::WlSeat, qh: &QueueHandle<Self>) {
        if self.keyboard.is_none() {
            self.keyboard = Some(seat.get_keyboard(qh, ()));
        }
    }
}

impl Panel {
    /// Asks for the keyboard for the bar (or gives it back): a layer
    /// surface has it while it asks for it exclusively. An open popup
    /// asks so already, and gives it back as it closes unless the bar holds it.
    pub(super) fn ask_for_keyboard(&mut self, hold: bool) -> bool {
        let Some(gl) = &self.gl else { return false };
        self.keyboard_wanted = hold;
        if self.popup.is_none() {
            let interactivity = if hold { KeyboardInteractivity::Exclusive } else { KeyboardInteractivity::None };
            gl.window.set_keyboard_interactivity(interactivity);
            gl.window.commit();
        }
        self.access.update_window_focus_state(hold);
        true
    }
}

impl Dispatch<wl_keyboard::WlKeyboard, ()> for LayerBar {
    /// A key goes to the open popup, else to a bar that holds the keyboard;
    /// the keymap (a file the compositor hands over) is closed unread.
    fn event(
        state: &mut Self,
        _: &wl_keyboard::WlKeyboard,
        event: wl_keyboard::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        match event {
            wl_keyboard::Event::Key { key, state: WEnum::Value(pressed), .. } => {
                if matches!(key, code::LEFT_SHIFT | code::RIGHT_SHIFT) {
                    state.shift_held = pressed == wl_keyboard::KeyState::Pressed;
                }
                if pressed != wl_keyboard::KeyState::Pressed {
                    return;
                }
                let shift = state.shift_held;
                for crate::bar::Member { running, surface } in &mut state.members {
                    if surface.popup.is_some() {
                        if let Some(key) = popup_key(key) {
                            running.popup_key(key, surface);
                        }
                    } else if running.holds_keyboard()
                        && let Some(key) = bar_key(key, shift)
                    {
                        running.key(key, surface);
                    }
                }
            }
            // The compositor gave the keyboard elsewhere (not to a popup of the bar's).
            wl_keyboard::Event::Leave { surface: left, .. } => {
                state.shift_held = false;
                for crate::bar::Member { running, surface } in &mut state.members {
                    let bars = surface.layer().is_some_and(|layer| layer.wl_surface() == &left);
                    if bars && surface.popup.is_none() && running.holds_keyboard() {
                        tracing::info!("the compositor gave the keyboard to another surface: the bar lets it go");
                        surface.ask_for_keyboard(false);
                        running.keyboard_lost(surface);
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_move_the_bars_focus_and_shift_turns_tab_and_f10() {
        assert_eq!(bar_key(code::TAB, false), Some(BarKey::Next));
        assert_eq!(bar_key(code::TAB, true), Some(BarKey::Previous));
        assert_eq!(bar_key(code::F10, false), None);
        assert_eq!(bar_key(code::F10, true), Some(BarKey::Menu));
        assert_eq!(bar_key(code::ESC, false), Some(BarKey::Release));
        assert_eq!(popup_key(code::SPACE), Some(PopupKey::Choose));
        assert_eq!(popup_key(code::F10), None);
    }
}

//! Pointer input on Wayland: the seat's pointer, once it has one, and its
//! events on the bar's surface as the bar's input (on a notification's,
//! as that notification's): buttons as clicks (left,
//! right, middle, side as extra 1, extra as extra 2), and wheel notches and
//! touchpad movement as points of scrolling.

use super::LayerBar;
use crate::bar::{Member, NoticeInput};
use crate::input::scroll::{POINTS_PER_LINE, one_scroll};
use crate::view::Input;
use smithay_client_toolkit::reexports::client::protocol::{wl_pointer, wl_seat};
use smithay_client_toolkit::reexports::client::{Connection, QueueHandle};
use smithay_client_toolkit::seat::pointer::{PointerEvent, PointerEventKind, PointerHandler};
use smithay_client_toolkit::seat::{Capability, SeatHandler, SeatState};

/// Linux's button codes (`input-event-codes.h`), as `wl_pointer` gives them.
const BUTTON_LEFT: u32 = 0x110;
const BUTTON_RIGHT: u32 = 0x111;
const BUTTON_MIDDLE: u32 = 0x112;
const BUTTON_SIDE: u32 = 0x113;
const BUTTON_EXTRA: u32 = 0x114;

impl SeatHandler for LayerBar {
    fn seat_state(&mut self) -> &mut SeatState {
        &mut self.seats
    }

    fn new_seat(&mut self, _: &Connection, _: &QueueHandle<Self>, _: wl_seat::WlSeat) {}

    fn new_capability(
        &mut self,
        _: &Connection,
        qh: &QueueHandle<Self>,
        seat: wl_seat::WlSeat,
        capability: Capability,
    ) {
        if capability == Capability::Pointer && self.pointer.is_none() {
            match self.seats.get_pointer(qh, &seat) {
                Ok(pointer) => (self.pointer, self.pointer_seat) = (Some(pointer), Some(seat.clone())),
                Err(error) => tracing::warn!("no pointer from the seat: {error:#}"),
            }
        }
        if capability == Capability::Keyboard {
            self.take_keyboard(&seat, qh);
        }
    }

    fn remove_capability(&mut self, _: &Connection, _: &QueueHandle<Self>, _: wl_seat::WlSeat, capability: Capability) {
        if capability == Capability::Pointer
            && let Some(pointer) = self.pointer.take()
        {
            pointer.release();
        }
        if capability == Capability::Keyboard
            && let Some(keyboard) = self.keyboard.take()
        {
            keyboard.release();
        }
    }

    fn remove_seat(&mut self, _: &Connection, _: &QueueHandle<Self>, _: wl_seat::WlSeat) {}
}

impl PointerHandler for LayerBar {
    fn pointer_frame(
        &mut self,
        _: &Connection,
        _: &QueueHandle<Self>,
        _: &wl_pointer::WlPointer,
        events: &[PointerEvent],
    ) {
        for event in events {
            if let Some((Member { running, surface }, index)) = self.member_with_notice(&event.surface) {
                let (x, y) = (event.position.0 as f32, event.position.1 as f32);
                let input = match event.kind {
                    PointerEventKind::Enter { .. } | PointerEventKind::Motion { .. } => NoticeInput::Moved(x, y),
                    PointerEventKind::Leave { .. } => NoticeInput::Left,
                    PointerEventKind::Press { button, .. } => match input_of(button) {
                        Some(input) => NoticeInput::Pressed(input, x, y),
                        None => continue,
                    },
                    PointerEventKind::Release { .. } | PointerEventKind::Axis { .. } => continue,
                };
                running.notice_input(index, input, surface);
                continue;
            }
            if self.member_with_popup(&event.surface).is_some() {
                self.on_popup(event);
                continue;
            }
            let seat = self.pointer_seat.clone();
            let Some(Member { running, surface }) = self.member_on(&event.surface) else { continue };
            let (x, y) = (event.position.0 as f32, event.position.1 as f32);
            match event.kind {
                PointerEventKind::Enter { .. } | PointerEventKind::Motion { .. } => {
                    // Off the popup, if one is open: a popup made anew under
                    // the pointer is never entered, so never left either.
                    running.popup_moved(None, surface);
                    running.pointer_moved(x, y, surface);
                }
                PointerEventKind::Leave { .. } => running.pointer_left(surface),
                PointerEventKind::Press { button, serial, .. } => {
                    if let Some(input) = input_of(button) {
                        surface.last_press = seat.map(|seat| (seat, serial));
                        running.pointer_moved(x, y, surface);
                        running.pressed(input, surface);
                    }
                }
                PointerEventKind::Release { .. } => {}
                PointerEventKind::Axis { horizontal, vertical, .. } => {
                    // Wayland's positive axis values scroll right and down.
                    let points = |axis: smithay_client_toolkit::seat::pointer::AxisScroll| match axis.discrete {
                        0 => -axis.absolute as f32,
                        notches => -(notches as f32) * POINTS_PER_LINE,
                    };
                    running.scrolled((points(horizontal), points(vertical)), surface);
                }
            }
        }
    }
}

impl LayerBar {
    /// The pointer on a widget's popup: presses and scrolls for its cells,
    /// moves for a slider being dragged.
    fn on_popup(&mut self, event: &PointerEvent) {
        let Some(Member { running, surface }) = self.member_with_popup(&event.surface) else { return };
        let (x, y) = (event.position.0 as f32, event.position.1 as f32);
        match event.kind {
            PointerEventKind::Motion { .. } | PointerEventKind::Enter { .. } => {
                running.popup_moved(Some((x, y)), surface)
            }
            PointerEventKind::Leave { .. } => running.popup_moved(None, surface),
            PointerEventKind::Press { button, .. } => {
                if let Some(input) = input_of(button) {
                    running.popup_pressed(input, x, y);
                }
            }
            PointerEventKind::Release { .. } => running.popup_released(),
            PointerEventKind::Axis { horizontal, vertical, .. } => {
                // One scroll input a frame of axis events: Wayland's
                // positive values scroll right and down.
                let points = (-horizontal.absolute as f32, -vertical.absolute as f32);
                if let Some(direction) = one_scroll(points) {
                    running.popup_pressed(Input::Scroll(direction), x, y);
                }
            }
        }
    }
}

/// The bar's input for a pointer button.
fn input_of(button: u32) -> Option<Input> {
    Some(match button {
        BUTTON_LEFT => Input::PrimaryClick,
        BUTTON_RIGHT => Input::SecondaryClick,
        BUTTON_MIDDLE => Input::MiddleClick,
        BUTTON_SIDE => Input::Extra1Click,
        BUTTON_EXTRA => Input::Extra2Click,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buttons_are_the_bars_clicks() {
        assert_eq!(input_of(BUTTON_LEFT), Some(Input::PrimaryClick));
        assert_eq!(input_of(BUTTON_RIGHT), Some(Input::SecondaryClick));
        assert_eq!(input_of(BUTTON_MIDDLE), Some(Input::MiddleClick));
        assert_eq!(input_of(BUTTON_SIDE), Some(Input::Extra1Click));
        assert_eq!(input_of(BUTTON_EXTRA), Some(Input::Extra2Click));
        assert_eq!(input_of(0x115), None);
    }
}

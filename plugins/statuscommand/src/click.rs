//! A click or scroll on a block, as swaybar tells its status program: the
//! X11 button number and the Linux input event code, and where the pointer
//! was on the screen, on the bar and in the block, in whole pixels.

use crate::block::Block;
use obi_sdk::status_programs::ClickEvent;
use obi_sdk::{Input, Pointer, ScrollDirection};

/// Linux's `BTN_LEFT` … `BTN_EXTRA`.
const BTN_LEFT: u32 = 0x110;
const BTN_RIGHT: u32 = 0x111;
const BTN_MIDDLE: u32 = 0x112;
const BTN_SIDE: u32 = 0x113;
const BTN_EXTRA: u32 = 0x114;

/// swaybar's codes for the wheel, past Linux's `KEY_MAX` (0x2ff).
const SCROLL_UP: u32 = 0x300;
const SCROLL_DOWN: u32 = 0x301;
const SCROLL_LEFT: u32 = 0x302;
const SCROLL_RIGHT: u32 = 0x303;

/// X11's button and the event code of `input`.
fn button(input: Input) -> (u32, u32) {
    match input {
        Input::PrimaryClick | Input::DoubleClick => (1, BTN_LEFT),
        Input::MiddleClick => (2, BTN_MIDDLE),
        Input::SecondaryClick => (3, BTN_RIGHT),
        Input::Scroll(ScrollDirection::Up) => (4, SCROLL_UP),
        Input::Scroll(ScrollDirection::Down) => (5, SCROLL_DOWN),
        Input::Scroll(ScrollDirection::Left) => (6, SCROLL_LEFT),
        Input::Scroll(ScrollDirection::Right) => (7, SCROLL_RIGHT),
        Input::Extra1Click => (8, BTN_SIDE),
        Input::Extra2Click => (9, BTN_EXTRA),
    }
}

/// The event `input` on `block`, with the pointer at `pointer`.
pub fn click_event(block: &Block, input: Input, pointer: Pointer) -> ClickEvent {
    let (button, event) = button(input);
    let whole = |pixels: f32| pixels.round() as i32;
    ClickEvent {
        name: block.name.clone(),
        instance: block.instance.clone(),
        button,
        event,
        x: whole(pointer.bar_x + pointer.x),
        y: whole(pointer.bar_y + pointer.y),
        output_x: whole(pointer.bar_x - pointer.output_x + pointer.x),
        output_y: whole(pointer.bar_y - pointer.output_y + pointer.y),
        relative_x: whole(pointer.x - pointer.item_x),
        relative_y: whole(pointer.y - pointer.item_y),
        width: whole(pointer.item_width),
        height: whole(pointer.item_height),
        scale: pointer.scale,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_click_says_its_button_and_where_it_fell() {
        let block = Block::read(&serde_json::json!({ "full_text": "x", "name": "disk", "instance": "/" })).unwrap();
        let pointer = Pointer {
            x: 130.4,
            y: 12.0,
            bar_x: 1920.0,
            bar_y: 1050.0,
            output_x: 1920.0,
            output_y: 0.0,
            item_x: 100.0,
            item_y: 2.0,
            item_width: 60.0,
            item_height: 20.0,
            scale: 1.5,
        };
        let event = click_event(&block, Input::SecondaryClick, pointer);
        assert_eq!((event.name.as_deref(), event.instance.as_deref()), (Some("disk"), Some("/")));
        assert_eq!((event.button, event.event), (3, BTN_RIGHT));
        assert_eq!((event.x, event.y, event.relative_x, event.relative_y), (2050, 1062, 30, 10));
        assert_eq!(
            (event.output_x, event.output_y),
            (130, 1062),
            "on its output, the second, from the bottom of the first"
        );
        assert_eq!((event.width, event.height, event.scale), (60, 20, 1.5));
        assert_eq!(click_event(&block, Input::Scroll(ScrollDirection::Down), pointer).button, 5);
    }
}

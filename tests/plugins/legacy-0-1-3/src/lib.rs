//! A widget exactly as one built against `obi:widget@0.1.3` was: the world
//! of that release (kept in `wit/since_v0.1.3/`), before 0.1.4 added
//! `audio`, with no SDK in between. A secondary click opens a popup with a
//! slider; where it is slid to shows on the bar, and closing the popup is
//! counted.

wit_bindgen::generate!({
    world: "widget",
    path: "../../../wit/since_v0.1.3",
});

use exports::obi::widget::guest::{Frame, Guest};
use obi::widget::popup::{Block, Cell, Content, Popup, PopupInput};
use obi::widget::types::{Input, Schedule};
use obi::widget::view::{Bar, Emphasis, Inputs, Item, Piece, View};
use std::cell::Cell as Shared;

thread_local! {
    static OPEN: Shared<bool> = const { Shared::new(false) };
    static SLID_TO: Shared<u8> = const { Shared::new(0) };
    static CLOSED: Shared<u32> = const { Shared::new(0) };
}

struct Legacy;

impl Guest for Legacy {
    fn init(_config_json: String, _bar: Bar) -> Result<Schedule, String> {
        Ok(Schedule { interval_ms: 0, align_to_wall_clock: false })
    }

    fn refresh() -> Frame {
        let (slid_to, closed) = (SLID_TO.with(Shared::get), CLOSED.with(Shared::get));
        let item = Item {
            key: "level".into(),
            pieces: vec![Piece::Text(format!("slid to {slid_to}, closed {closed}"))],
            emphasis: Emphasis::Normal,
            takes: Inputs::SECONDARY_CLICK,
            tooltip: None,
        };
        let slider = Cell {
            key: "slider".into(),
            content: Content::Slider(slid_to),
            emphasis: Emphasis::Normal,
            takes: Inputs::empty(),
        };
        let popup =
            OPEN.with(Shared::get).then(|| Popup { item_key: "level".into(), blocks: vec![Block::Line(slider)] });
        Frame { view: View { items: vec![item], item_spacing: None }, next_refresh_ms: None, popup }
    }

    fn on_input(_key: String, event: Input) {
        if matches!(event, Input::SecondaryClick) {
            OPEN.with(|open| open.set(true));
        }
    }

    fn on_popup_input(_item_key: String, _cell_key: String, event: PopupInput) {
        if let PopupInput::Slide(value) = event {
            SLID_TO.with(|slid_to| slid_to.set(value));
        }
    }

    fn on_popup_closed(_item_key: String) {
        OPEN.with(|open| open.set(false));
        CLOSED.with(|closed| closed.set(closed.get() + 1));
    }

    fn config_schema() -> Option<String> {
        None
    }
}

export!(Legacy);

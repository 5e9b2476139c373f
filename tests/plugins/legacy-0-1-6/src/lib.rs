//! A widget exactly as one built against `obi:widget@0.1.6` was: the world
//! of that release (kept in `wit/since_v0.1.6/`), before 0.1.7 added
//! `notifications`, with no SDK in between. Its item has a look of its own
//! (0.1.6) and says where the pointer was at the last click.

wit_bindgen::generate!({
    world: "widget",
    path: "../../../wit/since_v0.1.6",
});

use exports::obi::widget::guest::{Frame, Guest};
use obi::widget::popup::PopupInput;
use obi::widget::types::{Input, Schedule};
use obi::widget::view::{Align, Bar, Colour, Emphasis, Inputs, Item, Look, Piece, Pointer, View};
use std::cell::Cell;

thread_local! {
    static CLICKED_AT: Cell<Option<(f32, f32)>> = const { Cell::new(None) };
}

struct Legacy;

impl Guest for Legacy {
    fn init(_config_json: String, _bar: Bar) -> Result<Schedule, String> {
        Ok(Schedule { interval_ms: 0, align_to_wall_clock: false })
    }

    fn refresh() -> Frame {
        let said = match CLICKED_AT.with(Cell::get) {
            Some((x, y)) => format!("clicked at {x},{y}"),
            None => "not clicked".into(),
        };
        let look = Look {
            colour: Some(Colour { red: 255, green: 0, blue: 0, alpha: 255 }),
            background: None,
            border: None,
            least_width: None,
            padding: 4,
            align: Align::Center,
            room_after: None,
            separator: false,
            short: None,
        };
        let item = Item {
            key: "where".into(),
            pieces: vec![Piece::Text(said)],
            emphasis: Emphasis::Normal,
            takes: Inputs::PRIMARY_CLICK,
            tooltip: Some("0.1.6".into()),
            look: Some(look),
        };
        Frame { view: View { items: vec![item], item_spacing: None }, next_refresh_ms: None, popup: None }
    }

    fn on_input(_key: String, _event: Input, pointer: Pointer) {
        CLICKED_AT.with(|at| at.set(Some((pointer.x, pointer.y))));
    }

    fn on_popup_input(_item_key: String, _cell_key: String, _event: PopupInput) {}

    fn on_popup_closed(_item_key: String) {}

    fn on_refresh_requested() {}

    fn config_schema() -> Option<String> {
        None
    }
}

export!(Legacy);

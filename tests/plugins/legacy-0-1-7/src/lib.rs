//! A widget exactly as one built against `obi:widget@0.1.7` was: the world
//! of that release (kept in `wit/since_v0.1.7/`), before 0.1.8 added
//! `backlight`, with no SDK in between. It shows what 0.1.7 added: how
//! many notifications are unseen, and whether Obi serves them.

wit_bindgen::generate!({
    world: "widget",
    path: "../../../wit/since_v0.1.7",
});

use exports::obi::widget::guest::{Frame, Guest};
use obi::widget::notifications::{self, Standing};
use obi::widget::popup::PopupInput;
use obi::widget::types::{Input, Schedule};
use obi::widget::view::{Bar, Emphasis, Inputs, Item, Piece, Pointer, View};

struct Legacy;

impl Guest for Legacy {
    fn init(_config_json: String, _bar: Bar) -> Result<Schedule, String> {
        Ok(Schedule { interval_ms: 0, align_to_wall_clock: false })
    }

    fn refresh() -> Frame {
        let status = notifications::status();
        let standing = match status.standing {
            Standing::Serving => "serving".to_owned(),
            Standing::NotServing(why) => format!("not serving: {why}"),
        };
        let item = Item {
            key: "unseen".into(),
            pieces: vec![Piece::Text(format!("{} unseen", status.unseen))],
            emphasis: Emphasis::Normal,
            takes: Inputs::empty(),
            tooltip: Some(standing),
            look: None,
        };
        Frame { view: View { items: vec![item], item_spacing: None }, next_refresh_ms: None, popup: None }
    }

    fn on_input(_key: String, _event: Input, _pointer: Pointer) {}

    fn on_popup_input(_item_key: String, _cell_key: String, _event: PopupInput) {}

    fn on_popup_closed(_item_key: String) {}

    fn on_refresh_requested() {}

    fn config_schema() -> Option<String> {
        None
    }
}

export!(Legacy);

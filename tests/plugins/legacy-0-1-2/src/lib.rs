//! A widget exactly as one built against `obi:widget@0.1.2` was: the world
//! of that release (kept in `wit/since_v0.1.2/`), its `guest` interface
//! before 0.1.3 gave frames a popup, with no SDK in between. It counts its
//! refreshes and the clicks it was sent, asks for its next refresh in
//! 250 ms, and describes its config.

wit_bindgen::generate!({
    world: "widget",
    path: "../../../wit/since_v0.1.2",
});

use exports::obi::widget::guest::{Frame, Guest};
use obi::widget::types::{Input, Schedule};
use obi::widget::view::{Bar, Emphasis, Inputs, Item, Piece, View};
use std::cell::Cell;

thread_local! {
    static REFRESHES: Cell<u32> = const { Cell::new(0) };
    static CLICKS: Cell<u32> = const { Cell::new(0) };
}

struct Legacy;

impl Guest for Legacy {
    fn init(_config_json: String, _bar: Bar) -> Result<Schedule, String> {
        Ok(Schedule { interval_ms: 0, align_to_wall_clock: false })
    }

    fn refresh() -> Frame {
        let refreshes = REFRESHES.with(|cell| cell.get() + 1);
        REFRESHES.with(|cell| cell.set(refreshes));
        let clicks = CLICKS.with(Cell::get);
        let item = Item {
            key: "count".into(),
            pieces: vec![Piece::Text(format!("refreshes: {refreshes}, clicks: {clicks}"))],
            emphasis: Emphasis::Normal,
            takes: Inputs::PRIMARY_CLICK | Inputs::SECONDARY_CLICK,
            tooltip: None,
        };
        Frame { view: View { items: vec![item], item_spacing: None }, next_refresh_ms: Some(250) }
    }

    fn on_input(_key: String, _event: Input) {
        CLICKS.with(|cell| cell.set(cell.get() + 1));
    }

    fn config_schema() -> Option<String> {
        Some(r#"{"type": "object"}"#.into())
    }
}

export!(Legacy);

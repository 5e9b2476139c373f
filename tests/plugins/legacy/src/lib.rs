//! A widget exactly as one built against `obi:widget@0.1.0` was: the world
//! of that release (kept in `wit/since_v0.1.0/`), its bare exports and its
//! view, with no SDK in between. It shows "clicks: N" selected, counting
//! primary clicks, and logs each click through the 0.1.0 `log` import.

wit_bindgen::generate!({
    world: "widget",
    path: "../../../wit/since_v0.1.0",
});

use obi::widget::log::{Level, log};
use obi::widget::types::{Item, Piece};
use std::cell::Cell;

thread_local! {
    static CLICKS: Cell<u32> = const { Cell::new(0) };
}

struct Legacy;

impl Guest for Legacy {
    fn init(_config_json: String) -> Result<Schedule, String> {
        Ok(Schedule { interval_ms: 0, align_to_wall_clock: false })
    }

    fn refresh() -> View {
        let clicks = CLICKS.with(Cell::get);
        let item = Item {
            key: "clicks".into(),
            pieces: vec![Piece::Text(format!("clicks: {clicks}"))],
            selected: true,
            tooltip: None,
        };
        View { items: vec![item], item_spacing: None }
    }

    fn on_input(_key: String, event: Input) {
        if matches!(event, Input::PrimaryClick) {
            CLICKS.with(|clicks| clicks.set(clicks.get() + 1));
            log(Level::Info, "clicked");
        }
    }
}

export!(Legacy);

//! A widget exactly as one built against `obi:widget@0.1.1` was: the world
//! of that release (kept in `wit/since_v0.1.1/`), its bare exports, with no
//! SDK in between. Its config is a command line; a primary click asks
//! `process.spawn` to run it, as 0.1.1 widgets did, and the item shows how
//! that went (muted until the first click, after the bar's monitor).

wit_bindgen::generate!({
    world: "widget",
    path: "../../../wit/since_v0.1.1",
});

use obi::widget::process::spawn;
use obi::widget::view::{Emphasis, Inputs, Item, Piece};
use std::cell::RefCell;

thread_local! {
    static COMMAND: RefCell<String> = const { RefCell::new(String::new()) };
    static SHOWN: RefCell<String> = const { RefCell::new(String::new()) };
}

struct Legacy;

impl Guest for Legacy {
    fn init(config_json: String, bar: Bar) -> Result<Schedule, String> {
        // The config is one JSON string: the command line.
        let command = config_json.trim().trim_matches('"').to_owned();
        COMMAND.with(|cell| *cell.borrow_mut() = command);
        SHOWN.with(|cell| *cell.borrow_mut() = format!("monitor {:?}", bar.monitor));
        Ok(Schedule { interval_ms: 0, align_to_wall_clock: false })
    }

    fn refresh() -> View {
        let item = Item {
            key: "run".into(),
            pieces: vec![Piece::Text(SHOWN.with(|cell| cell.borrow().clone()))],
            emphasis: Emphasis::Muted,
            takes: Inputs::PRIMARY_CLICK,
            tooltip: None,
        };
        View { items: vec![item], item_spacing: None }
    }

    fn on_input(_key: String, event: Input) {
        if matches!(event, Input::PrimaryClick) {
            let outcome = match spawn(&COMMAND.with(|cell| cell.borrow().clone())) {
                Ok(()) => "spawned".to_owned(),
                Err(error) => format!("refused: {error}"),
            };
            SHOWN.with(|cell| *cell.borrow_mut() = outcome);
        }
    }
}

export!(Legacy);

//! A widget exactly as one built against `obi:widget@0.1.4` was: the world
//! of that release (kept in `wit/since_v0.1.4/`), before 0.1.5 added styled
//! text, with no SDK in between. Its item counts the refreshes the user
//! asked for (0.1.4's `on-refresh-requested`); a secondary click opens a
//! popup of a label and a button, whose click is counted.

wit_bindgen::generate!({
    world: "widget",
    path: "../../../wit/since_v0.1.4",
});

use exports::obi::widget::guest::{Frame, Guest};
use obi::widget::popup::{Block, Cell, Content, Popup, PopupInput};
use obi::widget::types::{Input, Schedule};
use obi::widget::view::{Bar, Emphasis, Inputs, Item, Piece, View};
use std::cell::Cell as Shared;

thread_local! {
    static OPEN: Shared<bool> = const { Shared::new(false) };
    static REQUESTED: Shared<u32> = const { Shared::new(0) };
    static PRESSED: Shared<u32> = const { Shared::new(0) };
}

struct Legacy;

fn cell(key: &str, content: Content) -> Cell {
    Cell { key: key.into(), content, emphasis: Emphasis::Normal, takes: Inputs::empty() }
}

impl Guest for Legacy {
    fn init(_config_json: String, _bar: Bar) -> Result<Schedule, String> {
        Ok(Schedule { interval_ms: 0, align_to_wall_clock: false })
    }

    fn refresh() -> Frame {
        let (requested, pressed) = (REQUESTED.with(Shared::get), PRESSED.with(Shared::get));
        let item = Item {
            key: "count".into(),
            pieces: vec![Piece::Text(format!("requested {requested}, pressed {pressed}"))],
            emphasis: Emphasis::Selected,
            takes: Inputs::SECONDARY_CLICK,
            tooltip: Some("0.1.4".into()),
        };
        let popup = OPEN.with(Shared::get).then(|| Popup {
            item_key: "count".into(),
            blocks: vec![
                Block::Line(cell("", Content::Label(vec![Piece::Text("legacy".into())]))),
                Block::Separator,
                Block::Line(cell("press", Content::Button(vec![Piece::Text("press".into())]))),
            ],
        });
        Frame { view: View { items: vec![item], item_spacing: None }, next_refresh_ms: None, popup }
    }

    fn on_input(_key: String, event: Input) {
        if matches!(event, Input::SecondaryClick) {
            OPEN.with(|open| open.set(true));
        }
    }

    fn on_popup_input(_item_key: String, cell_key: String, event: PopupInput) {
        if cell_key == "press" && matches!(event, PopupInput::Input(Input::PrimaryClick)) {
            PRESSED.with(|pressed| pressed.set(pressed.get() + 1));
        }
    }

    fn on_popup_closed(_item_key: String) {
        OPEN.with(|open| open.set(false));
    }

    fn on_refresh_requested() {
        REQUESTED.with(|requested| requested.set(requested.get() + 1));
    }

    fn config_schema() -> Option<String> {
        None
    }
}

export!(Legacy);

//! A widget that shows exactly the items its config lists, for tests that
//! need a bar whose pixels do not depend on the time or the machine
//! (golden images, layout and damage measurements).
//!
//! ```json
//! { "Plugin": { "enable": true, "path": "fixed.wasm", "config": {
//!     "items": [ { "icon": "\ue19a", "text": "12:34", "selected": true } ] } } }
//! ```

use obi_sdk::{Input, Schedule, View, Widget, item};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct FixedItem {
    icon: Option<String>,
    text: Option<String>,
    #[serde(default)]
    selected: bool,
}

#[derive(Deserialize)]
pub struct Config {
    items: Vec<FixedItem>,
}

pub struct Fixed {
    view: View,
}

impl Widget for Fixed {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let view = View::of(config.items.into_iter().enumerate().map(|(index, fixed)| {
            let mut item = item(index.to_string()).selected(fixed.selected);
            if let Some(icon) = fixed.icon {
                item = item.icon(icon);
            }
            if let Some(text) = fixed.text {
                item = item.text(text);
            }
            item
        }));
        // Nothing changes: an hour between refreshes is as good as never.
        Ok((Fixed { view }, Schedule::every_secs(3600)))
    }

    fn refresh(&mut self) -> View {
        self.view.clone()
    }

    fn on_input(&mut self, _key: &str, _input: Input) {}
}

obi_sdk::export!(Fixed);

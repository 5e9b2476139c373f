//! A widget that shows exactly the items its config lists, for tests that
//! need a bar whose pixels do not depend on the time or the machine
//! (golden images, layout and damage measurements, text in every script).
//! An item may have a tooltip, and a popup of lines of text that a primary
//! click opens.
//!
//! ```json
//! { "Plugin": { "enable": true, "path": "fixed.wasm", "config": {
//!     "items": [ { "icon": "\ue19a", "text": "12:34", "selected": true,
//!                  "tooltip": "noon", "popup": [ "first line", "second" ] } ] } } }
//! ```

use obi_sdk::{Input, Inputs, Popup, Schedule, View, Widget, item, label};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct FixedItem {
    icon: Option<String>,
    text: Option<String>,
    #[serde(default)]
    selected: bool,
    tooltip: Option<String>,
    #[serde(default)]
    popup: Vec<String>,
}

#[derive(Deserialize)]
pub struct Config {
    items: Vec<FixedItem>,
}

pub struct Fixed {
    view: View,
    /// Each item's popup lines, by its key.
    popups: Vec<Vec<String>>,
    /// The key of the item whose popup is open.
    open: Option<String>,
}

impl Widget for Fixed {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let popups = config.items.iter().map(|fixed| fixed.popup.clone()).collect();
        let view = View::of(config.items.into_iter().enumerate().map(|(index, fixed)| {
            let mut item = item(index.to_string()).selected(fixed.selected);
            if let Some(icon) = fixed.icon {
                item = item.icon(icon);
            }
            if let Some(text) = fixed.text {
                item = item.text(text);
            }
            if let Some(tooltip) = fixed.tooltip {
                item = item.tooltip(tooltip);
            }
            if !fixed.popup.is_empty() {
                item = item.takes(Inputs::PRIMARY_CLICK);
            }
            item
        }));
        // Nothing changes: an hour between refreshes is as good as never.
        Ok((Fixed { view, popups, open: None }, Schedule::every_secs(3600)))
    }

    fn refresh(&mut self) -> View {
        self.view.clone()
    }

    fn popup(&mut self) -> Option<Popup> {
        let key = self.open.as_ref()?;
        let lines = self.popups.get(key.parse::<usize>().ok()?)?;
        Some(lines.iter().fold(Popup::beside(key.clone()), |popup, line| popup.line(label(line.clone()))))
    }

    fn on_input(&mut self, key: &str, input: Input) {
        if matches!(input, Input::PrimaryClick) {
            self.open = Some(key.to_owned());
        }
    }

    fn on_popup_closed(&mut self, _item_key: &str) {
        self.open = None;
    }
}

obi_sdk::export!(Fixed);

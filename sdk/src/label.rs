//! `label_prefix`, shared by the widgets that show a value with an icon
//! and/or a short name in front of it, spelled as in `komorebi.bar.json`.

use serde::Deserialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum LabelPrefix {
    None,
    Icon,
    Text,
    IconAndText,
}

impl LabelPrefix {
    pub fn shows_icon(self) -> bool {
        matches!(self, LabelPrefix::Icon | LabelPrefix::IconAndText)
    }

    pub fn shows_text(self) -> bool {
        matches!(self, LabelPrefix::Text | LabelPrefix::IconAndText)
    }

    /// `"NAME: value"` when the prefix shows text, else just `value`.
    pub fn label(self, name: &str, value: &str) -> String {
        if self.shows_text() { format!("{name}: {value}") } else { value.to_owned() }
    }
}

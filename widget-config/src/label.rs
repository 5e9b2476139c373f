//! `label_prefix`, shared by the widgets that show a value with an icon
//! and/or a short name in front of it.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

#[cfg(test)]
mod tests {
    use super::LabelPrefix::*;

    #[test]
    fn text_prefixes_name_the_value() {
        assert_eq!(Text.label("CPU", "12%"), "CPU: 12%");
        assert_eq!(IconAndText.label("CPU", "12%"), "CPU: 12%");
        assert_eq!(Icon.label("CPU", "12%"), "12%");
        assert_eq!(None.label("CPU", "12%"), "12%");
    }

    #[test]
    fn icon_prefixes_show_the_icon() {
        assert!(Icon.shows_icon() && IconAndText.shows_icon());
        assert!(!Text.shows_icon() && !None.shows_icon());
    }
}

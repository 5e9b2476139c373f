//! The custom command's config (an Obi extension of the format), after
//! Waybar's `custom` module, so that people's scripts carry over: Waybar's
//! hyphenated keys (`return-type`, `on-click`, `max-length`) are read too.

use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;
use std::collections::BTreeMap;

/// What a command prints, shown on the bar:
/// `{ "Custom": { "enable": true, "exec": "~/bin/mail-count", "interval": 60, "return_type": "json" } }`
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CustomConfig {
    pub enable: bool,
    /// Its name in logs and for `obi msg refresh NAME`, which runs it again
    /// (default `Custom`).
    pub name: Option<String>,
    /// The command line run, through `sh -c` (`cmd /C` on Windows).
    pub exec: String,
    /// Seconds between two runs, or `"once"`; without it the command keeps
    /// running and each line it prints is an update (started again, after
    /// a wait, when it ends).
    pub interval: Option<CustomInterval>,
    /// `json`: the first line (of a command that keeps running: each line)
    /// is `{"text", "tooltip", "class", "percentage", "alt"}`; otherwise the
    /// first line is the text, the second the tooltip, the third the class
    /// (of a command that keeps running: each line is the text).
    #[serde(alias = "return-type")]
    pub return_type: Option<CustomReturnType>,
    /// Run on a primary click (then `exec` runs again).
    #[serde(alias = "on-click")]
    pub on_click: Option<String>,
    #[serde(alias = "on-click-right")]
    pub on_click_right: Option<String>,
    #[serde(alias = "on-click-middle")]
    pub on_click_middle: Option<String>,
    /// The longest text shown, in characters; longer is cut with "…".
    #[serde(alias = "max-length")]
    pub max_length: Option<usize>,
    /// With `return_type` `json`: the item is selected while the line's
    /// `percentage` is over this (as Cpu's `auto_select_over` is).
    pub auto_select_over: Option<u8>,
    /// The text and tooltip are shown as printed. Without it they are Pango
    /// markup, as Waybar reads them: shown without their tags, with their
    /// entities (`&amp;`) read.
    pub escape: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum CustomInterval {
    Seconds(u64),
    Once(Once),
}

/// `"once"`: run at the start, and after a click.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Once {
    #[serde(rename = "once")]
    Once,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum CustomReturnType {
    Json,
    Text,
}

impl CustomConfig {
    /// Its command lines by the ids the widget runs them with: `exec`, and
    /// each click's that is set.
    pub fn commands(&self) -> BTreeMap<String, String> {
        let clicks = [
            ("on_click", &self.on_click),
            ("on_click_right", &self.on_click_right),
            ("on_click_middle", &self.on_click_middle),
        ];
        let clicks = clicks.into_iter().filter_map(|(id, command)| Some((id.to_owned(), command.clone()?)));
        [("exec".to_owned(), self.exec.clone())].into_iter().chain(clicks).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waybars_keys_are_read_and_every_command_is_declared() {
        let config: CustomConfig = serde_json::from_str(
            r#"{ "enable": true, "exec": "mail-count", "interval": "once", "return-type": "json",
                 "on-click": "thunderbird", "max-length": 20 }"#,
        )
        .unwrap();
        assert_eq!(config.interval, Some(CustomInterval::Once(Once::Once)));
        assert_eq!((config.return_type, config.max_length), (Some(CustomReturnType::Json), Some(20)));
        let commands = config.commands();
        assert_eq!(commands.len(), 2);
        assert_eq!((commands["exec"].as_str(), commands["on_click"].as_str()), ("mail-count", "thunderbird"));
        let every: CustomConfig = serde_json::from_str(r#"{ "enable": true, "exec": "x", "interval": 5 }"#).unwrap();
        assert_eq!(every.interval, Some(CustomInterval::Seconds(5)));
    }
}

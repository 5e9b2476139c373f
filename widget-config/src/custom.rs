//! The custom command's config (an Obi extension of the format), after
//! Waybar's `custom` module, so that people's modules carry over whole:
//! Waybar's hyphenated keys (`return-type`, `on-click`, `exec-if`,
//! `format-icons`) are read too.

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
    /// The command line run, through `sh -c` (`cmd /C` on Windows). Without
    /// it the item shows its `format` alone (a separator, a label).
    pub exec: Option<String>,
    /// Run before each run of `exec`: while it fails (a non-zero exit) the
    /// item is hidden and `exec` is not run (`pgrep spotify`).
    #[serde(alias = "exec-if")]
    pub exec_if: Option<String>,
    /// Whether `exec` runs again after a click or scroll ran its command
    /// (default `true`).
    #[serde(alias = "exec-on-event")]
    pub exec_on_event: Option<bool>,
    /// Seconds between two runs, or `"once"`; without it (and without a
    /// `signal`) the command keeps running and each line it prints is an
    /// update.
    pub interval: Option<CustomInterval>,
    /// Of a command that keeps running: the seconds to wait before starting
    /// it again when it ends (without it the wait grows from a second while
    /// it keeps ending soon after it starts).
    #[serde(alias = "restart-interval")]
    pub restart_interval: Option<u64>,
    /// `pkill -RTMIN+N obi` (or `obi msg signal N`) runs it again, as
    /// `pkill -RTMIN+N waybar` does. With a signal and no `interval` it runs
    /// at the start and on the signal alone.
    pub signal: Option<u8>,
    /// `json`: the first line (of a command that keeps running: each line)
    /// is `{"text", "tooltip", "class", "percentage", "alt"}`; otherwise the
    /// first line is the text, the second the tooltip, the third the class
    /// (of a command that keeps running: each line is the text).
    #[serde(alias = "return-type")]
    pub return_type: Option<CustomReturnType>,
    /// What the item shows, Pango markup: `{}` or `{text}` is the text
    /// printed, `{alt}`, `{percentage}` and `{icon}` what a JSON line gave
    /// (default `{}`).
    pub format: Option<String>,
    /// What `{icon}` is: a list chosen by `percentage` (low to high), or
    /// an object by `alt` (a string, or such a list), `default` for others.
    #[serde(alias = "format-icons")]
    pub format_icons: Option<FormatIcons>,
    /// The tooltip, as `format` is written; without it, what the command
    /// printed as the tooltip.
    #[serde(alias = "tooltip-format")]
    pub tooltip_format: Option<String>,
    /// `false`: no tooltip.
    pub tooltip: Option<bool>,
    /// Hidden while the command's text is empty, though `format` would show
    /// more.
    #[serde(alias = "hide-empty-text")]
    pub hide_empty_text: Option<bool>,
    /// Run on a primary click (then `exec` runs again).
    #[serde(alias = "on-click")]
    pub on_click: Option<String>,
    #[serde(alias = "on-click-right")]
    pub on_click_right: Option<String>,
    #[serde(alias = "on-click-middle")]
    pub on_click_middle: Option<String>,
    #[serde(alias = "on-scroll-up")]
    pub on_scroll_up: Option<String>,
    #[serde(alias = "on-scroll-down")]
    pub on_scroll_down: Option<String>,
    /// The longest text shown, in characters; longer is cut with "…".
    #[serde(alias = "max-length")]
    pub max_length: Option<usize>,
    /// The shortest text shown, in characters; shorter is padded with
    /// spaces on both sides, as a Waybar label is centred in its width.
    #[serde(alias = "min-length")]
    pub min_length: Option<usize>,
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

/// What `{icon}` stands for, as Waybar's `format-icons` says it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum FormatIcons {
    /// Chosen by the percentage: the first for 0, the last for 100.
    ByLevel(Vec<String>),
    /// By the `alt` a JSON line gave (`default` for any other).
    ByAlt(BTreeMap<String, AltIcons>),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum AltIcons {
    One(String),
    ByLevel(Vec<String>),
}

/// The real-time signals a Custom may name: `SIGRTMIN+1` up to Linux's
/// `SIGRTMAX` (`SIGRTMIN+30` under glibc, which keeps two for itself).
pub const REAL_TIME_SIGNALS: std::ops::RangeInclusive<u8> = 1..=30;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum CustomReturnType {
    Json,
    Text,
}

impl CustomConfig {
    /// Its command lines by the ids the widget runs them with: `exec`,
    /// `exec_if` and each click's and scroll's that is set.
    pub fn commands(&self) -> BTreeMap<String, String> {
        let declared = [
            ("exec", &self.exec),
            ("exec_if", &self.exec_if),
            ("on_click", &self.on_click),
            ("on_click_right", &self.on_click_right),
            ("on_click_middle", &self.on_click_middle),
            ("on_scroll_up", &self.on_scroll_up),
            ("on_scroll_down", &self.on_scroll_down),
        ];
        declared.into_iter().filter_map(|(id, command)| Some((id.to_owned(), command.clone()?))).collect()
    }

    /// The signal that runs it again, when it names one Obi can hear.
    pub fn refresh_signal(&self) -> Option<u8> {
        self.signal.filter(|signal| REAL_TIME_SIGNALS.contains(signal))
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
        assert_eq!(config.refresh_signal(), None);
        assert_eq!((commands["exec"].as_str(), commands["on_click"].as_str()), ("mail-count", "thunderbird"));
        let every: CustomConfig = serde_json::from_str(r#"{ "enable": true, "exec": "x", "interval": 5 }"#).unwrap();
        assert_eq!(every.interval, Some(CustomInterval::Seconds(5)));
    }

    #[test]
    fn a_waybar_module_is_read_whole() {
        let config: CustomConfig = serde_json::from_str(
            r#"{ "enable": true, "exec": "vol", "exec-if": "pgrep pipewire", "exec-on-event": false,
                 "restart-interval": 5, "signal": 8, "format": "{icon} {}", "tooltip-format": "{percentage}%",
                 "tooltip": false, "hide-empty-text": true, "min-length": 4,
                 "format-icons": { "muted": "M", "default": ["a", "b"] },
                 "on-scroll-up": "vol +5", "on-scroll-down": "vol -5" }"#,
        )
        .unwrap();
        assert_eq!(
            (config.exec_on_event, config.restart_interval, config.refresh_signal()),
            (Some(false), Some(5), Some(8))
        );
        assert_eq!((config.tooltip, config.hide_empty_text, config.min_length), (Some(false), Some(true), Some(4)));
        let icons = BTreeMap::from([
            ("muted".to_owned(), AltIcons::One("M".into())),
            ("default".to_owned(), AltIcons::ByLevel(vec!["a".into(), "b".into()])),
        ]);
        assert_eq!(config.format_icons, Some(FormatIcons::ByAlt(icons)));
        let ids: Vec<String> = config.commands().into_keys().collect();
        assert_eq!(ids, ["exec", "exec_if", "on_scroll_down", "on_scroll_up"]);
        let levels: CustomConfig = serde_json::from_str(r#"{ "enable": true, "format-icons": ["x", "y"] }"#).unwrap();
        assert_eq!(levels.format_icons, Some(FormatIcons::ByLevel(vec!["x".into(), "y".into()])));
        assert!(levels.commands().is_empty(), "a label alone runs nothing");
        let beyond: CustomConfig = serde_json::from_str(r#"{ "enable": true, "signal": 31 }"#).unwrap();
        assert_eq!(beyond.refresh_signal(), None, "past SIGRTMAX");
    }
}

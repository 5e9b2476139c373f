//! Obi in swaybar's or i3bar's place: `swaybar_command obi` in a sway
//! `bar { }` block (sway runs `obi -b <id>`), `i3bar_command obi` in i3's
//! (`obi --bar_id=<id> --socket=<path>`). The block is asked for over the
//! tiler's IPC (`GET_BAR_CONFIG` with its id), read ([`BarBlock`]) and made
//! the config beneath the user's own ([`translate`]); its changes
//! (`barconfig_update`) and sway's word that the modifier is held
//! (`bar_state_update`) are followed on a thread of their own.

#[cfg(unix)]
mod source;
mod translate;

#[cfg(unix)]
pub use source::BlockSource;
pub use translate::config;

use serde::Deserialize;
use std::collections::BTreeMap;

/// A `bar { }` block, as sway and i3 describe it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct BarBlock {
    pub id: String,
    #[serde(default)]
    pub mode: Mode,
    /// In `hide` mode: `show` keeps the bar shown.
    #[serde(default)]
    pub hidden_state: HiddenState,
    #[serde(default)]
    pub position: Position,
    pub status_command: Option<String>,
    /// A Pango font description (`pango:DejaVu Sans Mono 10`, `monospace 10`).
    pub font: Option<String>,
    /// sway's `bar_height` (0: as tall as its font needs), i3's `height`.
    #[serde(alias = "bar_height")]
    pub height: Option<u32>,
    #[serde(default = "yes")]
    pub workspace_buttons: bool,
    #[serde(default)]
    pub strip_workspace_numbers: bool,
    #[serde(default)]
    pub strip_workspace_name: bool,
    #[serde(default = "yes")]
    pub binding_mode_indicator: bool,
    /// `background`, `statusline`, `separator`, `focused_workspace_bg` …,
    /// as `#rrggbb` or `#rrggbbaa`.
    #[serde(default)]
    pub colors: BTreeMap<String, String>,
    /// The outputs with a tray (`none`: no tray); none said: all of them.
    pub tray_outputs: Option<Vec<String>>,
    /// The outputs the bar is on; none said: all of them.
    pub outputs: Option<Vec<String>>,
    /// What it draws between status blocks (i3's and sway's own).
    pub separator_symbol: Option<String>,
    /// sway's room around the bar.
    pub gaps: Option<serde_json::Value>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    #[default]
    Dock,
    /// Shown only while the modifier is held (or `hidden_state` is `show`).
    Hide,
    Invisible,
    /// Shown over the windows, taking no room.
    Overlay,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HiddenState {
    #[default]
    Hide,
    Show,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Position {
    Top,
    #[default]
    Bottom,
}

impl BarBlock {
    /// Whether the bar is shown, held modifier or not.
    pub fn shown(&self, modifier_held: bool) -> bool {
        match self.mode {
            Mode::Dock | Mode::Overlay => true,
            Mode::Hide => modifier_held || self.hidden_state == HiddenState::Show,
            Mode::Invisible => false,
        }
    }
}

/// What changed of the block, as the tiler tells it.
#[derive(Debug, Clone, PartialEq)]
pub enum BlockEvent {
    Changed(Box<BarBlock>),
    /// sway's: the bar's modifier is held, or no longer.
    ModifierHeld(bool),
}

#[cfg(all(test, unix))]
pub(super) mod tests {
    use super::*;

    /// What sway 1.10 answers for a block with colours, a font, a status
    /// command and `position bottom`.
    pub(super) const SWAYS: &str = r##"{ "id": "bar-0", "mode": "dock", "hidden_state": "hide", "position": "bottom",
        "status_command": "i3status", "font": "pango:DejaVu Sans Mono 11", "gaps": { "top": 0, "right": 0, "bottom": 0, "left": 0 },
        "bar_height": 0, "status_padding": 1, "status_edge_padding": 3, "wrap_scroll": false, "workspace_buttons": true,
        "strip_workspace_numbers": false, "strip_workspace_name": false, "workspace_min_width": 0,
        "binding_mode_indicator": true, "verbose": false, "pango_markup": false,
        "colors": { "background": "#112233ff", "statusline": "#ffffffff", "separator": "#666666ff",
                    "focused_workspace_border": "#4c7899ff", "focused_workspace_bg": "#285577ff", "focused_workspace_text": "#ffffffff" },
        "tray_padding": 2 }"##;

    #[test]
    fn sways_answer_is_read_and_its_modes_show_or_hide_the_bar() {
        let block = source::read_block("bar-0", SWAYS.as_bytes()).unwrap();
        assert_eq!((block.mode, block.position, block.height), (Mode::Dock, Position::Bottom, Some(0)));
        assert_eq!(block.status_command.as_deref(), Some("i3status"));
        assert_eq!(block.colors["focused_workspace_bg"], "#285577ff");
        assert!(block.shown(false));
        let hidden = BarBlock { mode: Mode::Hide, ..block.clone() };
        assert!(!hidden.shown(false) && hidden.shown(true), "shown while the modifier is held");
        assert!(BarBlock { hidden_state: HiddenState::Show, ..hidden }.shown(false));
        assert!(!BarBlock { mode: Mode::Invisible, ..block }.shown(true));
    }
}

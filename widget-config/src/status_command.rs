//! The status program widget's config (an Obi extension of the format):
//! the command line of a program speaking the i3bar protocol, as sway's
//! and i3's `status_command` names one.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The blocks of a status program (i3status, i3blocks, i3status-rust …),
/// drawn as i3bar and swaybar draw them, clicks and all:
/// `{ "StatusCommand": { "enable": true, "command": "i3status" } }`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StatusCommandConfig {
    pub enable: bool,
    /// The program's command line, run through `sh -c` (`cmd /C` on
    /// Windows) as sway runs its `status_command`.
    pub command: String,
}

impl StatusCommandConfig {
    /// The id its command is declared under.
    pub const COMMAND_ID: &str = "status";

    /// The command it runs, by id: all it may run.
    pub fn commands(&self) -> BTreeMap<String, String> {
        BTreeMap::from([(Self::COMMAND_ID.to_owned(), self.command.clone())])
    }
}

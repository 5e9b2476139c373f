//! What komorebi's messages come to on a tiler that is not komorebi (i3,
//! sway, Hyprland): the commands each stands for, gathered for a batch,
//! with a warning, once a message, for those that stand for nothing there.

use super::{Message, State};
use crate::sync::lock;
use std::collections::HashSet;
use std::sync::Mutex;

/// What a message comes to on a tiler.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Meaning {
    Commands(Vec<String>),
    /// Deliberately nothing (the tiler does it its own way).
    Nothing,
    /// No command of the tiler stands for it.
    Unknown,
}

/// The commands `batch` comes to on the tiler `tiler` names, in order,
/// through `translate`; `warned` keeps the messages without a meaning that
/// were warned about already.
pub fn commands_for(
    tiler: &str,
    batch: &[Message],
    state: Option<&State>,
    translate: impl Fn(&Message, Option<&State>) -> Result<Meaning, String>,
    warned: &Mutex<HashSet<&'static str>>,
) -> Result<Vec<String>, String> {
    let mut commands = Vec::new();
    for message in batch {
        match translate(message, state)? {
            Meaning::Commands(more) => commands.extend(more),
            Meaning::Nothing => {}
            Meaning::Unknown => {
                if lock(warned).insert(message.name) {
                    tracing::warn!("komorebi's `{}` has no meaning on {tiler}; it is ignored", message.name);
                }
            }
        }
    }
    Ok(commands)
}

//! What komorebi's messages come to on a tiler that is not komorebi (i3,
//! sway, Hyprland): the commands each stands for, gathered for a batch,
//! with a warning, once a message, for those that stand for nothing there.

use super::{Message, State};
use crate::sync::lock;
use std::collections::HashSet;
use std::sync::Mutex;

/// Why a message cannot be sent now: what it names by number is not in
/// the tiler's state, or there is no state yet to look it up in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unsendable {
    NoState,
    /// The bar's monitor is not one of the tiler's.
    NoBarMonitor,
    NoMonitor(usize),
    /// The monitor (by its name, or its number) has no workspace of this number.
    NoWorkspace {
        monitor: String,
        workspace: usize,
    },
    /// Not one of komorebi's directions.
    NotADirection(String),
}

impl std::fmt::Display for Unsendable {
    fn fmt(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Unsendable::NoState => write!(formatter, "no state from the tiler yet"),
            Unsendable::NoBarMonitor => write!(formatter, "the bar's monitor is not one of the tiler's"),
            Unsendable::NoMonitor(number) => write!(formatter, "there is no monitor {number}"),
            Unsendable::NoWorkspace { monitor, workspace } => {
                write!(formatter, "monitor {monitor} has no workspace {workspace}")
            }
            Unsendable::NotADirection(direction) => write!(formatter, "{direction:?} is not a direction"),
        }
    }
}

impl std::error::Error for Unsendable {}

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
    translate: impl Fn(&Message, Option<&State>) -> Result<Meaning, Unsendable>,
    warned: &Mutex<HashSet<&'static str>>,
) -> Result<Vec<String>, Unsendable> {
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

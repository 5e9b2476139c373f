//! The WebAssembly runtime: every wasmtime type in Obi lives in this module.
//!
//! One [`WidgetEngine`] per process compiles each widget kind once (cached on
//! disk), keeps one pre-linked instance template per kind (a third-party
//! component's until its file is saved anew), and gives every
//! widget instance its own store with a memory cap and a deadline on each
//! call. [`Scheduler`] runs all widgets on one thread, on their schedules,
//! and contains their failures: a failing widget shows an error state and is
//! restarted with backoff while the others go on.

mod bindings;
mod cache;
mod engine;
mod instance;
mod limiter;
mod path_images;
mod scheduler;
mod stderr;
mod watchdog;

pub use cache::ComponentCache;
pub use engine::{SUPPORTED_RELEASES, WIT_PACKAGE, WidgetEngine};
pub use instance::{Failure, Refreshed, WidgetInstance};
pub use scheduler::{MIN_REFRESH_GAP, Scheduler, SchedulerHandle, WidgetEvent, WidgetThread};

use crate::capabilities::Capability;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

/// Where a widget's component comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WidgetSource {
    /// A stock widget compiled into the `obi` binary.
    Embedded { kind: &'static str, wasm: &'static [u8] },
    /// A third-party component on disk.
    File(PathBuf),
}

/// What identifies a source without hashing its bytes: the stock kind's
/// name, or the plugin's path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum SourceId {
    Embedded(&'static str),
    File(PathBuf),
}

impl WidgetSource {
    pub(crate) fn id(&self) -> SourceId {
        match self {
            WidgetSource::Embedded { kind, .. } => SourceId::Embedded(kind),
            WidgetSource::File(path) => SourceId::File(path.clone()),
        }
    }
}

/// The sandbox of one widget instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub memory_bytes: usize,
    pub call_deadline: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { memory_bytes: 16 << 20, call_deadline: Duration::from_millis(50) }
    }
}

/// Everything the runtime needs to run one widget of the bar.
#[derive(Debug, Clone, PartialEq)]
pub struct WidgetSpec {
    /// Shown to the user in errors and logs: `Cpu`, or a plugin's name.
    pub name: String,
    pub source: WidgetSource,
    /// The widget's own object from the config file.
    pub config_json: String,
    /// The bar's monitor as the config gives it (none: the primary one),
    /// told to the widget's `init`.
    pub monitor: Option<u32>,
    pub grants: BTreeSet<Capability>,
    /// The command lines the user declared for it, by id: all it may run.
    pub commands: BTreeMap<String, String>,
    pub limits: Limits,
}

/// For each of `new`, the index of the spec of `old` it continues: an equal
/// one not continued already (two identical widgets pair in order), or none
/// when it starts anew. A reload is paired once, here; the bar carries the
/// widgets' states and the scheduler their instances by the same pairs.
pub fn continued(old: &[WidgetSpec], new: &[WidgetSpec]) -> Vec<Option<usize>> {
    let mut taken = vec![false; old.len()];
    new.iter()
        .map(|spec| {
            let index = (0..old.len()).find(|&index| !taken[index] && old[index] == *spec)?;
            taken[index] = true;
            Some(index)
        })
        .collect()
}

/// When the host calls a widget's `refresh`, as its `init` asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    /// Milliseconds between two refreshes; 0 means only on events.
    pub interval_ms: u64,
    /// Refresh on wall-clock multiples of the interval instead of
    /// `interval_ms` after the last one.
    pub align_to_wall_clock: bool,
}

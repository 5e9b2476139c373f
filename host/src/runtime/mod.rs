//! The WebAssembly runtime: every wasmtime type in Obi lives in this module.
//!
//! One [`WidgetEngine`] per process compiles each widget kind once (cached on
//! disk), keeps one pre-linked instance template per kind (a third-party
//! component's until its file is saved anew), and gives every
//! widget instance its own store with a memory cap and a deadline on each
//! call. When each widget runs is the scheduler's business
//! ([`crate::scheduler`]), which names no wasmtime type.

mod cache;
mod engine;
mod grants;
mod instance;
mod limiter;
mod path_images;
mod script;
mod stderr;
mod store;
mod watchdog;
mod wit;

pub use cache::ComponentCache;
pub use engine::WidgetEngine;
pub use instance::{Failure, Refreshed, WidgetInstance};
pub use script::is_script;
pub use wit::{Release, WIT_PACKAGE};

/// When the host calls a widget's `refresh`, as its `init` asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    /// Milliseconds between two refreshes; 0 means only on events.
    pub interval_ms: u64,
    /// Refresh on wall-clock multiples of the interval instead of
    /// `interval_ms` after the last one.
    pub align_to_wall_clock: bool,
}

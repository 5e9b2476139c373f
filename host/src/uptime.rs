//! How long the process has run, for the start's log lines (`OBI_LOG=obi=debug`
//! shows each start phase with its duration, and when the first frame and the
//! first complete frame were presented). The clock starts at [`mark`], which
//! `main` calls first.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

static STARTED: OnceLock<Instant> = OnceLock::new();

/// Starts the clock, once.
pub fn mark() {
    STARTED.get_or_init(Instant::now);
}

/// The time since [`mark`] (or since this first call, without one).
pub fn since_start() -> Duration {
    STARTED.get_or_init(Instant::now).elapsed()
}

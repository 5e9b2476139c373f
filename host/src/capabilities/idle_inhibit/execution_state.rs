//! Idling held off on Windows: the display and the system required
//! (`SetThreadExecutionState`), which lasts while the thread that asked
//! lives, so this thread asks and lives as long as the process.

use super::IdleStatus;
use crate::wake::Pushed;
use std::sync::mpsc::Receiver;
use windows::Win32::System::Power::{ES_CONTINUOUS, ES_DISPLAY_REQUIRED, ES_SYSTEM_REQUIRED, SetThreadExecutionState};

/// Holds or lets go at each ask, the newest of those waiting.
pub fn hold(status: &Pushed<IdleStatus>, asked: Receiver<bool>) {
    while let Ok(first) = asked.recv() {
        let held = asked.try_iter().last().unwrap_or(first);
        let state = if held { ES_CONTINUOUS | ES_DISPLAY_REQUIRED | ES_SYSTEM_REQUIRED } else { ES_CONTINUOUS };
        // SAFETY: a plain call on this thread's own state.
        let before = unsafe { SetThreadExecutionState(state) };
        status.publish(match (before.0, held) {
            (0, _) => IdleStatus::Unavailable("Windows did not take the execution state".into()),
            (_, true) => IdleStatus::Held,
            (_, false) => IdleStatus::NotHeld,
        });
    }
}

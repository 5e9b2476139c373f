//! Which X display numbers a test or bench may start a server on.

use std::path::Path;

/// Whether a running X server holds display `number`. Servers killed by
/// earlier runs leave their lock (and socket) behind, naming a process that
/// is gone: a new server takes such a number over, so it counts as free.
pub fn taken(number: u32) -> bool {
    match std::fs::read_to_string(format!("/tmp/.X{number}-lock")) {
        Ok(lock) => lock.trim().parse::<u32>().ok().is_none_or(|pid| Path::new(&format!("/proc/{pid}")).exists()),
        Err(_) => Path::new(&format!("/tmp/.X11-unix/X{number}")).exists(),
    }
}

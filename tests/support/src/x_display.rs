//! Which X display numbers a test or bench may start a server on.

use std::os::unix::net::UnixStream;
use std::path::Path;

/// Whether a running X server holds display `number`. Servers killed by
/// earlier runs leave their lock and socket behind: a lock naming a
/// process that is gone, or a socket with no lock that nobody listens on,
/// is taken over by a new server, so such a number counts as free.
pub fn taken(number: u32) -> bool {
    let socket = format!("/tmp/.X11-unix/X{number}");
    match std::fs::read_to_string(format!("/tmp/.X{number}-lock")) {
        Ok(lock) => lock.trim().parse::<u32>().ok().is_none_or(|pid| Path::new(&format!("/proc/{pid}")).exists()),
        Err(_) => Path::new(&socket).exists() && UnixStream::connect(&socket).is_ok(),
    }
}

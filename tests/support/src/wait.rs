//! Waiting in tests: until something holds, or a time is up.

use std::time::{Duration, Instant};

/// Whether `ready` came to hold within `timeout`, asked every 10 ms.
pub fn until(timeout: Duration, mut ready: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if ready() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    ready()
}

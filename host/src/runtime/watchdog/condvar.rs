//! The watchdog's alarm where there is no timerfd: a deadline under a mutex
//! that the watchdog thread sleeps towards. Setting it wakes the thread, so
//! here each call costs the watchdog a wakeup or two.

use std::io;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

pub struct Alarm {
    at: Mutex<Option<Instant>>,
    changed: Condvar,
}

impl Alarm {
    pub fn new() -> io::Result<Alarm> {
        Ok(Alarm { at: Mutex::new(None), changed: Condvar::new() })
    }

    /// Goes off `after` from now; `None` clears it.
    pub fn set(&self, after: Option<Duration>) {
        *self.at.lock().unwrap() = after.map(|after| Instant::now() + after);
        self.changed.notify_one();
    }

    /// Blocks until the alarm goes off.
    pub fn wait(&self) {
        let mut at = self.at.lock().unwrap();
        loop {
            match *at {
                None => at = self.changed.wait(at).unwrap(),
                Some(deadline) => {
                    let now = Instant::now();
                    if now >= deadline {
                        *at = None;
                        return;
                    }
                    at = self.changed.wait_timeout(at, deadline - now).unwrap().0;
                }
            }
        }
    }
}

//! How long the bar waits before it tries again what keeps going away: a
//! tiler's connection, a command that keeps running. A tiler that is not
//! there is asked every second. One that takes the bar and drops it soon
//! after, again and again (a tiler in a crash loop, a peer that connects
//! and closes on purpose, a command that dies at once), waits 1 s, 2 s,
//! 4 s … a minute at most, so the loop, and the log, stay bounded; once a
//! connection (or a run) has lasted, the waits are a second again.

use std::time::{Duration, Instant};

/// The wait after a failed attempt, and the first after a lost connection.
const FIRST: Duration = Duration::from_secs(1);
const LONGEST: Duration = Duration::from_secs(60);
/// A connection this long was not a quick drop.
const LASTED: Duration = Duration::from_secs(30);

pub struct Backoff {
    /// The wait after the next quick drop.
    after_drop: Duration,
    connected_at: Option<Instant>,
}

impl Default for Backoff {
    fn default() -> Backoff {
        Backoff { after_drop: FIRST, connected_at: None }
    }
}

impl Backoff {
    /// A connection began now.
    pub fn connected(&mut self) {
        self.connected_at = Some(Instant::now());
    }

    /// Sleeps before the next attempt.
    pub fn sleep(&mut self) {
        std::thread::sleep(self.next_wait(Instant::now()));
    }

    /// How long to wait before the next attempt, from `now`.
    pub fn next_wait(&mut self, now: Instant) -> Duration {
        let Some(connected_at) = self.connected_at.take() else { return FIRST };
        if now.duration_since(connected_at) >= LASTED {
            self.after_drop = FIRST;
        }
        let wait = self.after_drop;
        self.after_drop = (wait * 2).min(LONGEST);
        wait
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_drops_wait_longer_each_time_and_a_lasting_connection_resets() {
        let mut backoff = Backoff::default();
        let start = Instant::now();
        let mut drops = Vec::new();
        for _ in 0..8 {
            backoff.connected_at = Some(start);
            drops.push(backoff.next_wait(start + Duration::from_millis(5)).as_secs());
        }
        assert_eq!(drops, [1, 2, 4, 8, 16, 32, 60, 60]);
        assert_eq!(backoff.next_wait(start).as_secs(), 1, "an attempt that found nobody waits a second");
        backoff.connected_at = Some(start);
        assert_eq!(backoff.next_wait(start + LASTED).as_secs(), 1, "a connection that lasted starts over");
        backoff.connected_at = Some(start);
        assert_eq!(backoff.next_wait(start).as_secs(), 2);
    }
}

//! A reading taken off the caller's thread: the caller gets the last value
//! at once, and a stale value starts one new reading in the background. A
//! source that hangs (a lost network mount, a VPN interface) holds up only
//! its own reading thread, never the widgets or the window. Only the very
//! first reading is waited for, and only for a bounded time.

use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

pub struct Sampled<T> {
    name: &'static str,
    fresh_for: Duration,
    first_wait: Duration,
    read: Arc<dyn Fn() -> T + Send + Sync>,
    shared: Arc<(Mutex<Slot<T>>, Condvar)>,
}

struct Slot<T> {
    value: Option<T>,
    read_at: Option<Instant>,
    reading: bool,
}

impl<T: Clone + Send + 'static> Sampled<T> {
    /// `read` is called on a thread of its own named `name`, at most once
    /// per `fresh_for`; the first caller waits up to `first_wait` for it.
    pub fn new(
        name: &'static str,
        fresh_for: Duration,
        first_wait: Duration,
        read: impl Fn() -> T + Send + Sync + 'static,
    ) -> Sampled<T> {
        let slot = Slot { value: None, read_at: None, reading: false };
        Sampled {
            name,
            fresh_for,
            first_wait,
            read: Arc::new(read),
            shared: Arc::new((Mutex::new(slot), Condvar::new())),
        }
    }

    /// The last value read, starting a new reading when it is stale; `None`
    /// until a first reading has finished.
    pub fn get(&self) -> Option<T> {
        let (lock, finished) = &*self.shared;
        let mut slot = lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let stale = slot.read_at.is_none_or(|at| at.elapsed() >= self.fresh_for);
        if stale && !slot.reading {
            slot.reading = true;
            self.start_reading();
        }
        if slot.value.is_none() {
            slot = finished.wait_timeout_while(slot, self.first_wait, |slot| slot.reading).unwrap().0;
        }
        slot.value.clone()
    }

    fn start_reading(&self) {
        let (read, shared) = (self.read.clone(), self.shared.clone());
        let spawned = thread::Builder::new().name(self.name.into()).spawn(move || {
            let value = read();
            let (lock, finished) = &*shared;
            let mut slot = lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            *slot = Slot { value: Some(value), read_at: Some(Instant::now()), reading: false };
            finished.notify_all();
        });
        if let Err(error) = spawned {
            tracing::warn!("cannot start reading {}: {error}", self.name);
            self.shared.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).reading = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[test]
    fn a_fresh_value_is_served_without_reading_again() {
        let reads = Arc::new(AtomicU32::new(0));
        let counter = reads.clone();
        let sampled = Sampled::new("test", Duration::from_secs(60), Duration::from_secs(5), move || {
            counter.fetch_add(1, Ordering::SeqCst) + 1
        });
        assert_eq!(sampled.get(), Some(1));
        assert_eq!(sampled.get(), Some(1));
        assert_eq!(reads.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_hanging_reading_leaves_the_last_value_and_blocks_nobody() {
        let hang = Arc::new(Mutex::new(()));
        let reads = Arc::new(AtomicU32::new(0));
        let (held, counter) = (hang.clone(), reads.clone());
        let sampled = Sampled::new("test", Duration::ZERO, Duration::from_secs(5), move || {
            let read = counter.fetch_add(1, Ordering::SeqCst) + 1;
            if read > 1 {
                drop(held.lock().unwrap());
            }
            read
        });
        assert_eq!(sampled.get(), Some(1));
        let blocked = hang.lock().unwrap();
        let start = Instant::now();
        // The second reading hangs on the lock; callers keep getting the first value.
        for _ in 0..3 {
            assert_eq!(sampled.get(), Some(1));
        }
        assert!(start.elapsed() < Duration::from_secs(1), "a caller waited for the hanging reading");
        let until = Instant::now() + Duration::from_secs(5);
        while reads.load(Ordering::SeqCst) < 2 && Instant::now() < until {
            thread::sleep(Duration::from_millis(10));
        }
        for _ in 0..3 {
            assert_eq!(sampled.get(), Some(1));
        }
        assert_eq!(reads.load(Ordering::SeqCst), 2, "one reading at a time");
        drop(blocked);
        let until = Instant::now() + Duration::from_secs(5);
        while sampled.get() != Some(2) && Instant::now() < until {
            thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(sampled.get().map(|value| value >= 2), Some(true), "the reading came back");
    }

    #[test]
    fn the_first_reading_is_waited_for_only_so_long() {
        let sampled = Sampled::new("test", Duration::from_secs(60), Duration::from_millis(50), || {
            thread::sleep(Duration::from_secs(2));
            7
        });
        let start = Instant::now();
        assert_eq!(sampled.get(), None);
        assert!(start.elapsed() < Duration::from_secs(1));
    }
}

//! A reading taken off the caller's thread. A stale value starts one new
//! reading in the background, which the caller waits for only briefly (well
//! within a widget's call deadline): a quick source is read fresh, and a
//! source that hangs (a lost network mount, a VPN interface) holds up only
//! its own reading thread while callers get the last value; they are woken
//! when the reading comes in. The readings are taken on one thread, started
//! with the first and kept while the source is (a thread a second would
//! cost an idle bar more than most readings do). A source that changes
//! slowly can answer with a recent value at once and read behind it, so
//! that its callers never wait.

use crate::sync::lock;
use crate::wake::Waker;
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long a widget's call waits for a reading it started before it is
/// answered with the last one: well within the call's deadline.
pub const WIDGET_WAIT: Duration = Duration::from_millis(20);

pub struct Sampled<T> {
    name: &'static str,
    fresh_for: Duration,
    wait: Duration,
    /// A value younger than this is answered at once, the new reading it
    /// starts seen at the next call.
    answered_behind_for: Duration,
    read: Arc<dyn Fn() -> T + Send + Sync>,
    shared: Arc<(Mutex<Reading<T>>, Condvar)>,
    /// Asks the reading thread for a reading; it ends when this is dropped.
    reader: Mutex<Option<Sender<()>>>,
}

struct Reading<T> {
    value: Option<T>,
    read_at: Option<Instant>,
    reading: bool,
    /// Those answered without the reading in progress, to be woken when it is in.
    waiting: Vec<Waker>,
}

impl<T: Clone + Send + 'static> Sampled<T> {
    /// `read` is called on a thread of its own named `name`, at most once
    /// per `fresh_for`; the caller that starts a reading, and any caller
    /// while there is no value yet, waits up to `wait` for it.
    pub fn new(
        name: &'static str,
        fresh_for: Duration,
        wait: Duration,
        read: impl Fn() -> T + Send + Sync + 'static,
    ) -> Sampled<T> {
        let last = Reading { value: None, read_at: None, reading: false, waiting: Vec::new() };
        Sampled {
            name,
            fresh_for,
            wait,
            answered_behind_for: Duration::ZERO,
            read: Arc::new(read),
            shared: Arc::new((Mutex::new(last), Condvar::new())),
            reader: Mutex::new(None),
        }
    }

    /// Stale values younger than `age` are answered at once: the reading
    /// each starts is not waited for, and seen at the next call.
    pub fn answered_behind_for(self, age: Duration) -> Sampled<T> {
        Sampled { answered_behind_for: age, ..self }
    }

    /// The last value read, after a new reading when it is stale and comes
    /// in time (unless it is recent enough to answer behind); `None` until
    /// a first reading has finished. When the reading does not come in
    /// time, `waker` is woken once it does.
    pub fn get(&self, waker: &Waker) -> Option<T> {
        let (last, finished) = &*self.shared;
        let mut last = lock(last);
        let age = last.read_at.map(|at| at.elapsed());
        let stale = age.is_none_or(|age| age >= self.fresh_for);
        let start = stale && !last.reading;
        let behind = last.value.is_some() && age.is_some_and(|age| age < self.answered_behind_for);
        if behind {
            let value = last.value.clone();
            last.reading |= start;
            // Asked with the lock let go, so that the reading does not wait for it.
            drop(last);
            if start && !self.ask_for_reading() {
                lock(&self.shared.0).reading = false;
            }
            return value;
        }
        let started = start && self.ask_for_reading();
        if started {
            last.reading = true;
        }
        if started || last.value.is_none() {
            last = finished
                .wait_timeout_while(last, self.wait, |last| last.reading)
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .0;
        }
        // A reading that hangs for days must not pile up a waker per call.
        if last.reading && !last.waiting.iter().any(|waiting| waiting.same_as(waker)) {
            waker.promise();
            last.waiting.push(waker.clone());
        }
        last.value.clone()
    }

    /// Has the reading thread take a reading, starting the thread first.
    /// False when no thread could be started.
    fn ask_for_reading(&self) -> bool {
        let mut reader = lock(&self.reader);
        if let Some(reader) = reader.as_ref() {
            // The thread ends only when this end is dropped.
            return reader.send(()).is_ok();
        }
        let (requests, asked) = mpsc::channel();
        // Taken when the thread starts: the channel holds it until then.
        let _ = requests.send(());
        let (read, shared) = (self.read.clone(), self.shared.clone());
        let spawned = thread::Builder::new().name(self.name.into()).spawn(move || {
            while asked.recv().is_ok() {
                let value = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read()));
                let (last, finished) = &*shared;
                let mut last = lock(last);
                last.reading = false;
                // A reading that panicked (the panic is reported) leaves the last value.
                if let Ok(value) = value {
                    (last.value, last.read_at) = (Some(value), Some(Instant::now()));
                }
                let waiting = std::mem::take(&mut last.waiting);
                // Let go first, so that a waiting caller woken finds it free.
                drop(last);
                finished.notify_all();
                waiting.iter().for_each(Waker::wake);
            }
        });
        match spawned {
            Ok(_) => {
                *reader = Some(requests);
                true
            }
            Err(error) => {
                tracing::warn!("cannot start reading {}: {error}", self.name);
                false
            }
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
        assert_eq!(sampled.get(&Waker::unheard()), Some(1));
        assert_eq!(sampled.get(&Waker::unheard()), Some(1));
        assert_eq!(reads.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_hanging_reading_leaves_the_last_value_and_blocks_nobody() {
        let hang = Arc::new(Mutex::new(()));
        let reads = Arc::new(AtomicU32::new(0));
        let (held, counter) = (hang.clone(), reads.clone());
        let sampled = Sampled::new("test", Duration::ZERO, Duration::from_millis(20), move || {
            let read = counter.fetch_add(1, Ordering::SeqCst) + 1;
            if read > 1 {
                drop(held.lock().unwrap());
            }
            read
        });
        let blocked = hang.lock().unwrap();
        while sampled.get(&Waker::unheard()) != Some(1) {}
        let start = Instant::now();
        // The second reading hangs on the lock; callers keep getting the first value.
        for _ in 0..3 {
            assert_eq!(sampled.get(&Waker::unheard()), Some(1));
        }
        assert!(start.elapsed() < Duration::from_secs(1), "a caller waited for the hanging reading");
        let until = Instant::now() + Duration::from_secs(5);
        while reads.load(Ordering::SeqCst) < 2 && Instant::now() < until {
            thread::sleep(Duration::from_millis(10));
        }
        for _ in 0..3 {
            assert_eq!(sampled.get(&Waker::unheard()), Some(1));
        }
        assert_eq!(reads.load(Ordering::SeqCst), 2, "one reading at a time");
        drop(blocked);
        let until = Instant::now() + Duration::from_secs(5);
        while sampled.get(&Waker::unheard()) != Some(2) && Instant::now() < until {
            thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(sampled.get(&Waker::unheard()).map(|value| value >= 2), Some(true), "the reading came back");
    }

    #[test]
    fn readings_are_taken_on_one_thread_that_ends_with_the_source() {
        struct Ended(mpsc::Sender<()>);
        impl Drop for Ended {
            fn drop(&mut self) {
                let _ = self.0.send(());
            }
        }
        let (ended, ends) = mpsc::channel();
        let ended = Ended(ended);
        let sampled = Sampled::new("test", Duration::ZERO, Duration::from_secs(5), move || {
            let _held = &ended;
            thread::current().id()
        });
        let readers: Vec<_> = (0..3).map(|_| sampled.get(&Waker::unheard()).expect("a reading")).collect();
        assert!(readers.iter().all(|reader| *reader == readers[0] && *reader != thread::current().id()));
        drop(sampled);
        ends.recv_timeout(Duration::from_secs(5)).expect("the reading thread ended with its source");
    }

    #[test]
    fn a_reading_that_panics_leaves_the_last_value_and_the_next_reads_again() {
        let reads = Arc::new(AtomicU32::new(0));
        let counter = reads.clone();
        let sampled = Sampled::new("test", Duration::ZERO, Duration::from_secs(5), move || {
            let read = counter.fetch_add(1, Ordering::SeqCst) + 1;
            assert_ne!(read, 2, "the second reading fails");
            read
        });
        assert_eq!(sampled.get(&Waker::unheard()), Some(1));
        assert_eq!(sampled.get(&Waker::unheard()), Some(1));
        assert_eq!(sampled.get(&Waker::unheard()), Some(3));
    }

    #[test]
    fn a_quick_reading_is_served_fresh() {
        let reads = Arc::new(AtomicU32::new(0));
        let counter = reads.clone();
        let sampled = Sampled::new("test", Duration::ZERO, Duration::from_secs(5), move || {
            counter.fetch_add(1, Ordering::SeqCst) + 1
        });
        assert_eq!(sampled.get(&Waker::unheard()), Some(1));
        assert_eq!(sampled.get(&Waker::unheard()), Some(2));
    }

    #[test]
    fn the_first_reading_is_waited_for_only_so_long() {
        let sampled = Sampled::new("test", Duration::from_secs(60), Duration::from_millis(50), || {
            thread::sleep(Duration::from_secs(2));
            7
        });
        let start = Instant::now();
        assert_eq!(sampled.get(&Waker::unheard()), None);
        assert!(start.elapsed() < Duration::from_secs(1));
    }

    #[test]
    fn a_reading_that_comes_late_wakes_who_asked() {
        let sampled = Sampled::new("test", Duration::from_secs(60), Duration::from_millis(10), || {
            thread::sleep(Duration::from_millis(200));
            7
        });
        let (woken, wakes) = std::sync::mpsc::channel();
        let waker = Waker::new(move || woken.send(()).unwrap());
        assert_eq!(sampled.get(&waker), None);
        assert_eq!(sampled.get(&waker.clone()), None);
        wakes.recv_timeout(Duration::from_secs(5)).expect("woken when the reading came in");
        assert_eq!(sampled.get(&waker), Some(7));
        assert_eq!(waker.promised(), 1, "asked twice while reading, woken once");
        assert!(wakes.recv_timeout(Duration::from_millis(100)).is_err());
    }

    #[test]
    fn a_recent_value_is_answered_at_once_and_the_reading_behind_it_seen_next() {
        let reads = Arc::new(AtomicU32::new(0));
        let counter = reads.clone();
        // Each reading waits for the test to let it go.
        let (go, gate) = mpsc::channel::<()>();
        let gate = Mutex::new(gate);
        let sampled = Sampled::new("test", Duration::ZERO, Duration::from_millis(1), move || {
            let _ = gate.lock().unwrap().recv();
            counter.fetch_add(1, Ordering::SeqCst) + 1
        })
        .answered_behind_for(Duration::from_secs(60));
        go.send(()).unwrap();
        while sampled.get(&Waker::unheard()).is_none() {
            thread::sleep(Duration::from_millis(1));
        }
        let waker = Waker::new(|| {});
        assert_eq!(sampled.get(&waker), Some(1), "answered while the reading it started is held");
        assert_eq!(waker.promised(), 0, "and not told to wait for it");
        go.send(()).unwrap();
        while reads.load(Ordering::SeqCst) < 2 {
            thread::sleep(Duration::from_millis(1));
        }
        let until = Instant::now() + Duration::from_secs(5);
        while sampled.get(&waker) != Some(2) && Instant::now() < until {
            thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(sampled.get(&waker), Some(2), "the reading behind it, at a later call");
        assert_eq!(waker.promised(), 0);
        drop(go);
    }
}

//! Work a widget asks for that takes too long for its call (a fetch, a
//! command's output): started on a thread of its own, answered "pending"
//! until it has ended, then handed over once, with the widget woken to
//! read it. One widget's errands are keyed by what it asked for.

use crate::sync::lock;
use crate::wake::Waker;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::thread;

/// How an errand stands, as the widget sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Errand<T> {
    Pending,
    Done(T),
    Failed(String),
}

type Outcome<T> = Arc<Mutex<Option<Result<T, String>>>>;

/// One widget's running errands. Each ended one is handed over once; the
/// next poll of the same key starts it anew.
pub struct Errands<T> {
    running: HashMap<String, Outcome<T>>,
}

impl<T> Default for Errands<T> {
    fn default() -> Self {
        Errands { running: HashMap::new() }
    }
}

/// A widget may wait on this many errands of one kind at once.
const MAX_RUNNING: usize = 8;

impl<T: Send + 'static> Errands<T> {
    /// How the errand `key` stands; when none runs, starts `work` on a
    /// thread named `thread_name` and wakes the widget through `waker` when
    /// it ends.
    pub fn poll(
        &mut self,
        key: &str,
        waker: &Waker,
        thread_name: &str,
        work: impl FnOnce() -> Result<T, String> + Send + 'static,
    ) -> Errand<T> {
        if let Some(outcome) = self.running.get(key) {
            let ended = lock(outcome).take();
            return match ended {
                None => Errand::Pending,
                Some(result) => {
                    self.running.remove(key);
                    result.map_or_else(Errand::Failed, Errand::Done)
                }
            };
        }
        if self.running.len() >= MAX_RUNNING {
            return Errand::Failed(format!("{MAX_RUNNING} are running already"));
        }
        let outcome: Outcome<T> = Arc::default();
        waker.promise();
        let (ended, slot) = (waker.clone(), outcome.clone());
        let started = thread::Builder::new().name(thread_name.into()).spawn(move || {
            let result = work();
            *lock(&slot) = Some(result);
            ended.wake();
        });
        match started {
            Ok(_) => {
                self.running.insert(key.to_owned(), outcome);
                Errand::Pending
            }
            Err(error) => {
                waker.wake();
                Errand::Failed(format!("cannot start a thread: {error}"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    #[test]
    fn an_errand_is_pending_then_done_once_and_wakes_the_widget() {
        let mut errands = Errands::default();
        let (woken, wakes) = mpsc::channel();
        let waker = Waker::new(move || woken.send(()).unwrap());
        let (release, gate) = mpsc::channel::<()>();
        assert_eq!(
            errands.poll("a", &waker, "test", move || gate.recv().map(|()| 7).map_err(|e| e.to_string())),
            Errand::Pending
        );
        assert_eq!(errands.poll("a", &waker, "test", || unreachable!("still running")), Errand::Pending);
        release.send(()).unwrap();
        wakes.recv_timeout(Duration::from_secs(10)).expect("woken when it ended");
        assert_eq!(errands.poll("a", &waker, "test", || unreachable!("ended")), Errand::Done(7));
        assert_eq!(errands.poll("a", &waker, "test", || Err("again".into())), Errand::Pending, "started anew");
    }

    #[test]
    fn only_a_few_run_at_once() {
        let mut errands = Errands::<()>::default();
        let waker = Waker::new(|| {});
        let (_hold, gate) = mpsc::channel::<()>();
        let gate = Arc::new(Mutex::new(gate));
        for key in 0..MAX_RUNNING {
            let gate = gate.clone();
            let work = move || gate.lock().unwrap().recv().map_err(|e| e.to_string());
            assert_eq!(errands.poll(&key.to_string(), &waker, "test", work), Errand::Pending);
        }
        assert!(matches!(errands.poll("one more", &waker, "test", || Ok(())), Errand::Failed(_)));
    }
}

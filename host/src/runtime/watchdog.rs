//! Enforces the per-call deadline with wasmtime's epochs without a ticking
//! thread: the watchdog sleeps until a call is armed, and bumps the engine's
//! epoch only if that call is still running at its deadline. An idle bar
//! therefore wakes nobody.
//!
//! The epoch is engine-wide, so calls must not overlap: the runtime makes
//! all calls from one thread.

use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};
use wasmtime::Engine;

#[derive(Default)]
struct State {
    armed: Option<(u64, Instant)>,
    generation: u64,
    shutdown: bool,
}

pub struct Watchdog {
    shared: Arc<(Mutex<State>, Condvar)>,
}

/// Disarms the watchdog when the call returns.
pub struct Armed<'a> {
    watchdog: &'a Watchdog,
    generation: u64,
}

impl Watchdog {
    pub fn new(engine: Engine) -> Watchdog {
        let shared: Arc<(Mutex<State>, Condvar)> = Arc::default();
        let thread_shared = shared.clone();
        thread::Builder::new()
            .name("obi-watchdog".into())
            .spawn(move || watch(engine, &thread_shared))
            .expect("spawning the widget watchdog thread");
        Watchdog { shared }
    }

    pub fn arm(&self, deadline: Duration) -> Armed<'_> {
        let (lock, condvar) = &*self.shared;
        let mut state = lock.lock().unwrap();
        state.generation += 1;
        let generation = state.generation;
        state.armed = Some((generation, Instant::now() + deadline));
        condvar.notify_one();
        Armed { watchdog: self, generation }
    }
}

impl Drop for Armed<'_> {
    fn drop(&mut self) {
        let mut state = self.watchdog.shared.0.lock().unwrap();
        if state.armed.is_some_and(|(generation, _)| generation == self.generation) {
            state.armed = None;
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        let (lock, condvar) = &*self.shared;
        lock.lock().unwrap().shutdown = true;
        condvar.notify_one();
    }
}

fn watch(engine: Engine, shared: &(Mutex<State>, Condvar)) {
    let (lock, condvar) = shared;
    let mut state = lock.lock().unwrap();
    loop {
        if state.shutdown {
            return;
        }
        match state.armed {
            None => state = condvar.wait(state).unwrap(),
            Some((_, deadline)) => {
                let now = Instant::now();
                if now >= deadline {
                    engine.increment_epoch();
                    state.armed = None;
                } else {
                    state = condvar.wait_timeout(state, deadline - now).unwrap().0;
                }
            }
        }
    }
}

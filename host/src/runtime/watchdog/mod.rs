//! Enforces the per-call deadline with wasmtime's epochs without a ticking
//! thread: each call sets an alarm for its deadline and clears it when it
//! returns, and the watchdog thread, asleep on that alarm, bumps the
//! engine's epoch only if the call is still running when it goes off. A
//! call that returns in time wakes nobody where the platform has a timer
//! the caller can set and clear itself (a timerfd on Linux).
//!
//! The epoch is engine-wide, so calls must not overlap: the runtime makes
//! all calls from one thread.

use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};
use wasmtime::Engine;

#[cfg(target_os = "linux")]
#[path = "timerfd.rs"]
mod alarm;
#[cfg(not(target_os = "linux"))]
#[path = "condvar.rs"]
mod alarm;

use alarm::Alarm;

#[derive(Default)]
struct State {
    armed: Option<(u64, Instant)>,
    generation: u64,
    shutdown: bool,
}

struct Shared {
    state: Mutex<State>,
    alarm: Alarm,
}

pub struct Watchdog {
    shared: Arc<Shared>,
}

/// Disarms the watchdog when the call returns.
pub struct Armed<'a> {
    watchdog: &'a Watchdog,
    generation: u64,
}

impl Watchdog {
    pub fn new(engine: Engine) -> Watchdog {
        let alarm = Alarm::new().expect("creating the widget watchdog's timer");
        let shared = Arc::new(Shared { state: Mutex::default(), alarm });
        let thread_shared = shared.clone();
        thread::Builder::new()
            .name("obi-watchdog".into())
            .spawn(move || watch(engine, &thread_shared))
            .expect("spawning the widget watchdog thread");
        Watchdog { shared }
    }

    pub fn arm(&self, deadline: Duration) -> Armed<'_> {
        let mut state = self.shared.state.lock().unwrap();
        state.generation += 1;
        let generation = state.generation;
        state.armed = Some((generation, Instant::now() + deadline));
        self.shared.alarm.set(Some(deadline));
        Armed { watchdog: self, generation }
    }
}

impl Drop for Armed<'_> {
    fn drop(&mut self) {
        let shared = &self.watchdog.shared;
        let mut state = shared.state.lock().unwrap();
        if state.armed.is_some_and(|(generation, _)| generation == self.generation) {
            state.armed = None;
            shared.alarm.set(None);
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.shared.state.lock().unwrap().shutdown = true;
        self.shared.alarm.set(Some(Duration::ZERO));
    }
}

fn watch(engine: Engine, shared: &Shared) {
    loop {
        shared.alarm.wait();
        let mut state = shared.state.lock().unwrap();
        if state.shutdown {
            return;
        }
        // The alarm may belong to a call that returned just as it went off
        // (and a later call may be armed by now): only an overdue call counts.
        if let Some((_, deadline)) = state.armed
            && Instant::now() >= deadline
        {
            engine.increment_epoch();
            state.armed = None;
        }
    }
}

#[cfg(test)]
#[path = "condvar.rs"]
mod condvar_alarm;

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::mpsc;
    use std::thread;
    use std::time::{Duration, Instant};

    macro_rules! alarm_tests {
        ($name:ident, $alarm:ty) => {
            mod $name {
                use super::*;

                #[test]
                fn goes_off_after_its_time() {
                    let alarm = <$alarm>::new().unwrap();
                    let start = Instant::now();
                    alarm.set(Some(Duration::from_millis(30)));
                    alarm.wait();
                    assert!(start.elapsed() >= Duration::from_millis(30));
                }

                #[test]
                fn a_cleared_alarm_stays_quiet_and_a_new_one_counts() {
                    let alarm = Arc::new(<$alarm>::new().unwrap());
                    alarm.set(Some(Duration::from_millis(20)));
                    alarm.set(None);
                    let (went_off, heard) = mpsc::channel();
                    let waiter = alarm.clone();
                    thread::spawn(move || {
                        waiter.wait();
                        went_off.send(Instant::now()).unwrap();
                    });
                    assert!(heard.recv_timeout(Duration::from_millis(150)).is_err(), "a cleared alarm went off");
                    let set_at = Instant::now();
                    alarm.set(Some(Duration::from_millis(40)));
                    let at = heard.recv_timeout(Duration::from_secs(5)).expect("the alarm never went off");
                    assert!(at - set_at >= Duration::from_millis(40));
                }
            }
        };
    }

    alarm_tests!(platform, super::super::alarm::Alarm);
    alarm_tests!(condvar, super::super::condvar_alarm::Alarm);
}

//! Holding idling off while the user asks (Waybar's idle inhibitor): the
//! screen does not blank or lock, nor the machine sleep, for want of input
//! during a film or a talk. Each platform has its way, carried out off the
//! widget's thread: logind's `idle` inhibitor lock on X11 ([`logind`]),
//! the thread's execution state on Windows ([`execution_state`]); on
//! Wayland the compositor decides idling, so a Wayland bar hands over a
//! way of its own (an inhibitor on its surface) before any is asked. One
//! hold serves the whole process, whichever bar's widget asked, and is let
//! go when the last widget using it goes (a reload left it out, its bar
//! went).

#[cfg(windows)]
mod execution_state;
#[cfg(free_unix)]
mod logind;

use crate::sync::lock;
use crate::wake::{Pushed, Waker};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdleStatus {
    /// Idling is held off now.
    Held,
    /// It is not.
    NotHeld,
    /// It cannot be held off here, and why (no system bus, a compositor
    /// without the protocol): said until the next ask.
    Unavailable(String),
}

/// How idling is held off: asked `true` to hold it, `false` to let it go;
/// each way reports what it did through the inhibition's status.
type Ask = Box<dyn Fn(bool) + Send>;

/// The process's hold on idling, and the way it is held.
pub struct IdleInhibition {
    status: Arc<Pushed<IdleStatus>>,
    way: Mutex<Way>,
}

/// The way idling is held off, what it was last asked, and how many
/// widgets use the hold.
#[derive(Default)]
struct Way {
    ask: Option<Ask>,
    held: bool,
    users: usize,
}

/// A widget's use of the process's hold, for as long as the widget lives.
pub struct IdleUser(Arc<IdleInhibition>);

impl Drop for IdleUser {
    fn drop(&mut self) {
        let mut way = lock(&self.0.way);
        way.users -= 1;
        // Nothing is left to show the hold or to let it go.
        if way.users == 0 && way.held {
            way.held = false;
            if let Some(ask) = &way.ask {
                ask(false);
            }
        }
    }
}

impl Default for IdleInhibition {
    fn default() -> Self {
        let status = Pushed::new(IdleStatus::NotHeld);
        // Not held is an answer: no reader waits for another.
        status.publish(IdleStatus::NotHeld);
        IdleInhibition { status: Arc::new(status), way: Mutex::default() }
    }
}

impl IdleInhibition {
    /// Whether idling is held off; `waker`'s widget is woken at each change.
    pub fn status(&self, waker: &Waker) -> IdleStatus {
        self.status.read(waker)
    }

    /// A widget's use of the hold, which is let go when the last such use
    /// is dropped.
    pub fn user(self: &Arc<Self>) -> IdleUser {
        lock(&self.way).users += 1;
        IdleUser(self.clone())
    }

    /// Holds idling off, or lets it go; the status says when it is done.
    /// The session's way starts at the first ask, unless a compositor's was
    /// handed over first.
    pub fn set_held(&self, held: bool) {
        let mut way = lock(&self.way);
        way.held = held;
        way.ask.get_or_insert_with(|| session_way(self.status.clone()))(held);
    }

    /// From now on idling is held off through `ask` (a Wayland bar's loop,
    /// which makes an inhibitor on a surface and reports with
    /// [`IdleInhibition::report`]); what the session's way held is let go,
    /// and held by this one instead.
    pub fn hand_to_compositor(&self, ask: impl Fn(bool) + Send + 'static) {
        let mut way = lock(&self.way);
        if let Some(session) = way.ask.take() {
            session(false);
        }
        if way.held {
            ask(true);
        }
        way.ask = Some(Box::new(ask));
    }

    /// What the compositor's way did.
    pub fn report(&self, status: IdleStatus) {
        self.status.publish(status);
    }

    /// An inhibition that holds at once, as asked, for the headless harness.
    pub fn scripted() -> IdleInhibition {
        let inhibition = IdleInhibition::default();
        let status = inhibition.status.clone();
        inhibition.hand_to_compositor(move |held| {
            status.publish(if held { IdleStatus::Held } else { IdleStatus::NotHeld });
        });
        inhibition
    }
}

/// The session's way: a thread that takes each ask (the newest of those
/// waiting) and holds idling off as the platform does.
fn session_way(status: Arc<Pushed<IdleStatus>>) -> Ask {
    let (asks, asked) = mpsc::channel::<bool>();
    let holding = move || {
        #[cfg(free_unix)]
        logind::hold(&status, asked);
        #[cfg(windows)]
        execution_state::hold(&status, asked);
        #[cfg(not(any(free_unix, windows)))]
        for _ in asked {
            status.publish(IdleStatus::Unavailable("idling is held off on Linux and Windows".into()));
        }
    };
    if let Err(error) = std::thread::Builder::new().name("obi-idle-inhibit".into()).spawn(holding) {
        tracing::warn!("idle inhibitor: no thread to hold idling off: {error}");
    }
    let asks: Mutex<Sender<bool>> = Mutex::new(asks);
    Box::new(move |held| _ = lock(&asks).send(held))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compositors_way_takes_over_from_the_sessions() {
        let inhibition = IdleInhibition::scripted();
        let waker = Waker::new(|| {});
        assert_eq!(inhibition.status(&waker), IdleStatus::NotHeld);
        inhibition.set_held(true);
        assert_eq!(inhibition.status(&waker), IdleStatus::Held);
        let (told, asks) = mpsc::channel();
        inhibition.hand_to_compositor(move |held| told.send(held).unwrap());
        assert_eq!(asks.try_recv(), Ok(true), "what was held is held by the way handed over");
        inhibition.set_held(false);
        assert_eq!(asks.try_recv(), Ok(false));
    }

    #[test]
    fn the_hold_is_let_go_when_the_last_widget_using_it_goes() {
        let inhibition = Arc::new(IdleInhibition::scripted());
        let waker = Waker::new(|| {});
        let (first, second) = (inhibition.user(), inhibition.user());
        inhibition.set_held(true);
        drop(first);
        assert_eq!(inhibition.status(&waker), IdleStatus::Held, "another widget still shows it");
        drop(second);
        assert_eq!(inhibition.status(&waker), IdleStatus::NotHeld);

        let unheld = inhibition.user();
        let (told, asks) = mpsc::channel();
        inhibition.hand_to_compositor(move |held| told.send(held).unwrap());
        drop(unheld);
        assert!(asks.try_recv().is_err(), "nothing held, nothing to let go");
    }
}

//! The notification server as the rest of Obi sees it: one [`Service`]
//! for the process, shared by the bus's calls, the bars that show the
//! notifications and the widgets that list them. Each change is made in
//! the store under one lock; the bus's thread (see `server`) is then
//! handed what the bus must hear, in the order it happened, and the
//! listeners are told something changed. That thread also runs the clock:
//! a notification leaves the screen when its time is up.
//!
//! The store outlives the bus connection and the configs that enabled it:
//! the history survives a reload and a lost bus, not a restart.

use super::notification::{Notification, Signal};
use super::store::{Kept, Settings, Store};
use crate::sync::lock;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Instant;

/// Whether Obi is the desktop's notification server now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    Starting,
    Serving,
    /// Another program owns the name: who, as the log says it.
    HeldBy(String),
    /// There is no session bus.
    NoBus,
    /// The config no longer enables notifications: the name is let go.
    SwitchedOff,
}

#[derive(Clone)]
pub struct Service(Arc<Shared>);

struct Shared {
    inner: Mutex<Inner>,
    /// Wakes the service's thread: a signal to send, a name freed, a bus lost.
    wake: Condvar,
    listeners: Mutex<Vec<Listener>>,
}

type Listener = Box<dyn Fn() + Send + Sync>;

struct Inner {
    store: Store,
    /// What the bus is to be told, oldest first.
    outbox: Vec<Signal>,
    standing: Standing,
    /// The name was let go by whoever held it.
    name_freed: bool,
    bus_closed: bool,
    /// No bus hears this service ([`Service::without_bus`]): what it would
    /// be told is dropped.
    unheard: bool,
    /// The config no longer enables notifications ([`Service::switch`]).
    switched_off: bool,
}

impl Service {
    /// A server holding nothing yet, which the bus's thread serves (see
    /// [`super::start`]).
    pub(super) fn new(settings: Settings) -> Service {
        Service(Arc::new(Shared {
            inner: Mutex::new(Inner {
                store: Store::new(settings),
                outbox: Vec::new(),
                standing: Standing::Starting,
                name_freed: false,
                bus_closed: false,
                unheard: false,
                switched_off: false,
            }),
            wake: Condvar::new(),
            listeners: Mutex::default(),
        }))
    }

    /// A server no bus reaches, serving as if it held the name: what a
    /// harness's script sends notifications through. What the bus would be
    /// told is dropped, and no clock runs: a notification leaves the screen
    /// only when the user (the test) sends it away.
    pub fn without_bus(settings: Settings) -> Service {
        let service = Service::new(settings);
        let mut inner = lock(&service.0.inner);
        (inner.standing, inner.unheard) = (Standing::Serving, true);
        drop(inner);
        service
    }

    /// Has `listener` called after every change (from any thread, never
    /// while the store is locked).
    pub fn listen(&self, listener: impl Fn() + Send + Sync + 'static) {
        lock(&self.0.listeners).push(Box::new(listener));
    }

    pub fn standing(&self) -> Standing {
        lock(&self.0.inner).standing.clone()
    }

    pub fn keeps_history(&self) -> bool {
        self.settings().history > 0
    }

    pub fn settings(&self) -> Settings {
        lock(&self.0.inner).store.settings()
    }

    /// What `read` makes of the store, read under its lock.
    pub fn read<T>(&self, read: impl FnOnce(&Store) -> T) -> T {
        read(&lock(&self.0.inner).store)
    }

    /// Those on screen, newest first.
    pub fn on_screen(&self) -> Vec<Notification> {
        self.read(|store| store.on_screen().cloned().collect())
    }

    /// The history, newest first, with whether each was seen.
    pub fn history(&self) -> Vec<(Notification, bool)> {
        self.read(|store| store.history().map(|Kept { notification, seen }| (notification.clone(), seen)).collect())
    }

    pub fn notify(&self, notification: Notification, replaces: u32) -> u32 {
        self.change(|store, now| store.notify(notification, replaces, now))
    }

    pub fn close_by_sender(&self, id: u32) {
        self.change(|store, now| ((), store.close_by_sender(id, now)));
    }

    pub fn dismiss(&self, id: u32) {
        self.change(|store, now| ((), store.dismiss(id, now)));
    }

    pub fn dismiss_all(&self) {
        self.change(|store, now| ((), store.dismiss_all(now)));
    }

    pub fn invoke(&self, id: u32, key: &str) {
        self.change(|store, now| ((), store.invoke(id, key, now)));
    }

    /// The pointer is on `id`'s card (on none: `None`). Nothing shown
    /// changes, so the listeners are not told; the clock is.
    pub fn hover(&self, id: Option<u32>) {
        lock(&self.0.inner).store.hover(id, Instant::now());
        self.0.wake.notify_all();
    }

    pub fn set_do_not_disturb(&self, on: bool) {
        self.change(|store, now| ((), store.set_do_not_disturb(on, now)));
    }

    pub fn mark_seen(&self) {
        self.change(|store, _| (store.mark_seen(), Vec::new()));
    }

    /// Serves notifications (`on`) or lets the bus name go until switched
    /// on again, as the config says; what is kept stays kept.
    pub fn switch(&self, on: bool) {
        lock(&self.0.inner).switched_off = !on;
        self.0.wake.notify_all();
    }

    pub fn set_settings(&self, settings: Settings) {
        if settings != self.settings() {
            self.change(|store, now| ((), store.set_settings(settings, now)));
        }
    }

    /// Makes a change to the store; what the bus is to be told of it is
    /// sent by the service's thread, and the listeners are told.
    fn change<T>(&self, change: impl FnOnce(&mut Store, Instant) -> (T, Vec<Signal>)) -> T {
        let result = {
            let mut inner = lock(&self.0.inner);
            let (result, signals) = change(&mut inner.store, Instant::now());
            if !inner.unheard {
                inner.outbox.extend(signals);
            }
            result
        };
        self.0.wake.notify_all();
        self.tell_listeners();
        result
    }

    fn tell_listeners(&self) {
        for listener in lock(&self.0.listeners).iter() {
            listener();
        }
    }

    pub(super) fn set_standing(&self, standing: Standing) {
        let changed = {
            let mut inner = lock(&self.0.inner);
            let changed = inner.standing != standing;
            inner.standing = standing;
            changed
        };
        if changed {
            self.tell_listeners();
        }
    }

    /// A connection to the bus was opened: nothing heard on it yet.
    pub(super) fn bus_opened(&self) {
        let mut inner = lock(&self.0.inner);
        (inner.name_freed, inner.bus_closed) = (false, false);
    }

    /// The name's holder let it go.
    pub(super) fn name_freed(&self) {
        lock(&self.0.inner).name_freed = true;
        self.0.wake.notify_all();
    }

    pub(super) fn bus_closed(&self) {
        lock(&self.0.inner).bus_closed = true;
        self.0.wake.notify_all();
    }

    /// Waits until the name is let go (true) or the bus closes (false).
    pub(super) fn wait_for_the_name(&self) -> bool {
        let mut inner = lock(&self.0.inner);
        while !inner.name_freed && !inner.bus_closed && !inner.switched_off {
            inner = self.0.wake.wait(inner).unwrap_or_else(PoisonError::into_inner);
        }
        inner.name_freed = false;
        // What was said meanwhile was said to nobody.
        inner.outbox.clear();
        !inner.bus_closed
    }

    /// Waits while the service is switched off; false when the bus closed
    /// meanwhile.
    pub(super) fn wait_until_switched_on(&self) -> bool {
        if lock(&self.0.inner).switched_off {
            self.set_standing(Standing::SwitchedOff);
        }
        let mut inner = lock(&self.0.inner);
        while inner.switched_off && !inner.bus_closed {
            inner = self.0.wake.wait(inner).unwrap_or_else(PoisonError::into_inner);
        }
        !inner.bus_closed
    }

    /// Whether it is switched off: serving is to stop.
    pub(super) fn switched_off(&self) -> bool {
        lock(&self.0.inner).switched_off
    }

    /// Waits for what the bus is to be told next: signals of changes, or
    /// of notifications whose time is up, which leave the screen now (the
    /// listeners are told). None once the bus closed, or once the service
    /// was switched off and has nothing left to say.
    pub(super) fn next_signals(&self) -> Option<Vec<Signal>> {
        let (signals, ticked) = {
            let mut inner = lock(&self.0.inner);
            loop {
                if inner.bus_closed || (inner.switched_off && inner.outbox.is_empty()) {
                    return None;
                }
                let now = Instant::now();
                let next_deadline = inner.store.next_deadline();
                if next_deadline.is_some_and(|deadline| deadline <= now) || !inner.outbox.is_empty() {
                    break;
                }
                inner = match next_deadline {
                    Some(deadline) => match self.0.wake.wait_timeout(inner, deadline - now) {
                        Ok((inner, _)) => inner,
                        Err(poisoned) => poisoned.into_inner().0,
                    },
                    None => self.0.wake.wait(inner).unwrap_or_else(PoisonError::into_inner),
                };
            }
            let now = Instant::now();
            let due = inner.store.next_deadline().is_some_and(|deadline| deadline <= now);
            let ticked = due.then(|| inner.store.tick(now));
            let mut signals = std::mem::take(&mut inner.outbox);
            signals.extend(ticked.iter().flatten().cloned());
            (signals, ticked.is_some())
        };
        if ticked {
            self.tell_listeners();
        }
        Some(signals)
    }
}

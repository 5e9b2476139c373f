//! How an answer that comes later reaches a widget: a capability that
//! cannot answer at once (a slow reading, an HTTP response) promises the
//! widget's [`Waker`] a wake, and wakes it when the answer is in; the bar
//! then refreshes that widget, which finds the answer waiting. Counting the
//! promises lets a one-off render (a screenshot) wait for exactly as many
//! wakes as are coming.
//!
//! A source that changes on its own (the tiler, media, tray, keyboard)
//! pushes instead of being polled: reading it subscribes the widget
//! ([`Subscribers`], [`Pushed`]), and every change wakes each subscriber.
//!
//! Wakes are coalesced: once one has reached the listener, more are the
//! same one until the listener takes it ([`Waker::take`]) and refreshes the
//! widget, which reads the newest of everything. A source that changes a
//! million times a second queues one wake, not a million.

mod follower;
mod pushed;

pub use follower::Follower;
pub use pushed::Pushed;

use crate::sync::lock;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};

#[derive(Clone)]
pub struct Waker(Arc<Inner>);

struct Inner {
    wake: Box<dyn Fn() + Send + Sync>,
    promised: AtomicUsize,
    /// Wakes so far, whether or not each reached the listener.
    woken: AtomicUsize,
    /// A wake reached the listener, which has not taken it yet.
    pending: AtomicBool,
}

impl Waker {
    /// A waker whose wake calls `wake`, once until the listener takes it.
    pub fn new(wake: impl Fn() + Send + Sync + 'static) -> Waker {
        Waker(Arc::new(Inner {
            wake: Box::new(wake),
            promised: AtomicUsize::new(0),
            woken: AtomicUsize::new(0),
            pending: AtomicBool::new(false),
        }))
    }

    /// A waker nobody listens to.
    pub fn unheard() -> Waker {
        Waker::new(|| {})
    }

    /// Says that one wake will follow: an answer is on its way.
    pub fn promise(&self) {
        self.0.promised.fetch_add(1, Ordering::SeqCst);
    }

    /// Wakes the widget: refresh it soon. Waking a widget that is gone
    /// (reloaded away, stopped) does nothing, and waking one whose last
    /// wake the listener has not taken yet adds nothing to it.
    pub fn wake(&self) {
        self.0.woken.fetch_add(1, Ordering::SeqCst);
        if !self.0.pending.swap(true, Ordering::SeqCst) {
            (self.0.wake)()
        }
    }

    /// Takes the wake that reached the listener, which refreshes the widget
    /// next: what woke it so far is read by that refresh, and the next wake
    /// reaches the listener again. How many wakes there have been in all.
    pub fn take(&self) -> usize {
        self.0.pending.store(false, Ordering::SeqCst);
        self.0.woken.load(Ordering::SeqCst)
    }

    /// Whether `other` wakes the same widget (is a clone of this waker).
    pub fn same_as(&self, other: &Waker) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// How many wakes have been promised so far, in all.
    pub fn promised(&self) -> usize {
        self.0.promised.load(Ordering::SeqCst)
    }
}

/// The widgets that read a source which changes on its own. A widget that
/// is gone (reloaded away, stopped) holds no waker any more and is dropped
/// from the list at the next change.
#[derive(Default)]
pub struct Subscribers(Mutex<Vec<Weak<Inner>>>);

impl Subscribers {
    /// Subscribes `waker`'s widget, once however often it reads. True when
    /// it was not subscribed before.
    pub fn subscribe(&self, waker: &Waker) -> bool {
        let mut subscribers = lock(&self.0);
        // The gone go first: a new waker may live where a gone one did.
        subscribers.retain(|subscriber| subscriber.strong_count() > 0);
        if subscribers.iter().any(|subscriber| std::ptr::eq(subscriber.as_ptr(), Arc::as_ptr(&waker.0))) {
            return false;
        }
        subscribers.push(Arc::downgrade(&waker.0));
        true
    }

    /// Wakes every widget still there.
    pub fn wake_all(&self) {
        let alive: Vec<Arc<Inner>> = {
            let mut subscribers = lock(&self.0);
            subscribers.retain(|subscriber| subscriber.strong_count() > 0);
            subscribers.iter().filter_map(Weak::upgrade).collect()
        };
        // Woken outside the lock: a wake may read the source again.
        alive.into_iter().for_each(|inner| (inner.wake)());
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.0.lock().unwrap().iter().filter(|subscriber| subscriber.strong_count() > 0).count()
    }
}

#[cfg(test)]
impl Waker {
    /// A waker that counts its wakes, for tests.
    pub(crate) fn counting() -> (Waker, Arc<AtomicUsize>) {
        let woken = Arc::new(AtomicUsize::new(0));
        let count = woken.clone();
        let waker = Waker::new(move || {
            count.fetch_add(1, Ordering::SeqCst);
        });
        (waker, woken)
    }
}

impl fmt::Debug for Waker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Waker({} promised)", self.promised())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subscribers_are_woken_once_each_until_they_are_gone() {
        let woken = Arc::new(AtomicUsize::new(0));
        let counting = |woken: &Arc<AtomicUsize>| {
            let woken = woken.clone();
            Waker::new(move || {
                woken.fetch_add(1, Ordering::SeqCst);
            })
        };
        let (first, second) = (counting(&woken), counting(&woken));
        let subscribers = Subscribers::default();
        assert!(subscribers.subscribe(&first));
        assert!(!subscribers.subscribe(&first.clone()), "a second read does not subscribe twice");
        assert!(subscribers.subscribe(&second));
        subscribers.wake_all();
        assert_eq!(woken.load(Ordering::SeqCst), 2);
        drop(second);
        subscribers.wake_all();
        assert_eq!(woken.load(Ordering::SeqCst), 3, "a widget that is gone is not woken");
        assert_eq!(subscribers.len(), 1);
    }

    #[test]
    fn clones_share_the_wake_and_the_promises() {
        let (waker, woken) = Waker::counting();
        waker.promise();
        waker.clone().promise();
        waker.clone().wake();
        assert_eq!((waker.promised(), woken.load(Ordering::SeqCst)), (2, 1));
    }

    #[test]
    fn wakes_until_the_listener_takes_one_are_that_one() {
        let (waker, woken) = Waker::counting();
        for _ in 0..1_000_000 {
            waker.wake();
        }
        assert_eq!(woken.load(Ordering::SeqCst), 1, "one wake reached the listener");
        assert_eq!(waker.take(), 1_000_000, "and it answers them all");
        waker.clone().wake();
        assert_eq!((woken.load(Ordering::SeqCst), waker.take()), (2, 1_000_001), "the next one reaches it again");
    }
}

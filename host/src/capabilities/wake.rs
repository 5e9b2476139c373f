//! How an answer that comes later reaches a widget: a capability that
//! cannot answer at once (a slow reading, an HTTP response) promises the
//! widget's [`Waker`] a wake, and wakes it when the answer is in; the bar
//! then refreshes that widget, which finds the answer waiting. Counting the
//! promises lets a one-off render (a screenshot) wait for exactly as many
//! wakes as are coming.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(Clone)]
pub struct Waker(Arc<Inner>);

struct Inner {
    wake: Box<dyn Fn() + Send + Sync>,
    promised: AtomicUsize,
}

impl Waker {
    pub fn new(wake: impl Fn() + Send + Sync + 'static) -> Waker {
        Waker(Arc::new(Inner { wake: Box::new(wake), promised: AtomicUsize::new(0) }))
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
    /// (reloaded away, stopped) does nothing.
    pub fn wake(&self) {
        (self.0.wake)()
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

impl fmt::Debug for Waker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Waker({} promised)", self.promised())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_wake_and_the_promises() {
        let woken = Arc::new(AtomicUsize::new(0));
        let count = woken.clone();
        let waker = Waker::new(move || {
            count.fetch_add(1, Ordering::SeqCst);
        });
        waker.promise();
        waker.clone().promise();
        waker.clone().wake();
        assert_eq!((waker.promised(), woken.load(Ordering::SeqCst)), (2, 1));
    }
}

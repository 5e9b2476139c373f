//! A value a source pushes (the tiler's state, the keyboard layout, what
//! plays): widgets read the last one, and reading subscribes them, so each
//! change wakes every reader. Until the source has given a first answer, a
//! reader is promised a wake, so that a one-off render (a screenshot) waits
//! for it.

use super::{Subscribers, Waker};
use crate::sync::lock;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

pub struct Pushed<T> {
    value: Mutex<T>,
    /// The source has given a first answer.
    answered: AtomicBool,
    readers: Subscribers,
}

impl<T: Clone + PartialEq> Pushed<T> {
    /// `waiting` is what readers see until the source first answers.
    pub fn new(waiting: T) -> Pushed<T> {
        Pushed { value: Mutex::new(waiting), answered: AtomicBool::new(false), readers: Subscribers::default() }
    }

    /// The last value; `waker`'s widget is woken at every change from now on.
    pub fn read(&self, waker: &Waker) -> T {
        if self.readers.subscribe(waker) && !self.answered.load(Ordering::SeqCst) {
            waker.promise();
        }
        self.current()
    }

    /// The last value, without subscribing.
    pub fn current(&self) -> T {
        lock(&self.value).clone()
    }

    /// Makes `value` the current one and wakes the readers when it differs
    /// from the last, or is the source's first answer. True when it differed.
    pub fn publish(&self, value: T) -> bool {
        let changed = {
            let mut current = lock(&self.value);
            let changed = *current != value;
            *current = value;
            changed
        };
        // Answered only once the answer is there to read: a reader that
        // finds it answered was promised nothing, and reads the answer.
        let first = !self.answered.swap(true, Ordering::SeqCst);
        if changed || first {
            self.readers.wake_all();
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_subscribes_and_only_changes_wake() {
        let (waker, woken) = Waker::counting();
        let pushed = Pushed::new(0);
        assert_eq!(pushed.read(&waker), 0);
        assert_eq!(waker.promised(), 1, "a first answer is promised");
        assert!(!pushed.publish(0), "the same value");
        assert_eq!(woken.load(Ordering::SeqCst), 1, "but the first answer wakes");
        assert!(!pushed.publish(0));
        assert!(pushed.publish(7));
        assert_eq!(woken.load(Ordering::SeqCst), 2);
        assert_eq!(pushed.read(&waker), 7);
        assert_eq!(waker.promised(), 1, "reading again promises nothing more");
    }
}

//! Locks that outlive a panic. What Obi's mutexes guard is whole at every
//! step (a writer finishes its change before anything it calls could
//! panic), so a lock that a panicking thread left behind is taken as it
//! is, rather than spreading one widget's or one thread's panic to the
//! rest of the bar.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// `mutex`, locked, whether or not a thread panicked while holding it.
pub fn lock<T: ?Sized>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

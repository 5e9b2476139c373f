//! A value a thread of its own follows (media players and tray items on the
//! session bus, the keyboard layout from the X server): the thread starts
//! at the first reading, so a bar without a widget that reads it opens
//! nothing, and publishes each change to the widgets that read it.
//! Requests to the followed thing (play, activate an item) reach the thread
//! on a channel it owns; when the follower is dropped the channel closes,
//! which tells the thread to end.

use super::{Pushed, Waker};
use crate::sync::lock;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, OnceLock};

type Follow<T, R> = Box<dyn FnOnce(&Pushed<T>, Receiver<R>) + Send>;

pub struct Follower<T, R = ()> {
    /// What is followed, for the warning when its thread cannot start.
    what: &'static str,
    thread_name: &'static str,
    value: Arc<Pushed<T>>,
    /// What readers see until the thread first answers, and from then on
    /// when it cannot start.
    waiting: T,
    follow: Mutex<Option<Follow<T, R>>>,
    requests: OnceLock<Sender<R>>,
}

impl<T, R> Follower<T, R>
where
    T: Clone + PartialEq + Send + Sync + 'static,
    R: Send + 'static,
{
    /// Follows `what` on a thread named `thread_name` running `follow`,
    /// which publishes each value and takes the requests sent to it.
    pub fn new(
        what: &'static str,
        thread_name: &'static str,
        waiting: T,
        follow: impl FnOnce(&Pushed<T>, Receiver<R>) + Send + 'static,
    ) -> Follower<T, R> {
        Follower {
            what,
            thread_name,
            value: Arc::new(Pushed::new(waiting.clone())),
            waiting,
            follow: Mutex::new(Some(Box::new(follow))),
            requests: OnceLock::new(),
        }
    }

    /// The last value; `waker`'s widget is woken at every change from now
    /// on. The first reading starts the thread.
    pub fn read(&self, waker: &Waker) -> T {
        self.start();
        self.value.read(waker)
    }

    /// The last value, without subscribing or starting anything.
    pub fn current(&self) -> T {
        self.value.current()
    }

    /// Hands `request` to the thread; false when nothing is followed (no
    /// reading has started it, or it has ended).
    pub fn request(&self, request: R) -> bool {
        self.requests.get().is_some_and(|requests| requests.send(request).is_ok())
    }

    fn start(&self) {
        let Some(follow) = lock(&self.follow).take() else { return };
        let (requests, received) = mpsc::channel();
        let _ = self.requests.set(requests);
        let value = self.value.clone();
        let spawned = std::thread::Builder::new().name(self.thread_name.into()).spawn(move || follow(&value, received));
        if let Err(error) = spawned {
            tracing::warn!("cannot follow {}: {error}", self.what);
            self.value.publish(self.waiting.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[test]
    fn the_thread_starts_at_the_first_reading_and_takes_requests() {
        let started = Arc::new(AtomicUsize::new(0));
        let count = started.clone();
        let (heard, requests_heard) = mpsc::channel();
        let follower: Follower<u32, u32> = Follower::new("numbers", "obi-test-follower", 0, move |value, requests| {
            count.fetch_add(1, Ordering::SeqCst);
            value.publish(1);
            for request in requests {
                value.publish(request);
                heard.send(request).unwrap();
            }
        });
        assert!(!follower.request(5), "nothing is followed before the first reading");
        assert_eq!(started.load(Ordering::SeqCst), 0);

        let (waker, woken) = Waker::counting();
        follower.read(&waker);
        follower.read(&waker);
        assert!(follower.request(7));
        assert_eq!(requests_heard.recv_timeout(Duration::from_secs(5)), Ok(7));
        assert_eq!(follower.current(), 7);
        assert_eq!(started.load(Ordering::SeqCst), 1, "one thread, however often it is read");
        assert!(woken.load(Ordering::SeqCst) >= 1, "the reader is woken by what the thread publishes");
    }
}

//! How an answer that comes later reaches a widget: a capability that
//! cannot answer at once (a slow reading, an HTTP response) keeps the
//! widget's [`Waker`] and wakes it when the answer is in; the bar then
//! refreshes that widget, which finds the answer waiting.

use std::fmt;
use std::sync::Arc;

#[derive(Clone)]
pub struct Waker(Arc<dyn Fn() + Send + Sync>);

impl Waker {
    pub fn new(wake: impl Fn() + Send + Sync + 'static) -> Waker {
        Waker(Arc::new(wake))
    }

    /// A waker nobody listens to: for a single refresh (a screenshot).
    pub fn unheard() -> Waker {
        Waker::new(|| {})
    }

    /// Asks for the widget to be refreshed soon. Waking a widget that is
    /// gone (reloaded away, stopped) does nothing.
    pub fn wake(&self) {
        (self.0)()
    }
}

impl fmt::Debug for Waker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Waker")
    }
}

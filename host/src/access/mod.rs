//! The bars as assistive technology sees them (AT-SPI on Linux, UI
//! Automation on Windows, through AccessKit): each bar's [`tree`], made
//! from what it shows; the [`names`] it says things by; and the
//! [`Handlers`] a platform's adapter calls on its own thread, which hand
//! what it asks to the bar's loop. Nothing is made while no assistive
//! technology listens: the adapter asks for the tree when one starts to.

pub mod names;
pub mod tree;

pub use tree::{AccessTree, ROOT, Shown, Target};

use accesskit::{ActionHandler, ActionRequest, ActivationHandler, DeactivationHandler, TreeUpdate};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a platform's adapter asks of a bar.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// Assistive technology started listening: the bar sends its tree.
    Tree,
    /// An action on a node: a click, its menu, a value, the focus.
    Action(ActionRequest),
}

/// Hands a request to the bar's loop; false once the loop is gone.
pub type Ask = Arc<dyn Fn(Request) -> bool + Send + Sync>;

/// What an adapter calls, for one bar: each hands its request on.
#[derive(Clone)]
pub struct Handlers {
    ask: Ask,
    /// The bar's tree sends all its nodes next, not what changed.
    whole_wanted: Arc<AtomicBool>,
}

impl Handlers {
    /// Handlers for the bar whose tree is `tree`, asking it through `ask`.
    pub fn new(tree: &AccessTree, ask: Ask) -> Handlers {
        Handlers { ask, whole_wanted: tree.whole_wanted() }
    }
}

impl ActivationHandler for Handlers {
    /// The tree is made on the bar's loop, not here: the adapter takes the
    /// first update it is sent as the whole tree, and the bar's tree learns
    /// that it must send all of it before the adapter waits for it (the
    /// adapter holds its state's lock while it asks).
    fn request_initial_tree(&mut self) -> Option<TreeUpdate> {
        self.whole_wanted.store(true, Ordering::SeqCst);
        (self.ask)(Request::Tree);
        None
    }
}

impl ActionHandler for Handlers {
    fn do_action(&mut self, request: ActionRequest) {
        (self.ask)(Request::Action(request));
    }
}

/// Nothing to do when assistive technology stops listening: no tree is
/// made until it starts again, and then the whole of it.
impl DeactivationHandler for Handlers {
    fn deactivate_accessibility(&mut self) {}
}

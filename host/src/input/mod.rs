//! Mouse input on the bar: clicks (and double clicks) and scroll ticks,
//! delivered to the item under the cursor when it takes them, and else to
//! the bar's `mouse` config, which sends komorebi messages to the tiler or
//! runs a command, as komorebi-bar does.

mod actions;
mod clicks;
mod env;
pub mod scroll;

pub use actions::{Action, MouseActions};
pub use clicks::DoubleClicks;
pub use env::{NotText, for_the_shell};
pub use scroll::ScrollTicks;

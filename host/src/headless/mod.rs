//! Widgets without a bar: one widget run headless in the bar's engine and
//! sandbox over capabilities a script sets ([`Harness`], [`Script`]), as
//! the SDK's harness (`obi-harness`) and `obi widget test` run it. The
//! bar's own code never reaches in here: its widgets read the system.

mod harness;
pub mod scripted;
pub mod widget_test;

pub use harness::{Harness, config_schema};
pub use scripted::Script;

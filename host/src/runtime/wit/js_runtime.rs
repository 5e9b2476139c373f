//! `obi:js-runtime`, between the host and the JS runtime it ships: the
//! `load` the host calls on a runtime instance, before any of the widget's
//! calls, with the widget's script, and the error a script that cannot be
//! loaded is.

wasmtime::component::bindgen!({
    world: "obi:js-runtime/loader",
    path: ["../wit/since_v0.1.8", "../js-runtime/wit"],
});

pub use exports::obi::js_runtime::module::{ImportRule, Script};

use std::fmt;

/// The script could not be loaded: what it says names the file, line and
/// column.
#[derive(Debug)]
pub struct ScriptFailed(pub String);

impl fmt::Display for ScriptFailed {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.0)
    }
}

impl std::error::Error for ScriptFailed {}

//! `obi:js-runtime`, between the host and the JS runtime it ships: the
//! `load` the host calls on a runtime instance, before any of the widget's
//! calls, with the widget's script.

wasmtime::component::bindgen!({
    world: "obi:js-runtime/loader",
    path: ["../wit/since_v0.1.6", "../js-runtime/wit"],
});

pub use exports::obi::js_runtime::module::{ImportRule, Script};

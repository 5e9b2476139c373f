//! Obi's JavaScript runtime: one WebAssembly component, shipped inside the
//! bar and compiled once, that runs any widget written in JS. The host
//! hands it the widget's script ([`module::Guest::load`]); it runs the
//! script in the Boa engine and answers the widget's calls (`guest`) by
//! calling the script's `guest` object, converting values as jco does, so
//! that the same file also builds into a component of its own with
//! componentize-js.
//!
//! It is a widget like any other to the host: the same store, memory cap,
//! deadline and grants. It imports every capability interface so that any
//! script can run; the host links those the widget is not granted to
//! functions that trap, and tells the runtime which they are, so that a
//! script importing one is refused before its body runs ([`loader`]).
//!
//! Built for any other target (`cargo test --workspace` builds every
//! member for the host), it is empty.

#![cfg(target_arch = "wasm32")]

mod convert;
mod errors;
mod glue;
mod loader;
mod script;

use bindings::exports::obi::js_runtime::module;
use bindings::exports::obi::widget::guest::{self, Frame};
use bindings::obi::widget::popup::PopupInput;
use bindings::obi::widget::types::{Input, Schedule};
use bindings::obi::widget::view::{Bar, Pointer};
use boa_engine::{JsString, JsValue};
use convert::IntoJs;
use script::Script;
use std::cell::RefCell;

mod bindings {
    wit_bindgen::generate!({
        world: "obi:js-runtime/js-runtime",
        path: ["../wit/since_v0.1.8", "wit"],
        generate_all,
    });
}

thread_local! {
    /// The widget's script, once the host has loaded it.
    static SCRIPT: RefCell<Option<Script>> = const { RefCell::new(None) };
}

/// Reports what went wrong in a call that cannot return an error, and
/// traps: the host shows the last line written to stderr as the widget's
/// failure, drops the instance and starts it again later.
fn fail(message: &str) -> ! {
    eprintln!("{message}");
    std::process::abort()
}

fn with_script<R>(call: impl FnOnce(&mut Script) -> R) -> R {
    SCRIPT.with_borrow_mut(|script| match script {
        Some(script) => call(script),
        None => fail("the bar called the JS runtime before giving it a script"),
    })
}

/// Calls `guest.name`, whose errors cannot be returned; none when the
/// script does not have it.
fn call_or_fail(
    name: &str,
    arguments: impl FnOnce(&mut boa_engine::Context) -> boa_engine::JsResult<Vec<JsValue>>,
) -> Option<JsValue> {
    with_script(|script| script.call(name, arguments)).unwrap_or_else(|message| fail(&message))
}

struct Runtime;

impl module::Guest for Runtime {
    fn load(given: module::Script) -> Result<(), String> {
        let rules = given.imports.into_iter().map(|rule| (rule.interface, rule.refused)).collect();
        let loaded = Script::load(given.path, given.source, rules)?;
        SCRIPT.set(Some(loaded));
        Ok(())
    }
}

impl guest::Guest for Runtime {
    fn init(config_json: String, bar: Bar) -> Result<Schedule, String> {
        with_script(|script| {
            let returned = script
                .call("init", |context| Ok(vec![JsString::from(config_json.as_str()).into(), bar.into_js(context)?]))?;
            let returned = returned.expect("init is required");
            script.convert(&returned, "init")
        })
    }

    fn refresh() -> Frame {
        let returned = call_or_fail("refresh", |_| Ok(Vec::new())).expect("refresh is required");
        with_script(|script| script.convert(&returned, "refresh")).unwrap_or_else(|message| fail(&message))
    }

    fn on_input(item_key: String, event: Input, pointer: Pointer) {
        call_or_fail("onInput", |context| {
            Ok(vec![JsString::from(item_key.as_str()).into(), event.into_js(context)?, pointer.into_js(context)?])
        });
    }

    fn on_popup_input(item_key: String, cell_key: String, event: PopupInput) {
        call_or_fail("onPopupInput", |context| {
            Ok(vec![
                JsString::from(item_key.as_str()).into(),
                JsString::from(cell_key.as_str()).into(),
                event.into_js(context)?,
            ])
        });
    }

    fn on_popup_closed(item_key: String) {
        call_or_fail("onPopupClosed", |_| Ok(vec![JsString::from(item_key.as_str()).into()]));
    }

    fn on_refresh_requested() {
        call_or_fail("onRefreshRequested", |_| Ok(Vec::new()));
    }

    fn config_schema() -> Option<String> {
        let returned = call_or_fail("configSchema", |_| Ok(Vec::new()))?;
        with_script(|script| {
            // jco's `option<string>`; an object is taken as the schema itself.
            if returned.is_object() {
                let text = returned.to_json(script.context()).map_err(|error| error.to_string())?;
                return Ok(text.map(|json| json.to_string()));
            }
            script.convert::<Option<String>>(&returned, "configSchema")
        })
        .unwrap_or_else(|message| fail(&message))
    }
}

bindings::export!(Runtime with_types_in bindings);

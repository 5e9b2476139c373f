//! One running widget: its own store (memory cap, deadline on every call),
//! its instance, and the translation of whatever went wrong in it into a
//! [`Failure`] the user can read. A failed instance is dropped, never reused.
//! A panic in the host while it serves the widget (a capability's bug) is
//! that widget's failure too: it must not take down the thread every widget
//! shares.

use super::Schedule;
use super::engine::WidgetEngine;
use super::path_images::PathImages;
use super::store::StoreState;
use super::wit::Widget;
use super::wit::js_runtime::ScriptFailed;
use crate::capabilities::Capabilities;
use crate::spec::{Limits, WidgetSpec};
use crate::view::popup::PopupInput;
use crate::view::{Input, Pointer, View};
use crate::wake::Waker;
use anyhow::Context;
use std::fmt;
use std::time::Duration;
use wasmtime::{Store, Trap};

/// Why a widget stopped working.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The component could not be loaded, checked or linked.
    Load(String),
    /// `init` refused the widget's configuration.
    Config(String),
    Deadline(Duration),
    MemoryCap {
        cap: usize,
        wanted: usize,
    },
    Trap(String),
    BadView(String),
    /// The host panicked serving the widget.
    HostPanic(String),
}

impl std::error::Error for Failure {}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Load(message) => write!(f, "{message}"),
            Failure::Config(message) => write!(f, "configuration rejected: {message}"),
            Failure::Deadline(deadline) => write!(f, "did not return within its {} ms deadline", deadline.as_millis()),
            Failure::MemoryCap { cap, wanted } => {
                write!(f, "wanted {} KiB of memory, over its cap of {} KiB", wanted >> 10, cap >> 10)
            }
            Failure::Trap(message) => write!(f, "crashed: {message}"),
            Failure::BadView(message) => write!(f, "returned a bad view: {message}"),
            Failure::HostPanic(message) => write!(f, "stopped by a fault of the bar serving it: {message}"),
        }
    }
}

pub struct WidgetInstance {
    store: Store<StoreState>,
    widget: Widget,
    limits: Limits,
    images: PathImages,
    /// The item whose popup is open.
    open_popup: Option<String>,
    /// Input came since the last refresh: a popup may open.
    answering_input: bool,
    /// A refresh has returned: the start is over.
    refreshed: bool,
}

/// What a refresh brought: the view, and when the widget wants the next one
/// (none: on its schedule).
pub struct Refreshed {
    pub view: View,
    pub next_refresh: Option<Duration>,
}

impl WidgetInstance {
    /// Instantiates the widget and runs its `init` with its config. `waker`
    /// asks for a refresh when a capability has an answer that came late.
    pub fn start(
        engine: &mut WidgetEngine,
        spec: &WidgetSpec,
        waker: Waker,
    ) -> Result<(WidgetInstance, Schedule), Failure> {
        let capabilities = engine.capabilities().clone();
        WidgetInstance::start_with(engine, &capabilities, spec, waker)
    }

    /// [`WidgetInstance::start`] with `capabilities` in place of the
    /// engine's: those of the bar the widget is on (its view of the tiler).
    pub fn start_with(
        engine: &mut WidgetEngine,
        capabilities: &Capabilities,
        spec: &WidgetSpec,
        waker: Waker,
    ) -> Result<(WidgetInstance, Schedule), Failure> {
        let mut instance = WidgetInstance::instantiate(engine, capabilities, spec, waker)?;
        let schedule = instance
            .call_within(engine, spec.limits.start_deadline(), |widget, store| {
                widget.call_init(store, &spec.config_json, spec.monitor)
            })?
            .map_err(Failure::Config)?;
        Ok((instance, schedule))
    }

    /// Loads the widget as a start does, without starting it: its component
    /// compiled, checked against its grants and instantiated, a script
    /// parsed and its body run (`obi check`).
    pub fn load(engine: &mut WidgetEngine, spec: &WidgetSpec) -> Result<(), Failure> {
        let capabilities = engine.capabilities().clone();
        WidgetInstance::instantiate(engine, &capabilities, spec, Waker::new(|| {})).map(drop)
    }

    /// The JSON schema of its config the widget gives, on an instance of
    /// its own that is never initialised; none from a widget built before
    /// 0.1.2, or one that gives none. The error names the widget.
    pub fn config_schema(engine: &mut WidgetEngine, spec: &WidgetSpec) -> anyhow::Result<Option<serde_json::Value>> {
        let name = &spec.name;
        let capabilities = engine.capabilities().clone();
        let mut instance = WidgetInstance::instantiate(engine, &capabilities, spec, Waker::new(|| {}))
            .with_context(|| name.clone())?;
        let schema = instance
            .call_within(engine, spec.limits.start_deadline(), |widget, store| widget.call_config_schema(store))
            .with_context(|| name.clone())?;
        let parsed = schema.map(|schema| serde_json::from_str(&schema));
        parsed.transpose().with_context(|| format!("{name}: its config schema is not JSON"))
    }

    fn instantiate(
        engine: &mut WidgetEngine,
        capabilities: &Capabilities,
        spec: &WidgetSpec,
        waker: Waker,
    ) -> Result<WidgetInstance, Failure> {
        let template = engine.template(spec).map_err(|error| Failure::Load(format!("{error:#}")))?;
        let state = StoreState::new(spec, capabilities.clone(), waker);
        let mut store = Store::new(engine.engine(), state);
        store.limiter(StoreState::limiter);
        store.epoch_deadline_trap();
        store.set_epoch_deadline(1);
        let deadline = spec.limits.start_deadline();
        let widget = {
            let _armed = engine.watchdog().arm(deadline);
            contained(|| template.instantiate(&mut store))?
        };
        let widget = widget.map_err(|error| failure(&store, spec.limits, deadline, error))?;
        let images = PathImages::new(&spec.name, capabilities.held.clone());
        Ok(WidgetInstance {
            store,
            widget,
            limits: spec.limits,
            images,
            open_popup: None,
            answering_input: false,
            refreshed: false,
        })
    }

    pub fn refresh(&mut self, engine: &WidgetEngine) -> Result<Refreshed, Failure> {
        // The first refresh is part of the start: its code is as cold.
        let deadline = if self.refreshed { self.limits.call_deadline } else { self.limits.start_deadline() };
        let (mut view, next_refresh_ms) =
            self.call_within(engine, deadline, |widget, store| widget.call_refresh(store))?;
        self.refreshed = true;
        view.validate().map_err(Failure::BadView)?;
        self.admit_popup(engine, &mut view)?;
        self.images.resolve(&mut view);
        Ok(Refreshed { view, next_refresh: next_refresh_ms.map(|ms| Duration::from_millis(ms.into())) })
    }

    /// A popup opens only in answer to input, so that no widget can put
    /// one up by itself; one that came unasked is closed again.
    fn admit_popup(&mut self, engine: &WidgetEngine, view: &mut View) -> Result<(), Failure> {
        let answering_input = std::mem::take(&mut self.answering_input);
        match &view.popup {
            Some(popup) if answering_input || self.open_popup.is_some() => {
                self.open_popup = Some(popup.item_key.clone());
            }
            Some(popup) => {
                let key = popup.item_key.clone();
                view.popup = None;
                self.call(engine, |widget, store| widget.call_on_popup_closed(store, &key))?;
            }
            None => self.open_popup = None,
        }
        Ok(())
    }

    /// Input on item `key`, and where the pointer was.
    pub fn on_input(
        &mut self,
        engine: &WidgetEngine,
        key: &str,
        (input, pointer): (Input, Pointer),
    ) -> Result<(), Failure> {
        self.answering_input = true;
        self.call(engine, |widget, store| widget.call_on_input(store, key, input, pointer))
    }

    /// Input on cell `cell` of the popup open beside item `key`; none when
    /// no such popup is open (it closed while the input was on its way).
    pub fn on_popup_input(
        &mut self,
        engine: &WidgetEngine,
        key: &str,
        cell: &str,
        input: PopupInput,
    ) -> Result<(), Failure> {
        if self.open_popup.as_deref() != Some(key) {
            return Ok(());
        }
        self.answering_input = true;
        self.call(engine, |widget, store| widget.call_on_popup_input(store, key, cell, input))
    }

    /// Closes the widget's popup, if one is open, and tells the widget;
    /// whether one was.
    pub fn close_popup(&mut self, engine: &WidgetEngine) -> Result<bool, Failure> {
        let Some(key) = self.open_popup.take() else { return Ok(false) };
        self.call(engine, |widget, store| widget.call_on_popup_closed(store, &key))?;
        Ok(true)
    }

    /// Tells the widget the user asked that it read afresh.
    pub fn request_refresh(&mut self, engine: &WidgetEngine) -> Result<(), Failure> {
        self.call(engine, |widget, store| widget.call_on_refresh_requested(store))
    }

    fn call<R>(
        &mut self,
        engine: &WidgetEngine,
        call: impl FnOnce(&Widget, &mut Store<StoreState>) -> wasmtime::Result<R>,
    ) -> Result<R, Failure> {
        self.call_within(engine, self.limits.call_deadline, call)
    }

    fn call_within<R>(
        &mut self,
        engine: &WidgetEngine,
        deadline: Duration,
        call: impl FnOnce(&Widget, &mut Store<StoreState>) -> wasmtime::Result<R>,
    ) -> Result<R, Failure> {
        self.store.set_epoch_deadline(1);
        let result = {
            let _armed = engine.watchdog().arm(deadline);
            contained(|| call(&self.widget, &mut self.store))?
        };
        result.map_err(|error| failure(&self.store, self.limits, deadline, error))
    }
}

/// Runs `work`, turning a panic in it into the widget's failure. The store
/// it panicked in is dropped with the instance, so nothing half-done in it
/// is seen again.
fn contained<R>(work: impl FnOnce() -> R) -> Result<R, Failure> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).map_err(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|text| text.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        Failure::HostPanic(message)
    })
}

fn failure(store: &Store<StoreState>, limits: Limits, deadline: Duration, error: wasmtime::Error) -> Failure {
    if let Some(ScriptFailed(why)) = error.downcast_ref::<ScriptFailed>() {
        return Failure::Load(why.clone());
    }
    if let Some(wanted) = store.data().refused_memory() {
        return Failure::MemoryCap { cap: limits.memory_bytes, wanted };
    }
    match error.downcast_ref::<Trap>() {
        Some(Trap::Interrupt) => Failure::Deadline(deadline),
        _ => {
            let cause = error.root_cause();
            Failure::Trap(match last_words(&store.data().stderr_tail()) {
                Some(said) => format!("{said} ({cause})"),
                None => cause.to_string(),
            })
        }
    }
}

/// What a guest printed before it trapped, on one line: a Rust panic prints
/// "thread '..' panicked at src/lib.rs:7:9:" and its message, then a note
/// about backtraces that says nothing about this widget.
fn last_words(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let words: Vec<&str> =
        text.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with("note: ")).collect();
    let joined = words.join(" ");
    let start = joined.len().saturating_sub(400);
    let start = (start..=joined.len()).find(|&index| joined.is_char_boundary(index)).unwrap_or(0);
    (!joined.is_empty()).then(|| joined[start..].to_owned())
}

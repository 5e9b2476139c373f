//! One widget run headless, the way the bar runs it (same engine, sandbox
//! and capability links) but alone, over capabilities a test scripts: the
//! runner under the SDK's harness (`obi-harness`) and `obi widget test`.

use super::scripted::Script;
use crate::capabilities::{Capabilities, Capability};
use crate::runtime::{ComponentCache, Failure, Schedule, WidgetEngine, WidgetInstance};
use crate::spec::WidgetSpec;
use crate::view::popup::PopupInput;
use crate::view::{Input, Pointer, View};
use crate::wake::Waker;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// One running widget instance over a [`Script`].
pub struct Harness {
    engine: WidgetEngine,
    instance: WidgetInstance,
    schedule: Schedule,
    next_refresh: Option<Duration>,
    /// The widget's waker, and where its wakes arrive.
    wakes: (Waker, Receiver<()>),
}

impl Harness {
    /// A stock widget by its config key (`"Cpu"`), with its config object
    /// as JSON and the capabilities its kind is granted in the bar.
    pub fn stock(kind: &str, config_json: &str, script: &Script) -> Result<Harness, String> {
        Harness::start(WidgetSpec::stock(kind, config_json.into()).map_err(|no_spec| no_spec.to_string())?, script)
    }

    /// The first view of the stock widget `kind` with `config_json`, over
    /// `script`. Panics with the widget's failure, as the test that asked
    /// would.
    pub fn first_view(kind: &str, config_json: &str, script: &Script) -> View {
        let mut widget = Harness::stock(kind, config_json, script).unwrap_or_else(|failure| panic!("{failure}"));
        widget.refresh().unwrap_or_else(|failure| panic!("{kind}: {failure}"))
    }

    /// A component on disk (a third-party widget), granted `grants` (log and
    /// clock are always granted, as in the bar) with the bar's default limits.
    pub fn plugin(
        wasm: impl Into<PathBuf>,
        config_json: &str,
        grants: &[Capability],
        script: &Script,
    ) -> Result<Harness, String> {
        let spec = WidgetSpec::file(wasm.into(), config_json.into(), grants.iter().copied());
        Harness::start(spec, script)
    }

    /// A component on disk that may run `commands` (id, command line), as
    /// a Plugin entry's `"commands"` declares them.
    pub fn plugin_with_commands(
        wasm: impl Into<PathBuf>,
        config_json: &str,
        commands: &[(&str, &str)],
        script: &Script,
    ) -> Result<Harness, String> {
        let mut spec = WidgetSpec::file(wasm.into(), config_json.into(), [Capability::Commands]);
        spec.commands = commands.iter().map(|(id, line)| (id.to_string(), line.to_string())).collect();
        Harness::start(spec, script)
    }

    /// A widget as the runtime's spec describes it: source, config, grants,
    /// declared commands and limits.
    pub fn start(spec: WidgetSpec, script: &Script) -> Result<Harness, String> {
        let name = spec.name.clone();
        Harness::start_with(spec, script.capabilities()).map_err(|failure| format!("{name}: {failure}"))
    }

    /// [`Harness::start`] over `capabilities` (a script's, with the images
    /// held where the caller paints them).
    pub fn start_with(spec: WidgetSpec, capabilities: Capabilities) -> Result<Harness, Failure> {
        let mut engine = WidgetEngine::new(capabilities, ComponentCache::from_environment())
            .map_err(|error| Failure::Load(format!("{error:#}")))?;
        let (woken, wakes) = mpsc::channel();
        let waker = Waker::new(move || {
            let _ = woken.send(());
        });
        let (instance, schedule) = WidgetInstance::start(&mut engine, &spec, waker.clone())?;
        Ok(Harness { engine, instance, schedule, next_refresh: None, wakes: (waker, wakes) })
    }

    /// When the bar would refresh the widget, as its `init` asked.
    pub fn schedule(&self) -> Schedule {
        self.schedule
    }

    /// Refreshes the widget over the script's current readings.
    pub fn refresh(&mut self) -> Result<View, Failure> {
        let refreshed = self.instance.refresh(&self.engine)?;
        self.next_refresh = refreshed.next_refresh;
        Ok(refreshed.view)
    }

    /// When the last refresh asked for the next one, instead of its
    /// schedule (none: on its schedule).
    pub fn next_refresh(&self) -> Option<Duration> {
        self.next_refresh
    }

    /// Waits until a capability wakes the widget (an answer that came after
    /// its call returned, such as an HTTP response), as the bar would before
    /// refreshing it; false if none came within `timeout`.
    pub fn wait_for_wake(&self, timeout: Duration) -> bool {
        let (waker, wakes) = &self.wakes;
        let woken = wakes.recv_timeout(timeout).is_ok();
        if woken {
            waker.take();
        }
        woken
    }

    /// Refreshes, waits (up to `timeout`) for the wake that brings what the
    /// widget began waiting for (a fetch, a command's output), and
    /// refreshes again, as the bar does: that view, or none when no wake came.
    pub fn refresh_when_answered(&mut self, timeout: Duration) -> Result<Option<View>, Failure> {
        self.refresh()?;
        if !self.wait_for_wake(timeout) {
            return Ok(None);
        }
        self.refresh().map(Some)
    }

    /// Sends `input` to the item `key`, then refreshes, as the bar does.
    pub fn input(&mut self, key: &str, input: Input) -> Result<View, Failure> {
        self.input_at(key, input, Pointer::default())
    }

    /// Sends `input` to the item `key` with the pointer at `pointer`, then
    /// refreshes, as the bar does.
    pub fn input_at(&mut self, key: &str, input: Input, pointer: Pointer) -> Result<View, Failure> {
        self.instance.on_input(&self.engine, key, (input, pointer))?;
        self.refresh()
    }

    /// Sends `input` to the cell `cell` of the popup open beside item
    /// `key`, then refreshes, as the bar does (nothing reaches the widget
    /// when no such popup is open).
    pub fn popup_input(&mut self, key: &str, cell: &str, input: PopupInput) -> Result<View, Failure> {
        self.instance.on_popup_input(&self.engine, key, cell, input)?;
        self.refresh()
    }

    /// Closes the widget's popup as a click outside it does, then refreshes.
    pub fn close_popup(&mut self) -> Result<View, Failure> {
        self.instance.close_popup(&self.engine)?;
        self.refresh()
    }

    /// Asks the widget to read afresh, as `obi msg refresh` does, then refreshes.
    pub fn request_refresh(&mut self) -> Result<View, Failure> {
        self.instance.request_refresh(&self.engine)?;
        self.refresh()
    }
}

/// The JSON schema of its config a component gives (none: it gives none),
/// asked of an instance that is never initialised, as `obi --schema` asks.
pub fn config_schema(wasm: impl Into<PathBuf>) -> Result<Option<serde_json::Value>, String> {
    let spec = WidgetSpec::file(wasm.into(), "{}".into(), Capability::ALL);
    let script = Script::at(chrono::DateTime::UNIX_EPOCH);
    let mut engine = WidgetEngine::new(script.capabilities(), ComponentCache::from_environment())
        .map_err(|error| format!("{error:#}"))?;
    WidgetInstance::config_schema(&mut engine, &spec).map_err(|error| format!("{error:#}"))
}

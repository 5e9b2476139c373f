//! Runs one widget component headless, the way the bar runs it (same
//! engine, sandbox and capability links), but with capability readings the
//! test scripts: the time, CPU and memory use, the disks, the batteries,
//! the network interfaces, changed between refreshes to play readings over
//! time. No display, no bar: a widget author tests a component with
//! `cargo test`, and the stock widgets are tested this way.
//!
//! ```no_run
//! use obi_harness::{Harness, Script};
//!
//! let script = Script::at("2024-03-09T15:04:05Z".parse().unwrap());
//! script.set_cpu(91.0);
//! let mut cpu = Harness::stock("Cpu", r#"{ "enable": true, "auto_select_over": 90 }"#, &script).unwrap();
//! assert!(cpu.refresh().unwrap().items[0].is_selected());
//! script.set_cpu(12.0);
//! assert!(!cpu.refresh().unwrap().items[0].is_selected());
//! ```

pub use obi::capabilities::CommandOutput;
pub use obi::capabilities::scripted::Script;
pub use obi::capabilities::{
    Battery, Capability, ChargeState, Control, Disk, Interface, ItemStatus, MemoryUsage, MenuEntry, NowPlaying,
    Playback, TrayAction, TrayItem,
};
pub use obi::runtime::{Failure, Schedule};
pub use obi::spec::WidgetSpec;
pub use obi::tiler;
pub use obi::tiler::KeyboardLayout;
pub use obi::view::{BinaryClock, Emphasis, Image, Input, Inputs, Item, Piece, ScrollDirection, View};

use obi::runtime::{ComponentCache, WidgetEngine, WidgetInstance};
use obi::sync::lock;
use obi::wake::Waker;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// The spec of a component on disk: named after its file, granted what
/// every widget may use and `grants`, with the default limits.
pub fn plugin_spec(path: PathBuf, config_json: String, grants: impl IntoIterator<Item = Capability>) -> WidgetSpec {
    WidgetSpec::file(path, config_json, grants)
}

/// One running widget instance over a [`Script`].
pub struct Harness {
    engine: WidgetEngine,
    instance: WidgetInstance,
    schedule: Schedule,
    next_refresh: Option<Duration>,
    wakes: Receiver<()>,
}

impl Harness {
    /// A stock widget by its config key (`"Cpu"`), with its config object
    /// as JSON and the capabilities its kind is granted in the bar.
    pub fn stock(kind: &str, config_json: &str, script: &Script) -> Result<Harness, String> {
        Harness::start(obi::spec::WidgetSpec::stock(kind, config_json.into())?, script)
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
        let spec = obi::spec::WidgetSpec::file(wasm.into(), config_json.into(), grants.iter().copied());
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
        let mut spec = obi::spec::WidgetSpec::file(wasm.into(), config_json.into(), [Capability::Commands]);
        spec.commands = commands.iter().map(|(id, line)| (id.to_string(), line.to_string())).collect();
        Harness::start(spec, script)
    }

    /// A widget as the runtime's spec describes it: source, config, grants,
    /// declared commands and limits.
    pub fn start(spec: WidgetSpec, script: &Script) -> Result<Harness, String> {
        let mut engine = WidgetEngine::new(script.capabilities(), ComponentCache::from_environment())
            .map_err(|error| format!("{error:#}"))?;
        let (woken, wakes) = mpsc::channel();
        let waker = Waker::new(move || {
            let _ = woken.send(());
        });
        let (instance, schedule) =
            WidgetInstance::start(&mut engine, &spec, waker).map_err(|failure| format!("{}: {failure}", spec.name))?;
        Ok(Harness { engine, instance, schedule, next_refresh: None, wakes })
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
        self.wakes.recv_timeout(timeout).is_ok()
    }

    /// Sends `input` to the item `key`, then refreshes, as the bar does.
    pub fn input(&mut self, key: &str, input: Input) -> Result<View, Failure> {
        self.instance.on_input(&self.engine, key, input)?;
        self.refresh()
    }
}

/// The JSON schema of its config a component gives (none: it gives none),
/// asked of an instance that is never initialised, as `obi --schema` asks.
pub fn config_schema(wasm: impl Into<PathBuf>) -> Result<Option<serde_json::Value>, String> {
    let spec = obi::spec::WidgetSpec::file(wasm.into(), "{}".into(), Capability::ALL);
    let script = Script::at(chrono::DateTime::UNIX_EPOCH);
    let mut engine = WidgetEngine::new(script.capabilities(), ComponentCache::from_environment())
        .map_err(|error| format!("{error:#}"))?;
    WidgetInstance::config_schema(&mut engine, &spec)
}

/// Builds the widget crate whose tests call it, for wasm32-wasip2 in
/// release mode, and gives the path of its component:
/// `Harness::plugin(obi_harness::this_widget!(), "{}", &[], &script)`.
#[macro_export]
macro_rules! this_widget {
    () => {
        $crate::build_widget(env!("CARGO_MANIFEST_DIR"), env!("CARGO_PKG_NAME"))
    };
}

/// Builds the widget crate `package` at `manifest_dir` once per test
/// process (see [`this_widget!`]), panicking with cargo's reason when it
/// does not build.
pub fn build_widget(manifest_dir: &str, package: &str) -> PathBuf {
    static BUILT: std::sync::Mutex<Vec<(String, PathBuf)>> = std::sync::Mutex::new(Vec::new());
    let mut built = lock(&BUILT);
    if let Some((_, wasm)) = built.iter().find(|(name, _)| name == package) {
        return wasm.clone();
    }
    let wasm = obi_build_support::build_widget_crate(std::path::Path::new(manifest_dir), package)
        .unwrap_or_else(|error| panic!("{error}"));
    built.push((package.to_owned(), wasm.clone()));
    wasm
}

/// Whether the first item of `view` shows an icon.
pub fn has_icon(view: &View) -> bool {
    view.items.first().is_some_and(|item| item.pieces.iter().any(|piece| matches!(piece, Piece::Icon(_))))
}

/// The text pieces of a view, item by item, each item's texts joined.
pub fn texts(view: &View) -> Vec<String> {
    view.items
        .iter()
        .map(|item| {
            item.pieces
                .iter()
                .filter_map(|piece| match piece {
                    Piece::Text(text) => Some(text.as_str()),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

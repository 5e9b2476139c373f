//! The one wasmtime engine of the process, the compiled component of each
//! widget kind, and the pre-linked instance template (`InstancePre`) that
//! every instance of that kind is made from.
//!
//! Linking is where grants are enforced: a kind's linker holds WASI (with no
//! files, network or environment) and only the `obi:widget` interfaces the
//! config grants it. Before linking, the component's imports are checked
//! ([`super::grants`]) so that a missing grant or a plugin built for a
//! release this host does not serve is reported by name instead of as a
//! bare link error; they also tell which release's exports the component
//! has. A script is run by the JS runtime component ([`super::script`]).

use super::cache::{ComponentCache, wasm_digest};
use super::grants::check_imports;
use super::script;
use super::store::StoreState;
use super::watchdog::Watchdog;
use super::wit::{self, Template};
use crate::capabilities::{Capabilities, Capability};
use crate::spec::{SourceId, WidgetSource, WidgetSpec};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use wasmtime::component::{Component, Linker};
use wasmtime::error::Context;
use wasmtime::{Config, Engine};
use wasmtime::{Result, bail, format_err};

pub struct WidgetEngine {
    engine: Engine,
    watchdog: Watchdog,
    cache: ComponentCache,
    capabilities: Capabilities,
    templates: HashMap<(SourceId, BTreeSet<Capability>), Template>,
    /// The runtime of widgets in JS, compiled on first use.
    js_runtime: Option<Component>,
}

impl WidgetEngine {
    pub fn new(capabilities: Capabilities, cache: ComponentCache) -> Result<WidgetEngine> {
        let mut config = Config::new();
        config.wasm_component_model(true).epoch_interruption(true);
        let engine = Engine::new(&config).context("creating the wasm engine")?;
        let watchdog = Watchdog::new(engine.clone());
        Ok(WidgetEngine { engine, watchdog, cache, capabilities, templates: HashMap::new(), js_runtime: None })
    }

    pub fn capabilities(&self) -> &Capabilities {
        &self.capabilities
    }

    pub(super) fn engine(&self) -> &Engine {
        &self.engine
    }

    pub(super) fn watchdog(&self) -> &Watchdog {
        &self.watchdog
    }

    /// Drops what was compiled from the component at `path`: the next
    /// instance of it is compiled from the file as it is now.
    pub fn forget(&mut self, path: &Path) {
        self.templates.retain(|(source, _), _| *source != SourceId::File(path.to_path_buf()));
    }

    /// The instance template for `spec`'s kind and grants, compiled and linked
    /// on first use.
    pub(super) fn template(&mut self, spec: &WidgetSpec) -> Result<Template> {
        let key = (spec.source.id(), spec.grants.clone());
        if let Some(template) = self.templates.get(&key) {
            return Ok(template.clone());
        }
        let _loading = tracing::debug_span!("loading a widget's component", widget = %spec.name).entered();
        let template = match &spec.source {
            WidgetSource::File(path) if script::is_script(path) => self.script_template(spec, path),
            source => self.component_template(spec, source),
        }?;
        self.templates.insert(key, template.clone());
        Ok(template)
    }

    fn component_template(&self, spec: &WidgetSpec, source: &WidgetSource) -> Result<Template> {
        let component = self.compile(source).with_context(|| format!("loading widget `{}`", spec.name))?;
        let release = check_imports(&self.engine, &component, &spec.name, &spec.grants)?;
        let linker = self.linker(&spec.grants)?;
        let linked = linker.instantiate_pre(&component).with_context(|| format!("linking widget `{}`", spec.name))?;
        Template::new(release, linked)
            .with_context(|| format!("widget `{}` built against obi:widget@{}", spec.name, release.version()))
    }

    /// The JS runtime linked with the widget's grants (the interfaces it
    /// is not granted trap), to run the script at `path`.
    fn script_template(&mut self, spec: &WidgetSpec, path: &Path) -> Result<Template> {
        let runtime = self.js_runtime()?;
        let script =
            script::read(&self.engine, &runtime, path, &spec.name, &spec.grants).map_err(|why| format_err!("{why}"))?;
        let mut linker = self.linker(&spec.grants)?;
        script::link_refused(&mut linker, &self.engine, &runtime, &script)?;
        let linked = linker.instantiate_pre(&runtime).context("linking the JS runtime")?;
        Template::with_script(linked, script).context("the JS runtime")
    }

    fn js_runtime(&mut self) -> Result<Component> {
        if let Some(runtime) = &self.js_runtime {
            return Ok(runtime.clone());
        }
        let Some(stock) = &crate::stock::JS_RUNTIME else {
            bail!("this obi was built without its JavaScript runtime (the `stock-widgets` feature)");
        };
        let runtime = self.cache.load(&self.engine, stock.wasm, &stock.digest).context("compiling the JS runtime")?;
        self.js_runtime = Some(runtime.clone());
        Ok(runtime)
    }

    fn compile(&self, source: &WidgetSource) -> Result<Component> {
        match source {
            WidgetSource::Embedded(stock) => self.cache.load(&self.engine, stock.wasm, &stock.digest),
            WidgetSource::File(path) => {
                let wasm = crate::files::read_code(path, COMPONENT_FILE_BYTES)
                    .map_err(|why| format_err!("reading {}: {why}", path.display()))?;
                let digest = wasm_digest(&wasm);
                self.cache.load(&self.engine, &wasm, &digest).with_context(|| format!("compiling {}", path.display()))
            }
        }
    }

    fn linker(&self, grants: &BTreeSet<Capability>) -> Result<Linker<StoreState>> {
        let mut linker = Linker::new(&self.engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
        wit::add_imports(&mut linker, grants)?;
        Ok(linker)
    }
}

/// A widget's component file larger than this is not read (the stock
/// widgets are under 300 KiB).
const COMPONENT_FILE_BYTES: u64 = 64 << 20;

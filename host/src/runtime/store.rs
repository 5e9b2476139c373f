//! The host's state inside a widget's store: what the widget's imports
//! reach (its name, the bar's capabilities, its waker, its declared
//! commands, the errands it has running, the commands it keeps running,
//! its status programs and its use of the hold on idling), its WASI
//! context with no files, network or environment, and the limits it runs
//! under.

use super::limiter::{self, StoreLimiter};
use super::stderr::WidgetStderr;
use crate::capabilities::StatusSource;
use crate::capabilities::errands::Errands;
use crate::capabilities::followed::Following;
use crate::capabilities::web::Fetches;
use crate::capabilities::{Capabilities, CommandOutput, IdleUser};
use crate::spec::WidgetSpec;
use crate::wake::Waker;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;
use wasmtime::ResourceLimiter;
use wasmtime::component::ResourceTable;
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

/// The host state inside a widget's store.
pub struct StoreState {
    pub(super) name: String,
    pub(super) capabilities: Capabilities,
    /// Brings this widget an answer that came in after its call returned.
    pub(super) waker: Waker,
    pub(super) fetches: Fetches,
    /// The command lines the user declared for the widget, by id.
    pub(super) commands: BTreeMap<String, String>,
    /// How long each kept running waits before it starts again, by id,
    /// where the user said.
    pub(super) restart_waits: BTreeMap<String, Duration>,
    pub(super) runs: Errands<CommandOutput>,
    /// The declared commands kept running for their lines, by id: stopped
    /// when the store, and with it the widget, goes.
    pub(super) followed: HashMap<String, Box<dyn Following>>,
    /// The declared commands run as status programs, by id, stopped as
    /// `followed` are.
    pub(super) status_programs: HashMap<String, Arc<dyn StatusSource>>,
    wasi: WasiCtx,
    table: ResourceTable,
    limiter: StoreLimiter,
    /// The widget's stderr: a Rust guest writes its panic message there
    /// before trapping, and that message is the best explanation of the trap.
    stderr: WidgetStderr,
    /// The widget's use of the process's hold on idling, from its first
    /// look at it: the hold is let go when the last widget using it goes.
    idle_user: Option<IdleUser>,
}

impl WasiView for StoreState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
    }
}

impl StoreState {
    pub(super) fn new(spec: &WidgetSpec, capabilities: Capabilities, waker: Waker) -> StoreState {
        let stderr = WidgetStderr::new(&spec.name);
        StoreState {
            name: spec.name.clone(),
            capabilities,
            waker,
            fetches: Fetches::default(),
            commands: spec.commands.clone(),
            restart_waits: spec.restart_waits.clone(),
            runs: Errands::default(),
            followed: HashMap::new(),
            status_programs: HashMap::new(),
            wasi: WasiCtx::builder().stderr(stderr.clone()).build(),
            stderr,
            table: bounded_table(),
            limiter: StoreLimiter::new(spec.limits.memory_bytes),
            idle_user: None,
        }
    }

    /// Counts the widget among those using the hold on idling.
    pub(super) fn use_idle_hold(&mut self) {
        let inhibition = &self.capabilities.idle_inhibit;
        self.idle_user.get_or_insert_with(|| inhibition.user());
    }

    pub(super) fn limiter(&mut self) -> &mut dyn ResourceLimiter {
        &mut self.limiter
    }

    /// The memory the widget asked for past its cap, if it did.
    pub(super) fn refused_memory(&self) -> Option<usize> {
        self.limiter.refused
    }

    /// The end of what the widget wrote to its stderr.
    pub(super) fn stderr_tail(&self) -> Vec<u8> {
        self.stderr.tail()
    }
}

/// The widget's table of host resources, as many as [`limiter::RESOURCES`].
fn bounded_table() -> ResourceTable {
    let mut table = ResourceTable::new();
    table.set_max_capacity(limiter::RESOURCES);
    table
}

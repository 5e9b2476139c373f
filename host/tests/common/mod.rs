//! Helpers shared by the host's integration tests that use `obi` itself;
//! what every crate's tests share is `obi-test-support`.
#![allow(dead_code)]

pub mod logs;
pub mod offscreen;
pub mod tiler;

use obi::capabilities::{Capabilities, Capability};
use obi::runtime::{ComponentCache, WidgetEngine};
use obi::spec::WidgetSpec;
use obi::view::{Piece, WidgetState};
use obi_test_support::{skip, workspace};
use std::path::{Path, PathBuf};

pub fn faulty_wasm() -> PathBuf {
    obi_build_support::build_components(&workspace(), &["obi-test-widget-faulty"]).unwrap().remove(0)
}

/// An engine over `capabilities`, sharing one compiled-component cache across test runs.
pub fn engine_with(capabilities: Capabilities) -> WidgetEngine {
    let cache = ComponentCache::at(workspace().join("target/obi-test-cache"));
    WidgetEngine::new(capabilities, cache).unwrap()
}

pub fn engine() -> WidgetEngine {
    engine_with(
        Capabilities::system(
            std::sync::Arc::new(obi::tiler::Connection::none("no tiler in this test")),
            Default::default(),
        )
        .unwrap(),
    )
}

/// A stock widget granted exactly `grants`, not what its kind is usually given.
pub fn stock(kind: &str, config: &str, grants: &[Capability]) -> WidgetSpec {
    let mut spec = obi::spec::WidgetSpec::stock(kind, config.into()).unwrap();
    spec.grants = grants.iter().copied().collect();
    spec
}

/// The text pieces of a ready widget, concatenated; other states as debug text.
pub fn texts(state: &WidgetState) -> String {
    match state {
        WidgetState::Ready(view) => view
            .items
            .iter()
            .flat_map(|item| &item.pieces)
            .filter_map(|piece| match piece {
                Piece::Text(text) => Some(text.as_str()),
                _ => None,
            })
            .collect(),
        other => format!("{other:?}"),
    }
}

/// Every state each widget of `specs` showed while a scheduler ran them
/// for `time`, by widget.
pub fn states_over(specs: Vec<WidgetSpec>, time: std::time::Duration) -> Vec<Vec<WidgetState>> {
    let mut history: Vec<Vec<WidgetState>> = vec![Vec::new(); specs.len()];
    let (sender, receiver) = std::sync::mpsc::channel();
    let scheduler = obi::scheduler::Scheduler::spawn(engine(), specs, move |_generation, index, state| {
        let _ = sender.send((index, state));
    });
    let until = std::time::Instant::now() + time;
    while let Ok((index, state)) = receiver.recv_timeout(until.saturating_duration_since(std::time::Instant::now())) {
        history[index].push(state);
    }
    drop(scheduler);
    history
}

/// The messages of the failed states among `states`.
pub fn failures(states: &[WidgetState]) -> Vec<&str> {
    states
        .iter()
        .filter_map(|state| match state {
            WidgetState::Failed { message } => Some(message.as_str()),
            _ => None,
        })
        .collect()
}

/// komorebi-bar's schemas in `../shared/reference`: for Windows and macOS.
pub const KOMOREBI_BAR_SCHEMAS: [&str; 2] = ["komorebi-bar.schema.json", "komorebi-bar.macos.schema.json"];

/// The widget kinds komorebi-bar's schema `file` (one of
/// [`KOMOREBI_BAR_SCHEMAS`]) lists, from `shared`'s reference files.
pub fn schema_widget_kinds(shared: &Path, file: &str) -> Vec<String> {
    let text = std::fs::read_to_string(shared.join("reference").join(file)).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    let variants = schema["$defs"]["WidgetConfig"]["oneOf"].as_array().unwrap_or_else(|| panic!("{file}"));
    variants.iter().filter_map(|variant| variant["required"][0].as_str()).map(str::to_owned).collect()
}

/// `../shared` beside the checkout (reference files and the corpus of real
/// configs, which belong to others and are not in this repository). Says
/// loudly when it is absent, and fails instead when `CI` is set.
pub fn shared() -> Option<PathBuf> {
    let shared = workspace().join("../shared");
    if shared.join("corpus").is_dir() && shared.join("reference").is_dir() {
        return Some(shared);
    }
    skip::unavailable(&format!(
        "{} is missing: the reference files and real configs cannot be checked",
        shared.display()
    ));
    None
}

//! Every real user's `komorebi.bar.json` in `../shared/corpus/`, and the
//! example komorebi ships, loads without error.
//!
//! These files belong to others, so they are not in this repository: the
//! test reads them from `../shared` beside the checkout, says loudly when it
//! is absent, and fails instead of skipping when `CI` is set.

mod common;

use common::shared;
use obi::config::BarConfig;
use std::path::{Path, PathBuf};

fn corpus_files(shared: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(shared.join("corpus"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "json"))
        .collect();
    files.sort();
    files.push(shared.join("reference/komorebi.bar.example.json"));
    files
}

#[test]
fn every_real_config_loads() {
    let Some(shared) = shared() else { return };
    let files = corpus_files(&shared);
    assert!(files.len() > 70, "the corpus is there: {} files", files.len());
    let mut failures = Vec::new();
    for file in &files {
        if let Err(diagnostics) = BarConfig::load(file) {
            failures.extend(diagnostics.iter().map(ToString::to_string));
        }
    }
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
}

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

/// Writes `value` the way the model does: old names replaced by the current
/// ones, nulls and the properties warned about as unknown left out.
fn canonical(value: &serde_json::Value, path: &str, unknown: &[String]) -> Option<serde_json::Value> {
    use obi::config::aliases::{canonical_key, canonical_value, join};
    use serde_json::Value;
    if value.is_null() || unknown.iter().any(|ignored| ignored == path) {
        return None;
    }
    Some(match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter_map(|(key, child)| {
                    let child = canonical(child, &join(path, key), unknown)?;
                    Some((canonical_key(path, key).to_owned(), child))
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .enumerate()
                .filter_map(|(index, item)| canonical(item, &format!("{path}[{index}]"), unknown))
                .collect(),
        ),
        Value::String(text) => Value::String(canonical_value(text).to_owned()),
        other => other.clone(),
    })
}

/// Whether everything in `written` is in `read` with the same value
/// (numbers compared as the model's f32).
fn contains(read: &serde_json::Value, written: &serde_json::Value, path: &str, lost: &mut Vec<String>) {
    use serde_json::Value;
    match (written, read) {
        (Value::Object(expected), Value::Object(found)) => {
            for (key, value) in expected {
                match found.get(key) {
                    Some(found) => contains(found, value, &format!("{path}.{key}"), lost),
                    None => lost.push(format!("{path}.{key} is missing")),
                }
            }
        }
        (Value::Array(expected), Value::Array(found)) if expected.len() == found.len() => {
            for (index, (value, found)) in expected.iter().zip(found).enumerate() {
                contains(found, value, &format!("{path}[{index}]"), lost);
            }
        }
        (Value::Number(expected), Value::Number(found)) => {
            if expected.as_f64().map(|n| n as f32) != found.as_f64().map(|n| n as f32) {
                lost.push(format!("{path}: {expected} became {found}"));
            }
        }
        (expected, found) if expected == found => {}
        (expected, found) => lost.push(format!("{path}: {expected} became {found}")),
    }
}

#[test]
fn every_real_config_round_trips_without_losing_a_property() {
    let Some(shared) = shared() else { return };
    let mut problems = Vec::new();
    for file in corpus_files(&shared) {
        let text = std::fs::read_to_string(&file).unwrap();
        let loaded =
            BarConfig::parse(&text, "corpus").unwrap_or_else(|errors| panic!("{}: {errors:?}", file.display()));
        let unknown: Vec<String> = loaded
            .warnings
            .iter()
            .filter(|warning| warning.message.contains("unknown property"))
            .map(|warning| warning.path.clone())
            .collect();
        let written = canonical(&obi::config::parse_lenient(&text).unwrap(), "", &unknown).unwrap();
        let model = serde_json::to_value(&loaded.config.model).unwrap();
        let mut lost = Vec::new();
        contains(&model, &written, "", &mut lost);
        problems.extend(lost.into_iter().map(|problem| format!("{}: {problem}", file.display())));

        // What the model writes reads back as the same model.
        let again = BarConfig::parse(&serde_json::to_string(&model).unwrap(), "round trip").unwrap();
        assert_eq!(again.config.model, loaded.config.model, "{}", file.display());
    }
    assert!(problems.is_empty(), "{} properties lost:\n{}", problems.len(), problems.join("\n"));
}

/// What the bar sends each widget of a real config is what its component
/// reads: every enabled stock widget of every file starts, its `init`
/// refusing nothing.
#[test]
fn every_widget_of_every_real_config_accepts_its_config() {
    use obi::runtime::{Failure, WidgetInstance};
    let Some(shared) = shared() else { return };
    let mut engine = common::engine();
    let mut refused = Vec::new();
    for file in corpus_files(&shared) {
        let config = BarConfig::load(&file).unwrap().config;
        for entry in config.widgets().filter(|entry| entry.config.kind() != "Plugin") {
            let spec = obi::spec::WidgetSpec::from_entry(&entry, &config).unwrap();
            let waker = obi::wake::Waker::new(|| {});
            if let Err(Failure::Config(why)) = WidgetInstance::start(&mut engine, &spec, waker) {
                refused.push(format!("{}: {}: {why}", file.display(), spec.name));
            }
        }
    }
    assert!(refused.is_empty(), "{} refused:\n{}", refused.len(), refused.join("\n"));
}

//! Reading what comes in: the largest real config of `../shared/corpus/`
//! (komorebi-bar's reader, the model, the checks), and a komorebi
//! notification carrying a large state (three monitors of ten workspaces of
//! six two-window stacks), as the tiler client reads each one.

use criterion::{Criterion, criterion_group, criterion_main};
use obi::config::BarConfig;
use obi_test_support::komorebi_simulator::{state, window, workspace};
use serde_json::json;
use std::hint::black_box;
use std::path::PathBuf;

/// The largest file of the corpus, when `../shared` is beside the checkout.
fn largest_corpus_file() -> Option<(PathBuf, String)> {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let largest = std::fs::read_dir(&corpus)
        .ok()?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|extension| extension == "json"))
        .max_by_key(|path| std::fs::metadata(path).map_or(0, |metadata| metadata.len()))?;
    let text = std::fs::read_to_string(&largest).ok()?;
    Some((largest, text))
}

fn large_notification() -> String {
    let stacks: Vec<Vec<serde_json::Value>> = (0..6)
        .map(|stack| {
            vec![window(&format!("editor {stack} — a long window title"), "code.exe"), window("terminal", "wt.exe")]
        })
        .collect();
    let stacks: Vec<&[serde_json::Value]> = stacks.iter().map(Vec::as_slice).collect();
    let workspaces = (0..10).map(|index| workspace(Some(&format!("ws{index}")), &stacks, 0, "BSP")).collect();
    let mut state = state(workspaces, 0);
    let monitor = state["monitors"]["elements"][0].clone();
    state["monitors"]["elements"] = json!([monitor.clone(), monitor.clone(), monitor]);
    json!({ "event": { "type": "FocusWorkspaceNumber", "content": 1 }, "state": state }).to_string()
}

fn benches(c: &mut Criterion) {
    match largest_corpus_file() {
        Some((path, text)) => {
            let name = format!("config: {} ({} bytes)", path.file_name().unwrap().to_string_lossy(), text.len());
            c.bench_function(&name, |b| b.iter(|| BarConfig::parse(black_box(&text), "bench").unwrap()));
        }
        None => eprintln!("\n!!! ../shared/corpus is missing: the config benchmark is not run !!!\n"),
    }
    let notification = large_notification();
    let name =
        format!("komorebi notification: 3 monitors x 10 workspaces x 6 stacks ({} KiB)", notification.len() >> 10);
    c.bench_function(&name, |b| {
        b.iter(|| obi::tiler::komorebi::read_notification(black_box(&notification), Some(0)).unwrap())
    });
}

criterion_group!(parse, benches);
criterion_main!(parse);

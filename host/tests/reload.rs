//! A third-party widget's component saved anew (a plugin author's
//! `cargo build`) is picked up by the running bar: that widget starts again
//! from the new file, a broken file is reported and waits for the next
//! save, and the widget beside it runs on undisturbed.

mod common;

use common::{engine, faulty_wasm, texts};
use obi::scheduler::Scheduler;
use obi::view::WidgetState;
use obi_test_support::workspace;
use std::path::Path;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// Replaces `path` as a build does: a new file renamed over the old one.
fn save(path: &Path, bytes: &[u8]) {
    let fresh = path.with_extension("new");
    std::fs::write(&fresh, bytes).unwrap();
    std::fs::rename(&fresh, path).unwrap();
}

/// Waits for widget `widget` to show a state that `wanted` accepts; every
/// state shown meanwhile, by widget.
fn wait_until(
    states: &Receiver<(usize, WidgetState)>,
    widget: usize,
    wanted: impl Fn(&WidgetState) -> bool,
) -> (WidgetState, Vec<(usize, String)>) {
    let until = Instant::now() + Duration::from_secs(15);
    let mut seen = Vec::new();
    while let Ok((index, state)) = states.recv_timeout(until.saturating_duration_since(Instant::now())) {
        seen.push((index, texts(&state)));
        if index == widget && wanted(&state) {
            return (state, seen);
        }
    }
    panic!("widget {widget} never showed the state wanted; it showed {seen:?}");
}

#[test]
fn a_saved_component_reloads_its_widget_alone() {
    let dir = tempfile::tempdir().unwrap();
    let faulty = std::fs::read(faulty_wasm()).unwrap();
    let legacy = obi_build_support::build_components(&workspace(), &["obi-test-widget-legacy"]).unwrap().remove(0);
    let (changing, steady) = (dir.path().join("changing.wasm"), dir.path().join("steady.wasm"));
    std::fs::write(&changing, &faulty).unwrap();
    std::fs::write(&steady, &faulty).unwrap();
    let config = r#"{ "fault": "Never", "interval_ms": 150 }"#;
    let specs = vec![
        obi::spec::WidgetSpec::file(changing.clone(), config.into(), []),
        obi::spec::WidgetSpec::file(steady.clone(), config.into(), []),
    ];
    let (sender, states) = mpsc::channel();
    let _scheduler = Scheduler::spawn(engine(), specs, move |_generation, index, state| {
        let _ = sender.send((index, state));
    });
    wait_until(&states, 0, |state| texts(state) == "refresh 3");

    save(&changing, &std::fs::read(&legacy).unwrap());
    let (_, seen) = wait_until(&states, 0, |state| texts(state) == "clicks: 0");
    let steady_counts: Vec<u32> = seen
        .iter()
        .filter(|(index, _)| *index == 1)
        .map(|(_, text)| text.trim_start_matches("refresh ").parse().unwrap())
        .collect();
    assert!(steady_counts.windows(2).all(|pair| pair[1] == pair[0] + 1), "the other widget ran on: {steady_counts:?}");

    save(&changing, b"not a component");
    let (broken, _) = wait_until(&states, 0, |state| matches!(state, WidgetState::Failed { .. }));
    let WidgetState::Failed { message } = broken else { unreachable!() };
    assert!(message.contains("changing") && message.contains("changing.wasm"), "{message}");

    save(&changing, &faulty);
    wait_until(&states, 0, |state| texts(state) == "refresh 1");
}

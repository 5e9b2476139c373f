//! A third-party component run through the harness: input reaches it, and
//! its faults come back as the bar would report them.

use obi_harness::{Failure, Harness, Input, Script, ScrollDirection, texts};
use std::path::{Path, PathBuf};

fn faulty_wasm() -> PathBuf {
    let workspace = obi_build_support::workspace_root(Path::new(env!("CARGO_MANIFEST_DIR")));
    obi_build_support::build_components(&workspace, &["obi-test-widget-faulty"]).unwrap().remove(0)
}

fn script() -> Script {
    Script::at("2024-03-09T15:04:05Z".parse().unwrap())
}

#[test]
fn input_reaches_the_item_and_the_widget_refreshes() {
    let mut widget = Harness::plugin(faulty_wasm(), r#"{ "fault": "Never" }"#, &[], &script()).unwrap();
    assert_eq!(texts(&widget.refresh().unwrap()), ["refresh 1"]);
    let view = widget.input("faulty", Input::Scroll(ScrollDirection::Up)).unwrap();
    assert_eq!(texts(&view), ["faulty: Input::Scroll(ScrollDirection::Up)"]);
}

#[test]
fn a_trap_is_a_failure_naming_its_cause() {
    let mut widget = Harness::plugin(faulty_wasm(), r#"{ "fault": "Trap", "at_refresh": 2 }"#, &[], &script()).unwrap();
    assert!(widget.refresh().is_ok());
    match widget.refresh() {
        Err(Failure::Trap(message)) => assert!(message.contains("faulty widget traps on refresh 2"), "{message}"),
        other => panic!("expected a trap, got {other:?}"),
    }
}

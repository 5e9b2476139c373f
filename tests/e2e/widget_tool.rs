//! The tools for widget authors: `obi widget test` runs a widget over a
//! script and prints its views (or paints them), failing on a trap or a
//! bad view, and plays a sound server or a command kept running to it;
//! `obi widget new` makes a crate whose own `cargo test` builds it and runs
//! it in the harness (without the bar's window or the stock widgets), and
//! whose component the bar then shows.

use crate::support::{Frame, have_tools, obi, run, workspace};
use std::path::{Path, PathBuf};
use std::process::Command;

fn pomodoro() -> PathBuf {
    let manifest = workspace().join("examples/plugins/pomodoro");
    obi_build_support::build_widget_crate(&manifest, "obi-example-pomodoro").unwrap()
}

fn faulty() -> PathBuf {
    obi_build_support::build_components(&workspace(), &["obi-test-widget-faulty"]).unwrap().remove(0)
}

fn script(dir: &Path, json: &str) -> PathBuf {
    let path = dir.join("script.json");
    std::fs::write(&path, json).unwrap();
    path
}

const POMODORO_SCRIPT: &str = r#"{ "config": { "work_minutes": 1, "break_minutes": 1 }, "now": "2024-03-09T15:04:05Z",
    "steps": [ "refresh", { "input": { "key": "pomodoro", "event": "primary_click" } }, { "advance": 61.5 }, "refresh" ] }"#;

#[test]
fn widget_test_prints_each_view_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let output =
        run(obi().args(["widget", "test"]).arg(pomodoro()).arg("--script").arg(script(dir.path(), POMODORO_SCRIPT)));
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&output.stdout).lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let shown: Vec<(u64, &str, &str)> = lines
        .iter()
        .map(|line| {
            let item = &line["view"]["items"][0];
            (
                line["step"].as_u64().unwrap(),
                item["pieces"][0]["text"].as_str().unwrap(),
                item["emphasis"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(shown, [(0, "01:00", "muted"), (1, "01:00", "normal"), (3, "00:59", "urgent")]);
}

/// A script can play a sound server to a widget granted `audio` (and
/// `audio-streams`, which the stock Volume component reads too): it shows
/// the default output's level.
#[test]
fn widget_test_plays_a_sound_server() {
    let dir = tempfile::tempdir().unwrap();
    let volume = obi_build_support::build_components(&workspace(), &["obi-widget-volume"]).unwrap().remove(0);
    let json = r#"{ "config": { "enable": true }, "grants": ["audio", "audio-streams"], "steps": [
        { "audio": [ { "name": "a", "description": "Speakers", "volume_percent": 37, "muted": false, "is_default": true } ] },
        "refresh", { "audio": null }, "refresh" ] }"#;
    let output = run(obi().args(["widget", "test"]).arg(volume).arg("--script").arg(script(dir.path(), json)));
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&output.stdout).lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(lines[0]["view"]["items"][0]["pieces"][1]["text"], "37%", "{lines:?}");
    assert_eq!(lines[1]["view"]["items"], serde_json::json!([]), "no sound server, nothing shown");
}

/// A script can say what a command kept running printed: the stock Custom
/// component, without an interval, shows its last line.
#[test]
fn widget_test_plays_a_command_kept_running() {
    let dir = tempfile::tempdir().unwrap();
    let custom = obi_build_support::build_components(&workspace(), &["obi-widget-custom"]).unwrap().remove(0);
    let json = r#"{ "config": { "enable": true, "exec": "watch-mail" }, "commands": { "exec": "watch-mail" },
        "steps": [ "refresh", { "followed": { "command": "watch-mail", "last_line": "3 new" } }, "refresh" ] }"#;
    let output = run(obi().args(["widget", "test"]).arg(custom).arg("--script").arg(script(dir.path(), json)));
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&output.stdout).lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(lines[0]["view"]["items"], serde_json::json!([]), "nothing before its first line");
    assert_eq!(lines[1]["view"]["items"][0]["pieces"][0]["text"], "3 new", "{lines:?}");
}

#[test]
fn widget_test_fails_on_a_trap_or_a_bad_view_naming_the_step() {
    let dir = tempfile::tempdir().unwrap();
    for (fault, said) in [("Trap", "faulty widget traps on refresh 2"), ("BadView", "returned a bad view")] {
        let json = format!(
            r#"{{ "config": {{ "fault": "{fault}", "at_refresh": 2 }}, "steps": [ "refresh", "refresh", "refresh" ] }}"#
        );
        let output = run(obi().args(["widget", "test"]).arg(faulty()).arg("--script").arg(script(dir.path(), &json)));
        assert!(!output.status.success(), "{fault} must fail the run");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("step 1: widget `obi_test_widget_faulty`") && stderr.contains(said), "{stderr}");
        assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), 1, "the view before the fault is printed");
    }
    let output = run(obi()
        .args(["widget", "test"])
        .arg(faulty())
        .arg("--script")
        .arg(script(dir.path(), r#"{ "steps": [ "fly" ] }"#)));
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown variant `fly`"), "{output:?}");
}

#[test]
fn widget_test_paints_each_view_with_the_bars_painter() {
    let dir = tempfile::tempdir().unwrap();
    let pngs = dir.path().join("views");
    let output = run(obi()
        .args(["widget", "test"])
        .arg(pomodoro())
        .arg("--script")
        .arg(script(dir.path(), POMODORO_SCRIPT))
        .arg("--png")
        .arg(&pngs)
        .args(["--width", "300"]));
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let paused = Frame::read(&pngs.join("step-0.png"));
    let urgent = Frame::read(&pngs.join("step-3.png"));
    assert_eq!(paused.width, 300);
    // The urgent item sits on the theme's urgent fill; the paused one on the bar.
    assert_ne!(paused.pixel(12, paused.height / 2), urgent.pixel(12, urgent.height / 2));
}

#[test]
fn a_new_widget_builds_tests_and_shows_in_the_bar() {
    if !have_tools("new widget test", &["tesseract", "convert"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let crate_dir = dir.path().join("hello-widget");
    let output = run(obi().args(["widget", "new", "hello-widget", "--path"]).arg(&crate_dir));
    assert!(output.status.success(), "{output:?}");
    // The versions this workspace is tested with, and its build directory.
    std::fs::copy(workspace().join("Cargo.lock"), crate_dir.join("Cargo.lock")).unwrap();
    let target = workspace().join("target");
    let tested = run(Command::new(env!("CARGO")).arg("test").current_dir(&crate_dir).env("CARGO_TARGET_DIR", &target));
    assert!(tested.status.success(), "cargo test in the new crate: {}", String::from_utf8_lossy(&tested.stderr));
    assert!(String::from_utf8_lossy(&tested.stdout).contains("it_says_hello_and_counts_clicks ... ok"));
    let tree =
        run(Command::new(env!("CARGO")).args(["tree", "-e", "normal,dev", "--prefix", "none"]).current_dir(&crate_dir));
    let tree = String::from_utf8_lossy(&tree.stdout);
    for heavy in ["winit ", "glutin ", "femtovg "] {
        assert!(!tree.lines().any(|line| line.starts_with(heavy)), "the harness pulls in {heavy}");
    }

    let wasm = target.join("wasm/wasm32-wasip2/release/hello_widget.wasm");
    let config = dir.path().join("komorebi.bar.json");
    let entry = serde_json::json!({ "height": 40, "font_size": 18, "right_widgets": [],
        "left_widgets": [ { "Plugin": { "enable": true, "path": wasm, "config": { "name": "you" } } } ] });
    std::fs::write(&config, entry.to_string()).unwrap();
    let png = dir.path().join("bar.png");
    let shot = run(obi().arg("--config").arg(&config).arg("--screenshot").arg(&png).args(["--width", "600"]));
    assert!(shot.status.success(), "{shot:?}");
    let large = dir.path().join("large.png");
    run(Command::new("convert").arg(&png).args(["-negate", "-resize", "300%"]).arg(&large));
    let read = run(Command::new("tesseract").arg(&large).args(["stdout", "--psm", "7"]));
    let read = String::from_utf8_lossy(&read.stdout);
    assert!(read.contains("Hello, you"), "the bar shows the new widget; it reads {read:?}");
}

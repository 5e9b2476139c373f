//! `obi --screenshot`: the first frame of the bar, painted with no display.

use crate::support::{Frame, config_file, obi, run, same_colour};

const CPU_AND_TIME: &str = r#"{
  // komorebi-bar style config with both stock widgets
  "height": 36,
  "left_widgets": [ { "Cpu": { "enable": true, "label_prefix": "IconAndText" } } ],
  "right_widgets": [ { "Time": { "enable": true, "format": "TwentyFourHour" } } ]
}"#;

/// The default dark theme's background (Catppuccin Mocha `base`) at the
/// default `transparency_alpha` of 200.
const BACKGROUND: [u8; 4] = [0x1e, 0x1e, 0x2e, 200];

#[test]
fn screenshot_needs_no_display_and_shows_both_widgets() {
    let json = CPU_AND_TIME.replace("  // komorebi-bar style config with both stock widgets\n", "");
    let (dir, config) = config_file(&json);
    let png = dir.path().join("bar.png");
    let output = run(obi()
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .arg("--config")
        .arg(&config)
        .arg("--screenshot")
        .arg(&png)
        .args(["--width", "800"]));
    assert!(output.status.success(), "obi failed: {}", String::from_utf8_lossy(&output.stderr));

    let frame = Frame::read(&png);
    assert_eq!((frame.width, frame.height), (800, 36));
    assert!(
        same_colour(frame.pixel(0, 0), BACKGROUND),
        "the corner shows the theme's background: {:?}",
        frame.pixel(0, 0)
    );
    // The Cpu widget draws on the left third, the clock on the right third,
    // and nothing in between.
    assert!(frame.ink(BACKGROUND, 0, 266) > 100, "Cpu drew on the left");
    assert!(frame.ink(BACKGROUND, 534, 800) > 100, "Time drew on the right");
    assert_eq!(frame.ink(BACKGROUND, 300, 500), 0, "the middle is empty");
}

#[test]
fn the_embedded_default_config_renders() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("default.png");
    let output = run(obi().env_remove("DISPLAY").arg("--screenshot").arg(&png));
    assert!(output.status.success(), "obi failed: {}", String::from_utf8_lossy(&output.stderr));
    let frame = Frame::read(&png);
    assert_eq!((frame.width, frame.height), (1920, 40), "the default config's height");
    assert!(frame.ink(BACKGROUND, 0, 200) > 30, "the tiler on the left (without one, a plug)");
    assert!(frame.ink(BACKGROUND, 760, 1160) > 100, "the date in the middle");
    assert!(frame.ink(BACKGROUND, 1280, 1920) > 100, "cpu and clock on the right");
}

/// Runs obi on `json` and checks it refuses to start, saying `expected`.
fn refuses(json: &str, expected: &str) {
    let (_dir, config) = config_file(json);
    let output = run(obi().arg("--config").arg(&config).arg("--screenshot").arg("/dev/null"));
    assert!(!output.status.success(), "obi started with a bad config");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(expected), "{stderr}");
}

#[test]
fn a_broken_config_exits_non_zero_with_its_location() {
    refuses("{\n  \"height\": \"tall\"\n}\n", "komorebi.bar.json:2:");
}

#[test]
fn an_unknown_widget_is_named() {
    refuses(
        r#"{ "left_widgets": [], "right_widgets": [ { "Cpuu": { "enable": true } } ] }"#,
        "komorebi.bar.json:1:44: error: right_widgets[0]: unknown variant `Cpuu`",
    );
    refuses(r#"{ "left_widgets": [], "right_widgets": [ { "Cpuu": { "enable": true } } ] }"#, "did you mean `Cpu`?");
}

#[test]
fn a_failing_plugin_shows_its_error_state_beside_working_widgets() {
    let wasm = obi_build_support::build_components(&crate::support::workspace(), &["obi-test-widget-faulty"])
        .unwrap()
        .remove(0);
    let json = format!(
        r#"{{
          "height": 36,
          "left_widgets": [ {{ "Plugin": {{ "enable": true, "name": "faulty", "path": {path:?}, "config": {{ "fault": "Trap", "at_refresh": 1 }} }} }} ],
          "right_widgets": [ {{ "Time": {{ "enable": true, "format": "TwentyFourHour" }} }} ]
        }}"#,
        path = wasm.display().to_string()
    );
    let (dir, config) = config_file(&json);
    let png = dir.path().join("bar.png");
    let output = run(obi().arg("--config").arg(&config).arg("--screenshot").arg(&png).args(["--width", "800"]));
    assert!(
        output.status.success(),
        "a failing widget does not fail the bar: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("widget `faulty`") && stderr.contains("traps on refresh 1"),
        "the failure is logged: {stderr}"
    );

    let frame = Frame::read(&png);
    // The error colour (Catppuccin Mocha `red`, #f38ba8) marks the failed widget on the left.
    let reddish = |x: u32, y: u32| {
        let [r, g, b, _] = frame.pixel(x, y);
        r > 150 && r > g + 40 && r > b + 20
    };
    let red_left = (0..36).flat_map(|y| (0..200).map(move |x| (x, y))).filter(|&(x, y)| reddish(x, y)).count();
    assert!(red_left > 20, "the failed widget is drawn in the error colour");
    assert!(frame.ink(BACKGROUND, 534, 800) > 100, "the clock still drew");
}

#[test]
fn the_background_is_the_themes_at_the_configured_alpha() {
    let cases = [
        (r#"{ "palette": "Catppuccin", "name": "Frappe" }"#, [0x30, 0x34, 0x46]),
        (r#"{ "palette": "Catppuccin", "name": "Latte" }"#, [0xef, 0xf1, 0xf5]),
        (r#"{ "palette": "Catppuccin", "name": "Macchiato" }"#, [0x24, 0x27, 0x3a]),
        (r#"{ "palette": "Catppuccin", "name": "Mocha" }"#, [0x1e, 0x1e, 0x2e]),
        (r#"{ "palette": "Base16", "name": "Nord" }"#, [0x3b, 0x42, 0x52]),
        (r#"{ "palette": "Base16", "name": "3024" }"#, [0x3a, 0x34, 0x32]),
        (r#"{ "palette": "Base16", "name": "Ashes" }"#, [0x39, 0x3f, 0x45]),
        (r#"{ "palette": "Base16", "name": "GruvboxDarkHard" }"#, [0x3c, 0x38, 0x36]),
        (r#"{ "palette": "Base16", "name": "SolarizedLight" }"#, [0xee, 0xe8, 0xd5]),
    ];
    for (theme, [r, g, b]) in cases {
        let json = format!(
            r#"{{ "theme": {theme}, "transparency_alpha": 180, "height": 20, "left_widgets": [], "right_widgets": [] }}"#
        );
        let (dir, config) = config_file(&json);
        let png = dir.path().join("bar.png");
        let output = run(obi().arg("--config").arg(&config).arg("--screenshot").arg(&png).args(["--width", "64"]));
        assert!(output.status.success(), "{theme}: {}", String::from_utf8_lossy(&output.stderr));
        let frame = Frame::read(&png);
        let pixel = frame.pixel(10, 10);
        assert!(same_colour(pixel, [r, g, b, 180]), "{theme}: {pixel:?} is not {:?}", [r, g, b, 180]);
    }
}

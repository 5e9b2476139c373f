//! Every kind of mistake in a config file gets its own message naming the
//! file, line:column, JSON path and what was expected.

use obi::config::model::MouseMessage;
use obi::config::{BarConfig, Diagnostic, Severity};
use obi::input::{Action, MouseActions};
use obi::view::{Input, ScrollDirection};

/// All diagnostics for `text`, errors first, whether or not it loads.
fn diagnostics(text: &str) -> Vec<Diagnostic> {
    match BarConfig::parse(text, "bar.json") {
        Ok(loaded) => loaded.warnings,
        Err(diagnostics) => diagnostics,
    }
}

/// Asserts that one diagnostic reads `bar.json:LINE:COL: SEVERITY: PATH: ...FRAGMENT...`.
#[track_caller]
fn expect(text: &str, line: usize, column: usize, severity: Severity, path: &str, fragment: &str) {
    let found = diagnostics(text);
    let matching = found.iter().find(|diagnostic| diagnostic.path == path && diagnostic.message.contains(fragment));
    let Some(diagnostic) = matching else {
        panic!("no diagnostic at {path} saying {fragment:?}; found:\n{}", listing(&found));
    };
    assert_eq!((diagnostic.at.line, diagnostic.at.column), (line, column), "{diagnostic}");
    assert_eq!(diagnostic.severity, severity, "{diagnostic}");
    assert!(diagnostic.to_string().starts_with(&format!("bar.json:{line}:{column}: ")), "{diagnostic}");
}

fn listing(diagnostics: &[Diagnostic]) -> String {
    diagnostics.iter().map(|diagnostic| format!("  {diagnostic}\n")).collect()
}

const ERROR: Severity = Severity::Error;
const WARNING: Severity = Severity::Warning;

#[test]
fn a_missing_comma_is_a_syntax_error_where_it_happens() {
    expect("{\n  \"left_widgets\": []\n  \"right_widgets\": []\n}", 2, 21, ERROR, "", "Expected comma");
}

#[test]
fn an_unquoted_key_is_refused() {
    expect("{\n  left_widgets: [], \"right_widgets\": []\n}", 2, 3, ERROR, "", "");
}

#[test]
fn a_key_given_twice_is_refused_at_its_second_place() {
    expect(
        "{\n  \"height\": 40,\n  \"height\": 50,\n  \"left_widgets\": [], \"right_widgets\": []\n}",
        3,
        3,
        ERROR,
        "",
        "appears twice",
    );
}

#[test]
fn an_empty_file_and_a_non_object_are_refused() {
    expect("// nothing here\n", 1, 1, ERROR, "", "empty");
    expect("[1, 2]", 1, 1, ERROR, "", "a bar config is a JSON object");
}

#[test]
fn a_wrong_type_names_the_expected_one() {
    expect(
        "{\n  \"height\": \"tall\",\n  \"left_widgets\": [], \"right_widgets\": []\n}",
        2,
        13,
        ERROR,
        "height",
        "expected f32",
    );
}

#[test]
fn an_unknown_widget_suggests_the_close_one() {
    let text = "{\n  \"left_widgets\": [],\n  \"right_widgets\": [\n    { \"Baterry\": { \"enable\": true } }\n  ]\n}";
    expect(text, 4, 7, ERROR, "right_widgets[0]", "did you mean `Battery`?");
}

#[test]
fn an_unknown_enum_value_suggests_the_close_one() {
    let text = "{\n  \"left_widgets\": [],\n  \"right_widgets\": [\n    { \"Battery\": { \"enable\": true, \"label_prefix\": \"Icn\" } }\n  ]\n}";
    expect(text, 4, 52, ERROR, "right_widgets[0].Battery.label_prefix", "did you mean `Icon`?");
}

#[test]
fn a_missing_required_property_is_named_where_its_object_is() {
    let text = "{\n  \"left_widgets\": [ { \"Time\": { \"enable\": true } } ],\n  \"right_widgets\": []\n}";
    expect(text, 2, 31, ERROR, "left_widgets[0].Time", "missing field `format`");
}

#[test]
fn missing_widget_lists_are_named() {
    expect("{ \"right_widgets\": [] }", 1, 1, ERROR, "", "missing field `left_widgets`");
}

#[test]
fn an_alpha_over_255_is_out_of_range() {
    let text = "{\n  \"transparency_alpha\": 300,\n  \"left_widgets\": [], \"right_widgets\": []\n}";
    expect(text, 2, 25, ERROR, "transparency_alpha", "300");
}

#[test]
fn a_rounding_of_three_corners_is_refused() {
    let text = "{\n  \"grouping\": { \"kind\": \"Widget\", \"rounding\": [1, 2, 3] },\n  \"left_widgets\": [], \"right_widgets\": []\n}";
    // Inside the tagged grouping object serde keeps no deeper path.
    expect(text, 2, 15, ERROR, "grouping", "an array of four numbers (one per corner)");
}

#[test]
fn an_unknown_grouping_kind_suggests_the_close_one() {
    let text = "{\n  \"grouping\": { \"kind\": \"Widgets\" },\n  \"left_widgets\": [], \"right_widgets\": []\n}";
    expect(text, 2, 25, ERROR, "grouping.kind", "did you mean `Widget`?");
}

#[test]
fn an_unknown_base16_palette_suggests_the_close_one() {
    let text = "{\n  \"theme\": { \"palette\": \"Base16\", \"name\": \"Nrod\" },\n  \"left_widgets\": [], \"right_widgets\": []\n}";
    expect(text, 2, 43, ERROR, "theme.name", "did you mean `Nord`?");
}

#[test]
fn an_unknown_time_zone_is_named() {
    let text = "{\n  \"left_widgets\": [],\n  \"right_widgets\": [ { \"Time\": { \"enable\": true, \"format\": \"TwentyFourHour\", \"timezone\": \"Europe/Pari\" } } ]\n}";
    expect(text, 3, 90, ERROR, "right_widgets[0].Time.timezone", "did you mean `Europe/Paris`?");
}

#[test]
fn a_padding_of_the_wrong_shape_says_what_shapes_there_are() {
    let text = "{\n  \"padding\": \"ten\",\n  \"left_widgets\": [], \"right_widgets\": []\n}";
    expect(text, 2, 14, ERROR, "padding", "a number, an object with top/bottom/left/right");
}

#[test]
fn a_widget_entry_that_is_not_an_object_is_refused() {
    let text = "{\n  \"left_widgets\": [ \"Cpu\" ],\n  \"right_widgets\": []\n}";
    expect(
        text,
        2,
        21,
        ERROR,
        "left_widgets[0].Cpu",
        "`Cpu` needs its settings as an object: write { \"Cpu\": { \"enable\": true, ... } }",
    );
}

#[test]
fn an_unknown_property_is_a_warning_with_a_suggestion() {
    let text = "{\n  \"widget_spacng\": 4,\n  \"left_widgets\": [], \"right_widgets\": []\n}";
    expect(text, 2, 3, WARNING, "widget_spacng", "did you mean `widget_spacing`?");
    assert!(BarConfig::parse(text, "bar.json").is_ok(), "unknown properties do not stop the bar");
}

#[test]
fn an_icon_scale_out_of_range_is_clamped_with_a_warning() {
    let text = "{\n  \"icon_scale\": 3.5,\n  \"left_widgets\": [], \"right_widgets\": []\n}";
    expect(text, 2, 17, WARNING, "icon_scale", "using 2");
    assert_eq!(BarConfig::parse(text, "bar.json").unwrap().config.icon_scale(), 2.0);
}

#[test]
fn a_scroll_threshold_out_of_range_is_clamped_with_a_warning() {
    let text =
        "{\n  \"mouse\": { \"vertical_scroll_threshold\": 5 },\n  \"left_widgets\": [], \"right_widgets\": []\n}";
    expect(text, 2, 43, WARNING, "mouse.vertical_scroll_threshold", "using 10");
}

#[test]
fn a_stale_icon_interval_out_of_range_is_clamped_with_a_warning() {
    let text = "{\n  \"left_widgets\": [],\n  \"right_widgets\": [ { \"Systray\": { \"enable\": true, \"stale_icons_check_interval\": 5 } } ]\n}";
    expect(text, 3, 83, WARNING, "right_widgets[0].Systray.stale_icons_check_interval", "using 30");
    let off = text.replace(": 5 }", ": 0 }");
    let warnings = BarConfig::parse(&off, "bar.json").unwrap().warnings;
    assert!(
        !warnings.iter().any(|warning| warning.path.ends_with("stale_icons_check_interval")),
        "0 turns the check off"
    );
}

#[test]
fn layout_ratios_in_a_tiler_message_must_be_five() {
    let text = "{\n  \"mouse\": { \"on_middle_click\": { \"message\": { \"type\": \"ApplyState\", \"content\": { \"column_ratios\": [0.3, 0.7] } } } },\n  \"left_widgets\": [], \"right_widgets\": []\n}";
    expect(text, 2, 100, ERROR, "mouse.on_middle_click.message.content.column_ratios", "an array of 5 numbers");
    let five = text.replace("[0.3, 0.7]", "[0.3, 0.7, null, null, null]");
    assert!(BarConfig::parse(&five, "bar.json").is_ok());
}

#[test]
fn a_mouse_message_must_be_one_komorebi_reads() {
    let text = |message: &str| {
        format!(
            "{{\n  \"mouse\": {{ \"on_scroll_up\": {{ \"message\": {message} }} }},\n  \"left_widgets\": [], \"right_widgets\": []\n}}"
        )
    };
    let unknown = text(r#"{ "type": "CycleFocusWorkspaces", "content": "Next" }"#);
    expect(&unknown, 2, 53, ERROR, "mouse.on_scroll_up.message.type", "did you mean `CycleFocusWorkspace`?");
    let sideways = text(r#"{ "type": "CycleFocusWorkspace", "content": "Sideways" }"#);
    expect(&sideways, 2, 87, ERROR, "mouse.on_scroll_up.message.content", "one of Previous, Next");
    let short = text(r#"{ "type": "FocusMonitorWorkspaceNumber", "content": [0] }"#);
    expect(&short, 2, 95, ERROR, "mouse.on_scroll_up.message.content", "an array [usize, usize]");
    let negative = text(r#"{ "type": "FocusMonitorWorkspaceNumber", "content": [0, -2] }"#);
    expect(&negative, 2, 99, ERROR, "mouse.on_scroll_up.message.content[1]", "outside 0..=");
    let bare = text(r#"{ "type": "ChangeLayout" }"#);
    expect(&bare, 2, 43, ERROR, "mouse.on_scroll_up.message", "needs its content");
    let scroll_up = |text: &str| {
        let loaded = BarConfig::parse(text, "bar.json").unwrap_or_else(|errors| panic!("{text}: {errors:?}"));
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
        loaded.config.model.mouse.and_then(|mouse| mouse.on_scroll_up).expect("on_scroll_up is read")
    };
    let good = text(r#"{ "type": "CycleFocusWorkspace", "content": "Next" }"#);
    match scroll_up(&good) {
        MouseMessage::Tiler(tiler) => assert_eq!(tiler.message["type"], "CycleFocusWorkspace"),
        other => panic!("a komorebi message is sent to the tiler, not {other:?}"),
    }
    // A string is a command line to run, not a message.
    let command = text(r#""komorebic cycle-workspace next""#).replace("{ \"message\": ", "").replace("\" }", "\"");
    assert_eq!(scroll_up(&command), MouseMessage::Command("komorebic cycle-workspace next".into()), "{command}");
    let mouse = BarConfig::parse(&command, "bar.json").unwrap().config.model.mouse;
    let actions = MouseActions::from_config(mouse.as_ref());
    assert_eq!(
        actions.action(Input::Scroll(ScrollDirection::Up)),
        Some(&Action::Command("komorebic cycle-workspace next".into())),
        "scrolling up runs the command line"
    );
}

#[test]
fn hide_empty_workspaces_is_required_of_enabled_workspaces() {
    let text = "{\n  \"left_widgets\": [ { \"Komorebi\": { \"workspaces\": { \"enable\": true } } } ],\n  \"right_widgets\": []\n}";
    expect(text, 2, 51, ERROR, "left_widgets[0].Komorebi.workspaces", "missing field `hide_empty_workspaces`");
    // Older files leave it out of a part that is off: they load, with a warning.
    let off = text.replace("\"enable\": true", "\"enable\": false");
    expect(&off, 2, 51, WARNING, "left_widgets[0].Komorebi.workspaces", "missing field `hide_empty_workspaces`");
    assert!(BarConfig::parse(&off, "bar.json").is_ok());
}

#[test]
fn defaults_of_nested_settings_follow_komorebi_bar() {
    use obi::config::model::{MouseConfig, SystrayConfig, UpdateConfig, UsageConfig};
    let mouse: MouseConfig = serde_json::from_str("{}").unwrap();
    assert_eq!((mouse.vertical_scroll_threshold(), mouse.horizontal_scroll_threshold()), (30.0, 30.0));
    let systray = |json: &str| serde_json::from_str::<SystrayConfig>(json).unwrap().stale_icons_check_interval();
    assert_eq!(systray(r#"{ "enable": true }"#), Some(60));
    assert_eq!(systray(r#"{ "enable": true, "stale_icons_check_interval": 0 }"#), None);
    assert_eq!(systray(r#"{ "enable": true, "stale_icons_check_interval": 900 }"#), Some(600));
    assert_eq!(serde_json::from_str::<UsageConfig>(r#"{ "enable": true }"#).unwrap().data_refresh_interval(), 10);
    assert_eq!(serde_json::from_str::<UpdateConfig>(r#"{ "enable": true }"#).unwrap().data_refresh_interval(), 12);
}

#[test]
fn every_problem_in_a_file_is_reported_at_once() {
    let text = "{\n  \"height\": \"tall\",\n  \"left_widgets\": [ { \"Cpu\": { \"enable\": \"yes\" } } ],\n  \"right_widgets\": [ { \"Time\": { \"enable\": true, \"format\": \"Sundial\" } } ]\n}";
    let found = diagnostics(text);
    let paths: Vec<&str> = found.iter().map(|d| d.path.as_str()).collect();
    assert_eq!(
        paths,
        ["height", "left_widgets[0].Cpu.enable", "right_widgets[0].Time.format"],
        "errors only, no echoes:\n{}",
        listing(&found)
    );
}

#[test]
fn comments_trailing_commas_and_schema_are_accepted() {
    let text = "{\n  \"$schema\": \"https://example.invalid/schema.json\",\n  // a comment\n  \"left_widgets\": [ /* none */ ],\n  \"right_widgets\": [],\n}";
    let loaded = BarConfig::parse(text, "bar.json").unwrap();
    assert!(loaded.warnings.is_empty(), "{}", listing(&loaded.warnings));
}

#[test]
fn numbers_that_cannot_make_sense_are_errors_where_they_stand() {
    let bar = |property: &str| format!("{{\n  \"left_widgets\": [], \"right_widgets\": [],\n  {property}\n}}");
    expect(&bar("\"height\": 1e300"), 3, 13, ERROR, "height", "a number this large is no height a bar can have");
    expect(&bar("\"height\": 20000"), 3, 13, ERROR, "height", "20000 is no height a bar can have; expected 1..=16384");
    expect(&bar("\"font_size\": -1e30"), 3, 16, ERROR, "font_size", "-1e30 is longer than any monitor");
    expect(
        &bar("\"padding\": { \"horizontal\": [4, 1e9] }"),
        3,
        14,
        ERROR,
        "padding",
        "1e9 is longer than any monitor",
    );
    expect(
        &bar("\"position\": { \"start\": { \"x\": 3e6, \"y\": 0 } }"),
        3,
        33,
        ERROR,
        "position.start.x",
        "beyond any screen",
    );
    let plugin = |limits: &str| {
        format!(
            "{{\n  \"left_widgets\": [{{ \"Plugin\": {{ \"enable\": true, \"path\": \"w.wasm\",\n    {limits} }} }}],\n  \"right_widgets\": []\n}}"
        )
    };
    let path = "left_widgets[0].Plugin.memory_limit_mb";
    expect(
        &plugin("\"memory_limit_mb\": 17592186044416"),
        3,
        24,
        ERROR,
        path,
        "1.7592186044416e13 is more than a widget can address; expected 1..=4096",
    );
    let path = "left_widgets[0].Plugin.call_deadline_ms";
    expect(&plugin("\"call_deadline_ms\": 0"), 3, 25, ERROR, path, "0 is not a call's deadline; expected 1..=60000");
    assert!(BarConfig::parse(&bar("\"height\": 40, \"padding\": 8"), "bar.json").is_ok());
}

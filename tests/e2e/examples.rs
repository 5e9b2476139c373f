//! The example third-party widgets of `examples/plugins/`, built as their
//! tutorial builds them and loaded by the bar from its config under Xvfb:
//! the pomodoro timer starts counting when clicked, and the command-output
//! widget shows what the command declared for it printed, run by the bar's
//! shell. `obi --schema` describes the pomodoro's config as the widget does.

use crate::ocr::{HEIGHT, column_of, wait_for_words, words_on_bar};
use crate::support::{XSession, config_file, have_tools, obi, run, wait_for, workspace};
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

/// Builds the example widget `package` as its tutorial does.
fn build(package: &str) -> PathBuf {
    let manifest = workspace().join("examples/plugins").join(package.trim_start_matches("obi-example-"));
    obi_build_support::build_widget_crate(&manifest, package).unwrap()
}

#[test]
fn the_schema_describes_a_plugins_config_as_its_widget_does() {
    let pomodoro = build("obi-example-pomodoro");
    let (_dir, config) = config_file(&format!(
        r#"{{ "left_widgets": [ {{ "Plugin": {{ "enable": true, "path": {pomodoro:?}, "config": {{}} }} }} ], "right_widgets": [] }}"#
    ));
    let output = run(obi().arg("--schema").arg("--config").arg(&config));
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let schema: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let condition = &schema["$defs"]["PluginConfig"]["allOf"][0];
    assert_eq!(condition["if"]["properties"]["path"]["const"], pomodoro.to_str().unwrap());
    let described = &condition["then"]["properties"]["config"]["properties"];
    assert_eq!(described["work_minutes"]["type"], "integer", "{condition}");

    let plain = run(obi().arg("--schema"));
    let plain: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert!(plain["$defs"]["PluginConfig"].get("allOf").is_none());
}

const TOOLS: &[&str] = &["Xvfb", "i3", "xwininfo", "xdotool", "import", "convert", "tesseract"];

#[test]
fn the_example_widgets_load_and_work_in_the_bar() {
    if !have_tools("example widgets test", TOOLS) {
        return;
    }
    let (pomodoro, command_output) = (build("obi-example-pomodoro"), build("obi-example-command-output"));
    let config = format!(
        r#"{{ "height": {HEIGHT}, "font_size": 18, "transparency_alpha": 255,
        "left_widgets": [ {{ "Plugin": {{ "enable": true, "path": {pomodoro:?}, "config": {{ "work_minutes": 25 }} }} }} ],
        "right_widgets": [ {{ "Plugin": {{ "enable": true, "path": {command_output:?},
            "commands": {{ "greeting": "echo Greetings from $(printf shell)" }},
            "config": {{ "command": "greeting", "interval_secs": 0 }} }} }} ] }}"#
    );
    let session = XSession::start(1024, 600);
    let (dir, config) = config_file(&config);
    let (_bar, _window) = session.start_bar(&config, Stdio::inherit());

    let words = wait_for_words(&session, dir.path(), 1024, &["25:00", "Greetings", "shell"], "examples");
    let timer = column_of(&words, "25:00");
    run(session.command("xdotool").args(["mousemove", &timer.to_string(), &(HEIGHT / 2).to_string(), "click", "1"]));
    let mut read = Vec::new();
    let counting = wait_for(Duration::from_secs(15), || {
        read = words_on_bar(&session, dir.path(), 1024);
        read.iter().any(|(word, _)| word.starts_with("24:5"))
    });
    assert!(counting, "the timer counts down once clicked; the bar reads {read:?}");
}

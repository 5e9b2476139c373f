//! The command-output widget run headless, with the outputs its commands
//! give scripted: the harness runs no command.

use obi_harness::{CommandOutput, Emphasis, Harness, Input, Script, texts};
use std::time::Duration;

fn start(config: &str, commands: &[(&str, &str)], script: &Script) -> Harness {
    Harness::plugin_with_commands(obi_harness::this_widget!(), config, commands, script).unwrap()
}

fn printed(code: i32, stdout: &str, stderr: &str) -> Result<CommandOutput, String> {
    Ok(CommandOutput { code: Some(code), stdout: stdout.into(), stderr: stderr.into() })
}

fn script() -> Script {
    Script::at("2024-03-09T15:04:05Z".parse().unwrap())
}

#[test]
fn it_shows_the_first_line_of_the_declared_command_once_it_has_run() {
    let script = script();
    script.set_command_output("uptime -p", printed(0, "up 3 hours, 2 minutes\nsecond line\n", ""));
    let mut widget = start(r#"{ "command": "uptime", "prefix": "↑ " }"#, &[("uptime", "uptime -p")], &script);
    assert_eq!(texts(&widget.refresh().unwrap()), ["↑ …"], "pending while it runs");
    assert!(widget.wait_for_wake(Duration::from_secs(10)), "the bar is told when the run ends");
    let view = widget.refresh().unwrap();
    assert_eq!(texts(&view), ["↑ up 3 hours, 2 minutes"]);
    assert_eq!(view.items[0].tooltip.as_deref(), Some("up 3 hours, 2 minutes\nsecond line"));
    assert_eq!(script.ran(), ["uptime -p"]);
    assert_eq!(widget.schedule().interval_ms, 60_000);
}

#[test]
fn a_failing_command_shows_its_exit_code_and_stderr() {
    let script = script();
    script.set_command_output("checkupdates", printed(2, "", "no database\n"));
    let mut widget = start(r#"{ "command": "updates" }"#, &[("updates", "checkupdates")], &script);
    widget.refresh().unwrap();
    assert!(widget.wait_for_wake(Duration::from_secs(10)));
    let view = widget.refresh().unwrap();
    assert_eq!((texts(&view), view.items[0].emphasis), (vec!["exit 2".to_owned()], Emphasis::Muted));
    assert_eq!(view.items[0].tooltip.as_deref(), Some("no database"));
}

#[test]
fn a_command_nobody_declared_is_not_run() {
    let script = script();
    let mut widget = start(r#"{ "command": "shell" }"#, &[("uptime", "uptime -p")], &script);
    let view = widget.input("output", Input::PrimaryClick).unwrap();
    assert_eq!(view.items[0].emphasis, Emphasis::Urgent);
    let why = view.items[0].tooltip.clone().unwrap();
    assert!(why.contains("no command is declared as \"shell\" (declared: uptime)"), "{why}");
    assert!(script.ran().is_empty());
}

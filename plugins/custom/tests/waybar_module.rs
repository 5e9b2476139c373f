//! Waybar's custom module, key by key, as Custom takes it over: `format`
//! and its fields, `format-icons` by level and by `alt`, `tooltip-format`
//! and `tooltip: false`, `exec-if`, `exec-on-event`, `signal`,
//! `restart-interval`, the scroll commands, `hide-empty-text`,
//! `min-length`, and a module of `format` alone.

use obi_harness::{CommandOutput, Harness, Input, Script, ScrollDirection, View, texts};
use std::time::Duration;

fn script() -> Script {
    Script::at("2024-03-09T15:04:05Z".parse().unwrap())
}

fn prints(script: &Script, command: &str, code: i32, stdout: &str) {
    let output = CommandOutput { code: Some(code), stdout: stdout.into(), stderr: String::new() };
    script.set_command_output(command, Ok(output));
}

/// The view once every command of the run has come back: `exec_if`, then
/// `exec`, each answering on a wake of its own.
fn ran(custom: &mut Harness) -> View {
    custom.refresh().unwrap();
    assert!(custom.wait_for_wake(Duration::from_secs(20)), "the widget is woken when the command has ended");
    loop {
        let shown = custom.refresh().unwrap();
        if !custom.wait_for_wake(Duration::from_secs(1)) {
            return shown;
        }
    }
}

fn custom(config: &str, script: &Script) -> Harness {
    Harness::stock("Custom", config, script).unwrap()
}

#[test]
fn format_shows_the_fields_of_a_json_line() {
    let script = script();
    let line = r#"{"text": "48%", "alt": "charging", "percentage": 47.6, "tooltip": "AC"}"#;
    prints(&script, "bat", 0, &format!("{line}\n"));
    let config = r#"{ "enable": true, "exec": "bat", "interval": 60, "return-type": "json",
                      "format": "{icon} {text} [{alt}] {percentage:>3}%", "format-icons": ["E", "H", "F"] }"#;
    let shown = ran(&mut custom(config, &script));
    assert_eq!(texts(&shown), ["H 48% [charging]  48%"], "47.6 rounds to 48, the middle icon of three");
    assert_eq!(shown.items[0].tooltip.as_deref(), Some("AC"), "the tooltip printed");
}

#[test]
fn format_icons_by_alt_and_their_default() {
    let script = script();
    let config = r#"{ "enable": true, "exec": "vol", "interval": 60, "return-type": "json", "format": "{icon}{}",
                      "format-icons": { "muted": "M ", "default": ["lo ", "hi "] } }"#;
    prints(&script, "vol", 0, "{\"text\": \"0\", \"alt\": \"muted\", \"percentage\": 90}\n");
    assert_eq!(texts(&ran(&mut custom(config, &script))), ["M 0"]);
    prints(&script, "vol", 0, "{\"text\": \"90\", \"alt\": \"on\", \"percentage\": 90}\n");
    assert_eq!(texts(&ran(&mut custom(config, &script))), ["hi 90"], "an alt it has no icon for takes the default");
}

#[test]
fn tooltip_format_replaces_the_tooltip_and_tooltip_false_drops_it() {
    let script = script();
    prints(&script, "mail", 0, "{\"text\": \"3\", \"tooltip\": \"inbox\", \"percentage\": 30}\n");
    let formatted = r#"{ "enable": true, "exec": "mail", "interval": 60, "return-type": "json",
                         "tooltip-format": "<b>{text}</b> new, {percentage}% full" }"#;
    let shown = ran(&mut custom(formatted, &script));
    assert_eq!(shown.items[0].tooltip.as_deref(), Some("3 new, 30% full"), "drawn plain");
    let silent = r#"{ "enable": true, "exec": "mail", "interval": 60, "return-type": "json", "tooltip": false }"#;
    assert_eq!(ran(&mut custom(silent, &script)).items[0].tooltip, None);
}

#[test]
fn exec_if_hides_the_item_and_skips_exec_while_it_fails() {
    let script = script();
    prints(&script, "pgrep spotify", 1, "");
    prints(&script, "now-playing", 0, "a song\n");
    let config = r#"{ "enable": true, "exec": "now-playing", "exec-if": "pgrep spotify", "interval": 10 }"#;
    let mut spotify = custom(config, &script);
    assert!(ran(&mut spotify).items.is_empty(), "hidden while it fails");
    assert_eq!(script.ran(), ["pgrep spotify"], "exec is not run");

    prints(&script, "pgrep spotify", 0, "4242\n");
    script.advance(Duration::from_secs(10));
    assert_eq!(texts(&ran(&mut spotify)), ["a song"]);
    assert_eq!(script.ran(), ["pgrep spotify", "pgrep spotify", "now-playing"], "asked before each run");
}

#[test]
fn clicks_and_scrolls_run_their_commands_and_exec_again_unless_told_not_to() {
    let script = script();
    prints(&script, "vol", 0, "50%\n");
    let config = r#"{ "enable": true, "exec": "vol", "interval": "once",
                      "on-scroll-up": "vol +5", "on-scroll-down": "vol -5" }"#;
    let mut volume = custom(config, &script);
    let shown = ran(&mut volume);
    assert!(shown.items[0].takes.takes(Input::Scroll(ScrollDirection::Up)), "scrolls are taken");
    volume.input("custom", Input::Scroll(ScrollDirection::Up)).unwrap();
    volume.input("custom", Input::Scroll(ScrollDirection::Down)).unwrap();
    assert_eq!(script.spawned(), ["vol +5", "vol -5"]);
    assert!(volume.wait_for_wake(Duration::from_secs(20)), "exec runs again after the event");
    assert_eq!(script.ran(), ["vol", "vol"]);

    let quiet = r#"{ "enable": true, "exec": "vol", "interval": "once", "exec-on-event": false,
                     "on-click": "pavucontrol" }"#;
    let script = self::script();
    prints(&script, "vol", 0, "50%\n");
    let mut volume = custom(quiet, &script);
    ran(&mut volume);
    volume.input("custom", Input::PrimaryClick).unwrap();
    assert_eq!(script.spawned(), ["pavucontrol"]);
    volume.refresh().unwrap();
    assert!(!volume.wait_for_wake(Duration::from_millis(500)), "exec is not run again");
    assert_eq!(script.ran(), ["vol"]);
}

/// With a `signal` and no `interval`, the command runs at the start and
/// when the signal (here: a requested refresh, as the bar turns it) comes.
#[test]
fn a_signal_without_an_interval_runs_it_at_the_start_and_on_the_signal_alone() {
    let script = script();
    prints(&script, "checkupdates | wc -l", 0, "12\n");
    let config = r#"{ "enable": true, "exec": "checkupdates | wc -l", "signal": 8 }"#;
    let mut updates = custom(config, &script);
    assert_eq!(updates.schedule().interval_ms, 0);
    assert_eq!(texts(&ran(&mut updates)), ["12"]);
    assert!(script.follows().is_empty(), "run for its output, not kept running");
    script.advance(Duration::from_secs(3600));
    updates.refresh().unwrap();
    assert!(!updates.wait_for_wake(Duration::from_millis(300)), "not run again by itself");
    prints(&script, "checkupdates | wc -l", 0, "0\n");
    updates.request_refresh().unwrap();
    assert!(updates.wait_for_wake(Duration::from_secs(20)));
    assert_eq!(texts(&updates.refresh().unwrap()), ["0"]);

    let kept = r#"{ "enable": true, "exec": "watch-updates", "signal": 8, "restart-interval": 5 }"#;
    custom(kept, &script).refresh().unwrap();
    assert_eq!(script.follows(), ["watch-updates"], "with a restart interval it keeps running");
}

#[test]
fn hide_empty_text_and_printing_nothing_hide_what_format_adds() {
    let script = script();
    prints(&script, "json", 0, "{\"text\": \"\"}\n");
    let shown = r#"{ "enable": true, "exec": "json", "interval": 5, "return-type": "json", "format": "R {}" }"#;
    assert_eq!(texts(&ran(&mut custom(shown, &script))), ["R "], "an empty text in a line is shown formatted");
    let hidden = r#"{ "enable": true, "exec": "json", "interval": 5, "return-type": "json", "format": "R {}",
                      "hide-empty-text": true }"#;
    assert!(ran(&mut custom(hidden, &script)).items.is_empty());

    prints(&script, "silent", 0, "");
    let silent = r#"{ "enable": true, "exec": "silent", "interval": 5, "format": "R {}" }"#;
    assert!(ran(&mut custom(silent, &script)).items.is_empty(), "a command that prints nothing hides it");
}

#[test]
fn min_length_pads_and_max_length_cuts_what_format_made() {
    let script = script();
    prints(&script, "n", 0, "7\n");
    let padded = r##"{ "enable": true, "exec": "n", "interval": 5, "format": "#{}", "min-length": 6 }"##;
    assert_eq!(texts(&ran(&mut custom(padded, &script))), ["  #7  "]);
    let cut = r#"{ "enable": true, "exec": "n", "interval": 5, "format": "count: {}", "max-length": 5 }"#;
    assert_eq!(texts(&ran(&mut custom(cut, &script))), ["coun…"]);
}

#[test]
fn a_module_of_format_alone_shows_it_and_runs_nothing() {
    let script = script();
    let separator = custom(r#"{ "enable": true, "format": "<span color='#888888'>|</span>" }"#, &script).refresh();
    assert_eq!(texts(&separator.unwrap()), ["|"]);
    assert!(script.ran().is_empty() && script.follows().is_empty());
}

#[test]
fn what_cannot_be_shown_is_said_when_the_config_is_read() {
    let script = script();
    let refused = |config: &str| match Harness::stock("Custom", config, &script) {
        Err(why) => why,
        Ok(_) => panic!("{config} was taken"),
    };
    assert!(
        refused(r#"{ "enable": true, "exec": "x", "format": "{volume}" }"#)
            .contains("`format`: a custom module has no `volume`")
    );
    assert!(refused(r#"{ "enable": true, "exec": "x", "tooltip-format": "{:.2f}" }"#).contains("`tooltip_format`"));
    assert!(refused(r#"{ "enable": true, "exec": "x", "signal": 40 }"#).contains("SIGRTMIN+30"));
    assert!(refused(r#"{ "enable": true }"#).contains("neither `exec` nor `format`"));
}

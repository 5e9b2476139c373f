//! The Custom widget over scripted command output: text and JSON lines,
//! a failure shown in place until a run succeeds, its interval, "once", the
//! clicks that run their commands and then the command again, a requested
//! refresh, a command kept running, line by line, and markup drawn with
//! its styles.

use obi_harness::{CommandOutput, Emphasis, Followed, Harness, Input, Piece, Script, SpanStyle, View, texts};
use std::time::Duration;

fn script() -> Script {
    Script::at("2024-03-09T15:04:05Z".parse().unwrap())
}

fn prints(script: &Script, command: &str, code: i32, stdout: &str, stderr: &str) {
    let output = CommandOutput { code: Some(code), stdout: stdout.into(), stderr: stderr.into() };
    script.set_command_output(command, Ok(output));
}

/// The view once the run has come back, as the bar shows it after the wake.
fn ran(custom: &mut Harness) -> View {
    let answered = custom.refresh_when_answered(Duration::from_secs(20)).unwrap();
    answered.expect("the widget is woken when the command has ended")
}

#[test]
fn json_lines_set_the_text_tooltip_and_selected_state() {
    let script = script();
    prints(
        &script,
        "mail-count",
        0,
        "{\"text\": \"3 new mails\", \"tooltip\": \"inbox\", \"class\": \"urgent\"}\n",
        "",
    );
    let config = r#"{ "enable": true, "exec": "mail-count", "interval": 30, "return-type": "json", "max-length": 6 }"#;
    let mut custom = Harness::stock("Custom", config, &script).unwrap();
    assert_eq!(custom.schedule().interval_ms, 30_000);
    let shown = ran(&mut custom);
    assert_eq!(texts(&shown), ["3 new…"]);
    assert!(shown.items[0].is_selected());
    assert_eq!(shown.items[0].tooltip.as_deref(), Some("inbox"));

    prints(&script, "mail-count", 0, "{\"text\": \"\"}\n", "");
    script.advance(Duration::from_secs(30));
    assert!(ran(&mut custom).items.is_empty(), "an empty text hides it");
    assert_eq!(script.ran(), ["mail-count", "mail-count"]);
}

#[test]
fn a_failing_command_shows_its_error_until_a_run_succeeds() {
    let script = script();
    prints(&script, "vpn-status", 3, "", "no such interface: wg0\n");
    let mut custom =
        Harness::stock("Custom", r#"{ "enable": true, "exec": "vpn-status", "interval": 5 }"#, &script).unwrap();
    let failed = ran(&mut custom);
    assert_eq!(failed.items[0].emphasis, Emphasis::Urgent);
    assert_eq!(failed.items[0].tooltip.as_deref(), Some("The command exited with 3: no such interface: wg0"));

    prints(&script, "vpn-status", 0, "up\nwg0, 10.0.0.2\n", "");
    script.advance(Duration::from_secs(5));
    let shown = ran(&mut custom);
    assert_eq!(texts(&shown), ["up"]);
    assert_eq!((shown.items[0].emphasis, shown.items[0].tooltip.as_deref()), (Emphasis::Normal, Some("wg0, 10.0.0.2")));
}

#[test]
fn once_runs_at_the_start_and_after_a_click_which_runs_its_own_command() {
    let script = script();
    prints(&script, "uname -r", 0, "6.1.0\n", "");
    let config = r#"{ "enable": true, "exec": "uname -r", "interval": "once", "on-click": "notify-send kernel" }"#;
    let mut custom = Harness::stock("Custom", config, &script).unwrap();
    assert_eq!(custom.schedule().interval_ms, 0, "refreshed after input alone");
    assert_eq!(texts(&ran(&mut custom)), ["6.1.0"]);
    script.advance(Duration::from_secs(3600));
    custom.refresh().unwrap();
    assert!(!custom.wait_for_wake(Duration::from_millis(300)), "run once");
    custom.input("custom", Input::SecondaryClick).unwrap();
    assert!(script.spawned().is_empty(), "no command for that click");
    custom.input("custom", Input::PrimaryClick).unwrap();
    assert_eq!(script.spawned(), ["notify-send kernel"]);
    assert!(custom.wait_for_wake(Duration::from_secs(20)), "the command runs again after the click");
    assert_eq!(script.ran(), ["uname -r", "uname -r"]);
}

#[test]
fn a_command_that_keeps_running_shows_each_line_and_its_failure() {
    let script = script();
    let config = r#"{ "enable": true, "exec": "watch-mail --json", "return_type": "json" }"#;
    let mut custom = Harness::stock("Custom", config, &script).unwrap();
    assert_eq!(custom.schedule().interval_ms, 0, "refreshed at each line");
    assert!(custom.refresh().unwrap().items.is_empty(), "nothing before its first line");
    assert_eq!(script.follows(), ["watch-mail --json"]);

    let said = |line: &str| Followed { last_line: Some(line.into()), failure: None };
    script.set_followed("watch-mail --json", said(r#"{"text": "2 new", "class": "urgent"}"#));
    assert!(custom.wait_for_wake(Duration::from_secs(5)), "a line wakes the widget");
    let shown = custom.refresh().unwrap();
    assert_eq!(texts(&shown), ["2 new"]);
    assert!(shown.items[0].is_selected());

    let failed = Followed { last_line: Some("{}".into()), failure: Some("exited with 1: mailbox gone".into()) };
    script.set_followed("watch-mail --json", failed);
    let shown = custom.refresh().unwrap();
    assert_eq!(shown.items[0].emphasis, Emphasis::Urgent);
    assert_eq!(shown.items[0].tooltip.as_deref(), Some("The command exited with 1: mailbox gone"));
    script.set_followed("watch-mail --json", said(r#"{"text": "back"}"#));
    assert_eq!(texts(&custom.refresh().unwrap()), ["back"]);
    assert_eq!(script.follows().len(), 1, "followed once, however often it is read");
}

#[test]
fn a_percentage_over_the_threshold_selects_the_item() {
    let script = script();
    let config = r#"{ "enable": true, "exec": "disk-use", "return_type": "json", "auto_select_over": 80 }"#;
    let mut custom = Harness::stock("Custom", config, &script).unwrap();
    let said = |line: &str| Followed { last_line: Some(line.into()), failure: None };
    script.set_followed("disk-use", said(r#"{"text": "79%", "percentage": 79}"#));
    assert!(!custom.refresh().unwrap().items[0].is_selected());
    script.set_followed("disk-use", said(r#"{"text": "93%", "percentage": 93.5}"#));
    assert!(custom.refresh().unwrap().items[0].is_selected(), "over 80");
}

#[test]
fn a_requested_refresh_runs_the_command_again() {
    let script = script();
    prints(&script, "count", 0, "1\n", "");
    let mut custom =
        Harness::stock("Custom", r#"{ "enable": true, "exec": "count", "interval": 3600 }"#, &script).unwrap();
    assert_eq!(texts(&ran(&mut custom)), ["1"]);
    prints(&script, "count", 0, "2\n", "");
    custom.request_refresh().unwrap();
    assert!(custom.wait_for_wake(Duration::from_secs(20)));
    assert_eq!(texts(&custom.refresh().unwrap()), ["2"], "run again well before its hour");
}

#[test]
fn markup_is_drawn_with_its_styles_unless_it_is_to_be_shown_as_printed() {
    let script = script();
    let line = r#"{"text": "<span color='red'>3</span> &amp; <b>more</b>", "tooltip": "<b>inbox</b>"}"#;
    prints(&script, "mail-count", 0, &format!("{line}\n"), "");
    let config = r#"{ "enable": true, "exec": "mail-count", "interval": 30, "return_type": "json" }"#;
    let shown = ran(&mut Harness::stock("Custom", config, &script).unwrap());
    assert_eq!(texts(&shown), ["3 & more"]);
    let Piece::Styled(spans) = &shown.items[0].pieces[0] else { panic!("{:?}", shown.items[0].pieces) };
    let styles: Vec<(&str, &SpanStyle)> = spans.iter().map(|span| (span.text.as_str(), &span.style)).collect();
    let red = SpanStyle { colour: Some([255, 0, 0, 255]), ..SpanStyle::default() };
    let bold = SpanStyle { weight: Some(700), ..SpanStyle::default() };
    assert_eq!(styles, [("3", &red), (" & ", &SpanStyle::default()), ("more", &bold)]);
    assert_eq!(shown.items[0].tooltip.as_deref(), Some("inbox"), "a tooltip is drawn plain");

    prints(&script, "plain", 0, "fish &amp; chips\n", "");
    let plain = r#"{ "enable": true, "exec": "plain", "interval": 30 }"#;
    let shown = ran(&mut Harness::stock("Custom", plain, &script).unwrap());
    assert_eq!(shown.items[0].pieces, [Piece::Text("fish & chips".into())], "markup without styles is plain text");

    let escaped = r#"{ "enable": true, "exec": "mail-count", "interval": 30, "return_type": "json", "escape": true }"#;
    let shown = ran(&mut Harness::stock("Custom", escaped, &script).unwrap());
    assert_eq!(texts(&shown), ["<span color='red'>3</span> &amp; <b>more</b>"]);

    prints(&script, "empty", 0, "<span></span>\n", "");
    let empty = r#"{ "enable": true, "exec": "empty", "interval": 30 }"#;
    assert!(ran(&mut Harness::stock("Custom", empty, &script).unwrap()).items.is_empty(), "no text, no item");
}

/// Markup past what a view holds — a family's name of 300 bytes, a hundred
/// spans, a size of `inf%` — is shown within it, the widget never failing.
#[test]
fn markup_past_a_views_bounds_is_shown_within_them() {
    let script = script();
    let family = "f".repeat(300);
    let many: String =
        (0..100).map(|index| format!("<span foreground='#{:06x}'>{index}</span>", index * 997)).collect();
    let line = format!("<span face='{family}'>a</span><span size='inf%'>b</span>{many}");
    prints(&script, "wild", 0, &format!("{line}\n"), "");
    let mut custom = Harness::stock("Custom", r#"{ "enable": true, "exec": "wild", "interval": 5 }"#, &script).unwrap();
    let shown = ran(&mut custom);
    let Piece::Styled(spans) = &shown.items[0].pieces[0] else { panic!("{:?}", shown.items[0].pieces) };
    assert!(spans.len() <= 64, "{} spans", spans.len());
    assert!(spans.iter().all(|span| span.style.family.is_none()), "the family's name reached the view");
    assert!(texts(&shown)[0].starts_with("ab0123"), "{:?}", texts(&shown));
}

/// A command whose line is 5 KiB, in text and as JSON with a 5 KiB
/// tooltip: shown cut, the widget never failing.
#[test]
fn a_line_of_kilobytes_is_shown_cut() {
    let script = script();
    let long = "x".repeat(5 * 1024);
    prints(&script, "long", 0, &format!("{long}\n{long}\n"), "");
    let mut custom = Harness::stock("Custom", r#"{ "enable": true, "exec": "long", "interval": 5 }"#, &script).unwrap();
    let shown = ran(&mut custom);
    let (text, tooltip) = (&texts(&shown)[0], shown.items[0].tooltip.as_deref().unwrap());
    assert!(text.ends_with('…') && text.len() <= 4096, "{} bytes", text.len());
    assert!(tooltip.ends_with('…') && tooltip.len() <= 4096, "{} bytes", tooltip.len());

    prints(&script, "long-json", 0, &format!("{{\"text\": \"{long}\", \"tooltip\": \"{long}\"}}\n"), "");
    let config = r#"{ "enable": true, "exec": "long-json", "interval": 5, "return_type": "json" }"#;
    let shown = ran(&mut Harness::stock("Custom", config, &script).unwrap());
    assert!(texts(&shown)[0].len() <= 4096 && shown.items[0].tooltip.as_deref().unwrap().len() <= 4096);

    prints(&script, "failing", 1, "", &format!("{long}\n"));
    let config = r#"{ "enable": true, "exec": "failing", "interval": 5 }"#;
    let failed = ran(&mut Harness::stock("Custom", config, &script).unwrap());
    assert_eq!(failed.items[0].emphasis, Emphasis::Urgent, "its failure shown, not the widget's");
    assert!(failed.items[0].tooltip.as_deref().unwrap().len() <= 4096);
}

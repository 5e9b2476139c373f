//! The Notifications widget against a notification server no bus reaches
//! (the store the real one keeps, without the bus): what it shows, and
//! what its clicks do to the notifications (the bar's own tests drive the
//! real server with notify-send).

use obi_harness::notifications::{Notification, Service, Settings, Urgency};
use obi_harness::{Emphasis, Harness, Input, Piece, PopupInput, Script, View, popup_rows, texts};
use std::time::Duration;

fn script() -> Script {
    Script::at("2026-12-03T08:00:00Z".parse().unwrap())
}

fn widget(options: &str, script: &Script) -> Harness {
    Harness::stock("Notifications", &format!(r#"{{ "enable": true {options} }}"#), script).unwrap()
}

fn icon(view: &View) -> Option<&str> {
    view.items[0].pieces.iter().find_map(|piece| match piece {
        Piece::Icon(glyph) => Some(glyph.as_str()),
        _ => None,
    })
}

const BELL: &str = "\u{e0ce}";
const BELL_SLASH: &str = "\u{e0d4}";

fn send(service: &Service, app: &str, summary: &str, body: &str) -> u32 {
    service.notify(Notification::new(app, summary, body), 0)
}

fn click(widget: &mut Harness, cell: &str) -> View {
    widget.popup_input("notifications", cell, PopupInput::Input(Input::PrimaryClick)).unwrap()
}

/// The summaries the open history lists, newest first (of entries without a body).
fn summaries(view: &View) -> Vec<String> {
    let rows = popup_rows(view);
    rows.iter().skip(2).filter(|row| row.len() == 1 && row[0] != "-").map(|row| row[0].clone()).collect()
}

#[test]
fn without_the_server_the_bell_is_faded_and_says_why() {
    let script = script();
    let mut notifications = widget("", &script);
    assert_eq!(notifications.schedule().interval_ms, 0, "pushed, never polled");
    let shown = notifications.refresh().unwrap();
    assert_eq!(icon(&shown), Some(BELL));
    assert_eq!(shown.items[0].emphasis, Emphasis::Muted);
    let tooltip = shown.items[0].tooltip.clone().unwrap_or_default();
    assert!(tooltip.contains("no bar's config enables `notifications`"), "{tooltip}");

    let shown = notifications.input("notifications", Input::PrimaryClick).unwrap();
    assert_eq!(popup_rows(&shown)[2], [tooltip], "the open history says why it is empty");
}

#[test]
fn the_count_of_unseen_ones_follows_the_server_and_the_history_lists_them() {
    let script = script();
    let service = script.serve_notifications(Settings::default());
    let mut notifications = widget("", &script);
    let shown = notifications.refresh().unwrap();
    assert_eq!((texts(&shown), icon(&shown)), (vec![String::new()], Some(BELL)), "nothing unseen: the bell alone");
    assert_eq!(shown.items[0].emphasis, Emphasis::Normal);

    send(&service, "mail", "Ann wrote", "<b>Lunch</b> at noon?");
    send(&service, "chat", "Bob", "the build is green");
    assert!(notifications.wait_for_wake(Duration::from_secs(5)), "a notification wakes the widget");
    let shown = notifications.refresh().unwrap();
    assert_eq!(texts(&shown), ["2"]);
    assert_eq!(shown.items[0].tooltip.as_deref(), Some("2 notifications not seen"));

    let shown = notifications.input("notifications", Input::PrimaryClick).unwrap();
    let rows = popup_rows(&shown);
    assert_eq!(rows[0], ["Do not disturb", "Clear all"]);
    let time = |rows: &[Vec<String>], row: usize| rows[row][0].rsplit(' ').next().unwrap().to_owned();
    assert_eq!(
        &rows[2..],
        [
            vec![format!("chat · {}", time(&rows, 2)), "×".into()],
            vec!["Bob".into()],
            vec!["the build is green".into()],
            vec!["-".into()],
            vec![format!("mail · {}", time(&rows, 6)), "×".into()],
            vec!["Ann wrote".into()],
            vec!["Lunch at noon?".into()],
        ]
    );
    assert!(time(&rows, 2).len() == 5 && time(&rows, 2).contains(':'), "{rows:?}");
    let shown = notifications.refresh().unwrap();
    assert_eq!(texts(&shown), [""], "opening the history marks them seen");
    assert!(service.history().iter().all(|(_, seen)| *seen));
    assert!(shown.items[0].is_selected(), "the bell is lit while its history is open");

    let shown = notifications.input("notifications", Input::PrimaryClick).unwrap();
    assert!(shown.popup.is_none(), "a second click closes it");
}

#[test]
fn clicks_in_the_history_run_dismiss_and_clear() {
    let script = script();
    let service = script.serve_notifications(Settings::default());
    let mut notifications = widget(r#", "label_prefix": "IconAndText""#, &script);
    let mut with_default = Notification::new("mail", "Ann wrote", "");
    with_default.actions = vec![obi_harness::notifications::Action { key: "default".into(), label: "Open".into() }];
    let answered = service.notify(with_default, 0);
    let plain = send(&service, "chat", "Bob", "");
    send(&service, "cal", "Standup", "");
    notifications.refresh().unwrap();
    notifications.input("notifications", Input::PrimaryClick).unwrap();

    click(&mut notifications, &format!("invoke:{answered}"));
    assert!(service.read(|store| store.get(answered).is_none()), "its default action ran and closed it");
    click(&mut notifications, &format!("dismiss:{plain}"));
    let shown = notifications.refresh().unwrap();
    assert_eq!(summaries(&shown), ["Standup"], "{:?}", popup_rows(&shown));
    assert_eq!(texts(&shown), ["Notifications: 0"]);

    let shown = click(&mut notifications, "clear-all");
    assert!(service.read(|store| store.is_empty()), "clear all closes every one");
    assert_eq!(popup_rows(&shown)[2], ["No notifications"]);
}

#[test]
fn do_not_disturb_crosses_the_bell_and_sends_normal_ones_to_the_history() {
    let script = script();
    let service = script.serve_notifications(Settings::default());
    let mut notifications = widget("", &script);
    notifications.refresh().unwrap();
    let shown = notifications.input("notifications", Input::SecondaryClick).unwrap();
    assert!(service.read(|store| store.do_not_disturb()), "a secondary click switches it on");
    assert_eq!(icon(&shown), Some(BELL_SLASH));
    assert_eq!(shown.items[0].tooltip.as_deref(), Some("0 notifications not seen; do not disturb is on"));

    send(&service, "chat", "Bob", "");
    service.notify(Notification { urgency: Urgency::Critical, ..Notification::new("power", "Battery low", "") }, 0);
    let on_screen: Vec<String> = service.on_screen().into_iter().map(|notification| notification.summary).collect();
    assert_eq!(on_screen, ["Battery low"], "only the critical one shows");
    let shown = notifications.refresh().unwrap();
    assert_eq!(texts(&shown), ["2"], "both are in the history, unseen");

    notifications.input("notifications", Input::PrimaryClick).unwrap();
    let shown = click(&mut notifications, "do-not-disturb");
    assert!(!service.read(|store| store.do_not_disturb()), "and the popup's button switches it off");
    assert_eq!(icon(&shown), Some(BELL));
}

#[test]
fn it_hides_with_nothing_unseen_when_asked_and_refuses_a_bad_length() {
    let script = script();
    let service = script.serve_notifications(Settings::default());
    let mut notifications = widget(r#", "hide_when_none": true"#, &script);
    assert!(notifications.refresh().unwrap().items.is_empty());
    send(&service, "chat", "Bob", "");
    assert_eq!(texts(&notifications.refresh().unwrap()), ["1"]);

    let error = Harness::stock("Notifications", r#"{ "enable": true, "history_shown": 40 }"#, &script).err().unwrap();
    assert!(error.contains("`history_shown` is how many the history lists, 1 to 25, not 40"), "{error}");
}

#[test]
fn the_history_lists_as_many_as_asked() {
    let script = script();
    let service = script.serve_notifications(Settings::default());
    for number in 0..30 {
        send(&service, "counter", &number.to_string(), "");
    }
    let mut notifications = widget(r#", "history_shown": 3"#, &script);
    notifications.refresh().unwrap();
    let shown = notifications.input("notifications", Input::PrimaryClick).unwrap();
    assert_eq!(summaries(&shown), ["29", "28", "27"]);
}

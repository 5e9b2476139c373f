//! The IdleInhibitor widget against a scripted hold on idling, which holds
//! at once as asked (the bar's own tests ask logind's simulator and sway).

use obi_harness::{Emphasis, Harness, IdleStatus, Input, Piece, Script, texts};

fn script() -> Script {
    Script::at("2026-12-04T08:00:00Z".parse().unwrap())
}

fn eye(view: &obi_harness::View) -> Option<&str> {
    view.items[0].pieces.iter().find_map(|piece| match piece {
        Piece::Icon(glyph) => Some(glyph.as_str()),
        _ => None,
    })
}

#[test]
fn a_click_holds_idling_off_and_another_lets_it_go() {
    let script = script();
    let mut inhibitor =
        Harness::stock("IdleInhibitor", r#"{ "enable": true, "label_prefix": "IconAndText" }"#, &script).unwrap();
    assert_eq!(inhibitor.schedule().interval_ms, 0, "pushed, never polled");
    let shown = inhibitor.refresh().unwrap();
    assert_eq!((texts(&shown), eye(&shown)), (vec!["Idle: off".to_owned()], Some("\u{e222}")), "a closed eye");
    assert_eq!(shown.items[0].tooltip.as_deref(), Some("Idle inhibitor off"));

    let shown = inhibitor.input("idle-inhibitor", Input::PrimaryClick).unwrap();
    assert_eq!((texts(&shown), eye(&shown)), (vec!["Idle: on".to_owned()], Some("\u{e220}")), "an open eye");
    assert_eq!(shown.items[0].emphasis, Emphasis::Selected);
    let waker = obi_harness::Waker::new(|| {});
    assert_eq!(script.idle_inhibition().status(&waker), IdleStatus::Held);

    let shown = inhibitor.input("idle-inhibitor", Input::PrimaryClick).unwrap();
    assert_eq!(texts(&shown), ["Idle: off"]);
    assert_eq!(script.idle_inhibition().status(&waker), IdleStatus::NotHeld);
}

#[test]
fn it_can_start_on_and_says_why_it_cannot_hold() {
    let script = script();
    let mut inhibitor =
        Harness::stock("IdleInhibitor", r#"{ "enable": true, "start_activated": true }"#, &script).unwrap();
    assert_eq!(inhibitor.refresh().unwrap().items[0].emphasis, Emphasis::Selected, "on from the start");
    script.idle_inhibition().report(IdleStatus::Unavailable("the compositor offers no idle inhibitor".into()));
    let shown = inhibitor.refresh().unwrap();
    assert_eq!(shown.items[0].tooltip.as_deref(), Some("Idle inhibitor: the compositor offers no idle inhibitor"));
    assert_eq!(shown.items[0].emphasis, Emphasis::Normal);
}

#[test]
fn the_hold_goes_with_the_last_widget_showing_it() {
    let script = script();
    let config = r#"{ "enable": true }"#;
    let mut first = Harness::stock("IdleInhibitor", config, &script).unwrap();
    let mut second = Harness::stock("IdleInhibitor", config, &script).unwrap();
    second.refresh().unwrap();
    first.input("idle-inhibitor", Input::PrimaryClick).unwrap();
    let waker = obi_harness::Waker::new(|| {});
    drop(first);
    assert_eq!(script.idle_inhibition().status(&waker), IdleStatus::Held, "the other widget shows the hold");
    drop(second);
    assert_eq!(script.idle_inhibition().status(&waker), IdleStatus::NotHeld, "a reload left out the last widget");
}

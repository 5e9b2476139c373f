//! Input reaching a widget through the scheduler, and a reload keeping it.
//! (The stock widgets' views for scripted readings are tested beside each
//! widget, through the SDK's harness, in `plugins/<kind>/tests`.)

mod common;

use common::{engine, faulty_wasm, texts};
use obi::scheduler::{Scheduler, WidgetEvent};
use obi::spec::WidgetSpec;
use obi::view::Input;
use std::sync::mpsc;
use std::time::Duration;

#[test]
fn input_reaches_the_widget_and_a_reload_keeps_it() {
    let spec = WidgetSpec {
        name: "probe".into(),
        ..WidgetSpec::file(faulty_wasm(), r#"{ "fault": "Never", "interval_ms": 0 }"#.into(), [])
    };
    let (sender, receiver) = mpsc::channel();
    let scheduler = Scheduler::spawn(engine(), vec![spec.clone()], move |generation, index, state| {
        let _ = sender.send((generation, index, state));
    });
    let (_, _, first) = receiver.recv_timeout(Duration::from_secs(20)).unwrap();
    assert_eq!(texts(&first), "refresh 1");
    scheduler.send(WidgetEvent::Input {
        widget: 0,
        key: "faulty".into(),
        input: Input::SecondaryClick,
        pointer: Default::default(),
    });
    let (_, _, after) = receiver.recv_timeout(Duration::from_secs(5)).unwrap();
    assert_eq!(texts(&after), "faulty: Input::SecondaryClick");

    // A reload that keeps this widget's spec keeps its instance (and what it
    // remembers); a new widget beside it starts fresh.
    let clock =
        WidgetSpec::stock("Time", r#"{ "enable": true, "format": "TwentyFourHour", "timezone": "UTC" }"#.into())
            .unwrap();
    let specs = vec![clock, spec.clone()];
    let continued = obi::spec::continued(&[spec], &specs);
    assert_eq!(continued, [None, Some(0)]);
    scheduler.send(WidgetEvent::Reconfigure { generation: 1, specs, continued });
    let mut reported = Vec::new();
    let until = std::time::Instant::now() + Duration::from_millis(1500);
    while let Ok(report) = receiver.recv_timeout(until.saturating_duration_since(std::time::Instant::now())) {
        reported.push(report);
    }
    assert!(reported.iter().all(|(generation, _, _)| *generation == 1), "{reported:?}");
    assert!(
        reported.iter().any(|(_, index, state)| *index == 1 && texts(state) == "faulty: Input::SecondaryClick"),
        "{reported:?}"
    );
    // The clock shows the time in UTC, as HH:MM:SS, within seconds of now.
    let shows_now = |state| {
        chrono::NaiveTime::parse_from_str(&texts(state), "%H:%M:%S").is_ok_and(|shown| {
            let apart = (chrono::Utc::now().time() - shown).num_seconds().abs();
            apart <= 5 || apart >= 24 * 3600 - 5
        })
    };
    assert!(
        reported.iter().any(|(_, index, state)| *index == 0 && shows_now(state)),
        "the clock started: {reported:?}"
    );
}

/// One popup at a time: a widget that opens its popup closes the one
/// another widget of the bar has open, and that widget is told.
#[test]
fn a_popup_opening_closes_the_other_widgets_popup() {
    let pushy = |name: &str| WidgetSpec {
        name: name.into(),
        ..WidgetSpec::file(faulty_wasm(), r#"{ "fault": "PushyPopup", "at_refresh": 1, "interval_ms": 0 }"#.into(), [])
    };
    let (sender, receiver) = mpsc::channel();
    let scheduler = Scheduler::spawn(engine(), vec![pushy("one"), pushy("two")], move |_, index, state| {
        let _ = sender.send((index, state));
    });
    let mut latest: [Option<obi::view::WidgetState>; 2] = [None, None];
    let settle = |latest: &mut [Option<obi::view::WidgetState>; 2]| {
        while let Ok((index, state)) = receiver.recv_timeout(Duration::from_millis(1500)) {
            latest[index] = Some(state);
        }
    };
    let has_popup = |state: &Option<obi::view::WidgetState>| matches!(state, Some(obi::view::WidgetState::Ready(view)) if view.popup.is_some());
    settle(&mut latest);
    assert!(!has_popup(&latest[0]) && !has_popup(&latest[1]), "no popup opens unasked");

    scheduler.send(WidgetEvent::Input {
        widget: 0,
        key: "faulty".into(),
        input: Input::SecondaryClick,
        pointer: Default::default(),
    });
    settle(&mut latest);
    assert!(has_popup(&latest[0]) && !has_popup(&latest[1]));

    scheduler.send(WidgetEvent::Input {
        widget: 1,
        key: "faulty".into(),
        input: Input::SecondaryClick,
        pointer: Default::default(),
    });
    settle(&mut latest);
    assert!(has_popup(&latest[1]), "the second widget's popup opened");
    assert!(!has_popup(&latest[0]), "the first widget's popup closed");
    assert_eq!(latest[0].as_ref().map(texts), Some("popup closed beside faulty".to_owned()), "and it was told");
}

//! The bars of one process on one widget thread.

mod common;

use common::texts;
use obi::scheduler::Scheduler;
use obi::spec::WidgetSpec;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// The bars of one process share the widgets' thread, each with its own
/// capabilities; a bar that goes stops its widgets alone.
#[test]
fn bars_share_one_widget_thread_each_with_its_own_capabilities() {
    use chrono::{TimeZone, Utc};
    use obi::headless::Script;
    let morning = Script::at(Utc.with_ymd_and_hms(2026, 11, 24, 8, 15, 0).unwrap());
    let evening = Script::at(Utc.with_ymd_and_hms(2026, 11, 24, 20, 45, 0).unwrap());
    let clock =
        || WidgetSpec::stock("Time", r#"{ "enable": true, "format": "TwentyFourHour", "timezone": "UTC" }"#.into());
    let engine = common::engine_with(morning.capabilities());
    let thread = Scheduler::start(engine);
    let (sender, receiver) = mpsc::channel();
    // Each state comes with the Linux thread that reported it.
    let to = |bar: &'static str| {
        let sender = sender.clone();
        move |changes: obi::scheduler::Changes| {
            let thread = std::fs::read_link("/proc/thread-self").unwrap_or_default();
            for (_, state) in changes.states {
                let _ = sender.send((bar, texts(&state), thread.clone()));
            }
        }
    };
    let first = thread.add_bar(morning.capabilities(), vec![clock().unwrap()], to("first"));
    let second = thread.add_bar(evening.capabilities(), vec![clock().unwrap()], to("second"));
    drop(thread);
    let mut heard: Vec<(&str, String, PathBuf)> =
        (0..2).map(|_| receiver.recv_timeout(Duration::from_secs(20)).unwrap()).collect();
    heard.sort();
    let shown: Vec<(&str, &str)> = heard.iter().map(|(bar, text, _)| (*bar, text.as_str())).collect();
    assert_eq!(shown, [("first", "08:15:00"), ("second", "20:45:00")]);
    let widget_thread = heard[0].2.clone();
    assert_eq!(heard[1].2, widget_thread, "one thread runs both bars' widgets");
    assert_ne!(std::fs::read_link("/proc/thread-self").unwrap(), widget_thread, "not the test's");

    drop(second);
    // The removal is the thread's before the clocks move on.
    std::thread::sleep(Duration::from_millis(300));
    morning.advance(Duration::from_secs(1));
    evening.advance(Duration::from_secs(1));
    let mut after = Vec::new();
    let until = std::time::Instant::now() + Duration::from_millis(2500);
    while let Ok((bar, text, _)) = receiver.recv_timeout(until.saturating_duration_since(std::time::Instant::now())) {
        after.push((bar, text));
    }
    assert_eq!(after, [("first", "08:15:01".to_owned())], "the first bar's clock goes on, the second's stopped");
    drop(first);
    // `/proc/thread-self` names the thread as `<pid>/task/<tid>`.
    let task = Path::new("/proc").join(&widget_thread);
    let ended = (0..250).any(|_| {
        std::thread::sleep(Duration::from_millis(20));
        !task.exists()
    });
    assert!(ended, "the thread ends with its last bar ({} is still there)", task.display());
}

/// Widgets refreshed in one pass reach the bar together, so that it paints
/// them in one frame: two clocks of one bar (on the real clock, whose
/// seconds both land on), each second, come as one change.
#[test]
fn widgets_refreshed_together_reach_the_bar_as_one_change() {
    let clock = |timezone: &str| {
        let config = format!(r#"{{ "enable": true, "format": "TwentyFourHour", "timezone": "{timezone}" }}"#);
        WidgetSpec::stock("Time", config).unwrap()
    };
    let engine = common::engine();
    let capabilities = engine.capabilities().clone();
    let thread = Scheduler::start(engine);
    let (sender, receiver) = mpsc::channel();
    let _bar = thread.add_bar(capabilities, vec![clock("UTC"), clock("Asia/Tokyo")], move |changes| {
        let shown: Vec<(usize, String)> = changes.states.iter().map(|(index, state)| (*index, texts(state))).collect();
        let _ = sender.send(shown);
    });
    // The first refresh, then three ticks of the clock.
    for _ in 0..4 {
        let shown = receiver.recv_timeout(Duration::from_secs(20)).unwrap();
        let indices: Vec<usize> = shown.iter().map(|(index, _)| *index).collect();
        assert_eq!(indices, [0, 1], "both clocks in one change: {shown:?}");
        // Nine hours apart, the same minute and second.
        assert_eq!(shown[0].1[2..], shown[1].1[2..], "{shown:?}");
    }
}

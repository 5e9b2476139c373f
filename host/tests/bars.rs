//! The bars of one process on one widget thread. Alone in its binary: it
//! counts the process's widget threads.

mod common;

use common::texts;
use obi::config::stock_spec;
use obi::runtime::Scheduler;
use std::sync::mpsc;
use std::time::Duration;

/// The bars of one process share the widgets' thread, each with its own
/// capabilities; a bar that goes stops its widgets alone.
#[test]
fn bars_share_one_widget_thread_each_with_its_own_capabilities() {
    use chrono::{TimeZone, Utc};
    use obi::capabilities::scripted::Script;
    let morning = Script::at(Utc.with_ymd_and_hms(2026, 11, 24, 8, 15, 0).unwrap());
    let evening = Script::at(Utc.with_ymd_and_hms(2026, 11, 24, 20, 45, 0).unwrap());
    let clock = || stock_spec("Time", r#"{ "enable": true, "format": "TwentyFourHour", "timezone": "UTC" }"#.into());
    let engine = common::engine_with(morning.capabilities());
    let thread = Scheduler::start(engine);
    let (sender, receiver) = mpsc::channel();
    let to = |bar: &'static str| {
        let sender = sender.clone();
        move |_generation, _index, state| {
            let _ = sender.send((bar, texts(&state)));
        }
    };
    let first = thread.add_bar(morning.capabilities(), vec![clock().unwrap()], to("first"));
    let second = thread.add_bar(evening.capabilities(), vec![clock().unwrap()], to("second"));
    drop(thread);
    let mut heard: Vec<(&str, String)> =
        (0..2).map(|_| receiver.recv_timeout(Duration::from_secs(20)).unwrap()).collect();
    heard.sort();
    assert_eq!(heard, [("first", "08:15:00".to_owned()), ("second", "20:45:00".to_owned())]);
    let widget_threads = || {
        std::fs::read_dir("/proc/self/task")
            .map(|tasks| {
                tasks
                    .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
                    .filter(|name| name.trim() == "obi-widgets")
                    .count()
            })
            .unwrap_or(1)
    };
    assert_eq!(widget_threads(), 1, "one thread runs both bars' widgets");

    drop(second);
    // The removal is the thread's before the clocks move on.
    std::thread::sleep(Duration::from_millis(300));
    morning.advance(Duration::from_secs(1));
    evening.advance(Duration::from_secs(1));
    let mut after = Vec::new();
    let until = std::time::Instant::now() + Duration::from_millis(2500);
    while let Ok(report) = receiver.recv_timeout(until.saturating_duration_since(std::time::Instant::now())) {
        after.push(report);
    }
    assert_eq!(after, [("first", "08:15:01".to_owned())], "the first bar's clock goes on, the second's stopped");
    drop(first);
    let until = std::time::Instant::now() + Duration::from_secs(5);
    while widget_threads() > 0 && std::time::Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(widget_threads(), 0, "the thread ends with its last bar");
}

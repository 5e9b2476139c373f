//! The stock widgets' views for scripted capability values, and input
//! reaching a widget through the scheduler.

mod common;

use chrono::{DateTime, TimeZone, Utc};
use common::{engine, engine_with, faulty_wasm, texts};
use obi::capabilities::{Capabilities, Capability, Clock, MemoryUsage, Metrics};
use obi::config::stock_spec;
use obi::runtime::{Input, Limits, Scheduler, WidgetEvent, WidgetSource, WidgetSpec};
use obi::view::{Piece, WidgetState};
use std::collections::BTreeSet;
use std::sync::{Arc, mpsc};
use std::time::Duration;

struct FixedClock(DateTime<Utc>);

impl Clock for FixedClock {
    fn now(&self) -> DateTime<Utc> {
        self.0
    }
}

struct FixedCpu(f32);

impl Metrics for FixedCpu {
    fn cpu_usage(&self) -> f32 {
        self.0
    }

    fn memory(&self) -> MemoryUsage {
        MemoryUsage::default()
    }
}

/// 2024-03-09 15:04:05 UTC.
fn scripted(cpu: f32) -> Capabilities {
    Capabilities {
        clock: Arc::new(FixedClock(Utc.with_ymd_and_hms(2024, 3, 9, 15, 4, 5).unwrap())),
        metrics: Arc::new(FixedCpu(cpu)),
    }
}

fn first_state(capabilities: Capabilities, kind: &str, config: &str) -> WidgetState {
    let mut engine = engine_with(capabilities);
    Scheduler::first_states(&mut engine, vec![stock_spec(kind, config.into()).unwrap()]).remove(0)
}

fn selected(state: &WidgetState) -> bool {
    matches!(state, WidgetState::Ready(view) if view.items.iter().any(|item| item.selected))
}

#[test]
fn cpu_over_its_threshold_is_selected() {
    let config = r#"{ "enable": true, "auto_select_over": 90 }"#;
    let hot = first_state(scripted(91.0), "Cpu", config);
    assert_eq!(texts(&hot), "CPU: 91%");
    assert!(selected(&hot));
    let calm = first_state(scripted(90.0), "Cpu", config);
    assert_eq!(texts(&calm), "CPU: 90%");
    assert!(!selected(&calm));
}

#[test]
fn cpu_label_prefixes() {
    let show = |prefix: &str| {
        let state = first_state(scripted(7.4), "Cpu", &format!(r#"{{ "enable": true, "label_prefix": "{prefix}" }}"#));
        let WidgetState::Ready(view) = &state else { panic!("{state:?}") };
        let icon = view.items[0].pieces.iter().any(|piece| matches!(piece, Piece::Icon(_)));
        (icon, texts(&state))
    };
    assert_eq!(show("None"), (false, "7%".into()));
    assert_eq!(show("Icon"), (true, "7%".into()));
    assert_eq!(show("Text"), (false, "CPU: 7%".into()));
    assert_eq!(show("IconAndText"), (true, "CPU: 7%".into()));
}

#[test]
fn time_formats_in_two_zones() {
    let cases = [
        ("TwentyFourHour", "UTC", "15:04:05"),
        ("TwentyFourHourWithoutSeconds", "Asia/Tokyo", "00:04"),
        ("TwelveHour", "America/New_York", "10:04:05 AM"),
        ("TwelveHourWithoutSeconds", "UTC", "3:04 PM"),
    ];
    for (format, zone, expected) in cases {
        let config =
            format!(r#"{{ "enable": true, "format": "{format}", "timezone": "{zone}", "label_prefix": "None" }}"#);
        assert_eq!(texts(&first_state(scripted(0.0), "Time", &config)), expected, "{format} in {zone}");
    }
    let custom = r#"{ "enable": true, "format": { "Custom": "%T %Z (Tokyo)" }, "timezone": "Asia/Tokyo", "label_prefix": "None" }"#;
    assert_eq!(texts(&first_state(scripted(0.0), "Time", custom)), "00:04:05 JST (Tokyo)");
}

#[test]
fn binary_time_is_a_binary_clock_piece() {
    let config = r#"{ "enable": true, "format": "BinaryRectangle", "timezone": "Asia/Tokyo" }"#;
    let state = first_state(scripted(0.0), "Time", config);
    let WidgetState::Ready(view) = &state else { panic!("{state:?}") };
    let clock = view.items[0].pieces.iter().find_map(|piece| match piece {
        Piece::BinaryClock(clock) => Some(*clock),
        _ => None,
    });
    let clock = clock.expect("a binary clock piece");
    assert_eq!((clock.hour, clock.minute, clock.second), (0, 4, 5));
}

#[test]
fn input_reaches_the_widget_and_a_reload_keeps_it() {
    let spec = WidgetSpec {
        name: "probe".into(),
        source: WidgetSource::File(faulty_wasm()),
        config_json: r#"{ "fault": "Never", "interval_ms": 0 }"#.into(),
        grants: BTreeSet::from([Capability::Log, Capability::Clock]),
        limits: Limits::default(),
    };
    let (sender, receiver) = mpsc::channel();
    let scheduler = Scheduler::spawn(engine(), vec![spec.clone()], move |generation, index, state| {
        let _ = sender.send((generation, index, state));
    });
    let (_, _, first) = receiver.recv_timeout(Duration::from_secs(20)).unwrap();
    assert_eq!(texts(&first), "refresh 1");
    scheduler.send(WidgetEvent::Input { widget: 0, key: "faulty".into(), input: Input::SecondaryClick });
    let (_, _, after) = receiver.recv_timeout(Duration::from_secs(5)).unwrap();
    assert_eq!(texts(&after), "faulty: Input::SecondaryClick");

    // A reload that keeps this widget's spec keeps its instance (and what it
    // remembers); a new widget beside it starts fresh.
    let clock =
        stock_spec("Time", r#"{ "enable": true, "format": "TwentyFourHour", "timezone": "UTC" }"#.into()).unwrap();
    scheduler.send(WidgetEvent::Reconfigure { generation: 1, specs: vec![clock, spec] });
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
    assert!(
        reported.iter().any(|(_, index, state)| *index == 0 && texts(state).len() == 8),
        "the clock started: {reported:?}"
    );
}

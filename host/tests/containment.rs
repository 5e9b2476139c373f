//! One widget cannot hurt another: a widget that traps, loops, runs out of
//! memory or returns a bad view shows its error state and is restarted with
//! backoff, while a healthy clock next to it keeps ticking.

mod common;

use common::{engine, failures, faulty_wasm, states_over, stock, texts};
use obi::capabilities::Capability;
use obi::scheduler::Scheduler;
use obi::spec::{Limits, WidgetSpec};
use obi::view::WidgetState;
use std::path::Path;
use std::time::Duration;

fn faulty(path: &Path, fault: &str) -> WidgetSpec {
    let config_json = format!(r#"{{ "fault": "{fault}", "interval_ms": 300 }}"#);
    WidgetSpec {
        name: format!("faulty-{fault}"),
        // Only the looping widget should meet its deadline; the others get room
        // to fail their own way even on a loaded machine.
        limits: Limits {
            memory_bytes: 8 << 20,
            call_deadline: Duration::from_millis(if fault == "Loop" { 50 } else { 2000 }),
        },
        ..WidgetSpec::file(path.to_owned(), config_json, [])
    }
}

#[test]
fn faulty_widgets_are_contained_and_restarted() {
    let wasm = faulty_wasm();
    let specs = vec![
        stock("Time", r#"{ "enable": true, "format": "TwentyFourHour" }"#, &[Capability::Log, Capability::Clock]),
        faulty(&wasm, "Trap"),
        faulty(&wasm, "Loop"),
        faulty(&wasm, "Oom"),
        faulty(&wasm, "BadView"),
    ];
    // Long enough for four ticks of the clock even if starting took a second.
    let history = states_over(specs, Duration::from_millis(5500));

    let clock: Vec<String> = history[0].iter().map(texts).collect();
    assert!(clock.len() >= 4, "the clock kept ticking next to the faulty widgets: {clock:?}");
    assert!(history[0].iter().all(|state| matches!(state, WidgetState::Ready(_))), "{clock:?}");

    for (index, expected) in
        [(1, "traps on refresh 2"), (2, "50 ms deadline"), (3, "over its cap of 8192 KiB"), (4, "used twice")]
    {
        let states = &history[index];
        let failed = failures(states);
        assert!(failed.len() >= 2, "widget {index} failed and was restarted to fail again: {states:?}");
        assert!(
            failed.iter().all(|message| message.contains(expected) && message.contains("restarting in")),
            "{failed:?}"
        );
        let recovered = states.iter().filter(|state| texts(state) == "refresh 1").count();
        assert!(recovered >= 2, "widget {index} showed its first view again after a restart: {states:?}");
    }
}

/// Each step of a start (a widget's instantiation, `init` and first
/// refresh) may take longer than the call deadline, which a first start
/// on a busy machine can, up to a second; one that never returns is
/// stopped then.
#[test]
fn a_start_has_a_second_and_an_endless_one_is_stopped() {
    let wasm = faulty_wasm();
    let starting_for = |name: &str, busy: &str| WidgetSpec {
        name: name.into(),
        limits: Limits { memory_bytes: 8 << 20, call_deadline: Duration::from_millis(50) },
        ..WidgetSpec::file(wasm.clone(), format!(r#"{{ "fault": "Never", {busy} }}"#), [])
    };
    let specs = vec![
        starting_for("slow", r#""init_ms": 300, "first_refresh_ms": 300"#),
        starting_for("endless", &format!(r#""init_ms": {}"#, u64::MAX)),
    ];
    let history = states_over(specs, Duration::from_secs(4));

    assert_eq!(history[0].first().map(texts).as_deref(), Some("refresh 1"), "{:?}", history[0]);
    let endless = history[1].first();
    assert!(
        matches!(endless, Some(WidgetState::Failed { message }) if message.contains("within its 1000 ms deadline")),
        "{endless:?}"
    );
}

#[test]
fn a_missing_grant_is_named() {
    let mut engine = engine();
    let cpu = stock("Cpu", r#"{ "enable": true }"#, &[Capability::Log, Capability::Clock]);
    let states = Scheduler::first_states(&mut engine, vec![cpu], Duration::from_secs(1));
    let WidgetState::Failed { message } = &states[0] else { panic!("{states:?}") };
    assert!(message.contains("`Cpu` needs the `metrics` capability"), "{message}");
}

#[test]
fn a_refused_config_is_reported_without_restarts() {
    let mut engine = engine();
    let time = stock(
        "Time",
        r#"{ "enable": true, "format": "TwentyFourHour", "timezone": "Mars/Olympus" }"#,
        &[Capability::Clock],
    );
    let states = Scheduler::first_states(&mut engine, vec![time], Duration::from_secs(1));
    let WidgetState::Failed { message } = &states[0] else { panic!("{states:?}") };
    assert!(message.contains("Mars/Olympus") && !message.contains("restarting"), "{message}");
}

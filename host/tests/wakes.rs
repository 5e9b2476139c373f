//! Answers that come after a widget's call returned (an HTTP fetch) reach
//! it: the running bar refreshes a woken widget at once, and a screenshot
//! waits for what its widgets were promised. A widget that names when its
//! next refresh is due is refreshed then, with no schedule of its own.

mod common;

use common::{engine, texts};
use obi::scheduler::Scheduler;
use obi::view::WidgetState;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::{Mutex, MutexGuard, mpsc};
use std::thread;
use std::time::Duration;

/// The tests of this file one at a time: the countdown below counts on
/// its refreshes coming about when asked for, which another test
/// compiling a component beside it on two cores can delay.
fn alone() -> MutexGuard<'static, ()> {
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    obi::sync::lock(&ONE_AT_A_TIME)
}

/// A release feed naming a version above the running one, served locally.
fn newer_release_feed() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/releases", listener.local_addr().unwrap());
    thread::spawn(move || {
        let body = r#"{ "tag_name": "v999.0.0", "html_url": "https://example.org/obi/v999.0.0" }"#;
        for stream in listener.incoming() {
            let mut stream = stream.unwrap();
            let _ = stream.read(&mut [0u8; 4096]);
            let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n", body.len());
            let _ = stream.write_all(head.as_bytes()).and_then(|_| stream.write_all(body.as_bytes()));
        }
    });
    url
}

fn update_spec() -> obi::spec::WidgetSpec {
    let config = format!(r#"{{ "enable": true, "label_prefix": "Text", "release_feed": "{}" }}"#, newer_release_feed());
    obi::spec::WidgetSpec::stock("Update", config).unwrap()
}

#[test]
fn a_woken_widget_is_refreshed_without_waiting_for_its_schedule() {
    let _alone = alone();
    let (sender, states) = mpsc::channel();
    let scheduler = Scheduler::spawn(engine(), vec![update_spec()], move |_generation, _index, state| {
        let _ = sender.send(state);
    });
    // The widget refreshes hourly; only the wake can bring the answer sooner.
    let mut seen = Vec::new();
    while let Ok(state) = states.recv_timeout(Duration::from_secs(20)) {
        let done = texts(&state) == "UPDATE: v999.0.0";
        seen.push(state);
        if done {
            break;
        }
    }
    drop(scheduler);
    assert_eq!(seen.last().map(texts).as_deref(), Some("UPDATE: v999.0.0"), "{seen:?}");
}

#[test]
fn a_first_render_waits_for_promised_answers() {
    let _alone = alone();
    let states = Scheduler::first_states(&mut engine(), vec![update_spec()], Duration::from_secs(20));
    assert_eq!(texts(&states[0]), "UPDATE: v999.0.0");
    let none = Scheduler::first_states(&mut engine(), vec![update_spec()], Duration::ZERO);
    assert_eq!(none[0], WidgetState::Ready(obi::view::View::of(Vec::new())), "not waited for");
}

/// The example pomodoro timer has no schedule: running, it asks for the
/// refresh at each next second of its countdown, and gets it.
#[test]
fn a_widget_is_refreshed_when_its_last_refresh_asked() {
    let _alone = alone();
    let workspace = obi_build_support::workspace_root(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
    let wasm =
        obi_build_support::build_widget_crate(&workspace.join("examples/plugins/pomodoro"), "obi-example-pomodoro")
            .unwrap();
    let spec = obi::spec::WidgetSpec::file(wasm, r#"{ "work_minutes": 1 }"#.into(), []);
    let (sender, states) = mpsc::channel();
    let scheduler = Scheduler::spawn(engine(), vec![spec], move |_generation, _index, state| {
        let _ = sender.send(state);
    });
    let first = states.recv_timeout(Duration::from_secs(20)).unwrap();
    assert_eq!(texts(&first), "01:00");
    assert!(states.recv_timeout(Duration::from_millis(1500)).is_err(), "paused, it is not refreshed");
    let click = obi::view::Input::PrimaryClick;
    scheduler.send(obi::scheduler::WidgetEvent::Input {
        widget: 0,
        key: "pomodoro".into(),
        input: click,
        pointer: Default::default(),
    });
    // The click's own refresh shows 01:00; each refresh after it comes
    // unasked for by any schedule. On a loaded machine one may come late
    // enough to skip a second, so the countdown is checked, not each tick.
    let mut seen = vec![texts(&states.recv_timeout(Duration::from_secs(3)).expect("refreshed on the click"))];
    while seen.last().is_some_and(|last| last.as_str() > "00:57") {
        let state = states.recv_timeout(Duration::from_secs(3)).expect("refreshed on the next second");
        seen.push(texts(&state));
    }
    assert_eq!(seen[0], "01:00", "{seen:?}");
    assert!(seen.len() >= 3, "at least two refreshes on its own: {seen:?}");
    assert!(seen.windows(2).all(|pair| pair[1] < pair[0]), "counts down: {seen:?}");
    assert!(seen[1..].iter().all(|text| text.starts_with("00:5")), "{seen:?}");
}

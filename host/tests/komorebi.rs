//! Obi against komorebi's protocol: the messages it knows are komorebi's,
//! and its client talks to a simulated komorebi (`common/komorebi_simulator.rs`)
//! as komorebi-bar does: the state at start, a subscription, notifications
//! pushed to the widgets that read them, byte-exact batches, a reconnection
//! when komorebi comes back, and malformed notifications logged and skipped.

mod common;

use common::logs::logs;
use common::shared;
use common::tiler::wait_for_state;
use obi::config::model::Sides;
use obi::input::MouseActions;
use obi::tiler::komorebi::{MESSAGES, read_notification, read_state};
use obi::tiler::{Choice, Connection, Options, Status};
use obi::view::{Input, ScrollDirection};
use obi::wake::Waker;
use obi_test_support::komorebi_simulator::{Simulator, state, window, workspace};
use serde_json::json;
use std::path::Path;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// The 187 message names and their payload types, as the reference lists them.
#[test]
fn every_komorebi_message_is_known_with_its_payload() {
    let Some(shared) = shared() else { return };
    let text = std::fs::read_to_string(shared.join("reference/komorebi-socket-messages.json")).unwrap();
    let reference: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    let listed: Vec<(String, Vec<String>)> = reference
        .iter()
        .map(|message| {
            let types = message["content"].as_array().unwrap().iter().map(|ty| ty.as_str().unwrap().to_owned());
            (message["type"].as_str().unwrap().to_owned(), types.collect())
        })
        .collect();
    let known: Vec<(String, Vec<String>)> = MESSAGES
        .iter()
        .map(|(name, types)| ((*name).to_owned(), types.iter().map(|ty| (*ty).to_owned()).collect()))
        .collect();
    assert_eq!(known.len(), 187);
    assert_eq!(known, listed);
}

/// The old public examples of komorebi's state and notifications (2021):
/// the state reads, and notifications without a state are refused rather
/// than read as a bar with no workspaces.
#[test]
fn the_old_public_examples_are_read_with_tolerance() {
    let Some(shared) = shared() else { return };
    let fixtures = shared.join("reference/fixtures");
    let old = read_state(&std::fs::read_to_string(fixtures.join("state.readme-2021-08.json")).unwrap(), None).unwrap();
    assert!(!old.monitors.is_empty() && !old.monitors[0].workspaces.is_empty(), "{old:?}");
    let bsp = &old.monitors[0].workspaces[0];
    assert_eq!(bsp.name, "bsp");
    assert!(bsp.containers.iter().any(|container| container.windows.iter().any(|w| w.exe == "idea64.exe")));
    let notifications = std::fs::read_to_string(fixtures.join("notifications.README-HEAD.jsonl")).unwrap();
    for line in notifications.lines() {
        assert!(read_notification(line, None).is_err(), "{line}");
    }
}

fn two_workspaces(focused: usize) -> serde_json::Value {
    state(
        vec![
            workspace(Some("code"), &[&[window("main.rs", "code.exe")]], 0, "BSP"),
            workspace(None, &[], 0, "Columns"),
        ],
        focused,
    )
}

fn connect(dir: &Path, work_area_offset: Option<Sides>) -> Connection {
    connect_bars(dir, work_area_offset.map(|offset| (Some(0), offset)).into_iter().collect())
}

/// A connection for bars with these monitors and work area offsets.
fn connect_bars(dir: &Path, work_area_offsets: Vec<(Option<usize>, Sides)>) -> Connection {
    let _ = logs();
    Connection::start(&Options {
        choice: Choice::Named("komorebi"),
        komorebi_dir: Some(dir.to_owned()),
        monitor: Some(0),
        work_area_offsets,
        held: Default::default(),
    })
}

/// A waker whose wakes arrive on the receiver.
fn waker() -> (Waker, Receiver<()>) {
    let (woken, wakes) = mpsc::channel();
    (
        Waker::new(move || {
            let _ = woken.send(());
        }),
        wakes,
    )
}

fn subscription(pid: u32) -> String {
    format!(
        "{{\"type\":\"AddSubscriberSocketWithOptions\",\"content\":[\"obi-{pid}.sock\",{{\"filter_state_changes\":true}}]}}\n"
    )
}

#[test]
fn the_bar_subscribes_asks_for_the_state_and_is_told_of_changes() {
    let dir = tempfile::tempdir().unwrap();
    let komorebi = Simulator::start(dir.path(), two_workspaces(0));
    let connection = connect(dir.path(), None);
    let (waker, wakes) = waker();
    connection.status(&waker);
    let first = wait_for_state(&connection, Duration::from_secs(5), |_| true).expect("the state at start");
    assert_eq!(first.monitors[0].workspaces[1].name, "2", "an unnamed workspace is known by its number");
    assert_eq!(first.monitors[0].focused_workspace, 0);
    let received = komorebi.received();
    assert_eq!(received[0], subscription(std::process::id()), "subscribed first");
    assert_eq!(received[1], "{\"type\":\"State\"}", "then asked for the whole state");
    assert!(wakes.recv_timeout(Duration::from_secs(5)).is_ok(), "the reader was woken by the state");

    komorebi.set_state(two_workspaces(1));
    komorebi.notify(json!({ "type": "FocusWorkspaceNumber", "content": 1 }));
    assert!(wakes.recv_timeout(Duration::from_secs(5)).is_ok(), "woken by the notification");
    assert!(
        wait_for_state(&connection, Duration::from_secs(5), |state| state.monitors[0].focused_workspace == 1).is_some()
    );
}

/// A config's `monitor` names one of komorebi's by komorebi's own user
/// numbering; a reload that changes it shows the new monitor at once,
/// without waiting for komorebi's next notification.
#[test]
fn the_bar_monitor_follows_the_config_through_komorebis_numbering() {
    let dir = tempfile::tempdir().unwrap();
    let mut two_monitors = two_workspaces(0);
    let mut second = two_monitors["monitors"]["elements"][0].clone();
    second["name"] = json!("DISPLAY2");
    two_monitors["monitors"]["elements"].as_array_mut().unwrap().push(second);
    two_monitors["monitor_usr_idx_map"] = json!({ "0": 1, "1": 0 });
    let _komorebi = Simulator::start(dir.path(), two_monitors);
    let connection = connect(dir.path(), None);
    let first = wait_for_state(&connection, Duration::from_secs(5), |_| true).expect("the state at start");
    assert_eq!(first.bar_monitor, Some(1), "komorebi's monitor 0 is its second");

    let (waker, wakes) = waker();
    connection.status(&waker);
    connection.set_bar_monitor(Some(1));
    assert!(wakes.recv_timeout(Duration::from_secs(1)).is_ok(), "the widgets are woken");
    let Status::Connected(moved) = connection.current() else { panic!("still connected") };
    assert_eq!(moved.bar_monitor, Some(0));
    connection.set_bar_monitor(Some(7));
    let Status::Connected(gone) = connection.current() else { panic!("still connected") };
    assert_eq!(gone.bar_monitor, None, "a monitor komorebi has not");
}

#[test]
fn batches_are_sent_byte_for_byte_as_komorebi_bar_sends_them() {
    let dir = tempfile::tempdir().unwrap();
    let komorebi = Simulator::start(dir.path(), two_workspaces(0));
    let connection = connect(dir.path(), None);
    wait_for_state(&connection, Duration::from_secs(5), |_| true).expect("connected");
    let mouse = MouseActions::from_config(Some(
        &serde_json::from_value(
            json!({ "on_scroll_down": { "message": { "content": "Next", "type": "CycleFocusWorkspace" } } }),
        )
        .unwrap(),
    ));
    mouse.action(Input::Scroll(ScrollDirection::Down)).unwrap().run(&connection);
    let expected = concat!(
        "{\"type\":\"FocusMonitorAtCursor\"}\n",
        "{\"type\":\"MouseFollowsFocus\",\"content\":false}\n",
        "{\"type\":\"CycleFocusWorkspace\",\"content\":\"Next\"}\n",
        "{\"type\":\"MouseFollowsFocus\",\"content\":true}\n",
    );
    assert!(komorebi.wait_for(expected, Duration::from_secs(5)), "{:#?}", komorebi.received());
}

#[test]
fn the_work_area_offset_is_asked_for_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let komorebi = Simulator::start(dir.path(), two_workspaces(0));
    let offset = Sides { left: 0, top: 40, right: 0, bottom: 40 };
    let _connection = connect(dir.path(), Some(offset));
    let expected =
        "{\"type\":\"MonitorWorkAreaOffset\",\"content\":[0,{\"left\":0,\"top\":40,\"right\":0,\"bottom\":40}]}\n";
    assert!(komorebi.wait_for(expected, Duration::from_secs(5)), "{:#?}", komorebi.received());
}

#[test]
fn each_bar_asks_for_its_own_monitors_work_area_offset() {
    let dir = tempfile::tempdir().unwrap();
    let komorebi = Simulator::start(dir.path(), two_workspaces(0));
    let top = Sides { left: 0, top: 40, right: 0, bottom: 0 };
    let bottom = Sides { left: 0, top: 0, right: 0, bottom: 30 };
    let _connection = connect_bars(dir.path(), vec![(None, top), (Some(1), bottom)]);
    for expected in [
        "{\"type\":\"MonitorWorkAreaOffset\",\"content\":[0,{\"left\":0,\"top\":40,\"right\":0,\"bottom\":0}]}\n",
        "{\"type\":\"MonitorWorkAreaOffset\",\"content\":[1,{\"left\":0,\"top\":0,\"right\":0,\"bottom\":30}]}\n",
    ] {
        assert!(komorebi.wait_for(expected, Duration::from_secs(5)), "{expected}: {:#?}", komorebi.received());
    }
}

#[test]
fn it_reconnects_within_two_seconds_after_komorebi_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let komorebi = Simulator::start(dir.path(), two_workspaces(0));
    let connection = connect(dir.path(), None);
    wait_for_state(&connection, Duration::from_secs(5), |_| true).expect("connected");
    komorebi.stop();
    let until = Instant::now() + Duration::from_secs(5);
    while matches!(connection.current(), Status::Connected(_)) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(matches!(connection.current(), Status::Disconnected(_)), "komorebi's goodbye was heard");
    assert!(connection.send_batch(vec![obi::tiler::Message::unit("TogglePause")]).is_err(), "nothing to send to");

    let restarted = Instant::now();
    let komorebi = Simulator::start(dir.path(), two_workspaces(1));
    let back = wait_for_state(&connection, Duration::from_secs(2), |state| state.monitors[0].focused_workspace == 1);
    assert!(back.is_some(), "reconnected within 2 s of the restart ({:?})", restarted.elapsed());
    assert_eq!(komorebi.received()[0], subscription(std::process::id()), "subscribed again");
}

#[test]
fn a_malformed_notification_is_logged_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let komorebi = Simulator::start(dir.path(), two_workspaces(0));
    let connection = connect(dir.path(), None);
    wait_for_state(&connection, Duration::from_secs(5), |_| true).expect("connected");
    assert!(komorebi.wait_for_subscriber(Duration::from_secs(5)));
    komorebi.notify_raw("{\"event\": {\"type\": \"FocusChange\"}, \"state\": \"malformed-marker\"");
    komorebi.notify_raw("{\"event\": {\"type\": \"FocusChange\"}, \"state\": {}}");
    let logged = || String::from_utf8_lossy(&logs().lock().unwrap()).into_owned();
    let until = Instant::now() + Duration::from_secs(5);
    // The two are read in order, but the second may still be in flight when
    // the first is logged: wait for both.
    let both_logged = |log: &str| log.contains("malformed-marker") && log.contains("missing field `monitors`");
    while !both_logged(&logged()) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
    }
    let log = logged();
    let warning = log.lines().find(|line| line.contains("malformed-marker")).expect("the bad notification is logged");
    assert!(warning.contains("WARN") && warning.contains("keeping the last state"), "{warning}");
    assert!(log.contains("missing field `monitors`"), "the stateless one too");
    // The bar kept its state and goes on listening.
    assert!(matches!(connection.current(), Status::Connected(state) if state.monitors.len() == 1));
    komorebi.set_state(two_workspaces(1));
    komorebi.notify(json!({ "type": "FocusWorkspaceNumber", "content": 1 }));
    assert!(
        wait_for_state(&connection, Duration::from_secs(5), |state| state.monitors[0].focused_workspace == 1).is_some()
    );
}

/// A peer in komorebi's place that takes the bar and drops it at once, over
/// and over (an empty notification is komorebi's goodbye): the bar asks
/// again after 1 s, 2 s, 4 s …, not at once, so neither the loop nor the
/// log runs away.
#[test]
fn a_komorebi_that_drops_the_bar_at_once_again_and_again_is_asked_ever_more_slowly() {
    let dir = tempfile::tempdir().unwrap();
    let komorebi = Simulator::start(dir.path(), two_workspaces(0));
    let _connection = connect(dir.path(), None);
    assert!(komorebi.wait_for_subscriber(Duration::from_secs(5)));
    let flooded = Instant::now();
    while flooded.elapsed() < Duration::from_secs(8) {
        komorebi.notify_raw("");
        std::thread::sleep(Duration::from_millis(5));
    }
    let subscriptions = komorebi.received().iter().filter(|received| received.contains("AddSubscriber")).count();
    // Waits of 1, 2 and 4 s fit in 8 s: the first subscription and three more, one more at a stretch.
    assert!((2..=5).contains(&subscriptions), "{subscriptions} subscriptions in 8 s of goodbyes");
}

//! Obi against niri's IPC, through a simulated niri
//! (`common/niri_simulator.rs`) that follows the protocol note: the bar
//! takes niri's whole state from its event stream, shows its workspaces and
//! keyboard layout, follows its events, sends the right actions for a click
//! and a scroll, skips an event line it cannot read with a log line, and
//! connects again after niri restarts.
//!
//! The client finds niri through `NIRI_SOCKET`, which is the process's:
//! the whole story is one test, told in order.

mod common;

use common::logs::{logged, logs};
use common::texts;
use common::tiler::{komorebi_widget_over, wait_for_disconnection, wait_for_state};
use obi::input::MouseActions;
use obi::tiler::{Choice, Connection, Message, Options, ScreenCast, State};
use obi::view::{Input, ScrollDirection};
use obi_test_support::niri_simulator::{NiriSimulator, two_workspaces};
use serde_json::json;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(10);

fn focused(state: &State) -> usize {
    state.monitors[0].focused_workspace
}

#[test]
fn obi_follows_a_niri_and_drives_it() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("niri.wayland-1.4242.sock");
    // SAFETY: this is the test binary's only test, and no thread of it
    // reads the environment yet.
    unsafe { std::env::set_var("NIRI_SOCKET", &socket) };
    let _ = logs();
    let niri = NiriSimulator::start(&socket, two_workspaces());
    let connection = Connection::start(&Options { choice: Choice::Auto, ..Options::default() });

    // The whole state, from the event stream alone: niri sends the
    // workspaces, the windows and the keyboard's layouts as events of their
    // own, which may be shown apart.
    let whole = |state: &State| !state.monitors.is_empty() && state.keyboard.is_some();
    let state = wait_for_state(&connection, TIMEOUT, whole).expect("connected to niri");
    let names: Vec<&str> = state.monitors[0].workspaces.iter().map(|workspace| workspace.name.as_str()).collect();
    assert_eq!(names, ["1", "web", "3"]);
    assert_eq!(focused(&state), 0);
    assert!(state.monitors[0].workspaces[2].is_empty(), "niri's empty last workspace");
    assert_eq!(state.monitors[0].workspaces[1].containers[0].windows[0].title, "news");
    assert_eq!(state.keyboard.as_ref().map(|layout| layout.name.as_str()), Some("English (US)"));

    // Events move it along; a line that cannot be read is skipped, said in the log.
    assert!(niri.wait_for_stream(Duration::from_secs(5)));
    niri.event(r#"{"WorkspaceActivated":{"id":12,"focused":true}}"#);
    assert!(wait_for_state(&connection, TIMEOUT, |state| focused(state) == 1).is_some(), "the switch was followed");
    niri.event("{ this is not json");
    niri.event(r#"{"KeyboardLayoutSwitched":{"idx":1}}"#);
    assert!(
        wait_for_state(&connection, TIMEOUT, |state| state.keyboard.as_ref().is_some_and(|k| k.name == "German"))
            .is_some()
    );
    assert!(logged().contains("niri sent a line Obi cannot read (not JSON"), "{}", logged());

    // A screen cast (26.04 on) while it is active.
    niri.event(
        &json!({ "CastStartedOrChanged": { "cast": {
        "stream_id": 4, "session_id": 1, "kind": "PipeWire", "target": { "Output": { "name": "DP-1" } },
        "is_dynamic_target": false, "is_active": true, "pid": 30, "pw_node_id": 71 } } })
        .to_string(),
    );
    let casting = |state: &State| state.screen_casts == [ScreenCast::Output(Some("DP-1".into()))];
    assert!(wait_for_state(&connection, TIMEOUT, casting).is_some(), "the cast was followed");
    niri.event(r#"{"CastStopped":{"stream_id":4}}"#);
    assert!(wait_for_state(&connection, TIMEOUT, |state| state.screen_casts.is_empty()).is_some(), "and its end");

    // A window titled at length by its program: the widget shows it cut,
    // never failing (a view's text is 4 KiB at most).
    let long = "Ω".repeat(2560);
    niri.event(
        &json!({ "WindowOpenedOrChanged": { "window": {
        "id": 2, "title": long, "app_id": "firefox", "pid": 20, "workspace_id": 12,
        "is_focused": true, "is_floating": false, "is_urgent": false } } })
        .to_string(),
    );
    assert!(
        wait_for_state(&connection, TIMEOUT, |state| state.monitors[0].workspaces[1].containers[0].windows[0].title
            == long)
        .is_some()
    );
    let shown = texts(&komorebi_widget_over(&connection));
    let title = &shown[shown.find('Ω').expect("the title shown")..];
    assert!(title.len() <= 512 && title.ends_with('…'), "{} bytes: {shown}", title.len());

    // A click on the first workspace, and a scroll with the bar's mouse config.
    connection.send_batch(vec![Message::with("FocusWorkspaceNumber", json!(0))]).unwrap();
    let by_id = json!({ "FocusWorkspace": { "reference": { "Id": 11 } } });
    assert!(niri.wait_for_action(&by_id, Duration::from_secs(5)), "{:?}", niri.actions());
    let mouse: obi::config::model::MouseConfig = serde_json::from_value(json!({
        "on_scroll_down": { "message": { "type": "CycleFocusWorkspace", "content": "Next" } }
    }))
    .unwrap();
    MouseActions::from_config(Some(&mouse)).action(Input::Scroll(ScrollDirection::Down)).unwrap().run(&connection);
    let down = json!({ "FocusWorkspaceDown": {} });
    assert!(niri.wait_for_action(&down, Duration::from_secs(5)), "{:?}", niri.actions());

    // niri restarts: the bar connects again and is told the state anew.
    niri.stop();
    assert!(wait_for_disconnection(&connection, TIMEOUT), "niri's going was heard");
    let mut restarted = two_workspaces();
    restarted["workspaces"][0]["is_active"] = json!(false);
    restarted["workspaces"][2]["is_active"] = json!(true);
    let _niri = NiriSimulator::start(&socket, restarted);
    assert!(
        wait_for_state(&connection, TIMEOUT, |state| focused(state) == 2).is_some(),
        "connected again after the restart"
    );
}

//! Obi against Hyprland's IPC, through a simulated Hyprland
//! (`common/hyprland_simulator.rs`) that follows the protocol note: the
//! bar shows its workspaces, keyboard layout and submap, follows its events, sends
//! the right requests for a click and a scroll (in the dialect its config
//! speaks), skips a line that is not an event with a log line, and
//! connects again after Hyprland restarts.
//!
//! The client finds Hyprland through `HYPRLAND_INSTANCE_SIGNATURE` and
//! `XDG_RUNTIME_DIR`, which are the process's: the whole story is one test,
//! told in order.

mod common;

use common::logs::{logged, logs};
use common::texts;
use common::tiler::{komorebi_widget_over, wait_for_disconnection, wait_for_state};
use obi::input::MouseActions;
use obi::tiler::{Choice, Connection, Message, Options, ScreenCast, State};
use obi::view::{Input, ScrollDirection};
use obi_test_support::hyprland_simulator::{HyprlandSimulator, two_workspaces};
use serde_json::json;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(10);

fn focused(state: &State) -> usize {
    state.monitors[0].focused_workspace
}

#[test]
fn obi_follows_a_hyprland_and_drives_it() {
    let runtime = tempfile::tempdir().unwrap();
    let instance = runtime.path().join("hypr/obi-test-instance");
    std::fs::create_dir_all(&instance).unwrap();
    // SAFETY: this is the test binary's only test, and no thread of it
    // reads the environment yet.
    unsafe {
        std::env::set_var("XDG_RUNTIME_DIR", runtime.path());
        std::env::set_var("HYPRLAND_INSTANCE_SIGNATURE", "obi-test-instance");
    }
    let _ = logs();
    let hyprland = HyprlandSimulator::start(&instance, two_workspaces(1));
    let connection = Connection::start(&Options { choice: Choice::Auto, ..Options::default() });

    // Found by its signature, read whole: workspaces, windows, keyboard.
    let state =
        wait_for_state(&connection, TIMEOUT, |state| !state.monitors.is_empty()).expect("connected to Hyprland");
    let names: Vec<&str> = state.monitors[0].workspaces.iter().map(|workspace| workspace.name.as_str()).collect();
    assert_eq!(names, ["1", "2"]);
    assert_eq!(focused(&state), 0);
    assert_eq!(state.monitors[0].workspaces[1].containers[0].windows[0].title, "two");
    assert_eq!(state.keyboard.as_ref().map(|layout| layout.name.as_str()), Some("English (US)"));
    assert!(connection.tells_keyboard_layout());

    // An event makes the bar read the state again.
    assert!(hyprland.wait_for_listener(Duration::from_secs(5)));
    hyprland.set_state(two_workspaces(2));
    hyprland.event("workspacev2>>2,2");
    assert!(wait_for_state(&connection, TIMEOUT, |state| focused(state) == 1).is_some(), "the switch was followed");

    // A submap is the binding mode while it is on; an empty one is the default again.
    hyprland.event("submap>>resize");
    assert!(wait_for_state(&connection, TIMEOUT, |state| state.mode.as_deref() == Some("resize")).is_some());
    hyprland.event("submap>>");
    assert!(wait_for_state(&connection, TIMEOUT, |state| state.mode.is_none()).is_some(), "back to the default");

    // A screen shared (an application through the portal) is said by an event alone.
    hyprland.event("screencast>>1,1");
    let window_cast = |state: &State| state.screen_casts == [ScreenCast::Window(None)];
    assert!(wait_for_state(&connection, TIMEOUT, window_cast).is_some(), "a window shared");
    hyprland.event("screencast>>0,1");
    assert!(wait_for_state(&connection, TIMEOUT, |state| state.screen_casts.is_empty()).is_some(), "no longer");

    // A line that is not an event is skipped, said in the log; the next
    // event is read all the same.
    hyprland.event("this is not an event");
    hyprland.set_state(two_workspaces(1));
    hyprland.event("workspacev2>>1,1");
    assert!(wait_for_state(&connection, TIMEOUT, |state| focused(state) == 0).is_some());
    assert!(logged().contains("Hyprland sent a line Obi cannot read (not an event"), "{}", logged());

    // A window titled at length by its program: the widget shows it cut,
    // never failing (a view's text is 4 KiB at most).
    let long = "Ω".repeat(2560);
    let mut titled = two_workspaces(1);
    titled["clients"][0]["title"] = json!(long);
    titled["activewindow"]["title"] = json!(long);
    hyprland.set_state(titled);
    hyprland.event("windowtitlev2>>a1,long");
    let title_is_long = |state: &State| state.monitors[0].workspaces[0].containers[0].windows[0].title == long;
    assert!(wait_for_state(&connection, TIMEOUT, title_is_long).is_some(), "the long title was read");
    let shown = texts(&komorebi_widget_over(&connection));
    let title = &shown[shown.find('Ω').expect("the title shown")..];
    assert!(title.len() <= 512 && title.ends_with('…'), "{} bytes: {shown}", title.len());

    // A click on the second workspace, and a scroll with the bar's mouse config.
    connection.send_batch(vec![Message::with("FocusWorkspaceNumber", json!(1))]).unwrap();
    assert!(hyprland.wait_for_request("dispatch workspace 2", Duration::from_secs(5)), "{:?}", hyprland.received());
    let mouse: obi::config::model::MouseConfig = serde_json::from_value(json!({
        "on_scroll_down": { "message": { "type": "CycleFocusWorkspace", "content": "Next" } }
    }))
    .unwrap();
    let actions = MouseActions::from_config(Some(&mouse));
    actions.action(Input::Scroll(ScrollDirection::Down)).unwrap().run(&connection);
    assert!(hyprland.wait_for_request("dispatch workspace m+1", Duration::from_secs(5)), "{:?}", hyprland.received());
    assert!(
        hyprland.wait_for_request("dispatch focusmonitor DP-1", Duration::from_secs(5)),
        "the cursor's monitor focused first, as komorebi-bar asks: {:?}",
        hyprland.received()
    );

    // Hyprland restarts, now with a Lua config: the bar connects again and
    // writes its dispatches as Lua.
    hyprland.stop();
    assert!(wait_for_disconnection(&connection, TIMEOUT), "Hyprland's going was heard");
    let mut lua = two_workspaces(2);
    lua["status"] = json!({ "configProvider": "lua", "backend": "drm" });
    let hyprland = HyprlandSimulator::start(&instance, lua);
    let back = wait_for_state(&connection, TIMEOUT, |state| focused(state) == 1);
    assert!(back.is_some(), "connected again after the restart");
    connection.send_batch(vec![Message::with("FocusWorkspaceNumber", json!(0))]).unwrap();
    let expected = r#"dispatch hl.dsp.focus({ workspace = "1" })"#;
    assert!(hyprland.wait_for_request(expected, Duration::from_secs(5)), "{:?}", hyprland.received());
}

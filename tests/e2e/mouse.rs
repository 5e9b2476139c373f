//! The bar's `mouse` config under Xvfb: a double click where no item takes
//! it runs its command with the environment's variables resolved (a single
//! click runs nothing), and a middle click sends komorebi-bar's batch to a
//! simulated komorebi, byte for byte.

use crate::komorebi_simulator::{Simulator, state, window, workspace};
use crate::support::{XSession, config_file, have_tools, run, wait_for};
use std::process::Stdio;
use std::time::Duration;

const TOOLS: &[&str] = &["Xvfb", "i3", "xdotool", "xwininfo"];

#[test]
fn a_double_click_on_the_bar_runs_its_command_and_a_single_click_does_not() {
    if !have_tools("double click test", TOOLS) {
        return;
    }
    let session = XSession::start(1280, 720);
    let (dir, config) = config_file(
        r#"{ "height": 40, "left_widgets": [], "right_widgets": [],
             "mouse": { "on_primary_double_click": "echo double >> \"%OBI_E2E_MARK%\"" } }"#,
    );
    let mark = dir.path().join("clicked");
    let (_bar, _window) = session.start_bar_with_env(&config, Stdio::null(), &[("OBI_E2E_MARK", mark.as_os_str())]);
    run(session.command("xdotool").args(["mousemove", "600", "20", "click", "1"]));
    std::thread::sleep(Duration::from_millis(800));
    assert!(!mark.exists(), "a single click runs nothing");
    run(session.command("xdotool").args(["click", "--repeat", "2", "--delay", "80", "1"]));
    assert!(wait_for(Duration::from_secs(10), || mark.exists()), "the double click ran its command");
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(std::fs::read_to_string(&mark).unwrap(), "double\n", "once");
}

#[test]
fn a_middle_click_sends_komorebi_bars_batch() {
    if !have_tools("komorebi mouse test", TOOLS) {
        return;
    }
    let session = XSession::start(1280, 720);
    let komorebi_dir = tempfile::tempdir().unwrap();
    let komorebi = Simulator::start(
        komorebi_dir.path(),
        state(vec![workspace(Some("one"), &[&[window("term", "wt.exe")]], 0, "BSP")], 0),
    );
    let (_dir, config) = config_file(
        r#"{ "height": 40, "left_widgets": [], "right_widgets": [],
             "mouse": { "on_middle_click": { "message": { "type": "TogglePause" } } } }"#,
    );
    let (_bar, _window) =
        session.start_bar_with_env(&config, Stdio::null(), &[("OBI_KOMOREBI_DIR", komorebi_dir.path().as_os_str())]);
    assert!(komorebi.wait_for_subscriber(Duration::from_secs(10)), "the bar found komorebi by $OBI_KOMOREBI_DIR");
    let expected = concat!(
        "{\"type\":\"FocusMonitorAtCursor\"}\n",
        "{\"type\":\"MouseFollowsFocus\",\"content\":false}\n",
        "{\"type\":\"TogglePause\"}\n",
        "{\"type\":\"MouseFollowsFocus\",\"content\":true}\n",
    );
    let sent = wait_for(Duration::from_secs(10), || {
        run(session.command("xdotool").args(["mousemove", "600", "20", "click", "2"]));
        komorebi.wait_for(expected, Duration::from_millis(500))
    });
    assert!(sent, "komorebi received: {:#?}", komorebi.received());
}

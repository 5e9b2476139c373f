//! The bar with a real i3 under Xvfb: the Komorebi widget shows i3's
//! workspaces, a click on one makes i3 focus it, scrolling the bar with a
//! `CycleFocusWorkspace` mouse config moves i3 along, and the bar outlives
//! i3 being killed and started again; i3's binding mode shows while it
//! is on. The bar is read back with OCR
//! (tesseract), which also says where each word is, for the clicks.

use crate::ocr::{HEIGHT, column_of, wait_for_words};
use crate::support::{XSession, config_file, have_tools, run, wait_for};
use std::process::Stdio;
use std::time::Duration;

const TOOLS: &[&str] = &["Xvfb", "i3", "i3-msg", "xdotool", "xmessage", "xwininfo", "import", "convert", "tesseract"];

/// The Komorebi widget's workspaces alone on the left, large enough to read,
/// and `mouse` as the bar's mouse config.
fn config(mouse: &str) -> String {
    format!(
        r#"{{ "height": {HEIGHT}, "font_size": 20, "font_family": "DejaVu Sans",
             "left_widgets": [ {{ "Komorebi": {{ "workspaces": {{ "enable": true, "hide_empty_workspaces": false, "display": "Text" }} }} }} ],
             "right_widgets": [], "mouse": {mouse} }}"#
    )
}

/// Opens a window on the workspace called `name` (which i3 then keeps).
pub fn populate(session: &XSession, name: &str) {
    i3_msg(session, &format!("workspace {name}"));
    let window =
        session.command("xmessage").args(["-name", name, name]).stdout(Stdio::null()).stderr(Stdio::null()).spawn();
    std::mem::forget(window.expect("starting xmessage"));
    // Mapped, and so placed on the workspace that has focus now.
    assert!(session.find_window(&format!("^{name}$"), Duration::from_secs(10)).is_some(), "the window {name} appeared");
}

pub fn i3_msg(session: &XSession, command: &str) {
    let output = run(session.command("i3-msg").arg(command));
    assert!(output.status.success(), "i3-msg {command}: {output:?}");
}

fn click(session: &XSession, x: u32) {
    run(session.command("xdotool").args(["mousemove", &x.to_string(), &(HEIGHT / 2).to_string(), "click", "1"]));
}

#[test]
fn the_bar_shows_i3s_workspaces_and_a_click_focuses_one() {
    if !have_tools("i3 workspaces test", TOOLS) {
        return;
    }
    let session = XSession::start(1280, 720);
    populate(&session, "alpha");
    populate(&session, "beta");
    i3_msg(&session, "workspace alpha");
    let (dir, config) = config_file(&config("null"));
    let (mut bar, _window) = session.start_bar(&config, Stdio::null());
    let words = wait_for_words(&session, dir.path(), 1280, &["beta"], "i3-bar");
    let beta = words.iter().find(|(word, _)| word == "beta").unwrap().1;
    assert_eq!(session.focused_workspace().as_deref(), Some("alpha"));

    click(&session, beta);
    assert!(
        wait_for(Duration::from_secs(10), || session.focused_workspace().as_deref() == Some("beta")),
        "i3 focused beta: {:?}",
        session.i3_workspaces()
    );
    // The bar follows: alpha is no longer the selected one, so it reads as plain text.
    wait_for_words(&session, dir.path(), 1280, &["alpha"], "i3-bar");
    assert!(bar.0.try_wait().unwrap().is_none(), "the bar is still running");
}

/// i3's binding mode shows after the workspaces while it is on, in the
/// theme's urgent fill as i3bar draws it, and goes with it. (Read by its
/// fill: tesseract leaves out a word in a fill of its own, the selected
/// workspace's too; the widget's own tests read its text.)
#[test]
fn i3s_binding_mode_shows_while_it_is_on() {
    if !have_tools("i3 binding mode test", TOOLS) {
        return;
    }
    let session = XSession::start(1280, 720);
    populate(&session, "alpha");
    populate(&session, "beta");
    i3_msg(&session, "workspace alpha");
    let (dir, config) = config_file(&config("{}"));
    let (_bar, _window) = session.start_bar(&config, Stdio::null());
    let words = wait_for_words(&session, dir.path(), 1280, &["beta"], "i3-mode-bar");
    let after_beta = column_of(&words, "beta") + 30;
    let urgent_after_beta = || session.grab().rows(0, HEIGHT).urgent(after_beta, 1280);
    assert_eq!(urgent_after_beta(), 0, "nothing urgent before the mode is on");
    i3_msg(&session, "mode resize");
    let shown = wait_for(Duration::from_secs(10), || urgent_after_beta() > 300);
    let artifact = crate::support::workspace().join("target/e2e-artifacts/i3-mode-resize.png");
    std::fs::create_dir_all(artifact.parent().unwrap()).unwrap();
    run(session.command("import").args(["-window", "root", "-crop", "1280x40+0+0", "+repage"]).arg(&artifact));
    assert!(shown, "the binding mode never showed after the workspaces ({})", artifact.display());
    i3_msg(&session, "mode default");
    assert!(wait_for(Duration::from_secs(10), || urgent_after_beta() == 0), "the mode stayed on the bar");
}

#[test]
fn scrolling_the_bar_cycles_i3s_workspaces() {
    if !have_tools("i3 scroll test", TOOLS) {
        return;
    }
    let session = XSession::start(1280, 720);
    populate(&session, "alpha");
    populate(&session, "beta");
    i3_msg(&session, "workspace alpha");
    let mouse = r#"{ "on_scroll_down": { "message": { "type": "CycleFocusWorkspace", "content": "Next" } } }"#;
    let (dir, config) = config_file(&config(mouse));
    let (_bar, _window) = session.start_bar(&config, Stdio::null());
    wait_for_words(&session, dir.path(), 1280, &["beta"], "i3-bar");
    // One notch down, away from the widget's items, where no item takes the
    // scroll. winit 0.30 makes a scroll of both the press and the release of
    // a synthetic (XTest) wheel button, where a real wheel's notch is one
    // scroll motion: the press alone stands for the notch.
    run(session.command("xdotool").args(["mousemove", "900", &(HEIGHT / 2).to_string(), "mousedown", "5"]));
    assert!(
        wait_for(Duration::from_secs(10), || session.focused_workspace().as_deref() == Some("beta")),
        "one notch down moved i3 to the next workspace: {:?}",
        session.i3_workspaces()
    );
}

#[test]
fn the_bar_survives_i3_being_killed_and_started_again() {
    if !have_tools("i3 restart test", TOOLS) {
        return;
    }
    let mut session = XSession::start(1280, 720);
    populate(&session, "alpha");
    populate(&session, "beta");
    let (dir, config) = config_file(&config("null"));
    let log = dir.path().join("obi.log");
    let (mut bar, _window) = session.start_bar(&config, Stdio::from(std::fs::File::create(&log).unwrap()));
    wait_for_words(&session, dir.path(), 1280, &["alpha"], "i3-bar");

    session.restart_window_manager();
    populate(&session, "gamma");
    populate(&session, "delta");
    // The bar found the new i3 (elsewhere on disk), and a click still works.
    let words = wait_for_words(&session, dir.path(), 1280, &["gamma"], "i3-bar");
    let gamma = words.iter().find(|(word, _)| word == "gamma").unwrap().1;
    click(&session, gamma);
    assert!(
        wait_for(Duration::from_secs(10), || session.focused_workspace().as_deref() == Some("gamma")),
        "i3 focused gamma after its restart: {:?}",
        session.i3_workspaces()
    );
    assert!(bar.0.try_wait().unwrap().is_none(), "the bar is still running");
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.contains("i3 went away"), "{logged}");
    assert_eq!(logged.matches("connected to i3").count(), 2, "{logged}");
}

/// A window's `_NET_WM_ICON` is what the Komorebi widget shows for it.
#[test]
fn a_windows_own_icon_is_shown() {
    if !have_tools("i3 window icon test", &["Xvfb", "i3", "i3-msg", "xdotool", "xmessage", "xprop"]) {
        return;
    }
    let session = XSession::start(1280, 720);
    populate(&session, "alpha");
    let window = session.find_window("^alpha$", Duration::from_secs(10)).unwrap();
    // A 6x6 icon, pure red (xprop sets at most 64 values).
    let icon: Vec<String> =
        [6, 6].into_iter().chain(std::iter::repeat_n(0xffff0000u32, 36)).map(|v| v.to_string()).collect();
    let set = run(session
        .command("xprop")
        .args(["-id", &window, "-f", "_NET_WM_ICON", "32c", "-set", "_NET_WM_ICON"])
        .arg(icon.join(",")));
    assert!(set.status.success(), "xprop: {set:?}");
    let (dir, config) = config_file(
        r#"{ "height": 40, "transparency_alpha": 255,
             "left_widgets": [ { "Komorebi": { "workspaces": { "enable": true, "hide_empty_workspaces": false, "display": "AllIcons" } } } ],
             "right_widgets": [] }"#,
    );
    let png = dir.path().join("bar.png");
    let output = run(crate::support::obi()
        .env("DISPLAY", &session.display)
        .arg("--config")
        .arg(&config)
        .arg("--screenshot")
        .arg(&png)
        .args(["--width", "400"]));
    assert!(output.status.success(), "obi: {}", String::from_utf8_lossy(&output.stderr));
    let frame = crate::support::Frame::read(&png);
    let red = (0..frame.height)
        .flat_map(|y| (0..frame.width).map(move |x| (x, y)))
        .filter(|&(x, y)| matches!(frame.pixel(x, y), [r, g, b, _] if r > 200 && g < 60 && b < 60))
        .count();
    assert!(red > 100, "the icon's red is on the bar: {red} pixels");
}

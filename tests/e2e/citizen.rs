//! The bar among other X11 clients: the space it reserves, the desktops it
//! is on, its visual, and how it follows its monitor to a new resolution.

use crate::support::{Reaped, XSession, config_file, have_tools, run, wait_for};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

const TOOLS: &[&str] = &["Xvfb", "i3", "i3-msg", "xdotool", "xprop", "xwininfo", "xmessage"];

/// Starts obi with its log in `obi.log` beside `config`.
fn start_bar(session: &XSession, config: &Path) -> (Reaped, String) {
    let log = std::fs::File::create(config.with_file_name("obi.log")).unwrap();
    session.start_bar(config, Stdio::from(log))
}

fn property(session: &XSession, window: &str, name: &str) -> String {
    let output = run(session.command("xprop").args(["-id", window, name]));
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// Opens a window for i3 to tile over the whole workspace, and returns its
/// geometry once it is tiled.
fn tiled_filler(session: &XSession) -> (Reaped, (i32, i32, u32, u32)) {
    let client = session
        .command("xmessage")
        .args(["-title", "filler", "a window that takes all the room it is given"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting xmessage");
    let window = session.find_window("^filler$", Duration::from_secs(20)).expect("the filler window appears");
    let mut geometry = (0, 0, 0, 0);
    assert!(
        wait_for(Duration::from_secs(10), || {
            geometry = session.geometry(&window);
            geometry.2 > 1000
        }),
        "i3 tiles the window over the workspace: {geometry:?}"
    );
    (Reaped(client), geometry)
}

#[test]
fn a_tiled_window_leaves_the_top_bar_its_room() {
    if !have_tools("strut test", TOOLS) {
        return;
    }
    let session = XSession::start(1280, 720);
    let (_dir, config) =
        config_file(r#"{ "height": 32, "left_widgets": [ { "Cpu": { "enable": true } } ], "right_widgets": [] }"#);
    let (_bar, bar) = start_bar(&session, &config);
    assert_eq!(
        property(&session, &bar, "_NET_WM_STRUT_PARTIAL"),
        "_NET_WM_STRUT_PARTIAL(CARDINAL) = 0, 0, 32, 0, 0, 0, 0, 0, 0, 1279, 0, 0"
    );
    assert_eq!(property(&session, &bar, "_NET_WM_DESKTOP"), "_NET_WM_DESKTOP(CARDINAL) = 4294967295", "all desktops");
    assert!(property(&session, &bar, "_NET_WM_STATE").contains("_NET_WM_STATE_STICKY"));

    let (_client, geometry) = tiled_filler(&session);
    let (_, y, _, height) = geometry;
    assert!(y >= 32, "the window starts below the bar: {geometry:?}");
    assert!(y as u32 + height <= 720, "{geometry:?}");
    assert_eq!(session.geometry(&bar), (0, 0, 1280, 32), "the bar is where it was");
}

/// Placed by `position`, as komorebi configs place theirs, or by Obi's `edge`.
#[test]
fn a_bar_at_the_bottom_reserves_the_bottom_edge() {
    if !have_tools("bottom strut test", TOOLS) {
        return;
    }
    for placed in [r#""position": { "start": { "x": 0, "y": 690 } }"#, r#""edge": "Bottom""#] {
        let session = XSession::start(1280, 720);
        let (_dir, config) = config_file(&format!(
            r#"{{ "height": 30, {placed}, "left_widgets": [ {{ "Cpu": {{ "enable": true }} }} ], "right_widgets": [] }}"#
        ));
        let (_bar, bar) = start_bar(&session, &config);
        assert_eq!(
            property(&session, &bar, "_NET_WM_STRUT_PARTIAL"),
            "_NET_WM_STRUT_PARTIAL(CARDINAL) = 0, 0, 0, 30, 0, 0, 0, 0, 0, 0, 0, 1279",
            "{placed}"
        );
        let (_client, geometry) = tiled_filler(&session);
        assert!(geometry.1 as u32 + geometry.3 <= 690, "the window ends above the bar: {geometry:?}");
        assert_eq!(session.geometry(&bar).1, 690, "the bar sits at the bottom ({placed})");
    }
}

#[test]
fn a_translucent_bar_has_an_argb_visual_under_a_compositor_and_none_without() {
    if !have_tools("visual test", &[TOOLS, &["xcompmgr"]].concat()) {
        return;
    }
    let (_dir, config) = config_file(
        r#"{ "height": 30, "transparency_alpha": 160, "left_widgets": [ { "Cpu": { "enable": true } } ], "right_widgets": [] }"#,
    );

    let plain = XSession::start(800, 600);
    let (_bar, bar) = start_bar(&plain, &config);
    assert_eq!(plain.depth(&bar), 24, "nothing would show through without a compositor");

    let composited = XSession::start(800, 600);
    let _compositor = Reaped(composited.command("xcompmgr").stderr(Stdio::null()).spawn().expect("starting xcompmgr"));
    assert!(wait_for(Duration::from_secs(10), || compositor_runs(&composited.display)), "xcompmgr came up");
    let (_bar, bar) = start_bar(&composited, &config);
    assert_eq!(composited.depth(&bar), 32, "an ARGB visual");
}

/// Whether a compositor owns `_NET_WM_CM_S0` on `display`, as the bar checks.
fn compositor_runs(display: &str) -> bool {
    use x11rb::protocol::xproto::ConnectionExt;
    let Ok((connection, _)) = x11rb::connect(Some(display)) else { return false };
    let atom = connection.intern_atom(false, b"_NET_WM_CM_S0").ok().and_then(|cookie| cookie.reply().ok());
    let owner = atom.and_then(|atom| connection.get_selection_owner(atom.atom).ok()?.reply().ok());
    owner.is_some_and(|owner| owner.owner != x11rb::NONE)
}

#[test]
fn the_bar_follows_its_monitor_to_a_new_resolution() {
    if !have_tools("monitor change test", &[TOOLS, &["Xephyr"]].concat()) {
        return;
    }
    let session = XSession::resizable(1000, 300);
    let (_dir, config) = config_file(
        r#"{ "height": 28, "monitor": 0, "left_widgets": [ { "Cpu": { "enable": true } } ],
             "right_widgets": [ { "Time": { "enable": true, "format": "TwentyFourHour" } } ] }"#,
    );
    let (_bar, bar) = start_bar(&session, &config);
    assert_eq!(session.geometry(&bar), (0, 0, 1000, 28));

    session.resize(1400, 400);
    let mut geometry = (0, 0, 0, 0);
    assert!(
        wait_for(Duration::from_secs(10), || {
            geometry = session.geometry(&bar);
            geometry == (0, 0, 1400, 28)
        }),
        "the bar spans the new width: {geometry:?}; its log: {}",
        std::fs::read_to_string(config.with_file_name("obi.log")).unwrap_or_default()
    );
    assert!(
        wait_for(Duration::from_secs(5), || property(&session, &bar, "_NET_WM_STRUT_PARTIAL")
            .ends_with("0, 1399, 0, 0")),
        "the strut follows: {}",
        property(&session, &bar, "_NET_WM_STRUT_PARTIAL")
    );
    // The window has its new size before it is painted at it.
    let clock_at_the_right = || {
        let bar = session.grab().rows(0, 28);
        bar.ink(bar.pixel(0, 0), 1200, 1400) > 50
    };
    assert!(wait_for(Duration::from_secs(5), clock_at_the_right), "the clock is drawn at the new right edge");
}

#[test]
fn a_bar_whose_monitor_is_gone_hides_until_it_is_back() {
    if !have_tools("missing monitor test", TOOLS) {
        return;
    }
    let session = XSession::start(1024, 600);
    let on = |monitor: usize| {
        format!(
            r#"{{ "height": 30, "monitor": {monitor}, "left_widgets": [ {{ "Cpu": {{ "enable": true }} }} ], "right_widgets": [] }}"#
        )
    };
    let (dir, config) = config_file(&on(0));
    let (_bar, _window) = start_bar(&session, &config);
    let log = || std::fs::read_to_string(dir.path().join("obi.log")).unwrap_or_default();
    let visible = || session.find_window("^obi$", Duration::from_millis(300)).is_some();

    // Monitors are only ever one here: a config naming another stands for its monitor going away.
    std::fs::write(&config, on(1)).unwrap();
    assert!(
        wait_for(Duration::from_secs(10), || log().contains("the bar is hidden until it is back")),
        "the wait is logged: {}",
        log()
    );
    assert!(log().contains("monitor 1 does not exist; found 0: screen 1024x600+0+0"), "{}", log());
    assert!(wait_for(Duration::from_secs(5), || !visible()), "the bar is hidden");

    std::fs::write(&config, on(0)).unwrap();
    assert!(wait_for(Duration::from_secs(10), visible), "the bar is back: {}", log());
    assert!(log().contains("the bar's monitor is back"), "{}", log());
}

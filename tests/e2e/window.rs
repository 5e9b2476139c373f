//! The bar as a window on a real X server managed by i3.

use crate::support::{Reaped, XSession, config_file, have_tools, obi, run, wait_for};
use std::process::Stdio;
use std::time::Duration;

#[test]
fn the_bar_is_a_dock_of_its_configured_height_and_keeps_updating() {
    if !have_tools("bar window test", &["Xvfb", "i3", "i3-msg", "xdotool", "xprop", "xwininfo", "import"]) {
        return;
    }
    let session = XSession::start(1280, 720);
    let (_dir, config) = config_file(
        r#"{
          "height": 32,
          "left_widgets": [ { "Cpu": { "enable": true, "data_refresh_interval": 1 } } ],
          "right_widgets": [ { "Time": { "enable": true, "format": "TwentyFourHour" } } ]
        }"#,
    );
    let bar = obi()
        .arg("--config")
        .arg(&config)
        .env("DISPLAY", &session.display)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting obi");
    let mut bar = Reaped(bar);

    let window = session.find_window("^obi$", Duration::from_secs(20)).expect("the bar window appears");
    let types = run(session.command("xprop").args(["-id", &window, "_NET_WM_WINDOW_TYPE"]));
    assert!(String::from_utf8_lossy(&types.stdout).contains("_NET_WM_WINDOW_TYPE_DOCK"), "{types:?}");
    let info = String::from_utf8_lossy(&run(session.command("xwininfo").args(["-id", &window])).stdout).into_owned();
    assert!(info.contains("Height: 32"), "{info}");
    assert!(info.contains("Width: 1280"), "{info}");

    // Both widgets have drawn once there is ink on the left (Cpu) and on the
    // right (Time) of the bar's background, and none in the middle; the
    // clock ticking then changes the frame within two seconds.
    let mut first = session.grab().rows(0, 32);
    let drawn = |frame: &crate::support::Frame| {
        let background = frame.pixel(0, 0);
        frame.ink(background, 0, 400) > 50 && frame.ink(background, 880, 1280) > 50 && frame.ink(background, 500, 780) == 0
    };
    assert!(wait_for(Duration::from_secs(10), || {
        first = session.grab().rows(0, 32);
        drawn(&first)
    }), "the bar drew both widgets");
    assert_ne!(first.pixel(0, 0), [0, 0, 0, 255], "the bar's background, not the root window's");
    assert!(wait_for(Duration::from_secs(3), || session.grab().rows(0, 32).rgba != first.rgba), "the bar repaints as the clock ticks");
    assert!(bar.0.try_wait().unwrap().is_none(), "the bar is still running");
}

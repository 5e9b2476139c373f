//! Tooltips in the window: resting the cursor on an item that has one shows
//! its text under the bar (also when the item came under a cursor already
//! resting there); leaving the bar hides it.

use crate::support::{XSession, config_file, have_tools, run, wait_for};
use std::process::{Command, Stdio};
use std::time::Duration;

const TOOLS: &[&str] = &["Xvfb", "i3", "xwininfo", "xdotool", "import", "convert", "tesseract"];

#[test]
fn resting_on_an_item_shows_its_tooltip_and_leaving_hides_it() {
    if !have_tools("tooltip test", TOOLS) {
        return;
    }
    let session = XSession::start(1280, 720);
    let (_dir, config) = config_file(
        r#"{
          "height": 40,
          "font_size": 18,
          "left_widgets": [ { "Applications": { "enable": true, "display": "Text", "show_command_on_hover": true,
            "items": [ { "name": "Greet", "command": "notify-send Hello there" } ] } } ],
          "right_widgets": []
        }"#,
    );
    // The pointer rests where the item will be before the bar is there:
    // the item that comes under it is hovered without the pointer moving.
    run(session.command("xdotool").args(["mousemove", "40", "20"]));
    let (_bar, _window) = session.start_bar(&config, Stdio::null());
    let tooltip = session.find_window("^obi tooltip$", Duration::from_secs(20)).is_some();
    assert!(tooltip, "no tooltip window showed for the pointer resting on the item");
    let window = session.find_window("^obi tooltip$", Duration::from_secs(1)).expect("the tooltip window");
    let (x, y, width, height) = session.geometry(&window);
    assert_eq!(y, 40, "right under the bar");
    assert!(x < 40 && width > 100 && height > 18, "{x} {width}x{height}");

    let artifacts = crate::support::workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let png = artifacts.join("tooltip.png");
    let large = png.with_extension("ocr.png");
    let mut text = String::new();
    // The window is painted once the server has mapped it: read until it has been.
    let read = wait_for(Duration::from_secs(5), || {
        session.grab_window(&window, &png);
        run(Command::new("convert").arg(&png).args(["-negate", "-resize", "300%"]).arg(&large));
        let ocr = run(Command::new("tesseract").arg(&large).args(["stdout", "--psm", "7"]));
        text = String::from_utf8_lossy(&ocr.stdout).into_owned();
        text.contains("notify-send Hello there")
    });
    assert!(read, "the tooltip ({}) reads {text:?}", png.display());

    run(session.command("xdotool").args(["mousemove", "600", "400"]));
    let hidden = wait_for(Duration::from_secs(5), || session.find_window("^obi tooltip$", Duration::ZERO).is_none());
    assert!(hidden, "the tooltip stayed after the cursor left the bar");
}

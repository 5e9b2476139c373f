//! The Keyboard widget under Xvfb: `setxkbmap` switches the layout and the
//! bar follows, pushed by XKB's events; with its tooltip shown while the
//! label changes, the bar's frame stays whole.

use crate::support::{XSession, config_file, have_tools, run, wait_for};
use std::process::{Command, Stdio};
use std::time::Duration;

const TOOLS: &[&str] = &["Xvfb", "i3", "setxkbmap", "xdotool", "xwininfo", "import", "convert", "tesseract"];

const CONFIG: &str = r#"{ "height": 40, "font_size": 18, "transparency_alpha": 255,
    "left_widgets": [ { "Keyboard": { "enable": true, "label_prefix": "Text", "data_refresh_interval": 3600 } } ],
    "right_widgets": [] }"#;

fn setxkbmap(session: &XSession, layout: &str) {
    let output = run(session.command("setxkbmap").args(["-layout", layout]));
    assert!(output.status.success(), "setxkbmap {layout}: {output:?}");
}

/// The bar's strip as tesseract reads it.
fn read_bar(session: &XSession, dir: &std::path::Path) -> String {
    let png = dir.join("bar.png");
    let large = dir.join("bar-large.png");
    run(session.command("import").args(["-window", "root", "-crop", "600x40+0+0", "+repage"]).arg(&png));
    run(Command::new("convert").arg(&png).args(["-negate", "-resize", "300%"]).arg(&large));
    let ocr = run(Command::new("tesseract").arg(&large).args(["stdout", "--psm", "7"]));
    String::from_utf8_lossy(&ocr.stdout).trim().to_owned()
}

#[test]
fn the_widget_follows_setxkbmap() {
    if !have_tools("keyboard layout test", TOOLS) {
        return;
    }
    let session = XSession::start(1280, 720);
    setxkbmap(&session, "us");
    let (dir, config) = config_file(CONFIG);
    let (_bar, _window) = session.start_bar(&config, Stdio::null());
    let mut text = String::new();
    assert!(
        wait_for(Duration::from_secs(10), || {
            text = read_bar(&session, dir.path());
            text.contains("English (US)")
        }),
        "the bar reads {text:?}"
    );
    setxkbmap(&session, "de");
    // Within a second or two, not the hour of data_refresh_interval: pushed.
    assert!(
        wait_for(Duration::from_secs(5), || {
            text = read_bar(&session, dir.path());
            text.contains("German")
        }),
        "after setxkbmap de the bar reads {text:?}"
    );
}

/// The tooltip is painted by a painter of its own: femtovg deletes the
/// frame a painter drew into when it is told to draw elsewhere, and the
/// bar's frame went black under a label that changed with its tooltip up.
#[test]
fn a_label_that_changes_under_its_tooltip_leaves_the_bar_whole() {
    if !have_tools("keyboard tooltip test", TOOLS) {
        return;
    }
    let session = XSession::start(1280, 720);
    setxkbmap(&session, "us");
    let (_dir, config) = config_file(CONFIG);
    let (_bar, _window) = session.start_bar(&config, Stdio::null());
    let mut x = 40;
    let shown = wait_for(Duration::from_secs(20), || {
        // A move each time: resting where it was would start no hover over an item drawn since.
        x = 81 - x;
        run(session.command("xdotool").args(["mousemove", &x.to_string(), "20"]));
        session.find_window("^obi tooltip$", Duration::from_millis(1500)).is_some()
    });
    assert!(shown, "no tooltip showed");
    let background = session.grab().pixel(300, 5);
    setxkbmap(&session, "de");
    std::thread::sleep(Duration::from_secs(2));
    let bar = session.grab().rows(0, 40);
    let black = (0..40).flat_map(|y| (0..600).map(move |x| (x, y))).filter(|&(x, y)| bar.pixel(x, y) == [0, 0, 0, 255]);
    assert_eq!(black.count(), 0, "no black in the bar, whose background is {background:?}");
}

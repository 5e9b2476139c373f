//! A bar with all nine system widgets, as a window under Xvfb and i3, read
//! back with OCR (tesseract): the Date widget shows today's date, Time the
//! time, Storage the root disk's use, and the Update widget's answer, which
//! comes after the first frame, shows too.

use crate::release_feed::newer_release_feed;
use crate::support::{Frame, XSession, config_file, have_tools, run, wait_for};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

const TOOLS: &[&str] = &["Xvfb", "i3", "xwininfo", "import", "convert", "tesseract"];

fn config(feed: &str) -> String {
    format!(
        r#"{{
      "height": 40,
      "font_size": 18,
      "left_widgets": [
        {{ "Date": {{ "enable": true, "format": {{ "Custom": "%d %B %Y" }}, "label_prefix": "None" }} }},
        {{ "Time": {{ "enable": true, "format": "TwentyFourHour" }} }},
        {{ "Cpu": {{ "enable": true }} }},
        {{ "Memory": {{ "enable": true }} }}
      ],
      "center_widgets": [
        {{ "Applications": {{ "enable": true, "display": "Text", "items": [ {{ "name": "Terminal", "command": "true" }} ] }} }}
      ],
      "right_widgets": [
        {{ "Storage": {{ "enable": true, "label_prefix": "Text" }} }},
        {{ "Network": {{ "enable": true, "show_activity": true, "show_total_activity": false, "label_prefix": "Text" }} }},
        {{ "Battery": {{ "enable": true }} }},
        {{ "Update": {{ "enable": true, "label_prefix": "Text", "release_feed": "{feed}" }} }}
      ]
    }}"#
    )
}

/// The bar's strip of the screen as tesseract reads it: light text on the
/// dark bar, then the selected items (dark text on the accent), which need
/// the opposite polarity and a crop of their own.
fn read_bar(session: &XSession, png: &Path) -> String {
    let grab = run(session
        .command("import")
        .args(["-window", "root", "-crop", "1920x40+0+0", "+repage"])
        .arg(format!("PNG32:{}", png.display())));
    assert!(grab.status.success(), "import: {}", String::from_utf8_lossy(&grab.stderr));
    let mut text = ocr(png, &["-negate"]);
    if let Some((from, to)) = accent_columns(&Frame::read(png)) {
        text += " ";
        text += &ocr(png, &["-crop", &format!("{}x40+{from}+0", to - from), "+repage"]);
    }
    text
}

/// Where the selected item is: the longest run of light pixels along the
/// top edge of the items (text only grazes those rows).
fn accent_columns(frame: &Frame) -> Option<(u32, u32)> {
    let light = |x: u32, y: u32| {
        let [r, g, b, _] = frame.pixel(x, y);
        (r as u32 + g as u32 + b as u32) / 3 > 128
    };
    (6..14)
        .flat_map(|y| {
            let mut runs = Vec::new();
            let mut start = None;
            for x in 0..=frame.width {
                match (x < frame.width && light(x, y), start) {
                    (true, None) => start = Some(x),
                    (false, Some(from)) => {
                        runs.push((from, x));
                        start = None;
                    }
                    _ => {}
                }
            }
            runs
        })
        .filter(|(from, to)| to - from >= 40)
        .max_by_key(|(from, to)| to - from)
}

fn ocr(png: &Path, options: &[&str]) -> String {
    let large = png.with_extension("ocr.png");
    let convert = run(Command::new("convert").arg(png).args(options).args(["-resize", "300%"]).arg(&large));
    assert!(convert.status.success(), "convert: {}", String::from_utf8_lossy(&convert.stderr));
    let ocr = run(Command::new("tesseract").arg(&large).args(["stdout", "--psm", "7"]));
    assert!(ocr.status.success(), "tesseract: {}", String::from_utf8_lossy(&ocr.stderr));
    String::from_utf8_lossy(&ocr.stdout).trim().to_owned()
}

/// Whether `text` holds the root disk's use as Storage shows it: `/`, a
/// number and `%` (tesseract may drop the space after the mount point).
fn shows_root_disk_use(text: &str) -> bool {
    text.match_indices('/').any(|(at, _)| {
        let rest = text[at + 1..].trim_start();
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        (1..=3).contains(&digits) && rest[digits..].starts_with('%')
    })
}

#[test]
fn nine_widgets_on_screen_with_todays_date() {
    if !have_tools("all widgets test", TOOLS) {
        return;
    }
    let session = XSession::start(1920, 1080);
    let (_dir, config) = config_file(&config(&newer_release_feed()));
    let (mut bar, _window) = session.start_bar(&config, Stdio::null());
    let artifacts = crate::support::workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let png = artifacts.join("all-widgets.png");

    let mut text = String::new();
    let mut minutes = Vec::new();
    let read = wait_for(Duration::from_secs(30), || {
        minutes.push(chrono::Local::now().format("%H:%M:").to_string());
        // Read the date after the grab: the bar may have turned midnight in between, never the other way.
        text = read_bar(&session, &png);
        let today = chrono::Local::now().format("%d %B %Y").to_string();
        text.contains(&today) && text.contains("Terminal") && text.contains("v999.0.0")
    });
    assert!(read, "the bar ({}) reads:\n{text}", png.display());
    minutes.push(chrono::Local::now().format("%H:%M:").to_string());
    for label in ["CPU", "RAM", "DOWN", "UPDATE"] {
        assert!(text.contains(label), "{label} is not on the bar ({}), which reads:\n{text}", png.display());
    }
    assert!(minutes.iter().any(|minute| text.contains(minute.as_str())), "the Time widget shows the time: {text}");
    assert!(shows_root_disk_use(&text), "the Storage widget shows `/ N%`: {text}");
    assert!(bar.0.try_wait().unwrap().is_none(), "the bar is still running");
}

/// A click on an Applications button, from the X server to the shell: the
/// command runs with the bar's environment variables resolved.
#[test]
fn a_click_on_an_application_runs_its_command() {
    if !have_tools("applications click test", &["Xvfb", "i3", "xwininfo", "xdotool"]) {
        return;
    }
    let session = XSession::start(1280, 720);
    let (dir, config) = config_file(
        r#"{
          "height": 40,
          "left_widgets": [ { "Applications": { "enable": true, "display": "Text", "items": [
            { "name": "Mark", "command": "touch \"$OBI_E2E_MARK\"" } ] } } ],
          "right_widgets": []
        }"#,
    );
    let mark = dir.path().join("clicked");
    let _bar = session.start_bar_with_env(&config, Stdio::null(), &[("OBI_E2E_MARK", mark.as_os_str())]);
    // The button sits at the left edge of the bar.
    assert!(click_until(&session, "30", || mark.exists()), "the command did not run: no {}", mark.display());
}

/// A click on the Update widget opens the release page with the desktop's
/// opener (`xdg-open`, here a stand-in that notes its argument).
#[test]
fn a_click_on_a_newer_release_opens_its_page() {
    if !have_tools("update click test", &["Xvfb", "i3", "xwininfo", "xdotool"]) {
        return;
    }
    let session = XSession::start(1280, 720);
    let (dir, config) = config_file(&format!(
        r#"{{ "height": 40, "left_widgets": [ {{ "Update": {{ "enable": true, "release_feed": "{}" }} }} ], "right_widgets": [] }}"#,
        newer_release_feed()
    ));
    let opened = dir.path().join("opened");
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let opener = bin.join("xdg-open");
    std::fs::write(&opener, format!("#!/bin/sh\nprintf %s \"$1\" > '{}'\n", opened.display())).unwrap();
    std::fs::set_permissions(&opener, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let _bar = session.start_bar_with_env(&config, Stdio::null(), &[("PATH", path.as_ref())]);
    // The release shows once the feed has answered.
    assert!(click_until(&session, "40", || opened.exists()), "no page was opened");
    assert_eq!(std::fs::read_to_string(&opened).unwrap(), "https://example.org/obi/v999.0.0");
}

/// Clicks the bar at `x` (halfway down a 40 px bar) until `done`: the item
/// may not be drawn yet, or not yet have what a click acts on.
fn click_until(session: &XSession, x: &str, done: impl Fn() -> bool) -> bool {
    wait_for(Duration::from_secs(20), || {
        run(session.command("xdotool").args(["mousemove", x, "20", "click", "1"]));
        wait_for(Duration::from_millis(500), &done)
    })
}

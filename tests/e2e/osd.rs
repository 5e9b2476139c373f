//! The on-screen display, on a real sound server of the test's own
//! (PulseAudio with null sinks) and a backlight folder of the test's own
//! (`OBI_BACKLIGHT_DIR`, laid out as the kernel's class): `pactl` setting
//! the volume or muting shows the display at the bottom centre with the
//! new percentage (read by OCR), a brightness written to the folder shows
//! it too, and it goes after its timeout; under Xvfb and i3, and under
//! headless sway, where it is a layer surface of its own.

use crate::popup::popup_text;
use crate::support::{XSession, config_file, have_tools, wait_for, workspace};
use obi_test_support::sound_server::SoundServer;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

const TOOLS: &[&str] = &["Xvfb", "i3", "xdotool", "xwininfo", "import", "convert", "tesseract", "pulseaudio", "pactl"];

/// How wide the display is, and how long it stays, in the tests' configs:
/// long enough for a grab and its OCR on a busy machine (3 s was not).
const WIDTH: u32 = 300;
const TIMEOUT_MS: u64 = 8000;

fn osd_config() -> serde_json::Value {
    serde_json::json!({
        "height": 40, "font_size": 18, "left_widgets": [], "right_widgets": [],
        "osd": { "enable": true, "position": "bottom-center", "timeout_ms": TIMEOUT_MS, "width": WIDTH },
    })
}

/// A backlight folder as the kernel's class, with one panel at 50 of 100.
fn backlight() -> (tempfile::TempDir, PathBuf) {
    let class = tempfile::tempdir().unwrap();
    let panel = class.path().join("panel");
    std::fs::create_dir(&panel).unwrap();
    for (file, text) in [("type", "firmware"), ("max_brightness", "100"), ("actual_brightness", "50")] {
        std::fs::write(panel.join(file), format!("{text}\n")).unwrap();
    }
    (class, panel)
}

/// Sets `panel`'s level as the kernel does, whole: a file written in place
/// is empty for a moment (truncated, then written), and a bar reading it
/// then sees the panel give no level and its next level as a first one,
/// which shows nothing.
fn set_level(panel: &Path, level: u32) {
    let aside = panel.join("actual_brightness.new");
    std::fs::write(&aside, format!("{level}\n")).unwrap();
    std::fs::rename(aside, panel.join("actual_brightness")).unwrap();
}

fn keep(png: &Path, name: &str) {
    let artifacts = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let _ = std::fs::copy(png, artifacts.join(name));
}

/// Sets the default sink's volume, a percent higher each time, until the
/// display shows the one set (the bar reads the server's first answer
/// before it shows a change): the display's text then.
fn show_volume(server: &SoundServer, read: &mut dyn FnMut() -> String) -> (u32, String) {
    let mut percent = 30;
    let mut text = String::new();
    let shown = wait_for(Duration::from_secs(30), || {
        percent += 1;
        server.pactl(&["set-sink-volume", "@DEFAULT_SINK@", &format!("{percent}%")]);
        wait_for(Duration::from_secs(2), || {
            text = read();
            text.contains(&format!("{percent}%"))
        })
    });
    assert!(shown, "the display shows the volume set, {percent}%: it reads {text:?}");
    (percent, text)
}

#[test]
fn volume_mute_and_brightness_show_the_display_which_goes_after_its_timeout() {
    if !have_tools("osd test", TOOLS) {
        return;
    }
    let Some(server) = SoundServer::for_tests("osd test") else { return };
    let (class, panel) = backlight();
    let (dir, config) = config_file(&osd_config().to_string());
    let session = XSession::start(1280, 720);
    let address = server.address();
    let env = [("PULSE_SERVER", OsStr::new(&address)), ("OBI_BACKLIGHT_DIR", class.path().as_os_str())];
    let (_bar, _window) = session.start_bar_with_env(&config, Stdio::null(), &env);

    let png = dir.path().join("osd.png");
    // Where the display was when last read.
    let place = std::cell::Cell::new(None);
    let mut read = || match session.find_window("^obi osd$", Duration::ZERO) {
        Some(window) => match session.geometry_if_alive(&window) {
            Some(geometry) => {
                place.set(Some(geometry));
                session.grab_window(&window, &png);
                popup_text(&png)
            }
            None => String::new(),
        },
        None => String::new(),
    };
    let (percent, _) = show_volume(&server, &mut read);
    keep(&png, "osd-volume.png");
    let (x, y, width, height) = place.get().expect("the display's window was read");
    assert_eq!((x, width), ((1280 - WIDTH as i32) / 2, WIDTH), "centred, as wide as configured");
    assert_eq!(y + height as i32, 720 - 10, "at the bottom, clear of the edge");

    let gone = || {
        wait_for(Duration::from_millis(TIMEOUT_MS + 5000), || {
            session.find_window("^obi osd$", Duration::ZERO).is_none()
        })
    };
    assert!(gone(), "the display goes after its timeout");

    // Muting shows it again, at the same level (its icon crossed out).
    server.pactl(&["set-sink-mute", "@DEFAULT_SINK@", "1"]);
    let mut text = String::new();
    let muted = wait_for(Duration::from_secs(10), || {
        text = read();
        text.contains(&format!("{percent}%"))
    });
    keep(&png, "osd-muted.png");
    assert!(muted, "muting shows the display: {text:?}");

    set_level(&panel, 73);
    let brightness = wait_for(Duration::from_secs(10), || {
        text = read();
        text.contains("73%")
    });
    keep(&png, "osd-brightness.png");
    assert!(brightness, "the display shows the brightness written: {text:?}");

    assert!(gone(), "the display goes after its timeout");
}

/// On sway the display is a layer surface of its own on the overlay layer,
/// at the bottom centre of the output, which the compositor chooses when
/// the config asks for the focused one.
#[test]
fn on_sway_the_display_is_a_layer_surface_at_the_bottom_centre() {
    let Some(sway) = crate::sway::SwaySession::start("osd on sway") else { return };
    if !have_tools("osd on sway", &["pulseaudio", "pactl", "grim", "tesseract"]) {
        return;
    }
    let Some(server) = SoundServer::for_tests("osd on sway") else { return };
    let (class, panel) = backlight();
    let address = server.address();
    let env = [("PULSE_SERVER", OsStr::new(&address)), ("OBI_BACKLIGHT_DIR", class.path().as_os_str())];
    // On the output the compositor chooses: sway's only one.
    let mut config = osd_config();
    config["osd"]["monitor"] = "focused".into();
    let _bar = sway.start_bar_with_env(&config.to_string(), &[], &env);

    let png = sway.dir().join("osd.png");
    // The bottom centre of the output, around where the display goes.
    let area = ((1280 - WIDTH) / 2 - 5, 720 - 120, WIDTH + 10, 120);
    let mut read = || {
        sway.grab(area, &png);
        popup_text(&png)
    };
    show_volume(&server, &mut read);
    keep(&png, "osd-volume-sway.png");

    set_level(&panel, 64);
    let mut text = String::new();
    let brightness = wait_for(Duration::from_secs(10), || {
        text = read();
        text.contains("64%")
    });
    assert!(brightness, "the display shows the brightness written: {text:?}; {}", sway.bar_log());
    let gone = wait_for(Duration::from_millis(TIMEOUT_MS + 5000), || !read().contains('%'));
    assert!(gone, "the display goes after its timeout");
}

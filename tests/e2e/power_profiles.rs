//! The Battery widget's popup of power profiles, over a battery folder of
//! the test's own (`OBI_POWER_SUPPLY_DIR`, laid out as the kernel's class)
//! and power-profiles-daemon as python3-dbusmock simulates it on a private
//! bus the bar takes for the system bus: a click on the battery opens the
//! profiles with the one in use marked, choosing another tells the daemon
//! (read back from it), and the daemon going closes the popup while the
//! bar goes on; under Xvfb and i3.

use crate::ocr::words_on_bar;
use crate::popup::{open_popup_with, popup_text, read_lines, selected_lines};
use crate::support::{XSession, config_file, have_tools, run, wait_for};
use obi_test_support::system_services::SystemServices;
use std::ffi::OsStr;
use std::process::Stdio;
use std::time::Duration;

const TOOLS: &[&str] = &["Xvfb", "i3", "xwininfo", "xdotool", "import", "convert", "tesseract", "dbus-daemon"];

const PROFILES: [&str; 3] = ["Power saver", "Balanced", "Performance"];

/// The profile the simulated daemon has in use.
fn active_profile(services: &SystemServices) -> String {
    let active = services.python(
        "print(bus.get_object('net.hadess.PowerProfiles', '/net/hadess/PowerProfiles')\
         .Get('net.hadess.PowerProfiles', 'ActiveProfile', dbus_interface='org.freedesktop.DBus.Properties'))",
    );
    active.trim().to_owned()
}

#[test]
fn the_battery_popup_chooses_the_power_profile() {
    if !have_tools("power profiles test", TOOLS) {
        return;
    }
    let Some(mut services) = SystemServices::for_tests("power profiles test") else { return };
    services.simulate("power_profiles_daemon", "net.hadess.PowerProfiles");
    let supplies = tempfile::tempdir().unwrap();
    let battery = supplies.path().join("BAT0");
    std::fs::create_dir(&battery).unwrap();
    for (file, text) in [("type", "Battery"), ("capacity", "60"), ("status", "Discharging")] {
        std::fs::write(battery.join(file), format!("{text}\n")).unwrap();
    }

    let session = XSession::start(1280, 720);
    let (dir, config) = config_file(
        r#"{ "height": 40, "font_size": 18, "right_widgets": [],
             "left_widgets": [ { "Battery": { "enable": true, "label_prefix": "Text" } } ] }"#,
    );
    let env = [
        ("DBUS_SYSTEM_BUS_ADDRESS", OsStr::new(services.address())),
        ("OBI_POWER_SUPPLY_DIR", supplies.path().as_os_str()),
    ];
    let (_bar, _window) = session.start_bar_with_env(&config, Stdio::null(), &env);
    let mut words = Vec::new();
    let shown = wait_for(Duration::from_secs(10), || {
        words = words_on_bar(&session, dir.path(), 400);
        words.iter().any(|(word, _)| word == "60%")
    });
    assert!(shown, "the bar reads {words:?}");

    let popup = open_popup_with(&session, "1");
    let (x, y, width, _) = session.geometry(&popup);
    let marked = |png: &std::path::Path, lines: &[(u32, String)], profile: &str| {
        let selected = selected_lines(png, lines);
        selected.len() == 1 && selected[0].contains(profile)
    };
    // The buttons' lines (a label has no frame to find a line by: its
    // words are read with the rest).
    let lines = read_lines(&session, &popup, "popup-power-profiles.png", |png, lines| {
        lines.len() == 3
            && lines.iter().zip(PROFILES).all(|((_, text), profile)| text.contains(profile))
            && marked(png, lines, "Balanced")
            && popup_text(png).contains("Power profile")
    });
    let performance = ((x + width as i32 / 2).to_string(), (y + lines[2].0 as i32).to_string());
    run(session.command("xdotool").args(["mousemove", &performance.0, &performance.1, "click", "1"]));
    assert!(
        wait_for(Duration::from_secs(10), || active_profile(&services) == "performance"),
        "the daemon uses {}",
        active_profile(&services)
    );
    // Off the popup, so that no cell is lit: the one in use shows its fill.
    run(session.command("xdotool").args(["mousemove", "900", "500"]));
    read_lines(&session, &popup, "popup-power-profiles-chosen.png", |png, lines| {
        lines.len() == 3 && marked(png, lines, "Performance")
    });

    // The daemon goes while its popup is open: the popup goes, the bar stays.
    services.stop_simulators();
    let closed = wait_for(Duration::from_secs(10), || session.find_window("^obi popup$", Duration::ZERO).is_none());
    assert!(closed, "the popup of a daemon that went stayed open");
    std::fs::write(battery.join("capacity"), "59\n").unwrap();
    let going_on = wait_for(Duration::from_secs(30), || {
        words = words_on_bar(&session, dir.path(), 400);
        words.iter().any(|(word, _)| word == "59%")
    });
    assert!(going_on, "the bar went on reading the battery: {words:?}");
}

//! The Wifi widget in the bar, over NetworkManager as python3-dbusmock
//! simulates it on a private bus the bar takes for the system bus, with
//! Home (known), Café (open) and Neighbours (secured, unknown) in range
//! and an Office VPN: the popup lists them, choosing Home joins it through
//! its saved connection (NetworkManager's ActivateConnection called) and
//! the bar names it; under Xvfb and i3.

use crate::ocr::words_on_bar;
use crate::popup::{open_popup_with, read_lines};
use crate::support::{XSession, config_file, have_tools, run, wait_for};
use obi_test_support::system_services::SystemServices;
use std::ffi::OsStr;
use std::process::Stdio;
use std::time::Duration;

const TOOLS: &[&str] = &["Xvfb", "i3", "xwininfo", "xdotool", "import", "convert", "tesseract", "dbus-daemon"];

#[test]
fn the_popup_lists_the_networks_and_joins_a_known_one() {
    if !have_tools("Wi-Fi test", TOOLS) {
        return;
    }
    let Some(mut services) = SystemServices::for_tests("Wi-Fi test") else { return };
    services.network_manager_at_home();
    let session = XSession::start(1280, 720);
    let (dir, config) = config_file(
        r#"{ "height": 40, "font_size": 18, "right_widgets": [],
             "left_widgets": [ { "Wifi": { "enable": true, "label_prefix": "Text" } } ] }"#,
    );
    let env = [("DBUS_SYSTEM_BUS_ADDRESS", OsStr::new(services.address()))];
    let (_bar, _window) = session.start_bar_with_env(&config, Stdio::null(), &env);
    let mut words = Vec::new();
    let mut shows = |state: &str| {
        wait_for(Duration::from_secs(10), || {
            words = words_on_bar(&session, dir.path(), 400);
            let read: String = words.iter().map(|(word, _)| word.as_str()).collect();
            read.contains(&format!("Wi-Fi:{state}"))
        })
    };
    assert!(shows("disconnected"), "the bar reads {words:?}");

    let popup = open_popup_with(&session, "1");
    let (x, y, width, _) = session.geometry(&popup);
    let lines = read_lines(&session, &popup, "popup-wifi.png", |_, lines| {
        let texts: Vec<&str> = lines.iter().map(|(_, text)| text.as_str()).collect();
        texts.len() >= 4
            && texts[0].contains("Turn Wi-Fi off")
            && texts[1].contains("Home")
            && texts[1].contains("75%")
            && texts[2].contains("Caf")
            && texts.last().is_some_and(|text| text.contains("Office"))
    });
    let home = ((x + width as i32 / 2).to_string(), (y + lines[1].0 as i32).to_string());
    run(session.command("xdotool").args(["mousemove", &home.0, &home.1, "click", "1"]));
    let joined = wait_for(Duration::from_secs(10), || {
        services.network_manager_calls().contains("ActivateConnection /org/freedesktop/NetworkManager/Settings/home")
    });
    assert!(joined, "NetworkManager was asked: {}", services.network_manager_calls());
    // Closed, so that the item's text is out of the selected fill.
    run(session.command("xdotool").args(["mousemove", "900", "500", "click", "1"]));
    let named = shows("Home");
    let _ = std::fs::copy(dir.path().join("bar.png"), crate::popup::workspace_dir().join("wifi-bar.png"));
    assert!(named, "the joined network is named: the bar reads {words:?}");
}

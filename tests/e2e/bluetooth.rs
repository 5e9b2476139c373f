//! The Bluetooth widget in the bar, over BlueZ as python3-dbusmock
//! simulates it on a private bus the bar takes for the system bus: an
//! adapter with a paired pair of headphones that tell their battery; the
//! popup lists them with it, choosing them connects them (BlueZ's Connect
//! called, the bar's icon counting one), and BlueZ going while the popup
//! is open closes it and hides the widget while the bar goes on; under
//! Xvfb and i3.

use crate::ocr::words_on_bar;
use crate::popup::{open_popup_with, popup_text, read_lines, selected_lines};
use crate::support::{XSession, config_file, have_tools, run, wait_for};
use obi_test_support::system_services::SystemServices;
use std::ffi::OsStr;
use std::process::Stdio;
use std::time::Duration;

const TOOLS: &[&str] = &["Xvfb", "i3", "xwininfo", "xdotool", "import", "convert", "tesseract", "dbus-daemon"];

const HEADPHONES: &str = "/org/bluez/hci0/dev_11_22_33_44_55_66";

/// BlueZ with an adapter and paired headphones at 80 %, whose Connect
/// changes what it says (the template's only says it changed).
fn bluez(services: &mut SystemServices) {
    services.simulate("bluez5", "org.bluez");
    services.python(
        "bluez = dbus.Interface(bus.get_object('org.bluez', '/'), 'org.bluez.Mock')\n\
         bluez.AddAdapter('hci0', 'obi-test')\n\
         path = bluez.AddDevice('hci0', '11:22:33:44:55:66', 'Headphones')\n\
         bluez.PairDevice('hci0', '11:22:33:44:55:66', 2360324)\n\
         device = mock('org.bluez', path)\n\
         device.AddProperties('org.bluez.Battery1', {'Percentage': dbus.Byte(80)})\n\
         device.AddMethod('org.bluez.Device1', 'Connect', '', '', \
         \"self.UpdateProperties('org.bluez.Device1', {'Connected': dbus.Boolean(True)})\")",
    );
}

#[test]
fn the_popup_connects_a_paired_device_and_shows_its_battery() {
    if !have_tools("bluetooth test", TOOLS) {
        return;
    }
    let Some(mut services) = SystemServices::for_tests("bluetooth test") else { return };
    bluez(&mut services);
    let session = XSession::start(1280, 720);
    let (dir, config) = config_file(
        r#"{ "height": 40, "font_size": 18, "right_widgets": [],
             "left_widgets": [ { "Bluetooth": { "enable": true, "label_prefix": "IconAndText" } },
                               { "Time": { "enable": true, "format": "TwentyFourHour" } } ] }"#,
    );
    let env = [("DBUS_SYSTEM_BUS_ADDRESS", OsStr::new(services.address()))];
    let (_bar, _window) = session.start_bar_with_env(&config, Stdio::null(), &env);
    let mut words = Vec::new();
    let shows = |words: &mut Vec<(String, u32)>, state: &str| {
        wait_for(Duration::from_secs(10), || {
            *words = words_on_bar(&session, dir.path(), 400);
            // Read as one word or two.
            let read: String = words.iter().map(|(word, _)| word.as_str()).collect();
            read.contains(&format!("BT:{state}"))
        })
    };
    assert!(shows(&mut words, "on"), "the bar reads {words:?}");

    let popup = open_popup_with(&session, "1");
    let (x, y, width, _) = session.geometry(&popup);
    let lines = read_lines(&session, &popup, "popup-bluetooth.png", |png, lines| {
        lines.len() == 2
            && lines[0].1.contains("Turn Bluetooth off")
            && popup_text(png).contains("80%")
            && lines[1].1.contains("Headphones")
    });
    let headphones = ((x + width as i32 / 2).to_string(), (y + lines[1].0 as i32).to_string());
    run(session.command("xdotool").args(["mousemove", &headphones.0, &headphones.1, "click", "1"]));
    let calls =
        || services.python(&format!("for _, method, _ in mock('org.bluez', '{HEADPHONES}').GetCalls(): print(method)"));
    assert!(wait_for(Duration::from_secs(10), || calls().contains("Connect")), "BlueZ was asked: {}", calls());
    run(session.command("xdotool").args(["mousemove", "900", "500"]));
    read_lines(&session, &popup, "popup-bluetooth-connected.png", |png, lines| {
        lines.len() == 2 && selected_lines(png, lines).iter().any(|line| line.contains("Headphones"))
    });
    // Closed, so that the item's text is out of the selected fill.
    run(session.command("xdotool").args(["click", "1"]));
    let connected = shows(&mut words, "1");
    let _ = std::fs::copy(dir.path().join("bar.png"), crate::popup::workspace_dir().join("bluetooth-bar.png"));
    assert!(connected, "one device connected: the bar reads {words:?}");

    // BlueZ goes while the popup is open: the popup and the widget go, the
    // clock beside them goes on.
    open_popup_with(&session, "1");
    services.stop_simulators();
    let closed = wait_for(Duration::from_secs(10), || session.find_window("^obi popup$", Duration::ZERO).is_none());
    assert!(closed, "the popup of an adapter that went stayed open");
    let clock = |words: &[(String, u32)]| words.iter().find(|(word, _)| word.contains(':') && word.len() == 8).cloned();
    let mut first = None;
    let gone_and_ticking = wait_for(Duration::from_secs(20), || {
        words = words_on_bar(&session, dir.path(), 400);
        let now = clock(&words).map(|(time, _)| time);
        let ticked = first.is_some() && now.is_some() && now != first;
        if first.is_none() {
            first = now;
        }
        ticked && !words.iter().any(|(word, _)| word.starts_with("BT:"))
    });
    assert!(gone_and_ticking, "the widget went and the clock went on: {words:?}");
}

//! The bar as the desktop's notification server on a private session bus,
//! under Xvfb and i3 (and headless sway, where each card is a layer
//! surface of its own): Debian's `notify-send` shows a card at the top right
//! (read back by OCR, its icon's pixels found), a click on an action's
//! button reaches its sender and closes it as dismissed (`dbus-monitor`
//! reads the signals), a card expires after its timeout, a replaced one
//! changes in place and a critical one stays; the Notifications widget
//! switches do-not-disturb (a normal one stays off the screen, a critical
//! one shows) and lists both in its history popup; another server holding the
//! name is named in the log while the bar runs on; and hostile senders (a
//! burst of ten thousand, a 10 MB body, an image that claims 30000×30000
//! pixels, an icon that is a FIFO) leave the bar ticking, its memory and
//! the cards on screen bounded.

use crate::ocr::words_on_bar;
use crate::popup::popup_text;
use crate::session_bus::SessionBus;
use crate::support::{XSession, config_file, have_tools, run, wait_for, workspace};
use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;
use zbus::zvariant::Value;

const TOOLS: &[&str] = &["Xvfb", "i3", "xdotool", "import", "convert", "tesseract", "notify-send", "dbus-monitor"];
const NAME: &str = "org.freedesktop.Notifications";
const PATH: &str = "/org/freedesktop/Notifications";

/// Cards are 360 wide at the top right of a 1280-wide screen, 10 pixels
/// from its edge and from the 40-pixel bar.
const CARD: (u32, u32) = (1280 - 10 - 360, 40 + 10);

fn bar_config(widgets: serde_json::Value, notifications: serde_json::Value) -> (tempfile::TempDir, std::path::PathBuf) {
    let config = serde_json::json!({
        "height": 40, "font_size": 14, "left_widgets": widgets, "right_widgets": [],
        "notifications": notifications,
    });
    config_file(&config.to_string())
}

/// What is written on the screen's area where the cards stack.
fn cards_text(session: &XSession, dir: &Path) -> String {
    let png = dir.join("cards.png");
    let crop = format!("370x500+{}+40", CARD.0 - 5);
    run(session.command("import").args(["-window", "root", "-crop", &crop, "+repage"]).arg(&png));
    popup_text(&png)
}

fn keep(session: &XSession, name: &str) {
    let artifacts = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    run(session.command("import").args(["-window", "root"]).arg(artifacts.join(name)));
}

fn notify_send(bus: &SessionBus) -> Command {
    let mut command = Command::new("notify-send");
    command.env("DBUS_SESSION_BUS_ADDRESS", &bus.address);
    command
}

/// A 24-pixel PNG of pure red, as an icon.
fn red_icon(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("red.png");
    let file = std::fs::File::create(&path).unwrap();
    let mut encoder = png::Encoder::new(file, 24, 24);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(&[255, 0, 0, 255].repeat(24 * 24)).unwrap();
    path
}

#[test]
fn notify_sends_card_shows_and_expires_and_its_action_reaches_its_sender() {
    if !have_tools("notifications test", TOOLS) {
        return;
    }
    let Some(bus) = SessionBus::for_tests("notifications test", None) else { return };
    let (dir, config) = bar_config(serde_json::json!([]), serde_json::json!({ "enable": true, "timeout_ms": 60000 }));
    let session = XSession::start(1280, 720);
    let address: &OsStr = bus.address.as_ref();
    let (_bar, _window) = session.start_bar_with_env(&config, Stdio::null(), &[("DBUS_SESSION_BUS_ADDRESS", address)]);
    let signals = dir.path().join("signals.txt");
    let _monitor = crate::support::Reaped(
        Command::new("dbus-monitor")
            .args(["--address", &bus.address, &format!("type='signal',interface='{NAME}'")])
            .stdout(std::fs::File::create(&signals).unwrap())
            .spawn()
            .unwrap(),
    );
    let ping = || notify_send(&bus).args(["-t", "1", "ping"]).stderr(Stdio::null()).status().unwrap().success();
    assert!(wait_for(Duration::from_secs(20), ping), "the bar serves notifications");

    let icon = red_icon(dir.path());
    let sender = notify_send(&bus)
        .args(["-a", "Mail", "-i"])
        .arg(&icon)
        .args(["-A", "yes=Reply", "-A", "no=Ignore", "Meeting moved", "<b>Ann</b> says: room four"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut text = String::new();
    let shown = wait_for(Duration::from_secs(20), || {
        text = cards_text(&session, dir.path());
        text.contains("Meeting moved") && text.contains("Ann says")
    });
    keep(&session, "notification-card.png");
    assert!(shown, "the card shows its summary and body: {text:?}");
    let frame = session.grab();
    let red = (CARD.0..CARD.0 + 360)
        .flat_map(|x| (CARD.1..CARD.1 + 40).map(move |y| (x, y)))
        .filter(|&(x, y)| frame.pixel(x, y) == [255, 0, 0, 255])
        .count();
    assert!(red >= 100, "the icon is drawn in the card's header: {red} red pixels");

    // The buttons' row: under the header, the summary and one line of body.
    let (margin, row) = (7.0, 14.0 * 1.9);
    let y = CARD.1 as f32 + margin + 3.0 * row + row / 2.0;
    let x = CARD.0 as f32 + margin + (360.0 - 2.0 * margin) / 4.0;
    run(session.command("xdotool").args(["mousemove", &format!("{x:.0}"), &format!("{y:.0}"), "click", "1"]));
    let output = sender.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "yes", "notify-send heard its action");
    let said = || std::fs::read_to_string(&signals).unwrap_or_default();
    assert!(wait_for(Duration::from_secs(5), || said().contains("member=NotificationClosed")), "{}", said());
    let heard = said();
    let invoked = heard.find("member=ActionInvoked").expect("ActionInvoked was sent");
    let closed = heard.find("member=NotificationClosed").unwrap();
    assert!(invoked < closed && heard[invoked..closed].contains("string \"yes\""), "{heard}");
    assert!(heard[closed..].contains("uint32 2"), "closed as dismissed: {heard}");
    assert!(wait_for(Duration::from_secs(5), || !cards_text(&session, dir.path()).contains("Meeting")), "it went");

    // A card expires after its timeout; a replaced one changes in place; a critical one stays.
    // Long enough to be read while the machine is busy with the other tests.
    notify_send(&bus).args(["-t", "8000", "Short lived"]).status().unwrap();
    let printed = notify_send(&bus).args(["-p", "-t", "0", "Download 10%"]).output().unwrap();
    let id = String::from_utf8_lossy(&printed.stdout).trim().to_owned();
    notify_send(&bus).args(["-r", &id, "-t", "0", "Download 90%"]).status().unwrap();
    notify_send(&bus).args(["-u", "critical", "-t", "500", "Power", "Battery low"]).status().unwrap();
    let seen = wait_for(Duration::from_secs(10), || {
        text = cards_text(&session, dir.path());
        text.contains("Short lived") && text.contains("Battery low")
    });
    assert!(seen, "{text:?}");
    let expired = wait_for(Duration::from_secs(20), || {
        text = cards_text(&session, dir.path());
        !text.contains("Short lived")
    });
    keep(&session, "notification-cards-after.png");
    assert!(expired, "the short-lived card expired: {text:?}");
    assert!(text.contains("Battery low"), "the critical one stays past its timeout: {text:?}");
    assert!(text.contains("Download 90%") && !text.contains("Download 10%"), "replaced in place: {text:?}");
}

/// With `"monitor": "focused"` the cards go to the monitor i3 has the
/// focus on, not the bar's: the right one of two, then back on the left.
#[test]
fn with_monitor_focused_the_cards_go_where_i3_has_the_focus() {
    if !have_tools("notifications on the focused monitor", TOOLS) {
        return;
    }
    let Some(bus) = SessionBus::for_tests("notifications on the focused monitor", None) else { return };
    const WIDTH: u32 = 800;
    let session = XSession::side_by_side(2, WIDTH, 600);
    let notifications = serde_json::json!({ "enable": true, "timeout_ms": 60000, "monitor": "focused" });
    let (_dir, config) = bar_config(serde_json::json!([]), notifications);
    let address: &OsStr = bus.address.as_ref();
    let (_bar, window) = session.start_bar_with_env(&config, Stdio::null(), &[("DBUS_SESSION_BUS_ADDRESS", address)]);
    assert_eq!(session.geometry(&window).0, 0, "the bar is on the left monitor");
    let ping = || notify_send(&bus).args(["-t", "1", "ping"]).stderr(Stdio::null()).status().unwrap().success();
    assert!(wait_for(Duration::from_secs(20), ping), "the bar serves notifications");

    // The left edge of each card shown, newest first.
    let cards = || -> Vec<i32> {
        let search =
            session.command("xdotool").args(["search", "--onlyvisible", "--name", "^obi notification$"]).output();
        let ids = search.map(|output| String::from_utf8_lossy(&output.stdout).into_owned()).unwrap_or_default();
        ids.lines().filter_map(|id| session.geometry_if_alive(id)).map(|(x, ..)| x).collect()
    };
    let focus = |output: &str| {
        let focused = run(session.command("i3-msg").args(["focus", "output", output]));
        assert!(focused.status.success(), "i3-msg: {}", String::from_utf8_lossy(&focused.stdout));
    };
    focus("M1");
    notify_send(&bus).args(["Over there"]).status().unwrap();
    let right = wait_for(Duration::from_secs(20), || {
        let shown = cards();
        !shown.is_empty() && shown.iter().all(|x| *x >= WIDTH as i32)
    });
    assert!(right, "the card is on the focused right monitor: {:?}", cards());
    focus("M0");
    notify_send(&bus).args(["Back here"]).status().unwrap();
    let left = wait_for(Duration::from_secs(20), || {
        let shown = cards();
        shown.len() == 2 && shown.iter().all(|x| *x < WIDTH as i32)
    });
    assert!(left, "the cards follow the focus back to the left monitor: {:?}", cards());
}

#[test]
fn with_another_server_holding_the_name_the_bar_says_who_and_runs_on() {
    if !have_tools("notifications test", TOOLS) {
        return;
    }
    let Some(bus) = SessionBus::for_tests("notifications test", None) else { return };
    let other = zbus::blocking::connection::Builder::address(bus.address.as_str()).unwrap().build().unwrap();
    other.request_name(NAME).unwrap();
    let (dir, config) = bar_config(
        serde_json::json!([{ "Time": { "enable": true, "format": { "Custom": "%H:%M:%S" } } }]),
        serde_json::json!({ "enable": true }),
    );
    let log = dir.path().join("bar.log");
    let session = XSession::start(1280, 720);
    let address: &OsStr = bus.address.as_ref();
    let stderr = Stdio::from(std::fs::File::create(&log).unwrap());
    let (_bar, _window) = session.start_bar_with_env(&config, stderr, &[("DBUS_SESSION_BUS_ADDRESS", address)]);
    let said = || std::fs::read_to_string(&log).unwrap_or_default();
    let comm = std::fs::read_to_string("/proc/self/comm").unwrap();
    let named =
        wait_for(Duration::from_secs(20), || said().contains(&format!("{} (pid {}", comm.trim(), std::process::id())));
    assert!(named, "the log names the holder: {}", said());
    let ticks = |words: &[(String, u32)]| words.iter().find(|(word, _)| word.len() == 8).map(|(word, _)| word.clone());
    let first = ticks(&words_on_bar(&session, dir.path(), 300));
    assert!(
        wait_for(Duration::from_secs(10), || ticks(&words_on_bar(&session, dir.path(), 300)) != first),
        "the bar ticks on"
    );
}

#[test]
fn on_sway_a_card_is_a_layer_surface_clear_of_the_bar_and_its_action_reaches_its_sender() {
    let Some(sway) = crate::sway::SwaySession::start("notifications on sway") else { return };
    if !have_tools("notifications on sway", TOOLS) {
        return;
    }
    let Some(bus) = SessionBus::for_tests("notifications on sway", None) else { return };
    let config = serde_json::json!({
        "height": 40, "font_size": 14, "left_widgets": [], "right_widgets": [],
        "notifications": { "enable": true, "timeout_ms": 60000 },
    });
    let address: &OsStr = bus.address.as_ref();
    let _bar = sway.start_bar_with_env(&config.to_string(), &[], &[("DBUS_SESSION_BUS_ADDRESS", address)]);
    assert!(
        wait_for(Duration::from_secs(20), || notify_send(&bus)
            .args(["-t", "1", "ping"])
            .stderr(Stdio::null())
            .status()
            .unwrap()
            .success()),
        "the bar serves notifications: {}",
        sway.bar_log()
    );
    let sender = notify_send(&bus)
        .args(["-a", "Mail", "-A", "yes=Reply", "-A", "no=Ignore", "Meeting moved", "<b>Ann</b> says: room four"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let png = sway.dir().join("cards.png");
    let mut text = String::new();
    let shown = wait_for(Duration::from_secs(20), || {
        sway.grab((CARD.0 - 5, 40, 370, 300), &png);
        text = popup_text(&png);
        text.contains("Meeting moved")
    });
    let artifacts = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let _ = std::fs::copy(&png, artifacts.join("notification-card-sway.png"));
    assert!(shown, "the card shows on sway: {text:?}; {}", sway.bar_log());
    let (margin, row) = (7.0, 14.0 * 1.9);
    let y = CARD.1 as f32 + margin + 3.0 * row + row / 2.0;
    let x = CARD.0 as f32 + margin + (360.0 - 2.0 * margin) / 4.0;
    sway.click(x as i64, y as i64, 1);
    let output = sender.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "yes", "notify-send heard its action");
}

/// The Notifications widget, first on the bar: a secondary click on its
/// bell switches do-not-disturb on (the bell changes), and from then on a
/// normal notification stays off the screen while a critical one shows;
/// a click opens the history, which lists both, and its Clear all closes
/// them (the critical card leaves the screen).
#[test]
fn do_not_disturb_keeps_normal_ones_off_the_screen_and_the_history_lists_them() {
    if !have_tools("notifications test", TOOLS) {
        return;
    }
    let Some(bus) = SessionBus::for_tests("notifications test", None) else { return };
    let (dir, config) = bar_config(
        serde_json::json!([{ "Notifications": { "enable": true } }]),
        serde_json::json!({ "enable": true, "timeout_ms": 60000 }),
    );
    let session = XSession::start(1280, 720);
    let address: &OsStr = bus.address.as_ref();
    let (_bar, _window) = session.start_bar_with_env(&config, Stdio::null(), &[("DBUS_SESSION_BUS_ADDRESS", address)]);
    let served = wait_for(Duration::from_secs(20), || {
        notify_send(&bus).args(["-e", "-t", "1", "ping"]).stderr(Stdio::null()).status().unwrap().success()
    });
    assert!(served, "the bar serves notifications");

    let bell = |frame: &crate::support::Frame| -> Vec<[u8; 4]> {
        (0..40).flat_map(|x| (0..40).map(move |y| (x, y))).map(|(x, y)| frame.pixel(x, y)).collect()
    };
    let mut ringing = Vec::new();
    let drawn = wait_for(Duration::from_secs(20), || {
        ringing = bell(&session.grab());
        ringing.iter().filter(|pixel| **pixel != ringing[0]).count() >= 20
    });
    assert!(drawn, "the bell is drawn");
    run(session.command("xdotool").args(["mousemove", "20", "20", "click", "3"]));
    assert!(
        wait_for(Duration::from_secs(10), || bell(&session.grab()) != ringing),
        "a secondary click crosses the bell out"
    );
    notify_send(&bus).args(["-a", "Chat", "Quiet please", "a normal one"]).status().unwrap();
    notify_send(&bus).args(["-a", "Power", "-u", "critical", "Disk full", "a critical one"]).status().unwrap();
    let mut text = String::new();
    let critical_shown = wait_for(Duration::from_secs(20), || {
        text = cards_text(&session, dir.path());
        text.contains("Disk full")
    });
    keep(&session, "notifications-do-not-disturb.png");
    assert!(critical_shown, "a critical one shows through do-not-disturb: {text:?}");
    assert!(!text.contains("Quiet"), "the normal one, sent first, stays off the screen: {text:?}");

    let popup = crate::popup::open_popup_with(&session, "1");
    let png = workspace().join("target/e2e-artifacts/notifications-history.png");
    let listed = wait_for(Duration::from_secs(10), || {
        session.grab_window(&popup, &png);
        text = popup_text(&png);
        ["Quiet please", "Disk full", "Do not disturb"].iter().all(|wanted| text.contains(wanted))
    });
    assert!(listed, "the history lists both under its buttons: {text:?}");
    assert!(text.find("Disk full") < text.find("Quiet please"), "newest first: {text:?}");

    // Clear all, at the popup's top right, closes them all: the critical card goes too.
    let (x, y, width, _) = session.geometry(&popup);
    let (x, y) = (x + width as i32 - 30, y + 18);
    run(session.command("xdotool").args(["mousemove", &x.to_string(), &y.to_string(), "click", "1"]));
    let cleared = wait_for(Duration::from_secs(10), || {
        session.grab_window(&popup, &png);
        text = popup_text(&png);
        text.contains("No notifications")
    });
    assert!(cleared, "Clear all empties the history: {text:?}");
    assert!(wait_for(Duration::from_secs(10), || !cards_text(&session, dir.path()).contains("Disk full")));
}

/// A reload is what enables and disables the server: a bar started
/// without `notifications` serves none; saved with them enabled, it takes
/// the name and shows a card; saved without, it lets the name go (a sender
/// then finds no server), and enabled again it serves again.
#[test]
fn a_reload_enables_and_disables_the_server() {
    if !have_tools("notifications test", TOOLS) {
        return;
    }
    let Some(bus) = SessionBus::for_tests("notifications test", None) else { return };
    let (dir, config) = bar_config(serde_json::json!([]), serde_json::json!({ "enable": false }));
    let session = XSession::start(1280, 720);
    let address: &OsStr = bus.address.as_ref();
    let (_bar, _window) = session.start_bar_with_env(&config, Stdio::null(), &[("DBUS_SESSION_BUS_ADDRESS", address)]);
    let served = || notify_send(&bus).args(["-e", "-t", "1", "ping"]).stderr(Stdio::null()).status().unwrap().success();
    let save = |enable: bool| {
        let json = serde_json::json!({
            "height": 40, "font_size": 14, "left_widgets": [], "right_widgets": [],
            "notifications": { "enable": enable, "timeout_ms": 60000 },
        });
        std::fs::write(&config, json.to_string()).unwrap();
    };
    std::thread::sleep(Duration::from_secs(3));
    assert!(!served(), "not enabled: no server");

    save(true);
    assert!(wait_for(Duration::from_secs(20), served), "enabled by a reload, the bar serves");
    notify_send(&bus).args(["Enabled by a reload"]).status().unwrap();
    let mut text = String::new();
    let shown = wait_for(Duration::from_secs(20), || {
        text = cards_text(&session, dir.path());
        text.contains("Enabled by")
    });
    assert!(shown, "its card shows: {text:?}");

    save(false);
    assert!(wait_for(Duration::from_secs(20), || !served()), "disabled by a reload, the name is let go");
    assert!(
        wait_for(Duration::from_secs(10), || !cards_text(&session, dir.path()).contains("Enabled")),
        "and the card goes"
    );
    save(true);
    assert!(wait_for(Duration::from_secs(20), served), "enabled again, it serves again");
}

fn resident_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|line| line.starts_with("VmRSS:")).unwrap();
    line.trim_start_matches("VmRSS:").trim().trim_end_matches(" kB").parse().unwrap()
}

#[test]
fn hostile_senders_leave_the_bar_ticking_and_its_memory_and_cards_bounded() {
    if !have_tools("notifications test", TOOLS) {
        return;
    }
    let Some(bus) = SessionBus::for_tests("notifications test", None) else { return };
    let work = tempfile::tempdir().unwrap();
    let count = work.path().join("count");
    let counter = format!(
        "n=$(( $(cat '{count}' 2>/dev/null || echo 0) + 1 )); echo $n > '{count}'; echo \"Count $n\"",
        count = count.display()
    );
    let (dir, config) = bar_config(
        serde_json::json!([{ "Custom": { "enable": true, "exec": counter, "interval": 1 } }]),
        serde_json::json!({ "enable": true, "max_visible": 3, "history": 100 }),
    );
    let session = XSession::start(1280, 720);
    let address: &OsStr = bus.address.as_ref();
    let (bar, _window) = session.start_bar_with_env(&config, Stdio::null(), &[("DBUS_SESSION_BUS_ADDRESS", address)]);
    let counted = |words: &[(String, u32)]| {
        words.windows(2).find(|pair| pair[0].0 == "Count").and_then(|pair| pair[1].0.parse::<u32>().ok())
    };
    let mut words = Vec::new();
    assert!(wait_for(Duration::from_secs(20), || {
        words = words_on_bar(&session, dir.path(), 400);
        counted(&words).is_some()
    }));
    let sender = zbus::blocking::connection::Builder::address(bus.address.as_str()).unwrap().build().unwrap();
    let notify = |summary: &str, body: &str, icon: &str, hints: std::collections::HashMap<&str, Value>| {
        let arguments = ("hostile", 0u32, icon, summary, body, Vec::<&str>::new(), hints, -1i32);
        sender.call_method(Some(NAME), PATH, Some(NAME), "Notify", &arguments).map(|_| ())
    };
    assert!(wait_for(Duration::from_secs(20), || notify("first", "", "", Default::default()).is_ok()));
    let memory_before = resident_kb(bar.0.id());
    let first = counted(&words);

    obi_test_support::notification_flood::flood(&sender, 10_000);
    notify("vast", &"x".repeat(10 << 20), "", Default::default()).unwrap();
    let claimed = zbus::zvariant::Structure::from((30000i32, 30000i32, 120000i32, true, 8i32, 4i32, vec![0u8; 64]));
    notify("vast image", "", "", [("image-data", Value::Structure(claimed))].into()).unwrap();
    let fifo = work.path().join("icon.png");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    notify("fifo icon", "", fifo.to_str().unwrap(), Default::default()).unwrap();

    let ticked = wait_for(Duration::from_secs(30), || {
        words = words_on_bar(&session, dir.path(), 400);
        counted(&words) >= first.map(|n| n + 5)
    });
    keep(&session, "notifications-hostile.png");
    assert!(ticked, "the bar ticks on (from {first:?}): {words:?}");
    let windows = run(session.command("xwininfo").args(["-root", "-tree"]));
    let mapped = String::from_utf8_lossy(&windows.stdout).matches("\"obi notification\"").count();
    assert!(mapped <= 3, "{mapped} notification windows were made for three shown at once");
    let grown = resident_kb(bar.0.id()).saturating_sub(memory_before);
    assert!(grown < 64 << 10, "the bar's memory grew by {grown} kB");
}

//! Keyboard, Media and Systray on one bar, each with the real thing behind
//! it: XKB's layout on Xvfb, mpv playing over MPRIS, and a real tray
//! application (`tray_application.py`, an Ayatana AppIndicator, as GTK
//! programs make their status icons) on a private session bus. The bar is
//! read back, the application's icon is found drawn, a right click opens its
//! menu in the bar, and choosing an entry reaches the application. The
//! screenshots and the bar's log are kept in `target/e2e-artifacts/desktop-*`.

use crate::media::{MPRIS_PLUGIN, play};
use crate::ocr::{HEIGHT, column_of, wait_for_words};
use crate::session_bus::SessionBus;
use crate::support::{Frame, Reaped, XSession, config_file, have_tools, run, wait_for, workspace};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

const TOOLS: &[&str] = &["Xvfb", "i3", "dbus-daemon", "dbus-send", "mpv", "xdotool", "import", "convert", "tesseract"];
/// The system's Python, which has the GObject bindings the application needs.
const PYTHON: &str = "/usr/bin/python3";
const WIDTH: u32 = 1280;
/// The application's icon: this colour around a blue square.
const ORANGE: [u8; 4] = [224, 160, 48, 255];

const CONFIG: &str = r#"{ "height": 40, "font_size": 18, "transparency_alpha": 255,
    "left_widgets": [ { "Keyboard": { "enable": true } } ],
    "center_widgets": [ { "Media": { "enable": true } } ],
    "right_widgets": [ { "Systray": { "enable": true } } ] }"#;

fn can_run_the_application() -> bool {
    let probe = Command::new(PYTHON)
        .args(["-c", "import gi; gi.require_version('AyatanaAppIndicator3', '0.1'); gi.require_version('Gtk', '3.0')"])
        .output();
    if probe.is_ok_and(|probe| probe.status.success()) {
        return true;
    }
    crate::skip::unavailable(
        "desktop widgets test: the tray application needs python3-gi, gir1.2-gtk-3.0 and \
         gir1.2-ayatanaappindicator3-0.1 (.ci/run installs them)",
    );
    false
}

/// A 32 px icon, orange around a blue square, in `dir` as `name.png`.
fn write_icon(dir: &Path, name: &str) {
    let rgba: Vec<u8> = (0..32 * 32)
        .flat_map(|i| {
            let (x, y) = (i % 32, i / 32);
            if (8..24).contains(&x) && (8..24).contains(&y) { [32, 48, 128, 255] } else { ORANGE }
        })
        .collect();
    let file = std::fs::File::create(dir.join(format!("{name}.png"))).unwrap();
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), 32, 32);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header().unwrap().write_image_data(&rgba).unwrap();
}

/// The columns of the bar where the icon's orange is drawn.
fn orange_columns(frame: &Frame) -> Vec<u32> {
    (0..frame.width).filter(|&x| (0..HEIGHT).any(|y| crate::support::same_colour(frame.pixel(x, y), ORANGE))).collect()
}

fn watcher_on(address: &str) -> bool {
    let output = run(Command::new("dbus-send")
        .env("DBUS_SESSION_BUS_ADDRESS", address)
        .args(["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus"])
        .args(["org.freedesktop.DBus.NameHasOwner", "string:org.kde.StatusNotifierWatcher"]));
    String::from_utf8_lossy(&output.stdout).contains("boolean true")
}

/// The application's lines, as it prints them.
fn lines_of(child: &mut std::process::Child) -> Receiver<String> {
    let (lines, received) = mpsc::channel();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                return;
            }
        }
    });
    received
}

/// Where the test keeps `desktop-{name}`.
fn artifact(name: &str) -> std::path::PathBuf {
    let artifacts = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    artifacts.join(format!("desktop-{name}"))
}

fn keep(session: &XSession, name: &str) {
    let shot = artifact(&format!("{name}.png"));
    run(session
        .command("import")
        .args(["-window", "root", "-crop", &format!("{WIDTH}x{HEIGHT}+0+0"), "+repage"])
        .arg(&shot));
}

#[test]
fn keyboard_media_and_a_real_tray_application_on_one_bar() {
    if !have_tools("desktop widgets test", TOOLS) || !can_run_the_application() {
        return;
    }
    if !Path::new(MPRIS_PLUGIN).exists() {
        crate::skip::unavailable(&format!(
            "desktop widgets test: {MPRIS_PLUGIN} is missing (.ci/run installs mpv-mpris)"
        ));
        return;
    }
    let session = XSession::start(WIDTH, 720);
    let bus = SessionBus::start().expect("starting dbus-daemon");
    let address = bus.address.clone();
    let (dir, config) = config_file(CONFIG);
    let _mpv = play(dir.path(), &address);
    let log = std::fs::File::create(artifact("obi.log")).unwrap();
    let (_bar, _window) = session.start_bar_with_env(
        &config,
        log.into(),
        &[("DBUS_SESSION_BUS_ADDRESS", address.as_ref()), ("OBI_LOG", "info".as_ref())],
    );
    // An AppIndicator looks for a watcher when it starts; the bar runs one.
    assert!(
        wait_for(Duration::from_secs(20), || watcher_on(&address)),
        "the bar runs a StatusNotifierWatcher (its log: target/e2e-artifacts/desktop-obi.log)"
    );

    write_icon(dir.path(), "obi-test-icon");
    let mut application = session
        .command(PYTHON)
        .arg(workspace().join("tests/e2e/tray_application.py"))
        .args([dir.path().to_str().unwrap(), "obi-test-icon"])
        .env("DBUS_SESSION_BUS_ADDRESS", &address)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting the tray application");
    let printed = lines_of(&mut application);
    let _application = Reaped(application);
    assert_eq!(printed.recv_timeout(Duration::from_secs(20)).as_deref(), Ok("ready"), "the application started");

    wait_for_words(&session, dir.path(), WIDTH, &["English", "Sine", "Waves", "Tune"], "desktop-bar");
    let mut icon = Vec::new();
    let drawn = wait_for(Duration::from_secs(20), || {
        icon = orange_columns(&session.grab());
        icon.len() >= 12
    });
    keep(&session, "bar");
    assert!(drawn, "the application's icon is drawn on the bar: orange in columns {icon:?}");
    let middle = (icon[0] + icon[icon.len() - 1]) / 2;
    assert!(middle > WIDTH * 3 / 4, "the tray is on the right: {middle}");

    run(session.command("xdotool").args(["mousemove", &middle.to_string(), &(HEIGHT / 2).to_string(), "click", "3"]));
    let words = wait_for_words(&session, dir.path(), WIDTH, &["Greet", "Quit"], "desktop-menu");
    keep(&session, "menu");
    let greet = column_of(&words, "Greet");
    run(session.command("xdotool").args(["mousemove", &greet.to_string(), &(HEIGHT / 2).to_string(), "click", "1"]));
    assert_eq!(
        printed.recv_timeout(Duration::from_secs(10)).as_deref(),
        Ok("chosen Greet"),
        "choosing the entry in the bar reached the application"
    );
}

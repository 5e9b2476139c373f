//! The real bar beside peers that mean it harm, each case named in the
//! README's security section: on its session bus a tray item and a media
//! player that name images whose headers lie about their size, or send a
//! 64 MB pixmap and 16 MB of bytes nobody reads; in its config an
//! application whose icon lies. In each the bar leaves out what it cannot
//! hold, says so in its log, and its memory stays within a stated bound.

use crate::ocr::words_on_bar;
use crate::session_bus::SessionBus;
use crate::support::{Reaped, XSession, config_file, have_tools, run, wait_for};
use obi_test_support::image_bombs::png_claiming;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};
use zbus::Message;
use zbus::blocking::{Connection, MessageIterator};
use zbus::zvariant::{Type, as_value};

const TOOLS: &[&str] = &["Xvfb", "i3", "dbus-daemon", "xdotool", "xwininfo", "import", "convert", "tesseract"];

/// A property of a peer, sent as fast as the peer can: bytes as bytes (a
/// value per byte, as zbus's own interfaces send them, would cost the test
/// the gigabytes the bar is not to spend).
#[derive(Clone)]
enum Property {
    Text(String),
    Flag(bool),
    Bytes(Bytes),
    /// A tray item's pixmaps: width, height, ARGB.
    Pixmaps(Vec<(i32, i32, Bytes)>),
    /// A dictionary of them, as a player's metadata.
    Dictionary(Vec<(&'static str, Property)>),
}

/// Bytes that serialize as one block, as an `ay`.
#[derive(Clone)]
struct Bytes(Vec<u8>);

impl serde::Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

impl Type for Bytes {
    const SIGNATURE: &'static zbus::zvariant::Signature = <Vec<u8> as Type>::SIGNATURE;
}

/// A property is sent in a variant.
impl serde::Serialize for Property {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Property::Text(text) => as_value::Serialize(text).serialize(serializer),
            Property::Flag(flag) => as_value::Serialize(flag).serialize(serializer),
            Property::Bytes(bytes) => as_value::Serialize(bytes).serialize(serializer),
            Property::Pixmaps(pixmaps) => as_value::Serialize(pixmaps).serialize(serializer),
            Property::Dictionary(entries) => {
                // In a set order: zbus serializes a message twice (once to
                // size it), and a HashMap's order differs from one map to the
                // next, so the padding did too: the length sent was not the
                // bytes sent, and the bus dropped the peer as corrupt.
                let entries: BTreeMap<&str, &Property> = entries.iter().map(|(key, value)| (*key, value)).collect();
                as_value::Serialize(&entries).serialize(serializer)
            }
        }
    }
}

impl Type for Property {
    const SIGNATURE: &'static zbus::zvariant::Signature = &zbus::zvariant::Signature::Variant;
}

/// A peer owning `name` on the bus at `address` that answers
/// `Properties.Get` and `GetAll` (of any object and interface) with
/// `properties`, and a property it lacks as no such property.
fn serve(address: &str, name: &str, properties: Vec<(&'static str, Property)>) -> Connection {
    let connection = zbus::blocking::connection::Builder::address(address).unwrap().build().expect("a peer on the bus");
    // Listening starts before the name is taken: the bar calls as soon as
    // the name appears, and a call that comes before the iterator is lost.
    let calls = MessageIterator::from(&connection);
    connection.request_name(name).expect("the peer's name");
    let answering = connection.clone();
    std::thread::spawn(move || {
        for message in calls.flatten() {
            let header = message.header();
            if header.message_type() != zbus::message::Type::MethodCall {
                continue;
            }
            let reply = match header.member().map(|member| member.as_str()) {
                Some("Get") => {
                    let Ok((_, asked)) = message.body().deserialize::<(String, String)>() else { continue };
                    match properties.iter().find(|(name, _)| *name == asked) {
                        Some((_, property)) => Message::method_return(&header).and_then(|reply| reply.build(property)),
                        None => Message::error(&header, "org.freedesktop.DBus.Error.UnknownProperty")
                            .and_then(|error| error.build(&("no such property",))),
                    }
                }
                Some("GetAll") => {
                    let all: BTreeMap<&str, &Property> =
                        properties.iter().map(|(name, value)| (*name, value)).collect();
                    Message::method_return(&header).and_then(|reply| reply.build(&all))
                }
                _ => continue,
            };
            if reply.and_then(|reply| answering.send(&reply)).is_err() {
                return;
            }
        }
    });
    connection
}

/// A tray item showing `icon_name` or `pixmaps`, registered with the bar's
/// watcher.
fn serve_item(address: &str, icon_name: String, pixmaps: Vec<(i32, i32, Vec<u8>)>) -> Connection {
    let name = format!("org.kde.StatusNotifierItem-{}-hostile", std::process::id());
    let pixmaps = pixmaps.into_iter().map(|(width, height, argb)| (width, height, Bytes(argb))).collect();
    let properties = vec![
        ("Id", Property::Text("hostile".into())),
        ("Status", Property::Text("Active".into())),
        ("IconName", Property::Text(icon_name)),
        ("IconPixmap", Property::Pixmaps(pixmaps)),
    ];
    let connection = serve(address, &name, properties);
    let registered = wait_for(Duration::from_secs(20), || {
        connection
            .call_method(
                Some("org.kde.StatusNotifierWatcher"),
                "/StatusNotifierWatcher",
                Some("org.kde.StatusNotifierWatcher"),
                "RegisterStatusNotifierItem",
                &name,
            )
            .is_ok()
    });
    assert!(registered, "the bar ran no watcher to register with");
    connection
}

/// A media player `name` playing "Hostile", its cover at `art_url`, with `junk`
/// bytes in a property of its own, read by nobody, and a sixteenth of them
/// in its metadata, which is read, and passed over.
fn serve_player(address: &str, name: &str, art_url: String, junk: usize) -> Connection {
    let metadata = vec![
        ("xesam:title", Property::Text("Hostile".into())),
        ("mpris:artUrl", Property::Text(art_url)),
        ("obi:junk", Property::Bytes(Bytes(vec![7; junk / 16]))),
    ];
    let properties = vec![
        ("Identity", Property::Text("Hostile player".into())),
        ("PlaybackStatus", Property::Text("Playing".into())),
        ("CanPlay", Property::Flag(true)),
        ("Metadata", Property::Dictionary(metadata)),
        ("Junk", Property::Bytes(Bytes(vec![7; junk]))),
    ];
    serve(address, &format!("org.mpris.MediaPlayer2.{name}"), properties)
}

/// A line of the process `pid`'s status (`VmHWM`, `VmRSS`), in kB.
fn memory_kb(pid: u32, line: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the bar is running");
    let value = status.lines().find_map(|row| row.strip_prefix(line)?.strip_prefix(':')).expect(line);
    value.trim().trim_end_matches(" kB").parse().unwrap()
}

/// Waits until `log` holds `text`, failing with the log after `timeout`.
fn wait_for_log(log: &Path, text: &str, timeout: Duration) {
    let said = || std::fs::read_to_string(log).unwrap_or_default();
    assert!(wait_for(timeout, || said().contains(text)), "the bar never said {text:?}; it said:\n{}", said());
}

/// A bar with `widgets` on the left, on its own session bus, once it has
/// drawn; its log goes to `log`.
fn start(session: &XSession, dir: &Path, widgets: &str, bus: &SessionBus, log: &Path) -> Reaped {
    let config = dir.join("komorebi.bar.json");
    std::fs::write(
        &config,
        format!(r#"{{ "height": 40, "left_widgets": [ {widgets} ], "right_widgets": [ {{ "Systray": {{ "enable": true }} }} ] }}"#),
    )
    .unwrap();
    let env = [("DBUS_SESSION_BUS_ADDRESS", bus.address.as_ref())];
    session.start_bar_drawn(&config, log, &env)
}

/// A PNG of 69 bytes claiming 200000×200000 pixels (160 GB of them), named
/// as a tray item's icon, as the cover of what plays and as an
/// application's icon: each is left out with a line saying why, and the bar
/// goes on (it aborted, out of memory) without its memory growing.
#[test]
fn images_whose_headers_lie_are_left_out_and_the_bar_goes_on() {
    if !have_tools("lying images test", TOOLS) {
        return;
    }
    let Some(bus) = SessionBus::for_tests("lying images test", None) else { return };
    let session = XSession::start(1280, 720);
    let (dir, _) = config_file("{}");
    let bomb = dir.path().join("bomb.png");
    std::fs::write(&bomb, png_claiming(200_000, 200_000)).unwrap();
    let log = dir.path().join("obi.log");
    let widgets = format!(
        r#"{{ "Media": {{ "enable": true }} }},
           {{ "Applications": {{ "enable": true, "items": [ {{ "name": "Bomb", "command": "true", "icon": "{}" }} ] }} }}"#,
        bomb.display()
    );
    let mut bar = start(&session, dir.path(), &widgets, &bus, &log);
    let pid = bar.0.id();
    let refused = "it is 200000×200000 pixels, more than the 4096 a side an image may have";
    wait_for_log(&log, &format!("image {}: {refused}", bomb.display()), Duration::from_secs(20));
    // Every widget has started once the tray has looked for its watcher.
    wait_for_log(&log, "obi runs one", Duration::from_secs(20));
    let rss = || memory_kb(pid, "VmRSS");
    let (before_tray, peak_before) = (rss(), memory_kb(pid, "VmHWM"));

    let _item = serve_item(&bus.address, bomb.display().to_string(), Vec::new());
    wait_for_log(
        &log,
        &format!("tray icon {}: image {}: {refused}", bomb.display(), bomb.display()),
        Duration::from_secs(20),
    );
    let after_tray = rss();
    // The cover is read for the media popup, opened on the player's item (the first).
    let _player = serve_player(&bus.address, "hostile", format!("file://{}", bomb.display()), 0);
    let opened = wait_for(Duration::from_secs(20), || {
        run(session.command("xdotool").args(["mousemove", "20", "20", "click", "3"]));
        session.find_window("^obi popup$", Duration::from_millis(1500)).is_some()
    });
    assert!(opened, "no media popup opened");
    wait_for_log(&log, &format!("media: no cover from file://{}: {refused}", bomb.display()), Duration::from_secs(20));
    let after_cover = rss();
    eprintln!(
        "lying images test: RSS {before_tray} kB, {after_tray} kB after the tray, {after_cover} kB after the cover"
    );

    assert!(bar.0.try_wait().unwrap().is_none(), "the bar ended:\n{}", std::fs::read_to_string(&log).unwrap());
    // Half a frame at the cap (64 MB); the frame claimed would be 160 GB.
    let grown = after_tray.saturating_sub(before_tray);
    assert!(grown < 32 << 10, "the tray's bomb grew the bar by {grown} kB");
    // The popup's own window and GL take about 40 MB; the frame the cover
    // claims would be 160 GB.
    let peak_grown = memory_kb(pid, "VmHWM").saturating_sub(peak_before);
    assert!(peak_grown < 100 << 10, "the bar's peak grew by {peak_grown} kB with the popup and its cover");
}

/// The bar's peak memory may grow by this much for a peer's 64 MB pixmap
/// or 16 MB property: less than twice what it is sent (it grew by 8.2 GB
/// and 2.2 GB, reading each byte as a value of its own).
const BYTES_BOUND_KB: u64 = 130 << 10;

/// A bar with the Media widget and the tray on a bus of its own, for a
/// test whose peer sends megabytes; none when a tool or the bus is missing
/// (said loudly, a failure under CI).
struct MegabytesBar {
    test: &'static str,
    bus: SessionBus,
    session: XSession,
    dir: tempfile::TempDir,
    log: std::path::PathBuf,
    bar: Reaped,
    peak_before: u64,
    started: Instant,
}

impl MegabytesBar {
    fn start(test: &'static str) -> Option<MegabytesBar> {
        if !have_tools(test, TOOLS) {
            return None;
        }
        let bus = SessionBus::for_tests(test, None)?;
        let session = XSession::start(1280, 720);
        let (dir, _) = config_file("{}");
        let log = dir.path().join("obi.log");
        let bar = start(&session, dir.path(), r#"{ "Media": { "enable": true } }"#, &bus, &log);
        let peak_before = memory_kb(bar.0.id(), "VmHWM");
        Some(MegabytesBar { test, bus, session, dir, log, bar, peak_before, started: Instant::now() })
    }

    /// The bar is still running, and its peak memory grew within [`BYTES_BOUND_KB`].
    fn assert_cost_within_bound(mut self) {
        let grown = memory_kb(self.bar.0.id(), "VmHWM").saturating_sub(self.peak_before);
        eprintln!("{}: the bar's peak grew by {grown} kB in {:?}", self.test, self.started.elapsed());
        let said = std::fs::read_to_string(&self.log).unwrap();
        assert!(self.bar.0.try_wait().unwrap().is_none(), "the bar ended:\n{said}");
        assert!(grown < BYTES_BOUND_KB, "the bar's peak grew by {grown} kB");
    }
}

/// A tray item whose one pixmap is an honest 4000×4000 (64 MB of pixels):
/// the bar shows it, and its peak memory grows within [`BYTES_BOUND_KB`].
#[test]
fn a_pixmap_of_64_mb_costs_its_size_and_no_more() {
    let Some(bar) = MegabytesBar::start("pixmap bytes test") else { return };
    let side = 4000;
    let pixmap = (side, side, [255, 0, 128, 255].repeat((side * side) as usize));
    let _item = serve_item(&bar.bus.address, String::new(), vec![pixmap]);
    wait_for_log(&bar.log, "StatusNotifierItem: id \"hostile\"", Duration::from_secs(60));
    bar.assert_cost_within_bound();
}

/// A player with a property of 16 MB of bytes and 1 MB in its metadata:
/// the bar shows what plays, and its peak memory grows within
/// [`BYTES_BOUND_KB`].
#[test]
fn a_player_with_megabytes_nobody_reads_costs_their_size_and_no_more() {
    let Some(bar) = MegabytesBar::start("player bytes test") else { return };
    let _player = serve_player(&bar.bus.address, "hostile", String::new(), 16 << 20);
    let mut words = Vec::new();
    let playing = wait_for(Duration::from_secs(30), || {
        words = words_on_bar(&bar.session, bar.dir.path(), 600);
        words.iter().any(|(word, _)| word.contains("Hostile"))
    });
    assert!(
        playing,
        "the bar never showed what plays: {words:?}; it said:\n{}",
        std::fs::read_to_string(&bar.log).unwrap()
    );
    bar.assert_cost_within_bound();
}

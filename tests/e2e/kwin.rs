//! The bar on KWin, Plasma's compositor, run headless (its virtual
//! backend) on a session bus of the test's own: a layer-shell compositor
//! that is not wlroots, and one that offers fractional scaling
//! (`wp_fractional_scale_v1`), where the bar is drawn for the output's own
//! pixels at 1.5 instead of drawn at 2 and shrunk. The screen is read back
//! through KWin's screenshot interface, at the output's native resolution.

use crate::session_bus::SessionBus;
use crate::support::{Frame, Reaped, have_tools, obi, text_ink, wait_for, which};
use std::collections::HashMap;
use std::io::Read;
use std::os::fd::AsFd;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

const SOCKET: &str = "wayland-obi-kwin";
/// The output's size in logical pixels.
const LOGICAL: (u32, u32) = (1280, 720);
const HEIGHT: u32 = 40;

/// A bar showing a clock's digits that stay the same (the test widget
/// `fixed`): both scales are measured on the same text.
fn clock() -> String {
    let digits = crate::golden::fixed(r#"[ { "text": "12:34:56" } ]"#);
    format!(
        r#"{{ "height": 40, "font_size": 20, "font_family": "DejaVu Sans", "left_widgets": [],
             "right_widgets": [ {digits} ] }}"#
    )
}

/// Dropped in this order: KWin, its bus, its files.
struct KWinSession {
    _kwin: Reaped,
    bus: SessionBus,
    runtime: PathBuf,
    dir: tempfile::TempDir,
}

impl KWinSession {
    /// KWin with one output of [`LOGICAL`] size at `scale`; `None`, said
    /// loudly (a failure under CI), when this machine cannot run one.
    fn start(test: &str, scale: &str) -> Option<KWinSession> {
        if !have_tools(test, &["kwin_wayland", "dbus-daemon"]) {
            return None;
        }
        let bus = SessionBus::for_tests(test, None)?;
        let dir = tempfile::tempdir().unwrap();
        let runtime = dir.path().join("runtime");
        std::fs::create_dir(&runtime).unwrap();
        std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
        // Debian gives kwin_wayland a file capability (cap_sys_resource),
        // and a container without it may not run such a file; a copy has
        // none, and KWin runs without it.
        let kwin = dir.path().join("kwin_wayland");
        std::fs::copy(which("kwin_wayland").unwrap(), &kwin).unwrap();
        let log = std::fs::File::create(dir.path().join("kwin.log")).unwrap();
        let (width, height) = (LOGICAL.0.to_string(), LOGICAL.1.to_string());
        let kwin = Command::new(kwin)
            .args(["--virtual", "--width", &width, "--height", &height, "--scale", scale, "--socket", SOCKET])
            .args(["--no-lockscreen", "--no-global-shortcuts", "--no-kactivities"])
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", dir.path())
            .env("XDG_RUNTIME_DIR", &runtime)
            .env("DBUS_SESSION_BUS_ADDRESS", &bus.address)
            .env("KWIN_SCREENSHOT_NO_PERMISSION_CHECKS", "1")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("starting kwin_wayland");
        let session = KWinSession { _kwin: Reaped(kwin), bus, runtime, dir };
        let started = wait_for(Duration::from_secs(20), || session.screenshot().is_ok());
        assert!(started, "KWin started and takes screenshots: {}", session.log("kwin.log"));
        Some(session)
    }

    fn log(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(name)).unwrap_or_default()
    }

    fn start_bar(&self, config: &str) -> Reaped {
        let path = self.dir.path().join("bar.json");
        std::fs::write(&path, config).unwrap();
        let bar = obi()
            .args(["--tiler", "none", "--config"])
            .arg(&path)
            .env_remove("DISPLAY")
            .env("XDG_RUNTIME_DIR", &self.runtime)
            .env("WAYLAND_DISPLAY", SOCKET)
            .env("OBI_LOG", "info")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(self.dir.path().join("obi.log")).unwrap())
            .spawn()
            .expect("starting obi");
        Reaped(bar)
    }

    /// The whole output at its native resolution, through
    /// `org.kde.KWin.ScreenShot2`: its pixels come down a pipe, ARGB32.
    fn screenshot(&self) -> Result<Frame, String> {
        let connection = zbus::blocking::connection::Builder::address(self.bus.address.as_str())
            .and_then(|builder| builder.build())
            .map_err(|error| error.to_string())?;
        let (mut reader, writer) = std::io::pipe().map_err(|error| error.to_string())?;
        let options = HashMap::from([("native-resolution", zbus::zvariant::Value::from(true))]);
        let reply = connection
            .call_method(
                Some("org.kde.KWin"),
                "/org/kde/KWin/ScreenShot2",
                Some("org.kde.KWin.ScreenShot2"),
                "CaptureActiveScreen",
                &(options, zbus::zvariant::Fd::from(writer.as_fd())),
            )
            .map_err(|error| error.to_string())?;
        drop(writer);
        let results: HashMap<String, zbus::zvariant::OwnedValue> =
            reply.body().deserialize().map_err(|error| error.to_string())?;
        let number = |key: &str| results.get(key).and_then(|value| u32::try_from(value).ok()).unwrap_or(0);
        let (width, height, stride) = (number("width"), number("height"), number("stride"));
        // QImage's ARGB32 (5), or the same with alpha premultiplied (6) or
        // ignored (4): in memory, blue, green, red, alpha.
        assert!(matches!(number("format"), 4..=6), "a 32-bit image: {results:?}");
        // Read on a thread of its own: a KWin that never writes must fail
        // the test, not hang it.
        let (sent, read) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut bytes = vec![0; (stride * height) as usize];
            let _ = sent.send(reader.read_exact(&mut bytes).map(|()| bytes));
        });
        let bytes = read
            .recv_timeout(Duration::from_secs(10))
            .map_err(|_| "no screenshot within 10 s".to_owned())?
            .map_err(|error| format!("reading the screenshot: {error}"))?;
        let rgba = bytes
            .chunks_exact(stride as usize)
            .flat_map(|row| row[..width as usize * 4].chunks_exact(4).flat_map(|p| [p[2], p[1], p[0], 255]))
            .collect();
        Ok(Frame { width, height, rgba })
    }

    /// The clock's text in the bar at the top of the output, once the bar
    /// is there: the rows it spans and its share of pixels in the text's
    /// own colour (see [`text_ink`]).
    fn clock_ink(&self, scale: f32) -> (u32, f32) {
        let bar_rows = (HEIGHT as f32 * scale).round() as u32;
        let mut ink = (0, 0.0);
        let drawn = wait_for(Duration::from_secs(20), || {
            let Ok(frame) = self.screenshot() else { return false };
            let right = frame.width;
            ink = text_ink(&frame, right - (200.0 * scale) as u32..right, 0..bar_rows);
            ink.0 > 5
        });
        assert!(drawn, "the bar's clock is drawn: {}", self.log("obi.log"));
        ink
    }
}

/// On KWin at 1.5 the compositor names a fractional scale: the bar is a
/// buffer of 1.5 times its size, drawn crisp, not one of twice its size
/// shrunk (which blurs every glyph). Measured against the same bar at 1,
/// by a clock's digits.
#[test]
fn on_kwin_a_fractional_scale_draws_the_bar_for_the_outputs_pixels() {
    let Some(single) = KWinSession::start("KWin fractional scale test", "1") else { return };
    let _bar = single.start_bar(&clock());
    let at_one = single.clock_ink(1.0);
    drop(single);

    let Some(kwin) = KWinSession::start("KWin fractional scale test", "1.5") else { return };
    let _bar = kwin.start_bar(&clock());
    let at_one_and_a_half = kwin.clock_ink(1.5);
    let log = kwin.log("obi.log");
    assert!(log.contains("the bar is drawn at scale 1.5"), "{log}");
    assert!(
        at_one_and_a_half.0 * 10 >= at_one.0 * 14 && at_one_and_a_half.0 * 10 <= at_one.0 * 16,
        "the clock is {} rows tall at scale 1, {} at 1.5",
        at_one.0,
        at_one_and_a_half.0
    );
    // Measured here, on these digits: 1.39 times scale 1's share drawn at
    // 1.5, 1.24 times drawn at 2 and shrunk.
    assert!(
        at_one_and_a_half.1 >= at_one.1 * 1.32,
        "crisp at 1.5: {:.2} of the clock's pixels are the text's colour, {:.2} at scale 1",
        at_one_and_a_half.1,
        at_one.1
    );
    // The bar keeps its logical height: its bottom edge is at 60 rows.
    let frame = kwin.screenshot().unwrap();
    let bar = |y: u32| frame.pixel(10, y) == frame.pixel(10, 0);
    assert!(bar(59) && !bar(60), "the bar is 60 rows tall at 1.5");
}

//! Shared helpers: running `obi`, finding tools, an Xvfb + i3 session, and
//! reading PNG frames.

use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

pub fn obi() -> Command {
    let mut command = Command::new(obi_binary());
    // One compiled-component cache for every test run: each kind compiles once.
    command.env("OBI_CACHE_DIR", workspace().join("target/obi-test-cache"));
    // A test names the display it runs the bar on; a Wayland session the
    // tests run in is not it.
    command.env_remove("WAYLAND_DISPLAY");
    command
}

pub use obi_test_support::workspace;

/// The `obi` binary under test, built once per test run, as the workspace
/// has it now. Cargo hands a test the binaries of its own package alone,
/// and these tests are a package of their own: they ask cargo for it, which
/// finds it up to date when `cargo test --workspace` has built it.
pub fn obi_binary() -> &'static Path {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| {
        let built = run(Command::new(env!("CARGO")).args(["build", "--package", "obi", "--bin", "obi"]));
        assert!(built.status.success(), "building obi: {}", String::from_utf8_lossy(&built.stderr));
        // This test runs from <target>/debug/deps; the binary is in <target>/debug.
        let test = std::env::current_exe().expect("the test's own path");
        let profile = test.parent().and_then(Path::parent).expect("the test runs from <target>/<profile>/deps");
        profile.join(format!("obi{}", std::env::consts::EXE_SUFFIX))
    })
}

pub fn run(command: &mut Command) -> Output {
    command.output().unwrap_or_else(|error| panic!("running {command:?}: {error}"))
}

/// Writes `json` to a fresh config file and returns its directory (kept alive by the caller).
pub fn config_file(json: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("komorebi.bar.json");
    std::fs::File::create(&path).unwrap().write_all(json.as_bytes()).unwrap();
    (dir, path)
}

/// Whether every program in `tools` is installed; if not, skips loudly, or
/// fails when running in CI.
pub fn have_tools(test: &str, tools: &[&str]) -> bool {
    let missing: Vec<&str> = tools.iter().copied().filter(|tool| which(tool).is_none()).collect();
    if missing.is_empty() {
        return true;
    }
    crate::skip::unavailable(&format!(
        "{test}: needs {} which this machine lacks (.ci/run installs them)",
        missing.join(", ")
    ));
    false
}

pub fn which(tool: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join(tool))
        .find(|path| path.is_file())
}

/// Kills the child when dropped, so a failing test leaves no server behind.
pub struct Reaped(pub Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// An X server (Xvfb, or Xephyr nested in one) with i3 managing it.
pub struct XSession {
    pub display: String,
    window_manager: Reaped,
    server: Reaped,
    /// Xephyr's own display, whose window is the nested screen.
    host: Option<(Reaped, String)>,
    /// i3's config and log.
    config: tempfile::TempDir,
}

impl XSession {
    pub fn start(width: u32, height: u32) -> XSession {
        XSession::start_with(width, height, "")
    }

    /// [`XSession::start`], with `config` added to i3's config.
    pub fn start_with(width: u32, height: u32, config: &str) -> XSession {
        let (server, display) = start_server(|display| {
            let mut xvfb = Command::new("Xvfb");
            xvfb.args([display, "-screen", "0", &format!("{width}x{height}x24"), "-nolisten", "tcp"]);
            xvfb
        });
        XSession::managed_with(server, display, None, config)
    }

    /// One screen of `monitors` RandR monitors side by side, each
    /// `width` × `height` and named `M0`, `M1` …, as i3 finds them when it
    /// starts (RandR 1.5 monitors: what a graphics card's outputs are).
    pub fn side_by_side(monitors: u32, width: u32, height: u32) -> XSession {
        let (server, display) = start_server(|display| {
            let mut xvfb = Command::new("Xvfb");
            // See `monitor_split` for -noreset.
            let size = format!("{}x{height}x24", width * monitors);
            xvfb.args([display, "-screen", "0", &size, "-nolisten", "tcp", "-noreset"]);
            xvfb
        });
        crate::monitor_split::side_by_side(&display, monitors, width, height);
        XSession::managed(server, display, None)
    }

    /// A screen whose resolution [`XSession::resize`] changes, as a monitor
    /// being switched to another mode does: Xephyr in a window of its own
    /// on an Xvfb, following that window's size (RandR tells its clients).
    pub fn resizable(width: u32, height: u32) -> XSession {
        let host = start_server(|display| {
            let mut xvfb = Command::new("Xvfb");
            xvfb.args([display, "-screen", "0", "2000x1200x24", "-nolisten", "tcp"]);
            xvfb
        });
        let (server, display) = start_server(|display| {
            let mut xephyr = Command::new("Xephyr");
            xephyr.args([
                display,
                "-resizeable",
                "-no-host-grab",
                "-screen",
                &format!("{width}x{height}"),
                "-nolisten",
                "tcp",
            ]);
            xephyr.env("DISPLAY", &host.1);
            xephyr
        });
        XSession::managed(server, display, Some(host))
    }

    /// Changes the resolution of a [`XSession::resizable`] screen.
    pub fn resize(&self, width: u32, height: u32) {
        let (_, host) = self.host.as_ref().expect("a resizable session");
        let window = run(Command::new("xdotool").args(["search", "--class", "Xephyr"]).env("DISPLAY", host));
        let window = String::from_utf8_lossy(&window.stdout).lines().next().expect("Xephyr's window").to_owned();
        let resized = run(Command::new("xdotool")
            .args(["windowsize", &window, &width.to_string(), &height.to_string()])
            .env("DISPLAY", host));
        assert!(resized.status.success(), "resizing Xephyr: {resized:?}");
    }

    fn managed(server: Reaped, display: String, host: Option<(Reaped, String)>) -> XSession {
        XSession::managed_with(server, display, host, "")
    }

    fn managed_with(server: Reaped, display: String, host: Option<(Reaped, String)>, more: &str) -> XSession {
        let config = tempfile::tempdir().unwrap();
        // i3 may take a file without this line for one of version 3.
        let version = if more.is_empty() { "" } else { "# i3 config file (v4)\n" };
        let i3_config = format!("{version}font pango:DejaVu Sans 8\n{MODES}{more}");
        std::fs::write(config.path().join("i3.conf"), i3_config).unwrap();
        let window_manager = start_window_manager(&display, config.path());
        XSession { display, window_manager, server, host, config }
    }

    /// What i3 logged, and with it what the bars it started said.
    pub fn i3_log(&self) -> String {
        std::fs::read_to_string(self.config.path().join("i3.log")).unwrap_or_default()
    }

    /// A folder the session keeps while it lasts.
    pub fn dir(&self) -> &Path {
        self.config.path()
    }

    /// Kills the X server, as a crash or a session's end does.
    pub fn kill_server(&mut self) {
        let _ = self.server.0.kill();
        let _ = self.server.0.wait();
    }

    /// Kills i3, as a crash would, and starts a new one.
    pub fn restart_window_manager(&mut self) {
        let _ = self.window_manager.0.kill();
        let _ = self.window_manager.0.wait();
        self.window_manager = start_window_manager(&self.display, self.config.path());
    }

    /// A command that talks to this X server.
    pub fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command.env("DISPLAY", &self.display);
        command
    }

    /// The id of the first window whose name matches `pattern`, once it is mapped.
    pub fn find_window(&self, pattern: &str, timeout: Duration) -> Option<String> {
        let mut found = None;
        wait_for(timeout, || {
            let output = self.command("xdotool").args(["search", "--onlyvisible", "--name", pattern]).output();
            found = output
                .ok()
                .and_then(|output| String::from_utf8(output.stdout).ok())
                .and_then(|ids| ids.lines().next().map(str::to_owned));
            found.is_some()
        });
        found
    }

    /// i3's workspaces by name, and whether each is focused.
    pub fn i3_workspaces(&self) -> Vec<(String, bool)> {
        let output = self.command("i3-msg").args(["-t", "get_workspaces"]).output();
        let Ok(output) = output else { return Vec::new() };
        let listed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_default();
        listed
            .as_array()
            .into_iter()
            .flatten()
            .map(|workspace| (workspace["name"].as_str().unwrap_or_default().to_owned(), workspace["focused"] == true))
            .collect()
    }

    /// The workspace i3 has focused.
    pub fn focused_workspace(&self) -> Option<String> {
        self.i3_workspaces().into_iter().find(|(_, focused)| *focused).map(|(name, _)| name)
    }

    /// The geometry `xwininfo` reports of `window`: x, y, width, height.
    pub fn geometry(&self, window: &str) -> (i32, i32, u32, u32) {
        self.geometry_if_alive(window).unwrap_or_else(|| panic!("the window {window} is gone"))
    }

    /// The geometry of `window`, or `None` when it is gone: a window a
    /// search listed may be destroyed before it is asked about.
    pub fn geometry_if_alive(&self, window: &str) -> Option<(i32, i32, u32, u32)> {
        let field = self.window_info(window)?;
        let (x, y) = (field("Absolute upper-left X:") as i32, field("Absolute upper-left Y:") as i32);
        Some((x, y, field("Width:") as u32, field("Height:") as u32))
    }

    /// What `window` shows now, where it is now, as a PNG file at `png`.
    pub fn grab_window(&self, window: &str, png: &Path) {
        let (x, y, width, height) = self.geometry(window);
        let crop = format!("{width}x{height}+{x}+{y}");
        let grab = run(self.command("import").args(["-window", "root", "-crop", &crop, "+repage"]).arg(png));
        assert!(grab.status.success(), "import: {}", String::from_utf8_lossy(&grab.stderr));
    }

    /// Whether a client holds the pointer, as a popup does while it is
    /// open: a grab of the test's own is refused then (and one that is
    /// not is let go at once).
    pub fn pointer_grabbed(&self) -> bool {
        use x11rb::connection::Connection;
        use x11rb::protocol::xproto::{ConnectionExt, EventMask, GrabMode, GrabStatus};
        let (connection, screen) = x11rb::connect(Some(&self.display)).expect("connecting to the test's X server");
        let root = connection.setup().roots[screen].root;
        let (none, now) = (x11rb::NONE, x11rb::CURRENT_TIME);
        let grab = connection.grab_pointer(
            false,
            root,
            EventMask::NO_EVENT,
            GrabMode::ASYNC,
            GrabMode::ASYNC,
            none,
            none,
            now,
        );
        let status = grab.expect("asking for the pointer").reply().expect("X's answer to a grab").status;
        if status == GrabStatus::SUCCESS {
            connection.ungrab_pointer(now).expect("letting the pointer go");
            connection.flush().expect("letting the pointer go");
        }
        status == GrabStatus::ALREADY_GRABBED
    }

    /// The depth of `window`'s visual: 32 for ARGB.
    pub fn depth(&self, window: &str) -> u32 {
        self.window_info(window).unwrap_or_else(|| panic!("the window {window} is gone"))("Depth:") as u32
    }

    /// `xwininfo` of `window`, as a lookup of its numeric fields by label;
    /// `None` when there is no such window.
    fn window_info(&self, window: &str) -> Option<impl Fn(&str) -> i64> {
        let info = run(self.command("xwininfo").args(["-id", window]));
        if !info.status.success() {
            return None;
        }
        let info = String::from_utf8_lossy(&info.stdout).into_owned();
        Some(move |name: &str| {
            info.lines()
                .find_map(|line| line.trim().strip_prefix(name))
                .and_then(|value| value.trim().parse().ok())
                .unwrap_or_else(|| panic!("xwininfo gave no {name}: {info}"))
        })
    }

    /// Starts obi on this display with `config` and waits for its window
    /// (which maps before the bar has drawn in it: see
    /// [`XSession::start_bar_drawn`]).
    pub fn start_bar(&self, config: &Path, stderr: Stdio) -> (Reaped, String) {
        self.start_bar_with_env(config, stderr, &[])
    }

    /// [`XSession::start_bar`] with these environment variables set for obi.
    pub fn start_bar_with_env(
        &self,
        config: &Path,
        stderr: Stdio,
        env: &[(&str, &std::ffi::OsStr)],
    ) -> (Reaped, String) {
        let bar = obi()
            .arg("--config")
            .arg(config)
            .env("DISPLAY", &self.display)
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .expect("starting obi");
        let bar = Reaped(bar);
        let window = self.find_window("^obi$", Duration::from_secs(20)).expect("the bar window appears");
        (bar, window)
    }

    /// Starts obi with `config`, its log (with [`DRAWN_LOG`]) at `log`,
    /// and waits until it has drawn its first complete frame: the bar maps
    /// before its GL is set up, so memory measured from its window's
    /// appearing would count the GL stack's as what a test does.
    pub fn start_bar_drawn(&self, config: &Path, log: &Path, env: &[(&str, &std::ffi::OsStr)]) -> Reaped {
        let (name, filter) = DRAWN_LOG;
        let env: Vec<(&str, &std::ffi::OsStr)> = env.iter().copied().chain([(name, filter.as_ref())]).collect();
        let stderr = Stdio::from(std::fs::File::create(log).expect("the bar's log"));
        let (bar, _window) = self.start_bar_with_env(config, stderr, &env);
        let said = || std::fs::read_to_string(log).unwrap_or_default();
        let drawn = wait_for(Duration::from_secs(20), || said().contains("its first complete frame presented"));
        assert!(drawn, "the bar drew no complete frame: {}", said());
        bar
    }

    /// The whole screen as RGBA rows.
    pub fn grab(&self) -> Frame {
        let output = run(self.command("import").args(["-window", "root", "png:-"]));
        assert!(output.status.success(), "import failed: {}", String::from_utf8_lossy(&output.stderr));
        Frame::decode(&output.stdout)
    }
}

/// The binding modes the tests' i3 and sway declare: `resize`, and one
/// named in Pango markup, [`MARKUP_MODE`].
pub const MODES: &str = concat!(
    "mode \"resize\" {\n    bindsym Escape mode \"default\"\n}\n",
    "mode --pango_markup \"<span foreground='#ff8000'>hot</span> mode\" {\n    bindsym Escape mode \"default\"\n}\n",
);

/// The name of the binding mode in markup that [`MODES`] declares.
pub const MARKUP_MODE: &str = "<span foreground='#ff8000'>hot</span> mode";

/// Starts i3 on `display` with the config in `dir`, and waits until it answers.
fn start_window_manager(display: &str, dir: &Path) -> Reaped {
    let i3_config = dir.join("i3.conf");
    let i3_log = dir.join("i3.log");
    let start_i3 = || {
        let window_manager = Command::new("i3")
            .args(["-c", i3_config.to_str().unwrap()])
            .env("DISPLAY", display)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&i3_log).unwrap())
            .spawn()
            .expect("starting i3");
        Reaped(window_manager)
    };
    let answers = || {
        Command::new("i3-msg")
            .args(["-t", "get_version"])
            .env("DISPLAY", display)
            .output()
            .is_ok_and(|output| output.status.success())
    };
    // i3 sometimes fails to open a display that has just come up (seen on
    // a loaded machine, with Xvfb alive); it exits at once, and a second
    // start works. On a loaded machine it may also be slow to answer: one
    // that is alive is waited for, rather than started again, up to a
    // minute in all.
    let mut window_manager = start_i3();
    let mut starts = 1;
    wait_for(Duration::from_secs(60), || {
        if answers() {
            return true;
        }
        if starts < 4 && window_manager.0.try_wait().ok().flatten().is_some() {
            window_manager = start_i3();
            starts += 1;
        }
        false
    });
    assert!(answers(), "i3 did not answer on {display}: {}", std::fs::read_to_string(&i3_log).unwrap_or_default());
    window_manager
}

/// Starts the X server `command` makes for a display number no other test
/// (of this process, or of another, told apart by lock files) uses, and
/// waits until it answers.
pub fn start_server(command: impl Fn(&str) -> Command) -> (Reaped, String) {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    (0..50)
        .map(|_| 60 + (std::process::id() % 100) * 3 + NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % 300)
        .find_map(|number| {
            if obi_test_support::x_display::taken(number) {
                return None;
            }
            let display = format!(":{number}");
            let server = command(&display).stdout(Stdio::null()).stderr(Stdio::null()).spawn().ok()?;
            let mut server = Reaped(server);
            // Up once it answers a client; a server that exits (say, it
            // lost a race for this number) sends us on to the next one.
            let answers = wait_for(Duration::from_secs(20), || {
                server.0.try_wait().ok().flatten().is_none()
                    && Command::new("xwininfo")
                        .args(["-root", "-display", &display])
                        .stdout(Stdio::null())
                        .stderr(Stdio::null())
                        .status()
                        .is_ok_and(|status| status.success())
            });
            answers.then_some((server, display))
        })
        .expect("starting an X server on a free display")
}

/// Every file under `folder` and its subfolders; a link to a folder is not
/// followed (a Wine prefix links to `/`).
pub fn files_under(folder: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(folder) else { return Vec::new() };
    let mut files = Vec::new();
    for path in entries.flatten().map(|entry| entry.path()) {
        if path.is_dir() && !path.is_symlink() { files.extend(files_under(&path)) } else { files.push(path) }
    }
    files
}

pub fn wait_for(timeout: Duration, mut ready: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + timeout;
    // Asked at least once: with no time to wait, whether it is ready now.
    loop {
        if ready() {
            return true;
        }
        if Instant::now() >= until {
            return false;
        }
        sleep(Duration::from_millis(50));
    }
}

/// An RGBA image.
pub struct Frame {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

impl Frame {
    pub fn decode(png_bytes: &[u8]) -> Frame {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
        decoder.set_transformations(png::Transformations::normalize_to_color8() | png::Transformations::ALPHA);
        let mut reader = decoder.read_info().expect("a PNG");
        let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buffer).expect("a PNG frame");
        buffer.truncate(info.buffer_size());
        // ImageMagick writes a grab with no colour in it (a window not yet
        // painted, all black) as grey, which the decoder keeps grey.
        let rgba = match info.color_type {
            png::ColorType::Rgba => buffer,
            png::ColorType::GrayscaleAlpha => {
                buffer.chunks_exact(2).flat_map(|pixel| [pixel[0], pixel[0], pixel[0], pixel[1]]).collect()
            }
            other => panic!("a PNG decoded to {other:?}, not RGBA"),
        };
        Frame { width: info.width, height: info.height, rgba }
    }

    pub fn read(path: &Path) -> Frame {
        Frame::decode(&std::fs::read(path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display())))
    }

    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        let at = ((y * self.width + x) * 4) as usize;
        self.rgba[at..at + 4].try_into().unwrap()
    }

    /// The columns of each run of ink (a word, an item) across the frame,
    /// what differs from its top-left pixel: split where `gap` columns in a
    /// row have none.
    pub fn inked_runs(&self, gap: u32) -> Vec<Range<u32>> {
        let background = self.pixel(0, 0);
        let inked = |x: u32| (0..self.height).any(|y| is_ink(self.pixel(x, y), background));
        let mut runs: Vec<Range<u32>> = Vec::new();
        for x in (0..self.width).filter(|x| inked(*x)) {
            match runs.last_mut() {
                Some(run) if x - run.end < gap => run.end = x + 1,
                _ => runs.push(x..x + 1),
            }
        }
        runs
    }

    /// Columns `left..right` as a frame of their own.
    pub fn crop(&self, left: u32, right: u32) -> Frame {
        let rgba = (0..self.height)
            .flat_map(|y| {
                let start = ((y * self.width + left) * 4) as usize;
                self.rgba[start..start + ((right - left) * 4) as usize].iter().copied()
            })
            .collect();
        Frame { width: right - left, height: self.height, rgba }
    }

    /// Rows `top..top + rows` as a frame of their own.
    pub fn rows(&self, top: u32, rows: u32) -> Frame {
        let start = (top * self.width * 4) as usize;
        let end = ((top + rows) * self.width * 4) as usize;
        Frame { width: self.width, height: rows, rgba: self.rgba[start..end].to_vec() }
    }

    /// Pixels in the default theme's urgent fill, Catppuccin's red, lit
    /// or not, in columns `from..to`: nothing else the tests draw is red.
    pub fn urgent(&self, from: u32, to: u32) -> usize {
        let red = |[r, g, b, _]: [u8; 4]| r > g.saturating_add(50) && r > b.saturating_add(30);
        (0..self.height).flat_map(|y| (from..to).map(move |x| (x, y))).filter(|&(x, y)| red(self.pixel(x, y))).count()
    }

    /// Pixels whose colour is not `colour`, in columns `from..to`.
    pub fn ink(&self, colour: [u8; 4], from: u32, to: u32) -> usize {
        (0..self.height)
            .flat_map(|y| (from..to).map(move |x| (x, y)))
            .filter(|&(x, y)| !same_colour(self.pixel(x, y), colour))
            .count()
    }
}

/// Whether `pixel` is ink on `background`: far from it in some channel.
pub fn is_ink(pixel: [u8; 4], background: [u8; 4]) -> bool {
    (0..3).any(|channel| pixel[channel].abs_diff(background[channel]) > 96)
}

/// Equal but for rounding: a translucent colour is stored premultiplied
/// in 8 bits and read back straight, which moves a channel by one or two.
pub fn same_colour(a: [u8; 4], b: [u8; 4]) -> bool {
    a.iter().zip(b).all(|(a, b)| a.abs_diff(b) <= 2)
}

/// How many rows the text in `columns` × `rows` of `frame` spans, and the
/// share of its pixels in the text's own colour (the rest are its
/// antialiased edges: a crisp text has more of the one, an enlarged one
/// more of the other). What differs from the top-left pixel is ink.
pub fn text_ink(frame: &Frame, columns: Range<u32>, rows: Range<u32>) -> (u32, f32) {
    let background = frame.pixel(columns.start, rows.start);
    let text = [0xcd, 0xd6, 0xf4]; // Catppuccin Mocha's text
    let near = |a: [u8; 4], b: [u8; 3], by: u8| (0..3).all(|channel| a[channel].abs_diff(b[channel]) <= by);
    let (mut inked, mut ink, mut full) = ((u32::MAX, 0), 0, 0);
    for y in rows {
        for x in columns.clone() {
            let pixel = frame.pixel(x, y);
            if near(pixel, [background[0], background[1], background[2]], 30) {
                continue;
            }
            (inked.0, inked.1, ink) = (inked.0.min(y), inked.1.max(y), ink + 1);
            full += u32::from(near(pixel, text, 25));
        }
    }
    (inked.1.saturating_sub(inked.0) + 1, full as f32 / ink.max(1) as f32)
}

/// The log filter under which the bar says when it has presented its
/// first complete frame.
pub const DRAWN_LOG: (&str, &str) =
    ("OBI_LOG", "obi=info,obi::bar::running=debug,obi::capabilities=debug,winit=error,warn");

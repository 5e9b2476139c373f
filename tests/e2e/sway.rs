//! The bar on a real sway: sway runs nested in an Xvfb of its own
//! (`WLR_BACKENDS=x11`, pixman), so that its seat has the X server's
//! pointer and xdotool drives it, as an unprivileged user because sway
//! refuses root, with a runtime folder of that user's. The bar (run as the
//! test's user, which reaches sway's sockets as root does) is told where
//! sway is through the variables sway gives its own clients, and is a
//! Wayland layer surface there.

use crate::komorebi_simulator::{Simulator, state, window, workspace as komorebi_workspace};
use crate::nobody::as_nobody_when_root;
use crate::ocr::words_in;
use crate::popup::{popup_text, selected_text};
use crate::support::{Reaped, have_tools, obi, run, start_server, text_ink, wait_for, workspace};
use std::ffi::{OsStr, OsString};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const TOOLS: &[&str] = &["Xvfb", "xdotool", "sway", "swaymsg", "grim", "foot", "setpriv", "convert", "tesseract"];

/// The bar's height in these tests, and a config of sway's workspaces,
/// large enough to read, beside a clock.
const HEIGHT: i64 = 40;
const WORKSPACES: &str = r#"{ "height": 40, "font_size": 20, "font_family": "DejaVu Sans",
    "left_widgets": [ { "Komorebi": { "workspaces": { "enable": true, "hide_empty_workspaces": false, "display": "Text" } } } ],
    "right_widgets": [ { "Time": { "enable": true, "format": "TwentyFourHour" } } ],
    "mouse": { "on_scroll_down": { "message": { "type": "CycleFocusWorkspace", "content": "Next" } } } }"#;

pub struct SwaySession {
    dir: tempfile::TempDir,
    /// The runtime folder of the clients (the test's user's own; sway's is
    /// its user's).
    clients: PathBuf,
    ipc: PathBuf,
    wayland: PathBuf,
    /// The Xvfb sway draws into, whose pointer is sway's.
    display: String,
    sway: Reaped,
    _xvfb: Reaped,
}

impl SwaySession {
    /// sway with one 1280×720 output, `X11-1`; `None`, said loudly (a
    /// failure under CI), when this machine cannot run one.
    pub fn start(test: &str) -> Option<SwaySession> {
        SwaySession::start_with(test, "")
    }

    /// [`SwaySession::start`], with `config` added to sway's config.
    pub fn start_with(test: &str, config: &str) -> Option<SwaySession> {
        if !have_tools(test, TOOLS) {
            return None;
        }
        // sway's user must reach the X server.
        let (xvfb, display) = start_server(|display| {
            let mut xvfb = Command::new("Xvfb");
            xvfb.args([display, "-ac", "-noreset", "-screen", "0", "1280x720x24", "-nolisten", "tcp"]);
            xvfb
        });
        intern_window_manager_atoms(&display);
        let dir = tempfile::tempdir().unwrap();
        let runtime = dir.path().join("runtime");
        std::fs::create_dir(&runtime).unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
        let sway_config =
            format!("output X11-1 resolution 1280x720\nfont pango:DejaVu Sans 8\n{}{config}", crate::support::MODES);
        let config = dir.path().join("sway.conf");
        std::fs::write(&config, sway_config).unwrap();
        let mut command = as_nobody_when_root("sway", &[&runtime]);
        let log = std::fs::File::create(dir.path().join("sway.log")).unwrap();
        let sway = command
            .arg("-c")
            .arg(&config)
            .env_clear()
            .env("HOME", dir.path())
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("DISPLAY", &display)
            .env("XDG_RUNTIME_DIR", &runtime)
            .env("WLR_BACKENDS", "x11")
            .env("WLR_RENDERER", "pixman")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("starting sway");
        let sway = Reaped(sway);
        let socket = |prefix: &str| {
            std::fs::read_dir(&runtime).ok()?.filter_map(Result::ok).map(|entry| entry.path()).find(|path| {
                let name = path.file_name().and_then(|name| name.to_str()).unwrap_or_default();
                name.starts_with(prefix) && !name.ends_with(".lock")
            })
        };
        let started =
            wait_for(Duration::from_secs(10), || socket("sway-ipc.").is_some() && socket("wayland-").is_some());
        let log = || std::fs::read_to_string(dir.path().join("sway.log")).unwrap_or_default();
        assert!(started, "sway started: {}", log());
        let (ipc, wayland) = (socket("sway-ipc.").unwrap(), socket("wayland-").unwrap());
        let clients = session_folder(dir.path());
        let session = SwaySession { dir, clients, ipc, wayland, display, sway, _xvfb: xvfb };
        assert!(wait_for(Duration::from_secs(10), || session.swaymsg(&["-t", "get_outputs"]).status.success()));
        Some(session)
    }

    /// What a client of this sway is given: its sockets and runtime folder.
    pub fn env(&self) -> Vec<(&'static str, OsString)> {
        vec![
            ("SWAYSOCK", self.ipc.clone().into()),
            ("I3SOCK", self.ipc.clone().into()),
            ("WAYLAND_DISPLAY", self.wayland.clone().into()),
            ("XDG_RUNTIME_DIR", self.clients.clone().into()),
        ]
    }

    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    pub fn swaymsg(&self, args: &[&str]) -> Output {
        run(Command::new("swaymsg").args(args).envs(self.env()))
    }

    /// sway's layout tree.
    pub fn tree(&self) -> serde_json::Value {
        serde_json::from_slice(&self.swaymsg(&["-t", "get_tree"]).stdout).unwrap_or_default()
    }

    /// The workspace sway focuses.
    pub fn focused_workspace(&self) -> Option<String> {
        let listed: serde_json::Value =
            serde_json::from_slice(&self.swaymsg(&["-t", "get_workspaces"]).stdout).unwrap_or_default();
        let focused = listed.as_array()?.iter().find(|workspace| workspace["focused"] == true)?;
        focused["name"].as_str().map(str::to_owned)
    }

    /// Opens a terminal on the workspace `name` (which sway then keeps).
    pub fn populate(&self, name: &str) {
        self.populate_titled(name, "foot");
    }

    /// Opens a terminal titled `title` on the workspace `name`.
    pub fn populate_titled(&self, name: &str, title: &str) {
        self.swaymsg(&["workspace", name]);
        let before = self.windows(name);
        // nobody's login shell is nologin: the terminal runs a sleep instead.
        self.swaymsg(&["exec", &format!("foot --title '{title}' sleep 600")]);
        assert!(wait_for(Duration::from_secs(20), || self.windows(name) > before), "foot opened on {name}");
    }

    /// How many windows the workspace `name` holds.
    fn windows(&self, name: &str) -> usize {
        fn count(node: &serde_json::Value) -> usize {
            let children = ["nodes", "floating_nodes"].iter().filter_map(|key| node[key].as_array()).flatten();
            usize::from(node["app_id"].is_string()) + children.map(count).sum::<usize>()
        }
        find_node(&self.tree(), name).map_or(0, count)
    }

    /// Moves sway's pointer (the Xvfb's) to (`x`, `y`).
    pub fn point(&self, x: i64, y: i64) {
        let moved = run(Command::new("xdotool")
            .args(["mousemove", &x.to_string(), &y.to_string()])
            .env("DISPLAY", &self.display));
        assert!(moved.status.success(), "xdotool: {moved:?}");
    }

    /// Presses `key` (an xdotool key name) on sway's seat (the Xvfb's
    /// keyboard, which reaches sway's window under the pointer).
    pub fn key(&self, key: &str) {
        let pressed = run(Command::new("xdotool").args(["key", key]).env("DISPLAY", &self.display));
        assert!(pressed.status.success(), "xdotool: {pressed:?}");
    }

    /// Moves sway's pointer (the Xvfb's) to (`x`, `y`) and presses `button`.
    pub fn click(&self, x: i64, y: i64, button: u8) {
        let clicked = run(Command::new("xdotool")
            .args(["mousemove", &x.to_string(), &y.to_string(), "click", &button.to_string()])
            .env("DISPLAY", &self.display));
        assert!(clicked.status.success(), "xdotool: {clicked:?}");
    }

    /// The words in the `width`×`height` rectangle at (`x`, `y`) of the
    /// output, kept as `target/e2e-artifacts/{artifact}.png` when `names`
    /// are not all among them within 20 s.
    pub fn wait_for_words(&self, rect: (i64, i64, i64, i64), names: &[&str], artifact: &str) -> Vec<(String, u32)> {
        let png = self.dir().join("grab.png");
        let (x, y, width, height) = rect;
        let mut words = Vec::new();
        let shown = wait_for(Duration::from_secs(20), || {
            let grab =
                run(Command::new("grim").args(["-g", &format!("{x},{y} {width}x{height}")]).arg(&png).envs(self.env()));
            words = if grab.status.success() { words_in(&png) } else { Vec::new() };
            names.iter().all(|name| words.iter().any(|(word, _)| word == name))
        });
        if !shown {
            let artifacts = workspace().join("target/e2e-artifacts");
            std::fs::create_dir_all(&artifacts).unwrap();
            let _ = std::fs::copy(&png, artifacts.join(format!("{artifact}.png")));
        }
        assert!(shown, "the bar shows {names:?}; it reads {words:?} (target/e2e-artifacts/{artifact}.png)");
        words
    }

    /// The `width`×`height` rectangle at (`x`, `y`) of the output, as the
    /// PNG file `png`.
    pub fn grab(&self, (x, y, width, height): (u32, u32, u32, u32), png: &Path) {
        let area = format!("{x},{y} {width}x{height}");
        let grabbed = run(Command::new("grim").args(["-g", &area]).arg(png).envs(self.env()));
        assert!(grabbed.status.success(), "grim: {grabbed:?}");
    }

    /// Starts the bar with `config` on this sway, logging to `obi.log`.
    pub fn start_bar(&self, config: &str, args: &[&str]) -> Reaped {
        self.start_bar_with_env(config, args, &[])
    }

    /// [`SwaySession::start_bar`] with `env` in the bar's environment too.
    pub fn start_bar_with_env(&self, config: &str, args: &[&str], env: &[(&str, &OsStr)]) -> Reaped {
        let path = self.dir().join("bar.json");
        std::fs::write(&path, config).unwrap();
        // sway's own tiler unless the test names another.
        let tiler = if args.contains(&"--tiler") { &[][..] } else { &["--tiler", "sway"][..] };
        let bar = obi()
            .args(tiler)
            .arg("--config")
            .arg(&path)
            .args(args)
            .env_remove("DISPLAY")
            .envs(self.env())
            .env("OBI_LOG", "info")
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(self.dir().join("obi.log")).unwrap())
            .spawn()
            .expect("starting obi");
        Reaped(bar)
    }

    pub fn bar_log(&self) -> String {
        std::fs::read_to_string(self.dir().join("obi.log")).unwrap_or_default()
    }

    /// What sway logged, and with it what the bars it started said.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir().join("sway.log")).unwrap_or_default()
    }
}

/// wlroots takes the atoms its output windows close by only when the X
/// server has them already, as one where a window manager ran does; a
/// fresh Xvfb (kept by `-noreset`) is given them first.
fn intern_window_manager_atoms(display: &str) {
    use x11rb::protocol::xproto::ConnectionExt;
    let (connection, _) = x11rb::connect(Some(display)).expect("connecting to sway's Xvfb");
    for name in ["WM_PROTOCOLS", "WM_DELETE_WINDOW"] {
        connection.intern_atom(false, name.as_bytes()).unwrap().reply().unwrap();
    }
}

/// A runtime folder of the test's user in `dir`.
fn session_folder(dir: &Path) -> PathBuf {
    let folder = dir.join("clients");
    std::fs::create_dir(&folder).unwrap();
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o700)).unwrap();
    folder
}

/// The first node of `tree` named `name`.
fn find_node<'a>(tree: &'a serde_json::Value, name: &str) -> Option<&'a serde_json::Value> {
    if tree["name"] == name {
        return Some(tree);
    }
    ["nodes", "floating_nodes"]
        .iter()
        .filter_map(|key| tree[key].as_array())
        .flatten()
        .find_map(|child| find_node(child, name))
}

/// How far down the workspace `name` of `tree` starts: the height of the
/// space a bar at the top reserves.
pub fn workspace_top(tree: &serde_json::Value, name: &str) -> Option<i64> {
    find_node(tree, name)?["rect"]["y"].as_i64()
}

/// The rectangle of the first window (a node with an `app_id`) in `tree`.
fn window_rect(tree: &serde_json::Value) -> Option<serde_json::Value> {
    if tree["app_id"].is_string() {
        return Some(tree["rect"].clone());
    }
    ["nodes", "floating_nodes"].iter().filter_map(|key| tree[key].as_array()).flatten().find_map(window_rect)
}

/// The bar is a layer surface at the top of sway's output, not a window in
/// its tree; the windows tiled there leave it room; it shows sway's
/// workspaces (on sway 1.7, which refuses the `output` event, it follows
/// them all the same) and a click on one makes sway focus it.
#[test]
fn on_sway_the_bar_is_a_panel_that_shows_and_switches_workspaces() {
    let Some(sway) = SwaySession::start("sway panel test") else { return };
    sway.populate("alpha");
    sway.populate("beta");
    let _bar = sway.start_bar(WORKSPACES, &[]);
    let log = || sway.bar_log();
    assert!(wait_for(Duration::from_secs(20), || log().contains("connected to sway")), "{}", log());
    assert!(!log().contains("refused"), "{}", log());
    assert!(
        wait_for(Duration::from_secs(20), || window_rect(&sway.tree())
            .is_some_and(|rect| rect["y"].as_i64() >= Some(HEIGHT))),
        "the tiled window starts below the bar: {:?} ({})",
        window_rect(&sway.tree()),
        log()
    );
    assert!(find_node(&sway.tree(), "obi").is_none(), "the bar is no window of sway's");

    // beta has focus and is drawn selected, which OCR cannot read; alpha is plain.
    let words = sway.wait_for_words((0, 0, 600, HEIGHT), &["alpha"], "sway-panel");
    let alpha = words.iter().find(|(word, _)| word == "alpha").unwrap().1;
    sway.click(i64::from(alpha), HEIGHT / 2, 1);
    assert!(
        wait_for(Duration::from_secs(10), || sway.focused_workspace().as_deref() == Some("alpha")),
        "sway focused alpha: {:?}",
        sway.focused_workspace()
    );
}

/// sway's binding mode shows after the workspaces while it is on, in the
/// theme's urgent fill (read by it: see the i3 test), and goes with it.
#[test]
fn on_sway_the_binding_mode_shows_while_it_is_on() {
    let Some(sway) = SwaySession::start("sway binding mode test") else { return };
    sway.populate("alpha");
    sway.populate("beta");
    let _bar = sway.start_bar(WORKSPACES, &[]);
    let words = sway.wait_for_words((0, 0, 600, HEIGHT), &["alpha"], "sway-mode-bar");
    let after_workspaces = words.iter().find(|(word, _)| word == "alpha").unwrap().1 + 100;
    let png = sway.dir().join("mode.png");
    let urgent_after_workspaces = || {
        let area = format!("{after_workspaces},0 {}x{HEIGHT}", 600 - after_workspaces);
        let grab = run(Command::new("grim").args(["-g", &area]).arg(&png).envs(sway.env()));
        assert!(grab.status.success(), "grim: {grab:?}");
        let frame = crate::support::Frame::read(&png);
        frame.urgent(0, frame.width)
    };
    assert_eq!(urgent_after_workspaces(), 0, "nothing urgent before the mode is on");
    assert!(sway.swaymsg(&["mode", "resize"]).status.success());
    let shown = wait_for(Duration::from_secs(10), || urgent_after_workspaces() > 300);
    assert!(shown, "the binding mode never showed; the bar logged:\n{}", sway.bar_log());
    assert!(sway.swaymsg(&["mode", "default"]).status.success());
    assert!(wait_for(Duration::from_secs(10), || urgent_after_workspaces() == 0), "the mode stayed on the bar");
}

/// One wheel notch down over the bar, with a `CycleFocusWorkspace` mouse
/// config, moves sway to the next workspace: exactly one.
#[test]
fn on_sway_a_wheel_notch_moves_one_workspace_along() {
    let Some(sway) = SwaySession::start("sway wheel test") else { return };
    for name in ["one", "two", "three"] {
        sway.populate(name);
    }
    sway.swaymsg(&["workspace", "one"]);
    let _bar = sway.start_bar(WORKSPACES, &[]);
    sway.wait_for_words((0, 0, 600, HEIGHT), &["two", "three"], "sway-wheel");
    // Over the empty middle of the bar: no item takes the scroll.
    sway.click(640, HEIGHT / 2, 5);
    assert!(
        wait_for(Duration::from_secs(10), || sway.focused_workspace().as_deref() == Some("two")),
        "a notch moved sway to two: {:?}",
        sway.focused_workspace()
    );
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(sway.focused_workspace().as_deref(), Some("two"), "and no further");
}

/// `obi msg hide` takes the bar off the output, and the room it kept with
/// it; `show` brings both back.
#[test]
fn on_sway_hiding_the_bar_gives_its_room_back() {
    let Some(sway) = SwaySession::start("sway hide test") else { return };
    sway.populate("alpha");
    sway.populate("beta");
    let bar = sway.start_bar(WORKSPACES, &[]);
    // Where the workspaces start is exact; a window's rect also holds its
    // title bar, and one on a workspace not shown is arranged late.
    let tops = || workspace_tops(&sway).into_iter().map(|(_, top)| top).collect::<Vec<_>>();
    assert!(wait_for(Duration::from_secs(20), || tops() == [HEIGHT, HEIGHT]), "room for the bar: {:?}", tops());
    let msg = |command: &str| {
        let output = run(obi().args(["msg", command, "--pid", &bar.0.id().to_string()]).envs(sway.env()));
        assert!(output.status.success(), "obi msg {command}: {output:?} ({})", sway.bar_log());
    };
    msg("hide");
    assert!(wait_for(Duration::from_secs(10), || tops() == [0, 0]), "the room is given back: {:?}", tops());
    msg("show");
    assert!(wait_for(Duration::from_secs(10), || tops() == [HEIGHT, HEIGHT]), "and taken again: {:?}", tops());
    sway.wait_for_words((0, 0, 600, HEIGHT), &["alpha"], "sway-shown-again");
}

/// The clock's ink in the `width`×`height` rectangle at the right end of
/// the top of the output: how many rows it spans, and what share of its
/// pixels are the text's own colour (crisp text has more of those than
/// text enlarged by the compositor, whose edges blur or stay one pixel).
fn clock_ink(sway: &SwaySession, width: u32, height: u32) -> (u32, f32) {
    let png = sway.dir().join("clock.png");
    let grab = run(Command::new("grim").arg(&png).envs(sway.env()));
    assert!(grab.status.success(), "grim: {grab:?}");
    let frame = crate::support::Frame::read(&png);
    text_ink(&frame, frame.width - width..frame.width, 0..height)
}

/// At scale 2 the bar is drawn with twice the pixels: the clock's glyphs
/// twice as tall, and crisp rather than enlarged.
#[test]
fn on_sway_a_doubled_output_gets_a_bar_drawn_with_twice_the_pixels() {
    let Some(sway) = SwaySession::start("sway scale test") else { return };
    let _bar = sway.start_bar(WORKSPACES, &[]);
    assert!(wait_for(Duration::from_secs(20), || sway.bar_log().contains("bar on output")), "{}", sway.bar_log());
    let mut single = (0, 0.0);
    assert!(wait_for(Duration::from_secs(10), || {
        single = clock_ink(&sway, 300, HEIGHT as u32);
        single.0 > 10
    }));
    assert!(sway.swaymsg(&["output", "X11-1", "scale", "2"]).status.success());
    let mut double = (0, 0.0);
    let doubled = wait_for(Duration::from_secs(10), || {
        double = clock_ink(&sway, 300, 2 * HEIGHT as u32);
        double.0 * 10 >= single.0 * 18
    });
    assert!(doubled, "the clock is {} rows tall at scale 1, {} at scale 2 ({})", single.0, double.0, sway.bar_log());
    assert!(
        double.1 >= single.1 * 1.2,
        "crisp at scale 2: {:.2} of the clock's pixels are the text's colour, {:.2} at scale 1",
        double.1,
        single.1
    );
}

/// Under sway the keyboard layout is sway's word: `swaymsg input
/// type:keyboard xkb_layout de` makes the Keyboard widget read German.
#[test]
fn on_sway_the_keyboard_widget_follows_swaymsg() {
    let Some(sway) = SwaySession::start("sway keyboard test") else { return };
    assert!(sway.swaymsg(&["input", "type:keyboard", "xkb_layout", "us"]).status.success());
    let _bar = sway.start_bar(
        r#"{ "height": 40, "font_size": 20, "font_family": "DejaVu Sans", "left_widgets": [],
             "right_widgets": [ { "Keyboard": { "enable": true, "label_prefix": "None" } } ] }"#,
        &[],
    );
    sway.wait_for_words((880, 0, 400, HEIGHT), &["English"], "sway-keyboard-us");
    assert!(sway.swaymsg(&["input", "type:keyboard", "xkb_layout", "de"]).status.success());
    sway.wait_for_words((880, 0, 400, HEIGHT), &["German"], "sway-keyboard-de");
}

/// Resting the pointer on an item with a tooltip shows it, as a popup of
/// the bar, under the item; leaving the bar takes it away.
#[test]
fn on_sway_a_tooltip_shows_under_its_item() {
    let Some(sway) = SwaySession::start("sway tooltip test") else { return };
    assert!(sway.swaymsg(&["input", "type:keyboard", "xkb_layout", "us"]).status.success());
    let _bar = sway.start_bar(
        r#"{ "height": 40, "font_size": 20, "font_family": "DejaVu Sans", "left_widgets": [],
             "right_widgets": [ { "Keyboard": { "enable": true, "label_prefix": "None" } } ] }"#,
        &[],
    );
    let words = sway.wait_for_words((880, 0, 400, HEIGHT), &["English"], "sway-tooltip-bar");
    let item = 880 + i64::from(words.iter().find(|(word, _)| word == "English").unwrap().1);
    let below = (880, HEIGHT, 400, HEIGHT + 10);
    let move_to = |x: i64, y: i64| {
        let moved = run(Command::new("xdotool")
            .args(["mousemove", &x.to_string(), &y.to_string()])
            .env("DISPLAY", &sway.display));
        assert!(moved.status.success(), "{moved:?}");
    };
    move_to(item, HEIGHT / 2);
    sway.wait_for_words(below, &["English"], "sway-tooltip-shown");
    move_to(item, 400);
    let png = sway.dir().join("gone.png");
    let gone = wait_for(Duration::from_secs(10), || {
        let grab = run(Command::new("grim").args(["-g", &format!("880,{HEIGHT} 400x50")]).arg(&png).envs(sway.env()));
        grab.status.success() && !words_in(&png).iter().any(|(word, _)| word == "English")
    });
    assert!(gone, "the tooltip went with the pointer");
}

/// A tooltip on a doubled output is drawn with twice the pixels too, as
/// crisp as the bar: its text is not a single-scale drawing enlarged. And
/// the bar, resized after a tooltip was shown, is drawn whole at its new
/// size (read back by OCR) though nothing in it changes.
#[test]
fn on_sway_a_doubled_output_gets_tooltips_drawn_with_twice_the_pixels() {
    let Some(sway) = SwaySession::start("sway tooltip scale test") else { return };
    assert!(sway.swaymsg(&["input", "type:keyboard", "xkb_layout", "us"]).status.success());
    let _bar = sway.start_bar(
        r#"{ "height": 40, "font_size": 20, "font_family": "DejaVu Sans", "left_widgets": [],
             "right_widgets": [ { "Keyboard": { "enable": true, "label_prefix": "None" } } ] }"#,
        &[],
    );
    // The tooltip's text at `scale`, in logical pixels of the output.
    let tooltip_ink = |scale: i64, width: i64, artifact: &str| {
        let bar = (width - 400, 0, 400, HEIGHT);
        let words = sway.wait_for_words(bar, &["English"], artifact);
        let word = bar.0 + i64::from(words.iter().find(|(word, _)| word == "English").unwrap().1) / scale;
        let pointed = run(Command::new("xdotool")
            .args(["mousemove", &(word * scale).to_string(), &(HEIGHT / 2 * scale).to_string()])
            .env("DISPLAY", &sway.display));
        assert!(pointed.status.success(), "{pointed:?}");
        // Under the bar, where the tooltip starts at the item's left,
        // before the word: inside its frame, where its background is (the
        // theme's, Catppuccin Mocha's base), less the frame's breadth.
        let (x, y, width, height) = (word - 60, HEIGHT, 300, HEIGHT + 20);
        let png = sway.dir().join("tooltip.png");
        let margin = 2 * scale as u32;
        let mut inside = None;
        let shown = wait_for(Duration::from_secs(10), || {
            let geometry = format!("{x},{y} {width}x{height}");
            let grab = run(Command::new("grim").args(["-g", &geometry]).arg(&png).envs(sway.env()));
            assert!(grab.status.success(), "grim: {grab:?}");
            let frame = crate::support::Frame::read(&png);
            let base = |x: u32, y: u32| frame.pixel(x, y)[..3] == [0x1e, 0x1e, 0x2e];
            let (mut left, mut right, mut top, mut bottom) = (u32::MAX, 0, u32::MAX, 0);
            let pixels = (0..frame.height).flat_map(|y| (0..frame.width).map(move |x| (x, y)));
            for (x, y) in pixels.filter(|&(x, y)| base(x, y)) {
                (left, right, top, bottom) = (left.min(x), right.max(x), top.min(y), bottom.max(y));
            }
            let big_enough = right.saturating_sub(left) > 20 * margin && bottom.saturating_sub(top) > 10 * margin;
            if big_enough {
                inside = Some((frame, left + margin..right - margin, top + margin..bottom - margin));
            }
            big_enough
        });
        if !shown {
            let artifacts = crate::support::workspace().join("target/e2e-artifacts");
            std::fs::create_dir_all(&artifacts).unwrap();
            let _ = std::fs::copy(&png, artifacts.join(format!("{artifact}.png")));
        }
        assert!(shown, "a tooltip under the bar (target/e2e-artifacts/{artifact}.png)");
        let (frame, columns, rows) = inside.unwrap();
        let ink = text_ink(&frame, columns, rows);
        let away = run(Command::new("xdotool").args(["mousemove", "5", "700"]).env("DISPLAY", &sway.display));
        assert!(away.status.success(), "{away:?}");
        ink
    };
    let single = tooltip_ink(1, 1280, "sway-tooltip-scale-1");
    assert!(sway.swaymsg(&["output", "X11-1", "scale", "2"]).status.success());
    let double = tooltip_ink(2, 640, "sway-tooltip-scale-2");
    assert!(
        double.0 * 10 >= single.0 * 18,
        "the tooltip's text is {} rows tall at scale 1, {} at scale 2",
        single.0,
        double.0
    );
    assert!(
        double.1 >= single.1 * 1.2,
        "crisp at scale 2: {:.2} of the tooltip text's pixels are the text's colour, {:.2} at scale 1",
        double.1,
        single.1
    );
}

/// Where each output's workspace starts: sway gives the room a bar keeps
/// on an output to none of its workspaces.
fn workspace_tops(sway: &SwaySession) -> Vec<(String, i64)> {
    let listed: serde_json::Value =
        serde_json::from_slice(&sway.swaymsg(&["-t", "get_workspaces"]).stdout).unwrap_or_default();
    let tops = listed
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|workspace| Some((workspace["output"].as_str()?.to_owned(), workspace["rect"]["y"].as_i64()?)));
    tops.collect()
}

/// Unplugs the output drawn in the Xvfb window `width`×`height`: the
/// window is asked to close, as a window manager would, and wlroots ends
/// the output with it.
fn unplug(sway: &SwaySession, width: u16, height: u16) {
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::{ClientMessageEvent, ConnectionExt, EventMask};
    let (connection, screen) = x11rb::connect(Some(&sway.display)).expect("connecting to sway's Xvfb");
    let root = connection.setup().roots[screen].root;
    let atom = |name: &str| connection.intern_atom(false, name.as_bytes()).unwrap().reply().unwrap().atom;
    let (protocols, delete) = (atom("WM_PROTOCOLS"), atom("WM_DELETE_WINDOW"));
    let children = connection.query_tree(root).unwrap().reply().unwrap().children;
    let window = children
        .into_iter()
        .find(|&window| {
            let geometry = connection.get_geometry(window).unwrap().reply().unwrap();
            (geometry.width, geometry.height) == (width, height)
        })
        .expect("the output's window");
    let close = ClientMessageEvent::new(32, window, protocols, [delete, x11rb::CURRENT_TIME, 0, 0, 0]);
    connection.send_event(false, window, EventMask::NO_EVENT, close).unwrap();
    connection.flush().unwrap();
    // wlroots may take the message into xcb's queue while waiting for a
    // reply, and look at that queue again only when its socket next has
    // something: messages it ignores make sure it does. One sent after the
    // window is gone is an error to this connection alone.
    for _ in 0..5 {
        std::thread::sleep(Duration::from_millis(200));
        let nudge = ClientMessageEvent::new(32, window, protocols, [0; 5]);
        connection.send_event(false, window, EventMask::NO_EVENT, nudge).unwrap();
        connection.flush().unwrap();
    }
}

/// A bar for the second output waits while there is none, goes there when
/// one is plugged in, waits again when it is unplugged, comes back with
/// the next one, and follows it when it is made narrower; the first output
/// never gets it.
#[test]
fn on_sway_the_bar_follows_its_output_as_it_comes_and_goes() {
    let Some(sway) = SwaySession::start("sway outputs test") else { return };
    let mut bar = sway.start_bar(&WORKSPACES.replacen('{', r#"{ "monitor": 1,"#, 1), &[]);
    let log = || sway.bar_log();
    assert!(wait_for(Duration::from_secs(20), || log().contains("is not there")), "the bar waits: {}", log());
    let on = |output: &str| {
        let tops = workspace_tops(&sway);
        tops.contains(&(output.to_owned(), HEIGHT)) && tops.iter().all(|(name, top)| name == output || *top == 0)
    };

    assert!(sway.swaymsg(&["create_output"]).status.success());
    assert!(
        wait_for(Duration::from_secs(20), || on("X11-2")),
        "on the new output: {:?} ({})",
        workspace_tops(&sway),
        log()
    );

    unplug(&sway, 1024, 768);
    assert!(
        wait_for(Duration::from_secs(20), || log().contains("its output went away")
            && !workspace_tops(&sway).iter().any(|(name, _)| name == "X11-2")),
        "unplugged: {:?} ({})",
        workspace_tops(&sway),
        log()
    );
    assert!(
        workspace_tops(&sway).iter().all(|(_, top)| *top == 0),
        "not on the first output: {:?}",
        workspace_tops(&sway)
    );

    assert!(sway.swaymsg(&["create_output"]).status.success());
    assert!(
        wait_for(Duration::from_secs(20), || on("X11-3")),
        "back on the next one: {:?} ({})",
        workspace_tops(&sway),
        log()
    );
    assert!(
        wait_for(Duration::from_secs(10), || clock_ink(&sway, 300, HEIGHT as u32).0 > 10),
        "the clock drawn at the new output's right end"
    );

    assert!(sway.swaymsg(&["output", "X11-3", "resolution", "800x600"]).status.success());
    assert!(
        wait_for(Duration::from_secs(10), || clock_ink(&sway, 300, HEIGHT as u32).0 > 10),
        "the clock at the right end of the output made narrower ({})",
        log()
    );
    assert!(bar.0.try_wait().unwrap().is_none() && !log().contains("panicked"), "{}", log());
}

/// With `--every-monitor` one process draws a bar on each output: a new
/// output gets one showing its own workspaces, an output unplugged takes
/// its bar away, and the process draws on in the first.
#[test]
fn on_sway_every_monitor_gets_a_bar_as_outputs_come_and_go() {
    let Some(sway) = SwaySession::start("sway every monitor test") else { return };
    let mut bar = sway.start_bar(WORKSPACES, &["--every-monitor"]);
    let log = || sway.bar_log();
    let sorted_tops = || {
        let mut tops = workspace_tops(&sway);
        tops.sort();
        tops.dedup();
        tops
    };
    let first = [("X11-1".to_owned(), HEIGHT)];
    assert!(wait_for(Duration::from_secs(20), || sorted_tops() == first), "{:?} ({})", sorted_tops(), log());

    assert!(sway.swaymsg(&["create_output"]).status.success());
    let both = [("X11-1".to_owned(), HEIGHT), ("X11-2".to_owned(), HEIGHT)];
    assert!(
        wait_for(Duration::from_secs(20), || sorted_tops() == both),
        "the new output got a bar: {:?} ({})",
        sorted_tops(),
        log()
    );
    // Each output shows one of its two workspaces; the other one, drawn
    // unselected, is read back.
    for (output, hidden, shown) in [("X11-1", "gamma", "alpha"), ("X11-2", "delta", "beta")] {
        assert!(sway.swaymsg(&["focus", "output", output]).status.success());
        sway.populate(hidden);
        sway.populate(shown);
    }
    let first_bar = sway.wait_for_words((0, 0, 1280, HEIGHT), &["gamma"], "sway-every-first");
    assert!(!first_bar.iter().any(|(word, _)| word == "delta"), "the first output's alone: {first_bar:?}");
    let second_bar = sway.wait_for_words((1280, 0, 1024, HEIGHT), &["delta"], "sway-every-second");
    assert!(!second_bar.iter().any(|(word, _)| word == "gamma"), "the second output's alone: {second_bar:?}");

    unplug(&sway, 1024, 768);
    assert!(
        wait_for(Duration::from_secs(20), || !sorted_tops().iter().any(|(output, _)| output == "X11-2")),
        "unplugged: {:?} ({})",
        sorted_tops(),
        log()
    );
    assert!(sorted_tops().contains(&first[0]), "the first output keeps its bar: {:?}", sorted_tops());
    assert!(bar.0.try_wait().unwrap().is_none() && !log().contains("panicked"), "{}", log());
    // It still draws there: the workspace moved over from the unplugged
    // output is shown on the first output's bar.
    sway.wait_for_words((0, 0, 1280, HEIGHT), &["delta"], "sway-every-after");

    // The output changes resolution, then scale: its bar follows each,
    // its clock drawn at the output's right end, then twice as tall.
    assert!(sway.swaymsg(&["output", "X11-1", "resolution", "1024x768"]).status.success());
    let mut single = (0, 0.0);
    let narrowed = wait_for(Duration::from_secs(20), || {
        single = clock_ink(&sway, 300, HEIGHT as u32);
        single.0 > 10
    });
    assert!(narrowed, "the clock at the right end of the narrower output ({})", log());
    assert!(sway.swaymsg(&["output", "X11-1", "scale", "2"]).status.success());
    let mut double = (0, 0.0);
    let doubled = wait_for(Duration::from_secs(20), || {
        double = clock_ink(&sway, 300, 2 * HEIGHT as u32);
        double.0 * 10 >= single.0 * 18
    });
    assert!(doubled, "the clock is {} rows tall at scale 1, {} at scale 2 ({})", single.0, double.0, log());
    sway.wait_for_words((0, 0, 512, HEIGHT), &["delta"], "sway-every-scaled");
    assert!(bar.0.try_wait().unwrap().is_none() && !log().contains("panicked"), "{}", log());
}

/// `monitor` counts outputs from the left of sway's layout, whatever the
/// order they came in: with the second output placed left of the first,
/// `monitor: 0` is the second.
#[test]
fn on_sway_the_monitor_index_counts_outputs_from_the_left_as_obi_check_says() {
    let Some(sway) = SwaySession::start("sway monitor order test") else { return };
    assert!(sway.swaymsg(&["create_output"]).status.success());
    for (output, x) in [("X11-2", "0"), ("X11-1", "1024")] {
        assert!(sway.swaymsg(&["output", output, "position", x, "0"]).status.success());
    }
    let _bar = sway.start_bar(&WORKSPACES.replacen('{', r#"{ "monitor": 0,"#, 1), &[]);
    let expected = [("X11-1".to_owned(), 0), ("X11-2".to_owned(), HEIGHT)];
    let placed = wait_for(Duration::from_secs(20), || {
        let mut tops = workspace_tops(&sway);
        tops.sort();
        tops == expected
    });
    assert!(placed, "on the left output: {:?} ({})", workspace_tops(&sway), sway.bar_log());
    assert!(sway.bar_log().contains("bar on output X11-2 1024x768+0+0"), "{}", sway.bar_log());

    // `obi check` numbers the outputs as the bar does.
    let second = sway.dir().join("second.json");
    std::fs::write(&second, WORKSPACES.replacen('{', r#"{ "monitor": 1,"#, 1)).unwrap();
    let checked =
        run(obi().arg("check").arg(sway.dir().join("bar.json")).arg(&second).env_remove("DISPLAY").envs(sway.env()));
    let said = String::from_utf8_lossy(&checked.stdout);
    assert!(checked.status.success(), "{checked:?}");
    assert!(said.contains("bar.json: bar on monitor 0: X11-2 1024x768+0+0"), "{said}");
    assert!(said.contains("second.json: bar on monitor 1: X11-1 1280x720+1024+0"), "{said}");
}

/// sway going away ends the bar with one line and status 1, no panic; a
/// bar started on a new sway is at home there.
#[test]
fn when_sway_ends_the_bar_ends_with_one_line() {
    let Some(mut sway) = SwaySession::start("sway ending test") else { return };
    let mut bar = sway.start_bar(WORKSPACES, &[]);
    assert!(wait_for(Duration::from_secs(20), || sway.bar_log().contains("bar on output")), "{}", sway.bar_log());
    let _ = sway.sway.0.kill();
    let _ = sway.sway.0.wait();
    assert!(wait_for(Duration::from_secs(10), || bar.0.try_wait().unwrap().is_some()), "the bar ends");
    let status = bar.0.wait().unwrap();
    let log = sway.bar_log();
    assert_eq!(status.code(), Some(1), "{log}");
    assert!(log.contains("the Wayland compositor went away") && !log.contains("panicked"), "{log}");

    let Some(again) = SwaySession::start("sway ending test") else { return };
    let _bar = again.start_bar(WORKSPACES, &[]);
    assert!(
        wait_for(Duration::from_secs(20), || workspace_tops(&again) == [("X11-1".to_owned(), HEIGHT)]),
        "the new bar keeps its room: {:?} ({})",
        workspace_tops(&again),
        again.bar_log()
    );
}

/// On sway a widget's popup is an xdg popup of the bar that grabs the
/// seat: a secondary click on the date opens its calendar under it, a
/// click on the empty desktop (another client's, or none's) closes it, and
/// so does Escape, which the grab gives the popup's keyboard.
#[test]
fn on_sway_the_dates_calendar_opens_and_closes() {
    let Some(sway) = SwaySession::start("sway popup test") else { return };
    let _bar = sway.start_bar(
        r#"{ "height": 40, "font_size": 20, "font_family": "DejaVu Sans", "right_widgets": [],
             "left_widgets": [ { "Date": { "enable": true, "format": "YearMonthDate", "label_prefix": "None",
                                           "timezone": "UTC" } } ] }"#,
        &[],
    );
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    sway.wait_for_words((0, 0, 400, HEIGHT), &[today.as_str()], "sway-popup-bar");
    let month = chrono::Utc::now().format("%B").to_string();
    // The popup's first line: the month and the year between its buttons.
    let header = (0, HEIGHT, 400, HEIGHT + 5);
    let header_reads_month = || {
        let png = sway.dir().join("header.png");
        let grab = run(Command::new("grim").args(["-g", &format!("0,{HEIGHT} 400x45")]).arg(&png).envs(sway.env()));
        grab.status.success() && words_in(&png).iter().any(|(word, _)| *word == month)
    };

    sway.click(60, HEIGHT / 2, 3);
    sway.wait_for_words(header, &[month.as_str()], "sway-popup-calendar");
    // The whole calendar, kept to be looked at.
    let artifacts = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let png = artifacts.join("sway-popup-calendar.png");
    let grab = run(Command::new("grim").args(["-g", &format!("0,{HEIGHT} 400x340")]).arg(&png).envs(sway.env()));
    assert!(grab.status.success(), "grim: {grab:?}");
    let selected = selected_text(&png);
    let day = chrono::Utc::now().format("%-d").to_string();
    assert!(selected.split_whitespace().any(|word| word == day), "today is marked: {selected:?} ({})", png.display());
    sway.click(900, 500, 1);
    assert!(wait_for(Duration::from_secs(10), || !header_reads_month()), "a click outside closed the calendar");

    sway.click(60, HEIGHT / 2, 3);
    sway.wait_for_words(header, &[month.as_str()], "sway-popup-calendar-again");
    let escaped = run(Command::new("xdotool").args(["key", "Escape"]).env("DISPLAY", &sway.display));
    assert!(escaped.status.success(), "{escaped:?}");
    let closed = wait_for(Duration::from_secs(10), || !header_reads_month());
    assert!(closed, "Escape closed the calendar; the bar logged:\n{}", sway.bar_log());
}

/// On sway the Komorebi widget's layout opens its options in a popup of
/// the layer surface (the bar following a komorebi simulator); a click
/// outside closes it, and a pick sends komorebi the change.
#[test]
fn on_sway_the_layout_picker_sends_the_chosen_layout_to_komorebi() {
    let Some(sway) = SwaySession::start("sway layout picker test") else { return };
    let komorebi_dir = tempfile::tempdir().unwrap();
    let state = state(vec![komorebi_workspace(Some("code"), &[&[window("main.rs", "code.exe")]], 0, "BSP")], 0);
    let komorebi = Simulator::start(komorebi_dir.path(), state);
    let _bar = sway.start_bar_with_env(
        r#"{ "height": 40, "font_size": 18, "font_family": "DejaVu Sans", "right_widgets": [],
             "left_widgets": [ { "Komorebi": { "layout": { "enable": true, "display": "Text",
                                                           "options": ["BSP", "Columns", "Rows"] } } } ] }"#,
        &["--tiler", "komorebi"],
        &[("OBI_KOMOREBI_DIR", komorebi_dir.path().as_os_str())],
    );
    assert!(komorebi.wait_for_subscriber(Duration::from_secs(20)), "the bar subscribed to komorebi");
    sway.wait_for_words((0, 0, 400, HEIGHT), &["BSP"], "sway-layout-bar");
    let artifacts = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let png = artifacts.join("sway-popup-layout-picker.png");
    let picker_reads = |wanted: &str| {
        let grab = run(Command::new("grim").args(["-g", &format!("0,{HEIGHT} 300x160")]).arg(&png).envs(sway.env()));
        grab.status.success() && popup_text(&png).contains(wanted)
    };
    sway.click(20, HEIGHT / 2, 1);
    assert!(wait_for(Duration::from_secs(20), || picker_reads("Columns")), "no picker ({})", png.display());
    std::fs::copy(&png, artifacts.join("sway-popup-layout-picker-open.png")).unwrap();
    sway.click(900, 500, 1);
    assert!(wait_for(Duration::from_secs(10), || !picker_reads("Columns")), "a click outside closed the picker");
    sway.click(20, HEIGHT / 2, 1);
    assert!(wait_for(Duration::from_secs(20), || picker_reads("Columns")), "no picker again ({})", png.display());
    // Three lines of about 37 pixels under a margin: the second is Columns.
    sway.click(40, HEIGHT + 8 + 37 + 18, 1);
    let sent = wait_for(Duration::from_secs(10), || {
        komorebi.received().iter().any(|message| message.contains(r#"{"type":"ChangeLayout","content":"Columns"}"#))
    });
    assert!(sent, "komorebi was sent the chosen layout: {:?} ({})", komorebi.received(), png.display());
    assert!(wait_for(Duration::from_secs(10), || !picker_reads("Columns")), "choosing closed the picker");
}

/// A bar with the power menu (its actions harmless, Shut down touching
/// `shut_down`) on `sway`, once it shows; kept as `artifact` when it does not.
fn start_power_menu(sway: &SwaySession, shut_down: &Path, artifact: &str) -> Reaped {
    let bar = sway.start_bar(
        &format!(
            r#"{{ "height": 40, "font_size": 18, "font_family": "DejaVu Sans", "right_widgets": [],
                 "left_widgets": [ {{ "PowerMenu": {{ "enable": true, "label_prefix": "IconAndText",
                     "lock": "true", "log_out": "true", "suspend": "true", "reboot": "true",
                     "shut_down": "touch '{}'" }} }} ] }}"#,
            shut_down.display()
        ),
        &[],
    );
    sway.wait_for_words((0, 0, 400, HEIGHT), &["Power"], artifact);
    bar
}

/// Whether the power menu under the bar asks again before shutting down:
/// its Shut down line in the theme's urgent fill, Catppuccin's red (read
/// whole, tesseract leaves a line in a fill of its own out), lit or not.
/// Nothing else in the menu is red. The menu is grabbed into `png`.
fn power_menu_asks(sway: &SwaySession, png: &Path) -> bool {
    let grab = run(Command::new("grim").args(["-g", &format!("0,{HEIGHT} 300x200")]).arg(png).envs(sway.env()));
    let frame = crate::support::Frame::read(png);
    grab.status.success() && frame.urgent(0, frame.width) > 500
}

/// On sway the power menu answers the keys a menu does: Up lights Shut
/// down, Return asks again, Return again runs it.
#[test]
fn on_sway_the_power_menu_answers_the_keys() {
    let Some(sway) = SwaySession::start("sway popup keys test") else { return };
    let shut_down = sway.dir().join("shut-down");
    let _bar = start_power_menu(&sway, &shut_down, "sway-keys-bar");
    let png = workspace().join("target/e2e-artifacts/sway-popup-power-menu-keys.png");
    std::fs::create_dir_all(png.parent().unwrap()).unwrap();
    let menu_reads = |wanted: &str| {
        let grab = run(Command::new("grim").args(["-g", &format!("0,{HEIGHT} 300x200")]).arg(&png).envs(sway.env()));
        grab.status.success() && popup_text(&png).contains(wanted)
    };
    let keys = |keys: &[&str]| {
        let pressed = run(Command::new("xdotool").arg("key").args(keys).env("DISPLAY", &sway.display));
        assert!(pressed.status.success(), "{pressed:?}");
    };
    sway.click(40, HEIGHT / 2, 1);
    assert!(wait_for(Duration::from_secs(20), || menu_reads("Suspend")), "no menu ({})", png.display());
    keys(&["Up", "Return"]);
    let asked = wait_for(Duration::from_secs(10), || power_menu_asks(&sway, &png));
    assert!(asked, "Up then Return chose Shut down ({}); the bar logged:\n{}", png.display(), sway.bar_log());
    assert!(!shut_down.exists(), "one Return shut down");
    keys(&["Return"]);
    assert!(wait_for(Duration::from_secs(10), || shut_down.exists()), "the second Return ran nothing");
}

/// On sway the popup's button under the pointer is lit, and only it.
#[test]
fn on_sway_the_button_under_the_pointer_is_lit() {
    let Some(sway) = SwaySession::start("sway popup hover test") else { return };
    let _bar = sway.start_bar(
        r#"{ "height": 40, "font_size": 18, "font_family": "DejaVu Sans", "right_widgets": [],
             "left_widgets": [ { "PowerMenu": { "enable": true, "label_prefix": "IconAndText", "lock": "true",
                                 "log_out": "true", "suspend": "true", "reboot": "true", "shut_down": "true" } } ] }"#,
        &[],
    );
    sway.wait_for_words((0, 0, 400, HEIGHT), &["Power"], "sway-hover-bar");
    let artifacts = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let png = artifacts.join("sway-popup-hover.png");
    // The menu's five lines under the bar: a point in the third, and in the first, left of their text.
    let (third, first) = ((20, HEIGHT + 8 + 37 * 2 + 18), (20, HEIGHT + 8 + 18));
    let pixel_at = |(x, y): (i64, i64)| {
        let grab = run(Command::new("grim").args(["-g", &format!("{x},{y} 1x1")]).arg(&png).envs(sway.env()));
        assert!(grab.status.success(), "grim: {grab:?}");
        crate::support::Frame::read(&png).pixel(0, 0)
    };
    sway.click(40, HEIGHT / 2, 1);
    let menu_open = || {
        let grab = run(Command::new("grim").args(["-g", &format!("0,{HEIGHT} 300x200")]).arg(&png).envs(sway.env()));
        grab.status.success() && popup_text(&png).contains("Suspend")
    };
    assert!(wait_for(Duration::from_secs(20), menu_open), "no menu ({})", png.display());
    let unlit = pixel_at(third);
    sway.point(third.0, third.1);
    let mut lit = unlit;
    let lights = wait_for(Duration::from_secs(10), || {
        lit = pixel_at(third);
        !crate::support::same_colour(lit, unlit)
    });
    assert!(lights, "the third button is lit under the pointer ({unlit:?}); the bar logged:\n{}", sway.bar_log());
    let first_unlit = pixel_at(first);
    sway.point(first.0, first.1);
    let moved = wait_for(Duration::from_secs(10), || {
        crate::support::same_colour(pixel_at(third), unlit)
            && !crate::support::same_colour(pixel_at(first), first_unlit)
    });
    assert!(moved, "the light follows the pointer to the first button");
    let grab = run(Command::new("grim").args(["-g", &format!("0,{HEIGHT} 300x200")]).arg(&png).envs(sway.env()));
    assert!(grab.status.success());
}

/// On sway the power menu opens under its button; a click outside closes
/// it; one click on Shut down asks again and runs nothing, the second runs
/// its command (a harmless one here).
#[test]
fn on_sway_the_power_menu_asks_twice_before_shutting_down() {
    let Some(sway) = SwaySession::start("sway power menu test") else { return };
    let shut_down = sway.dir().join("shut-down");
    let _bar = start_power_menu(&sway, &shut_down, "sway-power-bar");
    let artifacts = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let png = artifacts.join("sway-popup-power-menu.png");
    let menu_reads = |wanted: &str| {
        let grab = run(Command::new("grim").args(["-g", &format!("0,{HEIGHT} 300x200")]).arg(&png).envs(sway.env()));
        grab.status.success() && popup_text(&png).contains(wanted)
    };

    sway.click(40, HEIGHT / 2, 1);
    assert!(wait_for(Duration::from_secs(20), || menu_reads("Suspend")), "no menu ({})", png.display());
    // Kept to be looked at: the last grab shows the menu gone.
    std::fs::copy(&png, artifacts.join("sway-popup-power-menu-open.png")).unwrap();
    sway.click(900, 500, 1);
    assert!(wait_for(Duration::from_secs(10), || !menu_reads("Suspend")), "a click outside closed the menu");

    sway.click(40, HEIGHT / 2, 1);
    assert!(wait_for(Duration::from_secs(20), || menu_reads("Suspend")), "no menu again ({})", png.display());
    // Five lines of about 37 pixels under a margin, as under Xvfb: the last is Shut down.
    let shut_down_line = (60, HEIGHT + 170);
    sway.click(shut_down_line.0, shut_down_line.1, 1);
    assert!(wait_for(Duration::from_secs(10), || power_menu_asks(&sway, &png)), "no asking ({})", png.display());
    assert!(!shut_down.exists(), "one click shut down");
    // Asking, the menu is made anew, wider, under the pointer: the pointer
    // going onto the bar puts its light out all the same.
    let pixel_at = |(x, y): (i64, i64)| {
        let pixel = artifacts.join("sway-popup-power-menu-pixel.png");
        let grab = run(Command::new("grim").args(["-g", &format!("{x},{y} 1x1")]).arg(&pixel).envs(sway.env()));
        assert!(grab.status.success(), "grim: {grab:?}");
        crate::support::Frame::read(&pixel).pixel(0, 0)
    };
    let lit = pixel_at(shut_down_line);
    sway.point(300, HEIGHT / 2);
    let put_out = wait_for(Duration::from_secs(10), || !crate::support::same_colour(pixel_at(shut_down_line), lit));
    assert!(put_out, "the asking line stayed lit ({lit:?}) with the pointer on the bar");
    sway.click(shut_down_line.0, shut_down_line.1, 1);
    let ran = wait_for(Duration::from_secs(10), || shut_down.exists());
    assert!(ran, "the second click ran nothing ({}); the bar logged:\n{}", png.display(), sway.bar_log());
    assert!(wait_for(Duration::from_secs(10), || !menu_reads("Suspend")), "choosing closed the menu");
}

/// A bottom bar placed by `position`, as many komorebi configs place
/// theirs: across the output, then narrower than it; and across it by
/// Obi's `edge`. Either way the tiled windows end above it, and the narrow
/// one keeps its x and width (it was anchored to a corner, which reserves
/// nothing: windows ran under it).
#[test]
fn on_sway_a_bar_placed_by_position_keeps_its_room_at_the_bottom() {
    let Some(sway) = SwaySession::start("sway position test") else { return };
    sway.populate("alpha");
    let bottom = |rect: &serde_json::Value| rect["y"].as_i64().unwrap_or(0) + rect["height"].as_i64().unwrap_or(0);
    let window_bottom = || window_rect(&sway.tree()).map(|rect| bottom(&rect));
    assert!(wait_for(Duration::from_secs(20), || window_bottom() == Some(720)), "{:?}", window_bottom());
    let by_position = |x, width| {
        format!(r#""position": {{ "start": {{ "x": {x}, "y": 670 }}, "end": {{ "x": {width}, "y": 50 }} }}"#)
    };
    let placements = [
        (0, 1280, by_position(0, 1280)),
        (200, 800, by_position(200, 800)),
        (0, 1280, r#""edge": "Bottom", "height": 50"#.to_owned()),
    ];
    for (x, width, placed) in placements {
        let config = format!(
            r#"{{ {placed},
                 "font_family": "DejaVu Sans", "left_widgets": [ {{ "Time": {{ "enable": true, "format": "TwentyFourHour" }} }} ], "right_widgets": [] }}"#
        );
        let bar = sway.start_bar(&config, &[]);
        let room = wait_for(Duration::from_secs(20), || window_bottom().is_some_and(|bottom| bottom <= 670));
        assert!(room, "{width} wide: the tiled window ends at {:?} ({})", window_bottom(), sway.bar_log());
        if width < 1280 {
            let png = sway.dir().join("position.png");
            let grab = || {
                let grabbed = run(Command::new("grim").arg(&png).envs(sway.env()));
                assert!(grabbed.status.success(), "grim: {grabbed:?}");
                crate::support::Frame::read(&png)
            };
            // Drawn once its middle is not the desktop beside it.
            let drawn = wait_for(Duration::from_secs(20), || {
                let frame = grab();
                !crate::support::same_colour(frame.pixel(x + width / 2, 718), frame.pixel(x - 20, 718))
            });
            assert!(drawn, "the bar was drawn ({})", sway.bar_log());
            let artifacts = workspace().join("target/e2e-artifacts");
            std::fs::create_dir_all(&artifacts).unwrap();
            std::fs::copy(&png, artifacts.join("sway-position-narrow.png")).unwrap();
            let frame = crate::support::Frame::read(&png);
            let bar_colour = frame.pixel(x + width / 2, 718);
            let columns = [(x - 20, false), (x + 5, true), (x + width - 5, true), (x + width + 20, false)];
            for (column, on_bar) in columns {
                let same = crate::support::same_colour(frame.pixel(column, 718), bar_colour);
                assert_eq!(same, on_bar, "column {column} is the bar's: {same} ({})", png.display());
            }
        }
        drop(bar);
        assert!(wait_for(Duration::from_secs(20), || window_bottom() == Some(720)), "the room given back");
    }
}

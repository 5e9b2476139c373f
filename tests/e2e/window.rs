//! The bar as a window on a real X server managed by i3.

use crate::support::{Frame, Reaped, XSession, config_file, have_tools, obi, run, wait_for};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

#[test]
fn the_bar_is_a_dock_of_its_configured_height_and_keeps_updating() {
    if !have_tools("bar window test", TOOLS) {
        return;
    }
    let session = XSession::start(1280, 720);
    let (_dir, config) = config_file(
        r#"{
          "height": 32,
          "left_widgets": [ { "Cpu": { "enable": true, "data_refresh_interval": 1 } } ],
          "right_widgets": [ { "Time": { "enable": true, "format": "TwentyFourHour" } } ]
        }"#,
    );
    let (mut bar, window) = session.start_bar(&config, Stdio::null());
    let types = run(session.command("xprop").args(["-id", &window, "_NET_WM_WINDOW_TYPE"]));
    assert!(String::from_utf8_lossy(&types.stdout).contains("_NET_WM_WINDOW_TYPE_DOCK"), "{types:?}");
    let info = String::from_utf8_lossy(&run(session.command("xwininfo").args(["-id", &window])).stdout).into_owned();
    assert!(info.contains("Height: 32"), "{info}");
    assert!(info.contains("Width: 1280"), "{info}");

    // Both widgets have drawn once there is ink on the left (Cpu) and on the
    // right (Time) of the bar's background, and none in the middle; the
    // clock ticking then changes the frame within two seconds.
    let mut first = session.grab().rows(0, 32);
    assert!(
        wait_for(Duration::from_secs(10), || {
            first = session.grab().rows(0, 32);
            inked(&first, 0, 400) && inked(&first, 880, 1280) && !inked(&first, 500, 780)
        }),
        "the bar drew both widgets"
    );
    assert_ne!(first.pixel(0, 0), [0, 0, 0, 255], "the bar's background, not the root window's");
    assert!(
        wait_for(Duration::from_secs(3), || session.grab().rows(0, 32).rgba != first.rgba),
        "the bar repaints as the clock ticks"
    );
    assert!(bar.0.try_wait().unwrap().is_none(), "the bar is still running");
}

pub(crate) const TOOLS: &[&str] = &["Xvfb", "i3", "i3-msg", "xdotool", "xprop", "xwininfo", "import"];

/// Whether something other than the bar's background is drawn in columns `from..to`.
pub(crate) fn inked(frame: &Frame, from: u32, to: u32) -> bool {
    frame.ink(frame.pixel(0, 0), from, to) > 50
}

/// A 32-pixel bar of the Cpu widget alone, and the same with a clock on the right.
pub(crate) const ONLY_CPU: &str =
    r#"{ "height": 32, "left_widgets": [ { "Cpu": { "enable": true } } ], "right_widgets": [] }"#;
pub(crate) const CPU_AND_CLOCK: &str = r#"{ "height": 32, "left_widgets": [ { "Cpu": { "enable": true } } ],
    "right_widgets": [ { "Time": { "enable": true, "format": "TwentyFourHour" } } ] }"#;

/// The top 32 rows of the screen, where the bar of [`ONLY_CPU`] is.
pub(crate) fn bar_strip(session: &XSession) -> Frame {
    session.grab().rows(0, 32)
}

/// A bar of [`ONLY_CPU`] logging to a file, once its Cpu widget drew: its
/// directory, config file, log file and process.
fn start_cpu_bar(session: &XSession) -> (tempfile::TempDir, PathBuf, PathBuf, Reaped) {
    let (dir, config) = config_file(ONLY_CPU);
    let log_path = dir.path().join("obi.log");
    let (bar, _window) = session.start_bar(&config, Stdio::from(std::fs::File::create(&log_path).unwrap()));
    assert!(wait_for(Duration::from_secs(10), || inked(&bar_strip(session), 0, 400)), "the Cpu widget drew");
    (dir, config, log_path, bar)
}

#[test]
fn a_saved_config_is_applied_and_a_broken_one_is_not() {
    if !have_tools("config reload test", TOOLS) {
        return;
    }
    let session = XSession::start(1280, 720);
    let (_dir, config, log_path, mut bar) = start_cpu_bar(&session);
    let top = || bar_strip(&session);
    assert!(!inked(&top(), 880, 1280), "nothing on the right yet");

    std::fs::write(&config, CPU_AND_CLOCK).unwrap();
    assert!(wait_for(Duration::from_secs(10), || inked(&top(), 880, 1280)), "the saved config added the clock");

    std::fs::write(&config, "{ \"height\": \"tall\", \"left_widgets\": [], \"right_widgets\": [] }").unwrap();
    let logged = || std::fs::read_to_string(&log_path).unwrap_or_default();
    assert!(
        wait_for(Duration::from_secs(10), || logged().contains("cannot be used")
            && logged().contains("error: height:")),
        "the bad save is logged, naming the problem: {}",
        logged()
    );
    std::thread::sleep(Duration::from_millis(1500));
    let frame = top();
    assert!(inked(&frame, 0, 400) && inked(&frame, 880, 1280), "the last good config keeps running");
    assert!(bar.0.try_wait().unwrap().is_none(), "the bar is still running");
}

#[test]
fn obi_msg_hides_shows_toggles_and_quits_the_bar() {
    if !have_tools("control socket test", TOOLS) {
        return;
    }
    let session = XSession::start(1280, 720);
    let (dir, config) =
        config_file(r#"{ "height": 30, "left_widgets": [ { "Cpu": { "enable": true } } ], "right_widgets": [] }"#);
    let runtime = dir.path().join("runtime");
    let msg = |command: &str| run(obi().env("XDG_RUNTIME_DIR", &runtime).args(["msg", command]));

    let refused = msg("toggle");
    assert!(!refused.status.success(), "no bar yet");
    assert!(String::from_utf8_lossy(&refused.stderr).contains("no obi bar is running"), "{refused:?}");

    let (mut bar, window) =
        session.start_bar_with_env(&config, Stdio::null(), &[("XDG_RUNTIME_DIR", runtime.as_os_str())]);
    let map_state = || {
        String::from_utf8_lossy(&run(session.command("xwininfo").args(["-id", &window])).stdout).contains("IsViewable")
    };
    let socket = runtime.join("obi").join(format!("bar-{}.sock", bar.0.id()));
    assert!(wait_for(Duration::from_secs(10), || socket.exists()), "the bar listens on {}", socket.display());

    for (command, visible) in [("hide", false), ("show", true), ("toggle", false), ("toggle", true)] {
        let output = msg(command);
        assert!(output.status.success(), "{command}: {output:?}");
        assert!(String::from_utf8_lossy(&output.stdout).contains(&format!("{}: ok", bar.0.id())), "{output:?}");
        assert!(
            wait_for(Duration::from_secs(5), || map_state() == visible),
            "after {command} the bar is visible: {visible}"
        );
    }

    let unknown = run(obi().env("XDG_RUNTIME_DIR", &runtime).args(["msg", "explode"]));
    assert!(!unknown.status.success(), "an unknown command is refused by the command line");

    assert!(msg("quit").status.success());
    assert!(wait_for(Duration::from_secs(10), || bar.0.try_wait().unwrap().is_some()), "quit ends the bar");
    assert!(bar.0.wait().unwrap().success(), "and it exits cleanly");
    assert!(!socket.exists(), "its socket is removed");
}

/// The config file deleted, or a directory put in its place, while the bar
/// runs: each is logged and the bar goes on with what it shows; a good
/// file written again is applied.
#[test]
fn a_config_deleted_or_replaced_by_a_directory_leaves_the_bar_running() {
    if !have_tools("config faults test", TOOLS) {
        return;
    }
    let session = XSession::start(1280, 720);
    let (_dir, config, log_path, mut bar) = start_cpu_bar(&session);
    let top = || bar_strip(&session);
    let refusals = || std::fs::read_to_string(&log_path).unwrap_or_default().matches("cannot be used").count();

    std::fs::remove_file(&config).unwrap();
    assert!(wait_for(Duration::from_secs(10), || refusals() == 1), "the deletion is logged");
    std::fs::create_dir(&config).unwrap();
    assert!(wait_for(Duration::from_secs(10), || refusals() == 2), "the directory is logged");
    let logged = std::fs::read_to_string(&log_path).unwrap();
    assert!(!logged.contains("panicked"), "{logged}");
    assert!(bar.0.try_wait().unwrap().is_none() && inked(&top(), 0, 400), "the bar runs on, showing what it showed");

    std::fs::remove_dir(&config).unwrap();
    std::fs::write(&config, CPU_AND_CLOCK).unwrap();
    assert!(wait_for(Duration::from_secs(10), || inked(&top(), 880, 1280)), "a good file again is applied");
}

/// The config file made unreadable while the bar runs: logged, the bar
/// goes on; readable again, it is applied. Root reads any file, so as root
/// the bar runs as `nobody` (its binary, cache and runtime directory copied
/// where `nobody` can reach them).
#[test]
fn a_config_made_unreadable_leaves_the_bar_running() {
    use std::os::unix::fs::PermissionsExt;
    if !have_tools("unreadable config test", &[TOOLS, &["setpriv"]].concat()) {
        return;
    }
    let session = XSession::start(1280, 720);
    let (dir, config) = config_file(ONLY_CPU);
    let open_to_all = |path: &std::path::Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    open_to_all(dir.path(), 0o755);
    let binary = dir.path().join("obi");
    std::fs::copy(crate::support::obi_binary(), &binary).unwrap();
    let (cache, runtime) = (dir.path().join("cache"), dir.path().join("runtime"));
    for writable in [&cache, &runtime] {
        std::fs::create_dir(writable).unwrap();
        open_to_all(writable, 0o700);
    }
    let mut command = crate::nobody::as_nobody_when_root(&binary, &[&cache, &runtime]);
    let log_path = dir.path().join("obi.log");
    let bar = command
        .arg("--config")
        .arg(&config)
        .env("DISPLAY", &session.display)
        .env("OBI_CACHE_DIR", &cache)
        .env("XDG_RUNTIME_DIR", &runtime)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log_path).unwrap())
        .spawn()
        .expect("starting obi");
    let mut bar = Reaped(bar);
    session.find_window("^obi$", Duration::from_secs(20)).expect("the bar window appears");
    let top = || bar_strip(&session);
    assert!(wait_for(Duration::from_secs(20), || inked(&top(), 0, 400)), "the Cpu widget drew");
    let log = || std::fs::read_to_string(&log_path).unwrap_or_default();

    open_to_all(&config, 0o000);
    assert!(wait_for(Duration::from_secs(10), || log().contains("Permission denied")), "logged: {}", log());
    assert!(bar.0.try_wait().unwrap().is_none() && inked(&top(), 0, 400), "the bar runs on, showing what it showed");

    open_to_all(&config, 0o644);
    std::fs::write(&config, CPU_AND_CLOCK).unwrap();
    assert!(wait_for(Duration::from_secs(10), || inked(&top(), 880, 1280)), "readable again, it is applied");
    assert!(!log().contains("panicked"), "{}", log());
}

/// The X server going away ends the bar with a line saying so (Xlib's, or
/// Obi's when winit trips over the dead connection first), not a panic.
#[test]
fn the_bar_ends_with_a_message_when_its_x_server_dies() {
    if !have_tools("X server death test", TOOLS) {
        return;
    }
    let mut session = XSession::start(1280, 720);
    let (dir, config) =
        config_file(r#"{ "height": 30, "left_widgets": [ { "Cpu": { "enable": true } } ], "right_widgets": [] }"#);
    let log = dir.path().join("obi.log");
    let (mut bar, _window) = session.start_bar(&config, Stdio::from(std::fs::File::create(&log).unwrap()));
    session.kill_server();
    assert!(wait_for(Duration::from_secs(10), || bar.0.try_wait().unwrap().is_some()), "the bar ends");
    let said = std::fs::read_to_string(&log).unwrap();
    // Xlib says "X connection to :N broken" or, when the server went while
    // the bar was connecting (its GL is set up after its window maps),
    // "fatal IO error … on X server ":N"".
    let xlib = said.contains("X connection") && said.contains("broken") || said.contains("fatal IO error");
    let explained = xlib || said.contains("the X server went away");
    assert!(explained, "it says why: {said}");
    assert!(!said.contains("panicked"), "{said}");
}

/// When winit trips over a dead X connection before Xlib says it is gone,
/// the panic becomes the same plain ending. Tried in a child process: this
/// test binary run again on a display that is not there.
#[test]
fn a_panic_once_the_display_is_gone_is_one_line() {
    if std::env::var_os("OBI_TEST_PANIC_WITHOUT_DISPLAY").is_some() {
        obi::window::end_quietly_without_the_display();
        panic!("a request over the dead connection");
    }
    let child = run(Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "window::a_panic_once_the_display_is_gone_is_one_line", "--nocapture"])
        .env("OBI_TEST_PANIC_WITHOUT_DISPLAY", "1")
        .env("DISPLAY", ":4999"));
    let stderr = String::from_utf8_lossy(&child.stderr);
    assert_eq!(child.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("the X server went away") && !stderr.contains("panicked"), "{stderr}");
}

/// A session ending (SIGTERM) or Ctrl-C (SIGINT) ends the bar as `obi msg
/// quit` does: a clean exit, its socket removed, no panic.
#[test]
fn sigterm_and_sigint_end_the_bar_cleanly() {
    if !have_tools("signal test", TOOLS) {
        return;
    }
    let session = XSession::start(1280, 720);
    let (dir, config) = config_file(
        r#"{ "height": 30, "left_widgets": [ { "Time": { "enable": true, "format": "TwentyFourHour" } } ], "right_widgets": [] }"#,
    );
    let runtime = dir.path().join("runtime");
    for (signal, name) in [(libc::SIGTERM, "SIGTERM"), (libc::SIGINT, "SIGINT")] {
        let log = dir.path().join(format!("{name}.log"));
        let stderr = Stdio::from(std::fs::File::create(&log).unwrap());
        let (mut bar, _window) =
            session.start_bar_with_env(&config, stderr, &[("XDG_RUNTIME_DIR", runtime.as_os_str())]);
        let socket = runtime.join("obi").join(format!("bar-{}.sock", bar.0.id()));
        assert!(wait_for(Duration::from_secs(10), || socket.exists()), "the bar listens on {}", socket.display());
        // SAFETY: kill only sends a signal to the bar's process.
        assert_eq!(unsafe { libc::kill(bar.0.id() as i32, signal) }, 0);
        assert!(wait_for(Duration::from_secs(10), || bar.0.try_wait().unwrap().is_some()), "{name} ends the bar");
        assert!(bar.0.wait().unwrap().success(), "{name}: a clean exit");
        assert!(!socket.exists(), "{name}: its socket is removed");
        let said = std::fs::read_to_string(&log).unwrap();
        assert!(!said.contains("panicked"), "{name}: {said}");
    }
}

#[test]
fn without_a_display_the_bar_says_why_and_fails() {
    let output = run(obi().env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY"));
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cannot open the display"), "{stderr}");
}

#[test]
fn a_missing_monitor_is_named_with_the_ones_found() {
    if !have_tools("missing monitor test", TOOLS) {
        return;
    }
    let session = XSession::start(1024, 600);
    let (_dir, config) = config_file(r#"{ "monitor": 3, "left_widgets": [], "right_widgets": [] }"#);
    let output = run(obi().arg("--config").arg(&config).env("DISPLAY", &session.display));
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("monitor 3 does not exist; found 0:") && stderr.contains("1024x600"), "{stderr}");
}

#[test]
fn the_window_shows_what_the_painter_paints_after_partial_repaints() {
    if !have_tools("window content test", TOOLS) {
        return;
    }
    let left = crate::golden::fixed(
        r#"[ { "text": "1" }, { "text": "2", "selected": true }, { "icon": "\ue610", "text": "42%" } ]"#,
    );
    let center = crate::golden::fixed(r#"[ { "text": "a title in the middle" } ]"#);
    let json = format!(
        r#"{{ "height": 30, "transparency_alpha": 255, "font_family": "DejaVu Sans",
             "left_widgets": [ {left} ], "center_widgets": [ {center} ],
             "right_widgets": [ {{ "Time": {{ "enable": true, "format": "TwentyFourHour" }} }} ] }}"#
    );
    let (dir, config) = config_file(&json);
    let png = dir.path().join("expected.png");
    let output = run(obi().arg("--config").arg(&config).arg("--screenshot").arg(&png).args(["--width", "1000"]));
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let expected = Frame::read(&png);

    // Everything but the clock (x < 800) must be exactly as the offscreen
    // painter drew it.
    let differing = |shown: &Frame| {
        (0..30)
            .flat_map(|y| (0..800).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                let (shown, painted) = (shown.pixel(x, y), expected.pixel(x, y));
                shown[..3].iter().zip(&painted[..3]).any(|(a, b)| a.abs_diff(*b) > 8)
            })
            .count()
    };

    let session = XSession::start(1000, 600);
    let (_bar, _window) = session.start_bar(&config, Stdio::null());
    // Widgets start one by one: under load the first frames lack some (and
    // each that comes later is painted over the frame as it was).
    let mut last = session.grab().rows(0, 30);
    assert!(
        wait_for(Duration::from_secs(20), || {
            last = session.grab().rows(0, 30);
            differing(&last) == 0
        }),
        "the bar never showed the painted frame: {} pixels differ",
        differing(&last)
    );
    // Two ticks of the clock: each repaints only the clock's region.
    let mut ticks = 0;
    assert!(
        wait_for(Duration::from_secs(6), || {
            let now = session.grab().rows(0, 30);
            if now.rgba != last.rgba {
                ticks += 1;
                last = now;
            }
            ticks >= 2
        }),
        "the clock ticked twice"
    );
    assert_eq!(differing(&last), 0, "pixels of the window differ from the painted frame after repaints");
}

/// Without a compositor nothing can show through the bar: its margins are
/// its background, not black.
#[test]
fn without_a_compositor_the_margins_are_background() {
    if !have_tools("margin test", TOOLS) {
        return;
    }
    let session = XSession::start(1000, 600);
    let (_dir, config) = config_file(
        r#"{ "height": 40, "margin": 8, "left_widgets": [], "right_widgets": [ { "Time": { "enable": true, "format": "TwentyFourHour" } } ] }"#,
    );
    let (_bar, _window) = session.start_bar(&config, Stdio::null());
    // Catppuccin Mocha's base, opaque.
    let background = [0x1e, 0x1e, 0x2e, 0xff];
    let mut corner = [0; 4];
    let painted = wait_for(Duration::from_secs(10), || {
        let top = session.grab().rows(0, 40);
        corner = top.pixel(2, 2);
        corner == background && top.pixel(500, 20) == background
    });
    assert!(painted, "the margin reads {corner:?}");
}

//! Several bars from one obi process, on an X server with two monitors
//! under i3: one `--config` for each monitor, each bar on its own monitor
//! showing that monitor's workspaces, a config that cannot be used left
//! out, and `obi msg` addressing one bar by its place or its monitor.

use crate::komorebi_simulator;
use crate::ocr::{HEIGHT, column_of, wait_for_words_at};
use crate::support::{Reaped, XSession, have_tools, obi, run, wait_for};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

const TOOLS: &[&str] =
    &["Xvfb", "xrandr", "i3", "i3-msg", "xdotool", "xmessage", "xwininfo", "xprop", "import", "convert", "tesseract"];

/// Each monitor's width.
const WIDTH: u32 = 800;

/// The Komorebi widget's workspaces, large enough to read, on `monitor`.
fn config(monitor: usize) -> String {
    format!(
        r#"{{ "height": {HEIGHT}, "font_size": 20, "font_family": "DejaVu Sans", "monitor": {monitor},
             "left_widgets": [ {{ "Komorebi": {{ "workspaces": {{ "enable": true, "hide_empty_workspaces": true, "display": "Text" }} }} }} ],
             "right_widgets": [] }}"#
    )
}

/// [`config`] with a date at the right end, whose calendar a secondary
/// click opens.
fn config_with_calendar() -> String {
    config(0).replace(
        r#""right_widgets": []"#,
        r#""right_widgets": [ { "Date": { "enable": true, "format": "YearMonthDate", "label_prefix": "None" } } ]"#,
    )
}

/// Opens a window on a workspace called `name` on `output`.
fn populate(session: &XSession, output: &str, name: &str) {
    let switched = run(session.command("i3-msg").arg(format!("focus output {output}; workspace {name}")));
    assert!(switched.status.success(), "{switched:?}");
    let window =
        session.command("xmessage").args(["-name", name, name]).stdout(Stdio::null()).stderr(Stdio::null()).spawn();
    std::mem::forget(window.expect("starting xmessage"));
    assert!(session.find_window(&format!("^{name}$"), Duration::from_secs(10)).is_some(), "the window {name} appeared");
}

/// The bar windows shown, each with its left edge and width, left to right.
fn bars(session: &XSession) -> Vec<(i32, u32)> {
    let found = run(session.command("xdotool").args(["search", "--onlyvisible", "--name", "^obi$"]));
    let mut bars: Vec<(i32, u32)> = String::from_utf8_lossy(&found.stdout)
        .lines()
        .filter_map(|window| session.geometry_if_alive(window).map(|(x, _, width, _)| (x, width)))
        .collect();
    bars.sort();
    bars
}

/// The pids `_NET_WM_PID` names on the bar windows.
fn bar_pids(session: &XSession) -> Vec<String> {
    let found = run(session.command("xdotool").args(["search", "--name", "^obi$"]));
    String::from_utf8_lossy(&found.stdout)
        .lines()
        .map(|window| {
            let property = run(session.command("xprop").args(["-id", window, "_NET_WM_PID"]));
            String::from_utf8_lossy(&property.stdout).rsplit(' ').next().unwrap_or_default().trim().to_owned()
        })
        .collect()
}

/// `command` (obi's) started on `session`, with its runtime folder at
/// `runtime` and its log in `log`.
fn start(mut command: std::process::Command, session: &XSession, runtime: &Path, log: &Path) -> Reaped {
    let bar = command
        .env("DISPLAY", &session.display)
        .env("XDG_RUNTIME_DIR", runtime)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .expect("starting obi");
    Reaped(bar)
}

/// obi with `config` on every monitor of `session`, in a folder of its own
/// that is also its runtime folder, logging to `obi.log` there.
fn start_on_every_monitor(session: &XSession, config: &str) -> (Reaped, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("komorebi.bar.json");
    std::fs::write(&path, config).unwrap();
    let mut command = obi();
    command.arg("--every-monitor").arg("--config").arg(&path);
    let bar = start(command, session, dir.path(), &dir.path().join("obi.log"));
    (bar, dir)
}

/// The words the bar on the monitor at column `x` reads once it reads `wanted`.
fn wait_to_read(session: &XSession, dir: &Path, x: u32, wanted: &str, artifact: &str) -> Vec<String> {
    let words = wait_for_words_at(session, dir, x, WIDTH, &[wanted], artifact);
    words.into_iter().map(|(word, _)| word).collect()
}

#[test]
fn one_process_runs_a_bar_on_each_monitor_each_with_its_own_workspaces() {
    if !have_tools("two monitors test", TOOLS) {
        return;
    }
    let session = XSession::side_by_side(2, WIDTH, 600);
    // Each monitor shows one of its two workspaces; the other is the one
    // read back (a shown workspace is drawn selected, which OCR misreads).
    for (output, hidden, shown) in [("M0", "gamma", "alpha"), ("M1", "delta", "beta")] {
        populate(&session, output, hidden);
        populate(&session, output, shown);
    }
    let dir = tempfile::tempdir().unwrap();
    let runtime = tempfile::tempdir().unwrap();
    let configs: Vec<_> = [config(0), config(1), "{ \"left_widgets\": 7 }".to_owned()]
        .iter()
        .enumerate()
        .map(|(number, text)| {
            let path = dir.path().join(format!("bar-{number}.json"));
            std::fs::write(&path, text).unwrap();
            path
        })
        .collect();
    let log = dir.path().join("obi.log");
    let mut command = obi();
    for path in &configs {
        command.arg("--config").arg(path);
    }
    let mut bar = start(command, &session, runtime.path(), &log);

    let both = [(0, WIDTH), (WIDTH as i32, WIDTH)];
    assert!(wait_for(Duration::from_secs(30), || bars(&session) == both), "two bars: {:?}", bars(&session));
    assert_eq!(bar_pids(&session), [bar.0.id().to_string(), bar.0.id().to_string()], "both are this process's");
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.contains("bar-2.json: no bar for it"), "the broken config is named: {logged}");

    let left = wait_to_read(&session, dir.path(), 0, "gamma", "monitors-left");
    assert!(!left.contains(&"delta".to_owned()), "the first monitor's bar shows its workspaces alone: {left:?}");
    let right = wait_to_read(&session, dir.path(), WIDTH, "delta", "monitors-right");
    assert!(!right.contains(&"gamma".to_owned()), "the second monitor's bar shows its workspaces alone: {right:?}");

    let msg = |arguments: &[&str]| {
        let output = run(obi().env("XDG_RUNTIME_DIR", runtime.path()).arg("msg").args(arguments));
        (output.status.success(), String::from_utf8_lossy(&output.stdout).trim().to_owned())
    };
    let pid = bar.0.id();
    assert_eq!(msg(&["hide", "--bar", "1"]), (true, format!("{pid}: ok")));
    assert!(wait_for(Duration::from_secs(10), || bars(&session) == both[..1]), "bar 1 hid: {:?}", bars(&session));
    assert_eq!(msg(&["show", "--monitor", "1"]), (true, format!("{pid}: ok")));
    assert!(wait_for(Duration::from_secs(10), || bars(&session) == both), "bar 1 is back: {:?}", bars(&session));
    let (ok, reply) = msg(&["hide", "--bar", "2"]);
    assert!(!ok && reply.contains("no such bar; this obi runs 2 bars (0 to 1)"), "{reply}");
    assert_eq!(msg(&["toggle"]), (true, format!("{pid}: ok (2 bars)")));
    assert!(wait_for(Duration::from_secs(10), || bars(&session).is_empty()), "both hid: {:?}", bars(&session));
    msg(&["toggle"]);
    assert!(wait_for(Duration::from_secs(10), || bars(&session) == both), "both are back: {:?}", bars(&session));

    assert_eq!(msg(&["quit", "--monitor", "0"]), (true, format!("{pid}: ok")));
    assert!(wait_for(Duration::from_secs(10), || bars(&session) == both[1..]), "bar 0 ended: {:?}", bars(&session));
    assert!(bar.0.try_wait().unwrap().is_none(), "the process runs on with its other bar");
    assert_eq!(msg(&["quit"]), (true, format!("{pid}: ok")));
    assert!(
        wait_for(Duration::from_secs(10), || bar.0.try_wait().unwrap().is_some()),
        "the last bar ended the process"
    );
}

/// The other two ways to run several bars: komorebi's `bar_configurations`
/// (one bar for each, in one process), and one config on every monitor.
#[test]
fn komorebis_bar_configurations_and_every_monitor_each_give_a_bar_a_monitor() {
    if !have_tools("several bars test", TOOLS) {
        return;
    }
    let session = XSession::side_by_side(2, WIDTH, 600);
    let dir = tempfile::tempdir().unwrap();
    for monitor in 0..2 {
        std::fs::write(dir.path().join(format!("bar-{monitor}.json")), config(monitor)).unwrap();
    }
    let komorebi = r#"{ "bar_configurations": [ "bar-0.json", "bar-1.json" ] }"#;
    std::fs::write(dir.path().join("komorebi.json"), komorebi).unwrap();
    let both = [(0, WIDTH), (WIDTH as i32, WIDTH)];
    let runs = [
        vec!["--komorebi-config".to_owned(), dir.path().join("komorebi.json").display().to_string()],
        vec!["--every-monitor".to_owned(), "--config".to_owned(), dir.path().join("bar-1.json").display().to_string()],
    ];
    for arguments in runs {
        let bar = obi()
            .args(&arguments)
            .env("DISPLAY", &session.display)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting obi");
        let mut bar = Reaped(bar);
        let shown = wait_for(Duration::from_secs(30), || bars(&session) == both);
        assert!(shown, "{arguments:?}: a bar on each monitor: {:?}", bars(&session));
        assert_eq!(bar_pids(&session), [bar.0.id().to_string(), bar.0.id().to_string()], "{arguments:?}");
        let _ = bar.0.kill();
        let _ = bar.0.wait();
        assert!(wait_for(Duration::from_secs(10), || bars(&session).is_empty()), "{:?}", bars(&session));
    }
}

/// komorebi's state with a monitor at each of `lefts` (in komorebi's
/// order, each `WIDTH` wide), numbered for the user by `numbers`.
fn komorebi_monitors(lefts: [u32; 2], numbers: serde_json::Value) -> serde_json::Value {
    let mut state = komorebi_simulator::state(vec![komorebi_simulator::workspace(Some("one"), &[], 0, "BSP")], 0);
    let first = state["monitors"]["elements"][0].clone();
    state["monitors"]["elements"] = lefts
        .iter()
        .enumerate()
        .map(|(index, left)| {
            let mut monitor = first.clone();
            monitor["name"] = format!("DISPLAY{}", index + 1).into();
            monitor["size"] = serde_json::json!({ "left": left, "top": 0, "right": WIDTH, "bottom": 600 });
            monitor
        })
        .collect();
    state["monitor_usr_idx_map"] = numbers;
    state
}

/// With komorebi, a bar's `monitor` is komorebi's number for it, as
/// komorebi-bar reads it: komorebi's first monitor may be the display's
/// second; when komorebi numbers them anew, the bar moves.
#[test]
fn with_komorebi_the_monitor_is_komorebis_of_that_number() {
    if !have_tools("komorebi's monitor order test", &["Xvfb", "xrandr", "i3", "i3-msg", "xdotool", "xwininfo"]) {
        return;
    }
    let session = XSession::side_by_side(2, WIDTH, 600);
    let dir = tempfile::tempdir().unwrap();
    let runtime = tempfile::tempdir().unwrap();
    let right_first = komorebi_monitors([WIDTH, 0], serde_json::json!({ "0": 0, "1": 1 }));
    let komorebi = komorebi_simulator::Simulator::start(dir.path(), right_first);
    let config = dir.path().join("bar.json");
    std::fs::write(&config, r#"{ "height": 30, "monitor": 0, "left_widgets": [], "right_widgets": [] }"#).unwrap();
    let log = dir.path().join("obi.log");
    let mut command = obi();
    command.args(["--tiler", "komorebi", "--komorebi-dir"]).arg(dir.path()).arg("--config").arg(&config);
    let _bar = start(command, &session, runtime.path(), &log);
    let log = || std::fs::read_to_string(&log).unwrap_or_default();
    let on_the_right = wait_for(Duration::from_secs(30), || bars(&session) == [(WIDTH as i32, WIDTH)]);
    assert!(on_the_right, "komorebi's monitor 0 is the display's second: {:?}\n{}", bars(&session), log());

    assert!(komorebi.wait_for_subscriber(Duration::from_secs(10)), "the bar subscribed");
    komorebi.set_state(komorebi_monitors([WIDTH, 0], serde_json::json!({ "0": 1, "1": 0 })));
    komorebi.notify(serde_json::json!({ "type": "MonitorPoll", "content": null }));
    let on_the_left = wait_for(Duration::from_secs(10), || bars(&session) == [(0, WIDTH)]);
    assert!(on_the_left, "numbered anew, 0 is the display's first: {:?}\n{}", bars(&session), log());
}

/// On X11 `--every-monitor` follows the monitors RandR lists: one taken
/// away (`xrandr --delmonitor`) takes its bar with it, and one that comes
/// back gets a bar again.
#[test]
fn on_x11_every_monitor_follows_monitors_as_they_come_and_go() {
    if !have_tools("every monitor hotplug test", TOOLS) {
        return;
    }
    let session = XSession::side_by_side(2, WIDTH, 600);
    let (_bar, dir) = start_on_every_monitor(&session, &config(0));
    let log = dir.path().join("obi.log");
    let both = [(0, WIDTH), (WIDTH as i32, WIDTH)];
    let said = || std::fs::read_to_string(&log).unwrap_or_default();
    assert!(wait_for(Duration::from_secs(30), || bars(&session) == both), "{:?}; {}", bars(&session), said());

    let xrandr = |arguments: &[&str]| {
        let done = run(session.command("xrandr").args(arguments));
        assert!(done.status.success(), "xrandr {arguments:?}: {}", String::from_utf8_lossy(&done.stderr));
    };
    xrandr(&["--delmonitor", "M1"]);
    let one = [(0, WIDTH)];
    assert!(wait_for(Duration::from_secs(20), || bars(&session) == one), "{:?}; {}", bars(&session), said());
    xrandr(&["--setmonitor", "M1", &format!("{WIDTH}/300x600/200+{WIDTH}+0"), "none"]);
    assert!(wait_for(Duration::from_secs(20), || bars(&session) == both), "{:?}; {}", bars(&session), said());
}

/// With a popup open on one monitor's bar, which holds the pointer, a click
/// on the other monitor's bar closes the popup and does there what it
/// does: here, switch to the workspace clicked.
#[test]
fn a_click_on_another_monitors_bar_while_a_popup_is_open_is_that_bars_click() {
    if !have_tools("popup and two monitors test", TOOLS) {
        return;
    }
    let session = XSession::side_by_side(2, WIDTH, 600);
    populate(&session, "M0", "alpha");
    populate(&session, "M1", "beta");
    populate(&session, "M1", "delta");
    let (_bar, dir) = start_on_every_monitor(&session, &config_with_calendar());
    let log = dir.path().join("obi.log");
    let words = wait_for_words_at(&session, dir.path(), WIDTH, WIDTH, &["beta"], "monitors-popup-right");
    let beta = WIDTH + column_of(&words, "beta");
    assert_eq!(session.focused_workspace().as_deref(), Some("delta"));

    let click = |x: u32, button: &str| {
        let (x, y) = (x.to_string(), (HEIGHT / 2).to_string());
        run(session.command("xdotool").args(["mousemove", &x, &y, "click", button]));
    };
    // Clicked again until it opens: the first bar may not show its date yet.
    let held = wait_for(Duration::from_secs(20), || {
        click(WIDTH - 60, "3");
        wait_for(Duration::from_millis(1500), || session.pointer_grabbed())
    });
    let said = || std::fs::read_to_string(&log).unwrap_or_default();
    assert!(held, "the first bar's calendar never opened and held the pointer; the bar logged:\n{}", said());
    click(beta, "1");
    let switched = wait_for(Duration::from_secs(10), || session.focused_workspace().as_deref() == Some("beta"));
    assert!(switched, "the click on beta only closed the calendar: {:?}", session.i3_workspaces());
    assert!(!session.pointer_grabbed(), "the calendar let the pointer go");
}

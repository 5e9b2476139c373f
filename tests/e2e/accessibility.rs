//! The bar as a screen reader sees it: on a private session bus with
//! AT-SPI's registry (at-spi2-core), assistive technology turned on as
//! Orca turns it on, read with pyatspi (`atspi.py`): the bar's window and
//! its items with their roles and names, i3's workspaces a list with the
//! focused one selected, an icon-only CPU reading named with its value,
//! the clock following the time, and a workspace button's action
//! switching i3's workspace; under headless sway the same for the layer
//! surface; and popups: the calendar's month, and the volume slider set
//! through AT-SPI's Value, read back from the sound server.

use crate::session_bus::SessionBus;
use crate::support::{Reaped, XSession, config_file, have_tools, obi, run, wait_for};
use crate::sway::SwaySession;
use chrono::Datelike;
use obi_test_support::atspi_bus::{self, AtspiBus};
use obi_test_support::sound_server::SoundServer;
use serde_json::Value;
use std::ffi::{OsStr, OsString};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The system's Python, which has pyatspi.
const PYTHON: &str = "/usr/bin/python3";
const TOOLS: &[&str] = &["Xvfb", "i3", "i3-msg", "xmessage", "xdotool", "dbus-daemon"];

/// i3's workspaces, an icon-only CPU reading and a clock with seconds.
const CONFIG: &str = r#"{ "height": 30,
    "left_widgets": [ { "Komorebi": { "workspaces": { "enable": true, "hide_empty_workspaces": false, "display": "Text" } } },
                      { "Cpu": { "enable": true, "label_prefix": "Icon" } } ],
    "right_widgets": [ { "Time": { "enable": true, "format": "TwentyFourHour" } } ] }"#;

/// A session bus with AT-SPI's bus beside it, assistive technology on.
struct AccessBus {
    // Dropped before the session bus it is on.
    _atspi: AtspiBus,
    bus: SessionBus,
}

impl AccessBus {
    /// The bus for `test`, or a loud skip (a failure under CI) where
    /// at-spi2-core or pyatspi is missing.
    fn start(test: &str) -> Option<AccessBus> {
        let probe = Command::new(PYTHON).args(["-c", "import pyatspi"]).output();
        if !std::path::Path::new(atspi_bus::LAUNCHER).exists() || !probe.is_ok_and(|probe| probe.status.success()) {
            crate::skip::unavailable(&format!(
                "{test}: needs at-spi2-core and python3-pyatspi (.ci/run installs them)"
            ));
            return None;
        }
        let bus = SessionBus::for_tests(test, None)?;
        let atspi = AtspiBus::start(&bus.address).expect("starting at-spi-bus-launcher");
        let access = AccessBus { _atspi: atspi, bus };
        access.python(&["enable"]);
        Some(access)
    }

    /// What a program on this bus is given.
    fn env(&self) -> Vec<(&'static str, OsString)> {
        vec![("DBUS_SESSION_BUS_ADDRESS", self.bus.address.clone().into())]
    }

    /// sway with workspaces alpha (focused) and beta, and the bar of
    /// [`CONFIG`] on it, on this bus.
    fn bar_on_sway(&self, test: &str) -> Option<(SwaySession, Reaped)> {
        let sway = SwaySession::start(test)?;
        for name in ["alpha", "beta"] {
            sway.populate(name);
        }
        assert!(sway.swaymsg(&["workspace", "alpha"]).status.success());
        let bar = sway.start_bar_with_env(CONFIG, &[], &borrowed(&self.env()));
        self.tree_once("the workspaces listed", |tree| workspaces(tree).len() == 2);
        Some((sway, bar))
    }

    fn python(&self, args: &[&str]) -> Value {
        self.try_python(args).unwrap_or_else(|error| panic!("{error}"))
    }

    /// What `atspi.py args` printed, or why it failed.
    fn try_python(&self, args: &[&str]) -> Result<Value, String> {
        let helper = crate::support::workspace().join("tests/e2e/atspi.py");
        let output = run(Command::new(PYTHON).arg(helper).args(args).envs(self.env()));
        match output.status.success() {
            true => Ok(serde_json::from_slice(&output.stdout).unwrap_or(Value::Null)),
            false => Err(format!("atspi.py {args:?} failed: {}", String::from_utf8_lossy(&output.stderr))),
        }
    }

    /// The bar's windows, as AT-SPI gives them; none, saying why, when the
    /// reader could not read them (a client of AT-SPI may fail to register
    /// while the registry starts).
    fn tree(&self) -> Vec<Value> {
        match self.try_python(&["tree"]) {
            Ok(tree) => tree.as_array().cloned().unwrap_or_default(),
            Err(error) => {
                eprintln!("{error}");
                Vec::new()
            }
        }
    }

    /// Does the first action of the `role` named `name` (a button's click).
    fn act(&self, role: &str, name: &str) {
        assert_eq!(self.python(&["act", role, name]), Value::Bool(true), "the action on {name:?} was done");
    }

    /// Sets the value of the `role` named `name` (a slider's).
    fn set(&self, role: &str, name: &str, value: f64) {
        self.python(&["set", role, name, &value.to_string()]);
    }

    /// The bar's tree once `ready` holds of it, or a failure saying what it was.
    fn tree_once(&self, what: &str, ready: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let mut tree = Vec::new();
        let came = wait_for(Duration::from_secs(20), || {
            tree = self.tree();
            ready(&tree)
        });
        assert!(came, "{what}: the tree is {}", serde_json::to_string_pretty(&tree).unwrap());
        tree
    }
}

/// `env` as a bar's start takes it.
fn borrowed<'a>(env: &'a [(&'static str, OsString)]) -> Vec<(&'static str, &'a OsStr)> {
    env.iter().map(|(name, value)| (*name, value.as_os_str())).collect()
}

/// `obi msg focus` to the bar `env` reaches (its runtime folder), which says it obeyed.
fn msg_focus(env: &[(&'static str, OsString)]) {
    let asked = run(obi().envs(env.iter().map(|(name, value)| (*name, value))).args(["msg", "focus"]));
    let reply = String::from_utf8_lossy(&asked.stdout).trim().to_owned();
    assert!(asked.status.success() && reply.ends_with(": ok"), "obi msg focus: {reply}");
}

/// An X server under i3 with workspaces alpha (focused) and beta.
fn i3_with_two_workspaces() -> XSession {
    let session = XSession::start(1280, 720);
    for name in ["alpha", "beta"] {
        crate::i3::populate(&session, name);
    }
    crate::i3::i3_msg(&session, "workspace alpha");
    session
}

/// Every node under `nodes`, depth first.
fn nodes(nodes: &[Value]) -> Vec<&Value> {
    let mut all = Vec::new();
    for node in nodes {
        all.push(node);
        all.extend(self::nodes(node["children"].as_array().map(Vec::as_slice).unwrap_or_default()));
    }
    all
}

fn role_and_name(node: &Value) -> (&str, &str) {
    (node["role"].as_str().unwrap_or_default(), node["name"].as_str().unwrap_or_default())
}

fn has_state(node: &Value, state: &str) -> bool {
    node["states"].as_array().is_some_and(|states| states.iter().any(|listed| listed == state))
}

/// The workspaces list's buttons: their names, and which is selected.
fn workspaces(tree: &[Value]) -> Vec<(String, bool)> {
    let list = nodes(tree).into_iter().find(|node| role_and_name(node) == ("list", "workspace"));
    let buttons = list.and_then(|list| list["children"].as_array()).cloned().unwrap_or_default();
    buttons
        .iter()
        .filter(|button| button["role"] == "push button")
        .map(|button| (role_and_name(button).1.to_owned(), has_state(button, "selected")))
        .collect()
}

/// The name of the first node whose name begins with `start`.
fn named_from(tree: &[Value], start: &str) -> Option<(String, String)> {
    nodes(tree)
        .into_iter()
        .map(role_and_name)
        .find(|(_, name)| name.starts_with(start))
        .map(|(role, name)| (role.to_owned(), name.to_owned()))
}

/// Checks what the bar of [`CONFIG`] shows a screen reader, on a window
/// manager whose workspaces are alpha (focused) and beta, and that the
/// clock follows the time.
fn check_the_tree(access: &AccessBus) {
    let tree = access.tree_once("the workspaces listed", |tree| workspaces(tree).len() == 2);
    let window = &tree[0];
    let (role, name) = role_and_name(window);
    assert_eq!(role, "frame", "{tree:?}");
    assert!(name.starts_with("Obi — bar on "), "the bar's window is named after it and its monitor: {name}");
    assert_eq!(workspaces(&tree), [("alpha".to_owned(), true), ("beta".to_owned(), false)]);

    let (role, cpu) = named_from(&tree, "Cpu ").expect("the CPU reading is named after its widget");
    assert_eq!(role, "label");
    let percent = cpu.trim_start_matches("Cpu ").trim_end_matches('%');
    assert!(percent.parse::<u8>().is_ok_and(|percent| percent <= 100), "named with its value: {cpu}");

    let (_, clock) = named_from(&tree, "Time ").expect("the clock is there");
    let ticked = access
        .tree_once("the clock's next second", |tree| named_from(tree, "Time ").is_some_and(|(_, now)| now != clock));
    let (_, now) = named_from(&ticked, "Time ").unwrap();
    let expected = chrono::Local::now().format("%H:%M").to_string();
    let earlier = (chrono::Local::now() - chrono::Duration::seconds(30)).format("%H:%M").to_string();
    assert!(now.contains(&expected) || now.contains(&earlier), "the clock reads the time: {now} (it is {expected})");
}

#[test]
fn a_screen_reader_reads_the_bar_on_x11_and_its_workspace_buttons_switch_i3s() {
    let test = "accessibility test (X11)";
    if !have_tools(test, TOOLS) {
        return;
    }
    let Some(access) = AccessBus::start(test) else { return };
    let session = i3_with_two_workspaces();
    let (_dir, config) = config_file(CONFIG);
    let (_bar, _window) = session.start_bar_with_env(&config, Stdio::null(), &borrowed(&access.env()));

    check_the_tree(&access);
    access.act("push button", "beta");
    assert!(
        wait_for(Duration::from_secs(10), || session.focused_workspace().as_deref() == Some("beta")),
        "the button's action focused beta: {:?}",
        session.i3_workspaces()
    );
    access.tree_once("beta selected", |tree| workspaces(tree) == [("alpha".into(), false), ("beta".into(), true)]);
}

#[test]
fn a_screen_reader_reads_the_bar_on_sways_layer_surface_and_its_buttons_act() {
    let test = "accessibility test (sway)";
    let Some(access) = AccessBus::start(test) else { return };
    let Some((sway, _bar)) = access.bar_on_sway(test) else { return };

    check_the_tree(&access);
    access.act("push button", "beta");
    assert!(
        wait_for(Duration::from_secs(10), || sway.focused_workspace().as_deref() == Some("beta")),
        "the button's action focused beta: {}",
        sway.bar_log()
    );
    access.tree_once("beta selected", |tree| workspaces(tree) == [("alpha".into(), false), ("beta".into(), true)]);
}

/// The popup's dialog named `name`, when it is open.
fn dialog<'a>(tree: &'a [Value], name: &str) -> Option<&'a Value> {
    nodes(tree).into_iter().find(|node| role_and_name(node) == ("dialog", name))
}

/// Whether the dialog named `name` has a node `role` named `text`.
fn dialog_has(tree: &[Value], name: &str, role: &str, text: &str) -> bool {
    dialog(tree, name).is_some_and(|dialog| {
        nodes(std::slice::from_ref(dialog)).into_iter().any(|node| role_and_name(node) == (role, text))
    })
}

/// The value of the slider named `name`: minimum, current, maximum.
fn slider(tree: &[Value], name: &str) -> Option<Vec<f64>> {
    let slider = nodes(tree).into_iter().find(|node| role_and_name(node) == ("slider", name))?;
    slider["value"].as_array().map(|value| value.iter().filter_map(Value::as_f64).collect())
}

#[test]
fn a_screen_reader_reads_the_calendar_and_sets_the_volume_through_its_slider() {
    let test = "accessibility test (popups)";
    if !have_tools(test, &["Xvfb", "i3", "xdotool", "xwininfo", "import", "dbus-daemon", "pulseaudio", "pactl"]) {
        return;
    }
    let Some(access) = AccessBus::start(test) else { return };
    let Some(server) = SoundServer::for_tests(test) else { return };
    server.pactl(&["set-sink-volume", "@DEFAULT_SINK@", "37%"]);
    let session = XSession::start(1280, 720);
    let (_dir, config) = config_file(
        r#"{ "height": 40, "font_size": 18, "right_widgets": [],
             "left_widgets": [ { "Volume": { "enable": true, "label_prefix": "IconAndText" } },
                               { "Date": { "enable": true, "format": "YearMonthDate", "label_prefix": "None" } } ] }"#,
    );
    let mut env = access.env();
    env.push(("PULSE_SERVER", server.address().into()));
    let (_bar, _window) = session.start_bar_with_env(&config, Stdio::null(), &borrowed(&env));

    // The date's button opens the calendar, whose month is read and turned.
    let today = chrono::Local::now();
    let year = today.format("%Y-").to_string();
    let tree = access.tree_once("the date shown", |tree| named_from(tree, &year).is_some());
    let (role, date) = named_from(&tree, &year).unwrap();
    assert_eq!(role, "push button", "the date opens its calendar");
    access.act("push button", &date);
    let month = today.format("%B %Y").to_string();
    access.tree_once("the calendar's month", |tree| dialog_has(tree, "Date", "label", &month));
    let next = chrono::Months::new(1);
    let next_month =
        today.date_naive().with_day(1).unwrap().checked_add_months(next).unwrap().format("%B %Y").to_string();
    access.act("push button", "next");
    access.tree_once("the next month", |tree| dialog_has(tree, "Date", "label", &next_month));
    access.act("push button", &date);
    access.tree_once("the calendar closed", |tree| dialog(tree, "Date").is_none());

    // Volume's popup (its secondary click, which AT-SPI's one action is
    // not) shows its slider, which is set through AT-SPI's Value.
    crate::popup::open_popup_with(&session, "3");
    let tree = access.tree_once("the volume's slider", |tree| slider(tree, "Volume").is_some());
    assert_eq!(slider(&tree, "Volume"), Some(vec![0.0, 37.0, 100.0]));
    access.set("slider", "Volume", 25.0);
    let volume = || server.pactl(&["get-sink-volume", "@DEFAULT_SINK@"]);
    assert!(wait_for(Duration::from_secs(10), || volume().contains("/  25% /")), "{}", volume());
    access.tree_once("the slider at 25", |tree| slider(tree, "Volume") == Some(vec![0.0, 25.0, 100.0]));
}

/// The default theme's accent (Catppuccin Mocha's blue), which rings the
/// item the keyboard is on.
const ACCENT: [u8; 4] = [0x89, 0xb4, 0xfa, 255];

/// How many pixels of the bar (the top 30 rows) are in the accent.
fn accent_pixels(session: &XSession) -> usize {
    let bar = session.grab().rows(0, 30);
    bar.rgba
        .chunks_exact(4)
        .filter(|pixel| crate::support::same_colour([pixel[0], pixel[1], pixel[2], pixel[3]], ACCENT))
        .count()
}

/// The names of the nodes in the focused state.
fn focused(tree: &[Value]) -> Vec<String> {
    nodes(tree)
        .into_iter()
        .filter(|node| has_state(node, "focused"))
        .map(|node| role_and_name(node).1.to_owned())
        .collect()
}

#[test]
fn obi_msg_focus_gives_the_bar_the_keyboard_and_escape_gives_it_back() {
    let test = "keyboard focus test";
    if !have_tools(test, &[TOOLS, &["import"]].concat()) {
        return;
    }
    let Some(access) = AccessBus::start(test) else { return };
    let session = i3_with_two_workspaces();
    let window_focus =
        || String::from_utf8_lossy(&run(session.command("xdotool").arg("getwindowfocus")).stdout).trim().to_owned();
    let had_it = window_focus();
    let runtime = tempfile::tempdir().unwrap();
    let (_dir, config) = config_file(CONFIG);
    let mut env = access.env();
    env.push(("XDG_RUNTIME_DIR", runtime.path().into()));
    let (_bar, _window) = session.start_bar_with_env(&config, Stdio::null(), &borrowed(&env));
    access.tree_once("the workspaces listed", |tree| workspaces(tree).len() == 2);
    let msg_focus = || msg_focus(&[("XDG_RUNTIME_DIR", runtime.path().into())]);
    let key = |key: &str| run(session.command("xdotool").args(["key", key]));
    let unfocused = accent_pixels(&session);

    // The first item a click reaches takes the focus; Tab moves it on.
    msg_focus();
    access.tree_once("alpha focused", |tree| focused(tree) == ["alpha"]);
    key("Tab");
    access.tree_once("beta focused", |tree| focused(tree) == ["beta"]);
    assert!(
        wait_for(Duration::from_secs(5), || accent_pixels(&session) > unfocused + 40),
        "beta is ringed in the accent ({} pixels of it, {unfocused} before)",
        accent_pixels(&session)
    );
    assert_eq!(session.focused_workspace().as_deref(), Some("alpha"), "moving the focus clicks nothing");

    // Escape gives the keyboard back to the window that had it.
    key("Escape");
    access.tree_once("nothing focused", |tree| focused(tree).is_empty());
    assert!(wait_for(Duration::from_secs(5), || accent_pixels(&session) == unfocused), "the ring is gone");
    assert_eq!(window_focus(), had_it, "the window that had the keyboard has it");

    // Again: the focus is where it was left, the arrows move it too, and
    // Return on beta switches to it.
    msg_focus();
    access.tree_once("beta focused again", |tree| focused(tree) == ["beta"]);
    key("Left");
    access.tree_once("alpha focused by Left", |tree| focused(tree) == ["alpha"]);
    key("Right");
    access.tree_once("beta focused by Right", |tree| focused(tree) == ["beta"]);
    key("Return");
    assert!(
        wait_for(Duration::from_secs(10), || session.focused_workspace().as_deref() == Some("beta")),
        "Return on beta focused it: {:?}",
        session.i3_workspaces()
    );
    msg_focus();
    access.tree_once("nothing focused at the end", |tree| focused(tree).is_empty());
}

#[test]
fn obi_msg_focus_gives_the_layer_surface_the_keyboard_under_sway() {
    let test = "keyboard focus test (sway)";
    let Some(access) = AccessBus::start(test) else { return };
    let Some((sway, _bar)) = access.bar_on_sway(test) else { return };
    let msg_focus = || msg_focus(&sway.env());
    // Keys reach sway's window under the pointer.
    sway.point(640, 360);

    msg_focus();
    access.tree_once("alpha focused", |tree| focused(tree) == ["alpha"]);
    sway.key("Tab");
    access.tree_once("beta focused", |tree| focused(tree) == ["beta"]);
    sway.key("Escape");
    access.tree_once("nothing focused", |tree| focused(tree).is_empty());
    assert_eq!(sway.focused_workspace().as_deref(), Some("alpha"), "moving the focus clicks nothing");

    msg_focus();
    access.tree_once("beta focused again", |tree| focused(tree) == ["beta"]);
    sway.key("Return");
    assert!(
        wait_for(Duration::from_secs(10), || sway.focused_workspace().as_deref() == Some("beta")),
        "Return on beta focused it: {}",
        sway.bar_log()
    );
    // sway gives the keyboard to the workspace it switched to: the bar lets it go.
    access.tree_once("nothing focused at the end", |tree| focused(tree).is_empty());
    assert!(sway.bar_log().contains("the bar lets it go"), "{}", sway.bar_log());
}

//! Widgets that attack the bar, tried as an attacker would: each is
//! contained, the fault is reported with the widget's name, and a clock
//! next to it keeps ticking. (`containment.rs` has the traps, loops, memory
//! hogs and bad views, and their restarts.) The README's security section
//! names each case.

mod common;

use common::{engine, engine_with, failures, faulty_wasm, stock, texts};
use obi::capabilities::{Capabilities, Capability, Tiler};
use obi::scheduler::{MIN_REFRESH_GAP, Scheduler};
use obi::spec::{Limits, WidgetSpec};
use obi::tiler::{Message, Status};
use obi::view::images::NO_IMAGE;
use obi::view::{Piece, WidgetState};
use obi::wake::Waker;
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn faulty(fault: &str, extra: &str, memory_bytes: usize) -> WidgetSpec {
    let config_json = format!(r#"{{ "fault": "{fault}", "at_refresh": 1, "interval_ms": 300 {extra} }}"#);
    WidgetSpec {
        name: format!("faulty-{fault}"),
        limits: Limits { memory_bytes, call_deadline: Duration::from_secs(2) },
        ..WidgetSpec::file(faulty_wasm(), config_json, [])
    }
}

fn clock() -> WidgetSpec {
    stock("Time", r#"{ "enable": true, "format": "TwentyFourHour" }"#, &[Capability::Clock])
}

/// How long the widgets may take to show their first states: compiling
/// their components on a cold cache, on a loaded machine, takes seconds.
const FIRST_STATES: Duration = Duration::from_secs(60);

/// Runs `specs` for `time` from when each has shown a first state; every
/// state each widget showed.
fn run(engine: obi::runtime::WidgetEngine, specs: Vec<WidgetSpec>, time: Duration) -> Vec<Vec<WidgetState>> {
    let count = specs.len();
    let (sender, receiver) = mpsc::channel();
    let scheduler = Scheduler::spawn(engine, specs, move |_generation, index, state| {
        let _ = sender.send((index, state));
    });
    let mut history = vec![Vec::new(); count];
    let mut until = None;
    let started = Instant::now();
    loop {
        let deadline = until.unwrap_or(started + FIRST_STATES);
        let Ok((index, state)) = receiver.recv_timeout(deadline.saturating_duration_since(Instant::now())) else {
            break;
        };
        history[index].push(state);
        if until.is_none() && history.iter().all(|states| !states.is_empty()) {
            until = Some(Instant::now() + time);
        }
    }
    drop(scheduler);
    history
}

/// The clock (widget 0) showed a new second at least `ticks` times.
fn assert_ticking(clock: &[WidgetState], ticks: usize) {
    let shown: Vec<String> = clock.iter().map(texts).collect();
    assert!(shown.len() >= ticks, "the clock kept ticking beside the attack: {shown:?}");
    assert!(clock.iter().all(|state| matches!(state, WidgetState::Ready(_))), "{shown:?}");
}

#[test]
fn huge_labels_and_lists_are_refused_as_bad_views() {
    let history = run(
        engine(),
        vec![clock(), faulty("HugeLabel", "", 64 << 20), faulty("HugeList", "", 64 << 20)],
        Duration::from_millis(2500),
    );
    assert_ticking(&history[0], 2);
    let label = failures(&history[1]);
    assert!(
        label
            .first()
            .is_some_and(|message| message.contains("`faulty-HugeLabel` returned a bad view")
                && message.contains("10485760 bytes")),
        "{label:?}"
    );
    let list = failures(&history[2]);
    assert!(list.first().is_some_and(|message| message.contains("100000 items")), "{list:?}");
}

#[test]
fn a_widget_hoarding_host_resources_is_stopped_at_its_limit() {
    let history = run(engine(), vec![clock(), faulty("Hoard", "", 16 << 20)], Duration::from_millis(2500));
    assert_ticking(&history[0], 2);
    let hoard = failures(&history[1]);
    assert!(
        hoard.first().is_some_and(|message| message.contains("resource table has no free keys")),
        "10 000 timers are past the 1024 resources a widget may hold: {:?}",
        history[1]
    );
}

#[test]
fn a_widget_that_prints_without_end_keeps_working() {
    let history = run(engine(), vec![clock(), faulty("Chatter", "", 8 << 20)], Duration::from_millis(1500));
    assert_ticking(&history[0], 1);
    let chatter = &history[1];
    assert!(failures(chatter).is_empty(), "64 KiB a refresh on stderr is no fault: {chatter:?}");
    assert!(texts(chatter.last().unwrap()).starts_with("refresh"), "{chatter:?}");
    assert!(chatter.len() >= 3, "it went on refreshing: {chatter:?}");
}

#[test]
fn files_the_directory_tree_sockets_processes_and_the_environment_are_out_of_reach() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let escape_to = format!(r#", "escape_to": "{}""#, listener.local_addr().unwrap());
    let states =
        Scheduler::first_states(&mut engine(), vec![faulty("Escape", &escape_to, 8 << 20)], Duration::from_secs(1));
    assert_eq!(
        texts(&states[0]),
        "file denied tree denied socket denied process denied environment denied",
        "{states:?}"
    );
    assert!(listener.accept().is_err(), "nothing connected to the test's socket");
}

#[test]
fn a_widget_asking_for_a_refresh_every_millisecond_gets_one_every_tenth_of_a_second() {
    let spec = |name: &str| {
        let mut spec = faulty("Never", "", 8 << 20);
        spec.config_json = r#"{ "fault": "Never", "interval_ms": 1 }"#.into();
        spec.name = name.into();
        spec
    };
    let time = Duration::from_secs(1);
    let history = run(engine(), vec![clock(), spec("eager")], time);
    assert_ticking(&history[0], 1);
    let refreshes = history[1].len();
    let most = (time.as_millis() / MIN_REFRESH_GAP.as_millis()) as usize + 2;
    assert!(refreshes <= most, "{refreshes} refreshes in {time:?}; at most {most} allowed");
    assert!(refreshes >= 3, "it is refreshed often all the same: {refreshes}");
}

/// A tiler whose every reading panics: a bug in the bar, met while serving
/// the widget that reads it.
struct PanickingTiler;

impl Tiler for PanickingTiler {
    fn status(&self, _waker: &Waker) -> Status {
        panic!("the tiler capability broke");
    }

    fn send(&self, _messages: &[Message]) -> Result<(), String> {
        Ok(())
    }
}

#[test]
fn a_host_panic_while_serving_a_widget_fails_that_widget_alone() {
    let mut capabilities =
        Capabilities::system(Arc::new(obi::tiler::Connection::none("test")), Default::default()).unwrap();
    capabilities.tiler = Arc::new(PanickingTiler);
    let komorebi = stock(
        "Komorebi",
        r#"{ "enable": true, "workspaces": { "enable": true, "hide_empty_workspaces": false } }"#,
        &[Capability::Log, Capability::Tiler],
    );
    let history = run(engine_with(capabilities), vec![clock(), komorebi], Duration::from_millis(2500));
    assert_ticking(&history[0], 2);
    let failed = failures(&history[1]);
    assert!(
        failed.first().is_some_and(|message| message.contains("`Komorebi` stopped by a fault of the bar serving it")
            && message.contains("the tiler capability broke")
            && message.contains("restarting in 1 s")),
        "{failed:?}"
    );
}

#[cfg(unix)]
#[test]
fn an_image_path_naming_a_fifo_or_a_device_is_refused_without_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("icon.png");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    for path in [fifo.to_str().unwrap(), "/dev/zero"] {
        let spec = faulty("NamedImage", &format!(r#", "image": "{path}""#), 8 << 20);
        let states = Scheduler::first_states(&mut engine(), vec![spec], Duration::from_secs(1));
        let WidgetState::Ready(view) = &states[0] else { panic!("{states:?}") };
        assert_eq!(
            view.items[0].pieces,
            [Piece::HeldImage(NO_IMAGE), Piece::Text("image".into())],
            "{path}: an empty image in its place, the rest shown"
        );
    }
}

/// An SVG icon whose `<image>` names `/dev/zero` or a FIFO: drawn without
/// it, at once, and the widgets' thread never waits.
#[test]
fn an_svg_naming_a_fifo_or_a_device_is_drawn_without_it() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    for href in [fifo.to_str().unwrap(), "/dev/zero"] {
        let svg = dir.path().join("icon.svg");
        std::fs::write(
            &svg,
            format!(
                r##"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#00ff00"/><image href="{href}" width="8" height="8"/></svg>"##
            ),
        )
        .unwrap();
        let spec = faulty("NamedImage", &format!(r#", "image": "{}""#, svg.display()), 8 << 20);
        let started = Instant::now();
        let states = Scheduler::first_states(&mut engine(), vec![spec], Duration::from_secs(5));
        assert!(started.elapsed() < Duration::from_secs(3), "{href}: the refresh waited {:?}", started.elapsed());
        let WidgetState::Ready(view) = &states[0] else { panic!("{states:?}") };
        let Piece::HeldImage(handle) = view.items[0].pieces[0] else { panic!("{view:?}") };
        assert_ne!(handle, NO_IMAGE, "{href}: the icon is drawn, without what it names");
    }
}

/// A widget granted commands runs only the lines the user declared for it,
/// on the real shell: a 0.1.1 widget's own command line to `process.spawn`
/// is refused, and a 0.1.2 widget can only name a declared id.
#[test]
fn a_widget_runs_only_the_commands_declared_for_it() {
    let workspace = obi_build_support::workspace_root(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
    let dir = tempfile::tempdir().unwrap();
    let (declared, smuggled) = (dir.path().join("declared"), dir.path().join("smuggled"));
    let touch = |path: &std::path::Path| format!("touch '{}'", path.display());

    let legacy = obi_build_support::build_components(&workspace, &["obi-test-widget-legacy-0-1-1"]).unwrap().remove(0);
    let legacy_spec = |line: String| {
        let mut spec = obi::spec::WidgetSpec::file(legacy.clone(), format!("{line:?}"), [Capability::Process]);
        spec.commands = [("declared".to_owned(), touch(&declared))].into();
        spec
    };
    let output = workspace.join("examples/plugins/command-output");
    let output = obi_build_support::build_widget_crate(&output, "obi-example-command-output").unwrap();
    let mut asks_undeclared = obi::spec::WidgetSpec::file(output, r#"{ "command": "smuggled" }"#.into(), []);
    asks_undeclared.commands = [("declared".to_owned(), touch(&declared))].into();
    asks_undeclared.grants.insert(Capability::Commands);

    let specs = vec![legacy_spec(touch(&smuggled)), legacy_spec(touch(&declared)), asks_undeclared];
    let (sender, states) = mpsc::channel();
    let scheduler = Scheduler::spawn(engine(), specs, move |_generation, index, state| {
        let _ = sender.send((index, state));
    });
    for widget in [0, 1] {
        let input = obi::view::Input::PrimaryClick;
        scheduler.send(obi::scheduler::WidgetEvent::Input {
            widget,
            key: "run".into(),
            input,
            pointer: Default::default(),
        });
    }
    let mut shown = vec![String::new(); 3];
    let mut tooltip = String::new();
    let until = Instant::now() + Duration::from_secs(10);
    while let Ok((index, state)) = states.recv_timeout(until.saturating_duration_since(Instant::now())) {
        shown[index] = texts(&state);
        if let WidgetState::Ready(view) = &state {
            tooltip = view.items[0].tooltip.clone().unwrap_or(tooltip);
        }
        if shown[0].starts_with("refused") && shown[1] == "spawned" && tooltip.contains("smuggled") {
            break;
        }
    }
    drop(scheduler);
    // The shell runs after the widget's call returned.
    let until = Instant::now() + Duration::from_secs(5);
    while !declared.exists() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(shown[0].contains("is not one of the commands declared for this widget"), "{shown:?}");
    assert_eq!(shown[1], "spawned");
    assert!(declared.exists(), "the declared line ran on the real shell");
    assert!(tooltip.contains("no command is declared as \"smuggled\""), "{tooltip}");
    assert!(!smuggled.exists(), "the smuggled line never ran");
}

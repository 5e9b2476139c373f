//! Widgets written in JavaScript, run by the runtime component the bar
//! ships: the pomodoro example as a user runs it, the values of every WIT
//! kind as jco maps them, errors that name the file, line and column, the
//! grants held before any of a script runs, and a script that loops, hoards
//! memory or is saved anew, contained as any widget is.

mod common;

use common::{engine, failures, states_over, stock, texts};
use obi::capabilities::{Capability, MemoryUsage};
use obi::headless::{Harness, Script};
use obi::runtime::{Failure, WidgetInstance};
use obi::scheduler::Scheduler;
use obi::spec::{Limits, WidgetSpec};
use obi::view::popup::{Block, PopupInput};
use obi::view::{Emphasis, Input, Inputs, Piece, View, WidgetState};
use obi::wake::Waker;
use obi_test_support::workspace;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

fn pomodoro() -> PathBuf {
    workspace().join("examples/js/pomodoro.js")
}

/// Writes the script `source` as `name` in `dir`.
fn script(dir: &Path, name: &str, source: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, source).unwrap();
    path
}

/// The text of the view's first item.
fn text(view: &View) -> String {
    let pieces = view.items.first().map(|item| item.pieces.as_slice()).unwrap_or_default();
    pieces.iter().filter_map(|piece| if let Piece::Text(text) = piece { Some(text.as_str()) } else { None }).collect()
}

fn clock() -> Script {
    Script::at("2024-03-09T15:04:05Z".parse().unwrap())
}

const SCHEDULE: &str = "init() { return { intervalMs: 1000n, alignToWallClock: false }; },";

#[test]
fn the_pomodoro_counts_down_takes_clicks_and_opens_its_popup() {
    let time = clock();
    let config = r#"{ "work_minutes": 1, "break_minutes": 1 }"#;
    let mut widget = Harness::plugin(pomodoro(), config, &[], &time).unwrap();
    let view = widget.refresh().unwrap();
    assert_eq!((text(&view).as_str(), view.items[0].emphasis), ("01:00", Emphasis::Muted));
    assert_eq!(widget.next_refresh(), None, "paused, it asks for no refresh");

    let view = widget.input("pomodoro", Input::PrimaryClick).unwrap();
    assert_eq!((text(&view).as_str(), view.items[0].emphasis), ("01:00", Emphasis::Normal));
    time.advance(Duration::from_millis(1500));
    let view = widget.refresh().unwrap();
    assert_eq!(text(&view), "00:59");
    assert_eq!(widget.next_refresh(), Some(Duration::from_millis(500)), "refreshed as the second turns");

    time.advance(Duration::from_secs(60));
    let view = widget.refresh().unwrap();
    assert_eq!((text(&view).as_str(), view.items[0].emphasis), ("00:59", Emphasis::Urgent), "the break");

    let view = widget.input("pomodoro", Input::SecondaryClick).unwrap();
    let popup = view.popup.expect("a right-click opens the popup");
    let keys: Vec<&str> = popup
        .blocks
        .iter()
        .filter_map(|block| if let Block::Line(cell) = block { Some(cell.key.as_str()) } else { None })
        .collect();
    assert_eq!(keys, ["title", "restart", "skip"]);
    let view = widget.popup_input("pomodoro", "restart", PopupInput::Input(Input::PrimaryClick)).unwrap();
    assert!(view.popup.is_none(), "the popup closes");
    assert_eq!((text(&view).as_str(), view.items[0].emphasis), ("01:00", Emphasis::Muted));

    let schema = obi::headless::config_schema(pomodoro()).unwrap().expect("it describes its config");
    assert_eq!(schema["properties"]["work_minutes"]["minimum"], 1, "{schema}");
    let refused = Harness::plugin(pomodoro(), r#"{ "work_minutes": 0 }"#, &[], &clock()).err().unwrap();
    let source = std::fs::read_to_string(pomodoro()).unwrap();
    let line = source.lines().position(|line| line.contains("work_minutes must be")).unwrap() + 1;
    assert!(refused.contains(&format!("pomodoro.js:{line}:")) && refused.contains("work_minutes must be"), "{refused}");
}

/// Each WIT kind crosses as jco maps it: records with camelCase fields,
/// 64-bit integers as BigInts, an option's none as `undefined`, lists of
/// records, variants as `{ tag, val }`, enums and flags, bytes as a
/// `Uint8Array`, and a `result`'s error thrown with its payload.
#[test]
fn values_cross_as_jco_maps_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = script(
        dir.path(),
        "kinds.js",
        &format!(
            r#"
import {{ memory }} from "obi:widget/metrics";
import {{ now, format }} from "obi:widget/clock@0.1.6";
import {{ layout }} from "obi:widget/keyboard";
let said = [];
export const guest = {{
  {SCHEDULE}
  refresh() {{
    const used = memory();
    let thrown;
    try {{ format(now(), "%H", "Nowhere/Atlantis"); }} catch (error) {{ thrown = typeof error.payload + ":" + (error instanceof Error); }}
    said.push(typeof used.totalBytes, String(used.usedBytes), String(layout()), thrown);
    const bytes = new Uint8Array([255, 0, 0, 255]);
    return {{
      view: {{ items: [
        {{ key: "said", pieces: [{{ tag: "text", val: said.join(" ") }}], emphasis: "selected", takes: {{ scroll: true }} }},
        {{ key: "dot", pieces: [{{ tag: "image", val: {{ tag: "pixels", val: {{ width: 1, height: 1, rgba: bytes }} }} }}],
           emphasis: "normal", takes: {{}}, tooltip: "a dot" }},
      ] }},
    }};
  }},
  onInput(key, event, pointer) {{ said = [key, event.tag, event.val, typeof pointer.scale]; }},
}};
"#
        ),
    );
    let script = clock();
    script.set_memory(MemoryUsage { total_bytes: 1 << 34, used_bytes: 1 << 33, available_bytes: 1 << 33 });
    let mut widget = Harness::plugin(path, "{}", &[Capability::Metrics, Capability::Keyboard], &script).unwrap();
    let view = widget.refresh().unwrap();
    assert_eq!(text(&view), "bigint 8589934592 undefined string:true");
    assert_eq!(view.items[0].emphasis, Emphasis::Selected);
    assert_eq!((view.items[0].takes, view.items[1].takes), (Inputs::SCROLL, Inputs::NONE));
    assert_eq!(view.items[1].tooltip.as_deref(), Some("a dot"));
    assert!(matches!(&view.items[1].pieces[0], Piece::Image(_)), "{:?}", view.items[1].pieces);
    let view = widget.input("said", Input::Scroll(obi::view::ScrollDirection::Up)).unwrap();
    assert!(text(&view).starts_with("said scroll up number"), "{}", text(&view));
}

#[test]
fn errors_name_the_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let start = |name: &str, source: &str| Harness::plugin(script(dir.path(), name, source), "{}", &[], &clock());

    let syntax =
        start("syntax.js", &format!("export const guest = {{\n  {SCHEDULE}\n  refresh() {{ return 1 +; }},\n}};\n"));
    let syntax = syntax.err().unwrap();
    assert!(syntax.contains("syntax.js:3:25: SyntaxError"), "{syntax}");

    let source = format!(
        "export const guest = {{\n  {SCHEDULE}\n  refresh() {{\n    return late();\n  }},\n}};\nfunction late() {{ throw new Error(\"late\"); }}\n"
    );
    let mut throws = start("throws.js", &source).unwrap();
    match throws.refresh() {
        Err(Failure::Trap(message)) => {
            assert!(message.contains("throws.js:7:25: Error: late (in late, from refresh)"), "{message}")
        }
        other => panic!("{other:?}"),
    }

    let config = start(
        "config.js",
        "export const guest = {\n  init(json) {\n    throw new Error(`no city in ${json}`);\n  },\n  refresh() {},\n};\n",
    );
    let config = config.err().unwrap();
    assert!(config.contains("configuration rejected: config.js:3:11: Error: no city in {}"), "{config}");

    let source = format!("export const guest = {{ {SCHEDULE} refesh() {{}} }};\n");
    let misspelt = start("misspelt.js", &source).err().unwrap();
    let place = format!("misspelt.js:1:{}: guest.refesh is not a function", source.find("refesh").unwrap() + 1);
    assert!(misspelt.contains(&place) && misspelt.contains("did you mean `refresh`"), "{misspelt}");

    let missing = start("missing.js", &format!("export const guest = {{ {SCHEDULE} }};\n")).err().unwrap();
    assert!(missing.contains("missing.js:1:14: guest.refresh must be a function"), "{missing}");

    let nothing = start("nothing.js", "export const widget = {};\n").err().unwrap();
    assert!(nothing.contains("nothing.js exports no `guest` object"), "{nothing}");

    let bad = format!(
        "export const guest = {{ {SCHEDULE} refresh() {{ return {{ view: {{ items: [{{ key: 'a', pieces: [{{ tag: 'txt', val: 'x' }}], emphasis: 'normal', takes: {{}} }}] }} }}; }} }};\n"
    );
    match start("bad.js", &bad).unwrap().refresh() {
        Err(Failure::Trap(message)) => assert!(
            message.contains("bad.js: refresh() → view.items[0].pieces[0]: \"txt\" is not a case of piece (text, icon"),
            "{message}"
        ),
        other => panic!("{other:?}"),
    }
}

/// Imports are loaded before a module's body runs, so a script importing
/// a capability its config does not grant is refused with nothing of it run.
#[test]
fn an_import_not_granted_stops_the_script_before_any_of_it_runs() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "import {{ launch }} from \"obi:widget/commands\";\nlaunch(\"mark\");\nexport const guest = {{ {SCHEDULE} refresh() {{ return {{ view: {{ items: [] }} }}; }} }};\n"
    );
    let commands = [("mark", "touch /tmp/marked")];

    let granted = script(dir.path(), "granted.js", &body);
    let script_clock = clock();
    Harness::plugin_with_commands(granted, "{}", &commands, &script_clock).unwrap();
    assert_eq!(script_clock.spawned(), ["touch /tmp/marked"], "without the refused import, the body runs");

    let refused = script(dir.path(), "refused.js", &format!("{body}import {{ fetch }} from \"obi:widget/web\";\n"));
    let script_clock = clock();
    let error = Harness::plugin_with_commands(refused, "{}", &commands, &script_clock).err().unwrap();
    assert!(
        error.contains("refused.js:4: imports \"obi:widget/web\": widget `refused` needs the `web` capability"),
        "{error}"
    );
    assert!(script_clock.spawned().is_empty(), "nothing of the script ran: {:?}", script_clock.spawned());

    let later =
        script(dir.path(), "later.js", "import { now } from \"obi:widget/clock@0.1.99\";\nexport const guest = {};\n");
    let error = Harness::plugin(later, "{}", &[], &clock()).err().unwrap();
    assert!(
        error.contains("later.js:1: imports \"obi:widget/clock@0.1.99\": JS widgets are run against obi:widget@0.1.8"),
        "{error}"
    );

    let elsewhere = script(dir.path(), "elsewhere.js", "import { readFile } from \"fs\";\nexport const guest = {};\n");
    let error = Harness::plugin(elsewhere, "{}", &[], &clock()).err().unwrap();
    assert!(error.contains("elsewhere.js:1: imports \"fs\": a widget is one file"), "{error}");
}

#[test]
fn a_script_that_loops_or_hoards_fails_alone_while_the_clock_ticks() {
    let dir = tempfile::tempdir().unwrap();
    // Each fails from its second refresh on: the first is part of a start,
    // which has a second.
    let refreshing = "let refreshes = 0;\nconst shown = { view: { items: [{ key: 'a', pieces: [{ tag: 'text', val: 'started' }], emphasis: 'normal', takes: {} }] } };\nexport const guest = { init() { return { intervalMs: 300n, alignToWallClock: false }; },";
    let looping = script(
        dir.path(),
        "looping.js",
        &format!("{refreshing} refresh() {{ if (refreshes++ > 0) while (true) {{}} return shown; }} }};\n"),
    );
    let hoarding = script(
        dir.path(),
        "hoarding.js",
        &format!(
            "const hoard = [];\n{refreshing} refresh() {{ if (refreshes++ > 0) for (;;) hoard.push(new ArrayBuffer(1 << 20)); return shown; }} }};\n"
        ),
    );
    let limited = |path: PathBuf, deadline_ms: u64| WidgetSpec {
        limits: Limits { memory_bytes: 16 << 20, call_deadline: Duration::from_millis(deadline_ms) },
        ..WidgetSpec::file(path, "{}".into(), [])
    };
    // Compiled into the scheduler's cache before the race, as a bar that
    // has run a JS widget once has it.
    let warming = WidgetSpec::file(pomodoro(), "{}".into(), []);
    WidgetInstance::start(&mut engine(), &warming, Waker::unheard()).unwrap();
    let specs = vec![
        stock("Time", r#"{ "enable": true, "format": "TwentyFourHour" }"#, &[Capability::Log, Capability::Clock]),
        limited(looping, 50),
        limited(hoarding, 2000),
    ];
    let history = states_over(specs, Duration::from_millis(5500));

    let clock: Vec<String> = history[0].iter().map(texts).collect();
    assert!(clock.len() >= 4, "the clock kept ticking next to the scripts: {clock:?}");
    assert!(history[0].iter().all(|state| matches!(state, WidgetState::Ready(_))), "{clock:?}");
    for (index, expected) in [(1, "within its 50 ms deadline"), (2, "over its cap of 16384 KiB")] {
        let failed = failures(&history[index]);
        assert!(failed.len() >= 2, "script {index} failed and was restarted to fail again: {:?}", history[index]);
        assert!(
            failed.iter().all(|message| message.contains(expected) && message.contains("restarting in")),
            "{failed:?}"
        );
    }
}

/// Replaces `path` as an editor saves it.
fn save(path: &Path, text: &str) {
    let fresh = path.with_extension("new");
    std::fs::write(&fresh, text).unwrap();
    std::fs::rename(&fresh, path).unwrap();
}

/// Waits up to `patience` for the widget to show a state that `wanted` accepts.
fn wait_until(
    states: &Receiver<(usize, WidgetState)>,
    patience: Duration,
    wanted: impl Fn(&WidgetState) -> bool,
) -> WidgetState {
    let until = Instant::now() + patience;
    let mut seen = Vec::new();
    while let Ok((_, state)) = states.recv_timeout(until.saturating_duration_since(Instant::now())) {
        if wanted(&state) {
            return state;
        }
        seen.push(texts(&state));
    }
    panic!("the widget never showed the state wanted; it showed {seen:?}");
}

/// How long a saved script may take to show: read, and started anew from
/// the compiled runtime.
const SAVED: Duration = Duration::from_secs(30);

#[test]
fn a_saved_script_reloads_its_widget() {
    let dir = tempfile::tempdir().unwrap();
    let saying = |words: &str| {
        format!(
            "export const guest = {{ {SCHEDULE} refresh() {{ return {{ view: {{ items: [{{ key: 'a', pieces: [{{ tag: 'text', val: '{words}' }}], emphasis: 'normal', takes: {{}} }}] }} }}; }} }};\n"
        )
    };
    let path = script(dir.path(), "saying.js", &saying("first"));
    let (sender, states) = mpsc::channel();
    let _scheduler =
        Scheduler::spawn(engine(), vec![WidgetSpec::file(path.clone(), "{}".into(), [])], move |_, index, state| {
            let _ = sender.send((index, state));
        });
    // The first load may compile the runtime component, cold, while the
    // file's other tests compile it too: on two busy cores that once took
    // longer than 15 s.
    wait_until(&states, Duration::from_secs(120), |state| texts(state) == "first");

    save(&path, &saying("second"));
    wait_until(&states, SAVED, |state| texts(state) == "second");

    save(&path, "export const guest = {\n  refresh() {\n");
    let broken = wait_until(&states, SAVED, |state| matches!(state, WidgetState::Failed { .. }));
    let WidgetState::Failed { message } = broken else { unreachable!() };
    assert!(message.contains("saying.js:3:1: SyntaxError"), "{message}");

    save(&path, &saying("third"));
    wait_until(&states, SAVED, |state| texts(state) == "third");
}

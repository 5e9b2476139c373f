//! Widgets in JavaScript as their authors and users meet them: the pomodoro
//! script in a bar under Xvfb (it counts down, a click pauses it, a right
//! click opens its popup), a script saved anew changing the running bar's
//! text, `obi widget test` and `obi check` on scripts, `obi widget new --js`
//! making a widget that tests and type-checks, and the same pomodoro file
//! built unchanged into a component of its own with componentize-js (npm).

use crate::ocr::{HEIGHT, column_of, wait_for_words, words_on_bar};
use crate::popup::{open_popup_with, read_until};
use crate::support::{XSession, config_file, have_tools, obi, run, wait_for, workspace};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

fn pomodoro() -> PathBuf {
    workspace().join("examples/js/pomodoro.js")
}

const POMODORO_SCRIPT: &str = r#"{ "config": { "work_minutes": 1, "break_minutes": 1 }, "now": "2024-03-09T15:04:05Z",
    "steps": [ "refresh", { "expect": ["01:00"] }, { "input": { "key": "pomodoro", "event": "primary_click" } },
               { "advance": 1.5 }, "refresh", { "expect": ["00:59"] }, { "advance": 60 }, "refresh", { "expect": ["00:59"] } ] }"#;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A widget that shows `words`.
fn saying(words: &str) -> String {
    format!(
        "export const guest = {{\n  init() {{ return {{ intervalMs: 0n, alignToWallClock: false }}; }},\n  refresh() {{\n    \
         return {{ view: {{ items: [{{ key: 'said', pieces: [{{ tag: 'text', val: '{words}' }}], emphasis: 'normal', takes: {{}} }}] }} }};\n  }},\n}};\n"
    )
}

const TOOLS: &[&str] = &["Xvfb", "i3", "xwininfo", "xdotool", "import", "convert", "tesseract"];

#[test]
fn the_pomodoro_script_counts_down_pauses_opens_its_popup_and_a_saved_script_reloads() {
    if !have_tools("JS widgets in the bar", TOOLS) {
        return;
    }
    let scripts = tempfile::tempdir().unwrap();
    let greeting = write(scripts.path(), "greeting.js", &saying("Version one"));
    let config = format!(
        r#"{{ "height": {HEIGHT}, "font_size": 18, "transparency_alpha": 255,
        "left_widgets": [ {{ "Plugin": {{ "enable": true, "path": {:?}, "config": {{ "work_minutes": 25 }} }} }} ],
        "right_widgets": [ {{ "Plugin": {{ "enable": true, "path": {greeting:?} }} }} ] }}"#,
        pomodoro()
    );
    let session = XSession::start(1024, 600);
    let (dir, config) = config_file(&config);
    let (_bar, _window) = session.start_bar(&config, Stdio::inherit());

    let words = wait_for_words(&session, dir.path(), 1024, &["25:00", "Version", "one"], "JS widgets");
    let timer = column_of(&words, "25:00");
    let click = |button: &str| {
        run(session.command("xdotool").args([
            "mousemove",
            &timer.to_string(),
            &(HEIGHT / 2).to_string(),
            "click",
            button,
        ]));
    };
    let timer_text = || {
        let read = words_on_bar(&session, dir.path(), 1024);
        read.into_iter().map(|(word, _)| word).find(|word| word.len() == 5 && word.as_bytes()[2] == b':')
    };
    click("1");
    let mut shown = None;
    let counting = wait_for(Duration::from_secs(15), || {
        shown = timer_text();
        shown.as_deref().is_some_and(|text| text.starts_with("24:5"))
    });
    assert!(counting, "the timer counts down once clicked; it reads {shown:?}");

    click("1");
    // Paused, it reads the same over more than a second, where it ran.
    let mut read = (None, None);
    let paused = wait_for(Duration::from_secs(15), || {
        read.0 = timer_text();
        std::thread::sleep(Duration::from_millis(1500));
        read.1 = timer_text();
        read.0.is_some() && read.0 == read.1
    });
    assert!(paused, "a second click pauses it; it read {read:?}");

    let artifacts = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let popup = open_popup_with(&session, "3");
    read_until(&session, &popup, &artifacts.join("popup-pomodoro-js.png"), |text| {
        text.contains("Start over") && text.contains("Skip to break")
    });
    run(session.command("xdotool").args(["key", "Escape"]));

    let fresh = greeting.with_extension("new");
    std::fs::write(&fresh, saying("Version two")).unwrap();
    std::fs::rename(&fresh, &greeting).unwrap();
    wait_for_words(&session, dir.path(), 1024, &["Version", "two"], "the saved script");
}

#[test]
fn widget_test_passes_on_the_pomodoro_script_and_names_where_a_throw_came_from() {
    let dir = tempfile::tempdir().unwrap();
    let output = run(obi().args(["widget", "test"]).arg(pomodoro()).arg("--script").arg(write(
        dir.path(),
        "script.json",
        POMODORO_SCRIPT,
    )));
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), 4, "one line for each view shown");

    let throwing = write(
        dir.path(),
        "late.js",
        "export const guest = {\n  init() { return { intervalMs: 0n, alignToWallClock: false }; },\n  refresh() {\n    throw new RangeError(\"too late\");\n  },\n};\n",
    );
    let output = run(obi().args(["widget", "test"]).arg(&throwing).arg("--script").arg(write(
        dir.path(),
        "once.json",
        r#"{ "steps": ["refresh"] }"#,
    )));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("step 0: widget `late` crashed: late.js:4:11: RangeError: too late (in refresh)"),
        "{stderr}"
    );
}

#[test]
fn check_names_a_scripts_syntax_error_and_its_place() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "broken.js", "export const guest = {\n  refresh() { return [1, 2; },\n};\n");
    let config = write(
        dir.path(),
        "komorebi.bar.json",
        r#"{ "left_widgets": [ { "Plugin": { "enable": true, "path": "broken.js" } } ], "right_widgets": [] }"#,
    );
    let output = run(obi().arg("check").arg(&config));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(stderr.contains("error: Plugin broken.js: broken.js:2:27: SyntaxError"), "{stderr}");
}

/// The packages from npm the tests use, pinned.
const NPM_PACKAGES: [&str; 2] = ["typescript@5.9.3", "@bytecodealliance/componentize-js@0.23.0"];

/// The folder whose `node_modules` holds [`NPM_PACKAGES`], installed once
/// into the target folder (one install for both, as a second would prune
/// the first's); none (and a loud skip, or a failure in CI) without npm.
fn npm_packages() -> Option<PathBuf> {
    static INSTALLING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    if !have_tools("JS tooling from npm", &["npm", "node"]) {
        return None;
    }
    let _alone = INSTALLING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let prefix = workspace().join("target/npm");
    let installed = NPM_PACKAGES.iter().all(|package| {
        let name = package.rsplit_once('@').map_or(*package, |(name, _)| name);
        prefix.join("node_modules").join(name).join("package.json").is_file()
    });
    if !installed {
        std::fs::create_dir_all(&prefix).unwrap();
        let mut npm = Command::new("npm");
        npm.args(["install", "--no-audit", "--no-fund", "--prefix"]).arg(&prefix).args(NPM_PACKAGES);
        let output = run(&mut npm);
        assert!(output.status.success(), "npm install: {}", String::from_utf8_lossy(&output.stderr));
    }
    Some(prefix)
}

#[test]
fn a_new_js_widget_tests_and_type_checks_against_the_declarations() {
    let dir = tempfile::tempdir().unwrap();
    let widget = dir.path().join("greeter");
    let made = run(obi().args(["widget", "new", "--js", "greeter", "--path"]).arg(&widget));
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let tested =
        run(obi().current_dir(&widget).args(["widget", "test", "greeter.js", "--script", "greeter.test.json"]));
    assert!(tested.status.success(), "its own test passes: {}", String::from_utf8_lossy(&tested.stderr));

    // The test bites: the same script against a widget that counts wrong.
    let source = std::fs::read_to_string(widget.join("greeter.js")).unwrap();
    std::fs::write(widget.join("greeter.js"), source.replace("clicks += 1", "clicks += 2")).unwrap();
    let miscounting =
        run(obi().current_dir(&widget).args(["widget", "test", "greeter.js", "--script", "greeter.test.json"]));
    assert!(!miscounting.status.success());
    assert!(String::from_utf8_lossy(&miscounting.stderr).contains("expected the texts [\"Hello, Obi (1 clicks)\"]"));
    std::fs::write(widget.join("greeter.js"), &source).unwrap();

    let Some(npm) = npm_packages() else { return };
    std::fs::copy(pomodoro(), widget.join("pomodoro.js")).unwrap();
    let tsc = npm.join("node_modules/typescript/bin/tsc");
    let checked = run(Command::new("node").arg(&tsc).args(["--noEmit", "-p", "jsconfig.json"]).current_dir(&widget));
    assert!(checked.status.success(), "the widgets type-check: {}", String::from_utf8_lossy(&checked.stdout));

    // And the check bites: a piece of a kind there is not.
    std::fs::write(widget.join("greeter.js"), source.replace("tag: \"text\"", "tag: \"txt\"")).unwrap();
    let refused = run(Command::new("node").arg(&tsc).args(["--noEmit", "-p", "jsconfig.json"]).current_dir(&widget));
    assert!(!refused.status.success() && String::from_utf8_lossy(&refused.stdout).contains("greeter.js"));
}

/// The documented alternative: the pomodoro file, unchanged, built into a
/// whole component by componentize-js against a world of Obi's WIT that
/// imports what it uses, and loaded like any plugin.
#[test]
fn the_pomodoro_script_builds_unchanged_into_a_component_with_componentize_js() {
    let Some(npm) = npm_packages() else { return };
    let dir = tempfile::tempdir().unwrap();
    let wit = dir.path().join("wit");
    copy_dir(&workspace().join("wit/since_v0.1.6"), &wit.join("deps/obi-widget"));
    write(
        &wit,
        "world.wit",
        "package example:pomodoro;\n\nworld pomodoro {\n  import obi:widget/clock@0.1.6;\n  export obi:widget/guest@0.1.6;\n}\n",
    );
    std::fs::copy(pomodoro(), dir.path().join("pomodoro.js")).unwrap();
    std::os::unix::fs::symlink(npm.join("node_modules"), dir.path().join("node_modules")).unwrap();
    let build = write(dir.path(), "build.mjs", COMPONENTIZE);
    let built = run(Command::new("node").arg(&build).current_dir(dir.path()));
    assert!(built.status.success(), "componentize-js: {}", String::from_utf8_lossy(&built.stderr));

    let component = dir.path().join("pomodoro.wasm");
    let script = write(dir.path(), "script.json", POMODORO_SCRIPT);
    let output = run(obi().args(["widget", "test"]).arg(&component).arg("--script").arg(&script));
    assert!(
        output.status.success(),
        "the component runs as the script does: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// componentize-js's own API: what `jco componentize` runs.
const COMPONENTIZE: &str = r#"import { componentize } from "@bytecodealliance/componentize-js";
import { writeFile } from "node:fs/promises";
const { component } = await componentize({
  sourcePath: "pomodoro.js", witPath: "wit", worldName: "pomodoro", disableFeatures: ["http", "fetch-event"],
});
await writeFile("pomodoro.wasm", component);
"#;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

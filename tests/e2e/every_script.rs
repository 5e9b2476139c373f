//! Text in every script on a real bar, with DejaVu Sans as its font, on i3
//! under Xvfb: workspaces named in Japanese, Chinese and Korean, a focused
//! window's title and a Custom item are read back by tesseract in those
//! languages; emoji show in colour; the bar keeps its height. The fonts,
//! and tesseract's languages, are those `.ci/run` installs.

use crate::ocr::HEIGHT;
use crate::support::{XSession, config_file, have_tools, run, wait_for};
use obi_test_support::skip;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

const TOOLS: &[&str] = &["Xvfb", "i3", "i3-msg", "xmessage", "xdotool", "xwininfo", "import", "convert", "tesseract"];

const LANGUAGES: &[&str] = &["jpn", "chi_sim", "chi_tra", "kor"];

/// Whether tesseract reads every one of [`LANGUAGES`]; a loud skip (a
/// failure under CI) when not.
fn tesseract_reads_cjk(test: &str) -> bool {
    let listed = Command::new("tesseract").arg("--list-langs").output().map(|out| out.stdout).unwrap_or_default();
    let listed = String::from_utf8_lossy(&listed);
    let missing: Vec<&&str> =
        LANGUAGES.iter().filter(|language| !listed.lines().any(|line| line == **language)).collect();
    if missing.is_empty() {
        return true;
    }
    skip::unavailable(&format!(
        "{test}: tesseract cannot read {missing:?} (apt install tesseract-ocr-jpn tesseract-ocr-chi-sim \
         tesseract-ocr-chi-tra tesseract-ocr-kor)"
    ));
    false
}

/// Opens a window on the i3 workspace `workspace`, titled `title`.
fn window_on(session: &XSession, workspace: &str, title: &str) {
    // Its first name, by which it is found: xmessage names its window after its instance.
    let instance = format!("obi-script-{}", workspace.chars().next().map_or(0, u32::from));
    let switched = run(session.command("i3-msg").arg(format!("workspace {workspace}")));
    assert!(switched.status.success(), "i3-msg workspace {workspace}: {switched:?}");
    let window = session.command("xmessage").args(["-name", &instance, "window"]).stdout(Stdio::null()).spawn();
    std::mem::forget(window.expect("starting xmessage"));
    let id = session.find_window(&format!("^{instance}$"), Duration::from_secs(10)).expect("the window appeared");
    // _NET_WM_NAME, in UTF-8, is what i3 reads a title from.
    let named = run(session.command("xdotool").args(["set_window", "--name", title, &id]));
    assert!(named.status.success(), "naming the window: {named:?}");
}

/// The text tesseract reads in `png` in `language`, without its spaces.
fn read(png: &Path, language: &str) -> String {
    let large = png.with_extension(format!("{language}.png"));
    let convert = run(Command::new("convert").arg(png).args(["-negate", "-resize", "300%"]).arg(&large));
    assert!(convert.status.success(), "convert: {}", String::from_utf8_lossy(&convert.stderr));
    let ocr = run(Command::new("tesseract").arg(&large).args(["stdout", "--psm", "7", "-l", language]));
    assert!(ocr.status.success(), "tesseract: {}", String::from_utf8_lossy(&ocr.stderr));
    String::from_utf8_lossy(&ocr.stdout).chars().filter(|c| !c.is_whitespace()).collect()
}

/// Grabs `width` × [`HEIGHT`] pixels of the bar from column `x` into `png`.
fn grab(session: &XSession, x: u32, width: u32, png: &Path) {
    let crop = format!("{width}x{HEIGHT}+{x}+0");
    let grabbed = run(session.command("import").args(["-window", "root", "-crop", &crop, "+repage"]).arg(png));
    assert!(grabbed.status.success(), "import: {}", String::from_utf8_lossy(&grabbed.stderr));
}

#[test]
fn chinese_japanese_and_korean_workspaces_titles_and_items_are_read_back() {
    if !have_tools("every script test", TOOLS) || !tesseract_reads_cjk("every script test") {
        return;
    }
    let session = XSession::start(1600, 720);
    window_on(&session, "日本語", "東京");
    window_on(&session, "한국어", "서울");
    window_on(&session, "简体中文", "上海");
    // Focused last, so that its pill (light, which tesseract reads badly)
    // holds none of the text read.
    window_on(&session, "4", "北京市");
    let config = format!(
        r#"{{ "height": {HEIGHT}, "font_size": 20, "font_family": "DejaVu Sans",
             "left_widgets": [ {{ "Komorebi": {{
                 "workspaces": {{ "enable": true, "hide_empty_workspaces": false, "display": "Text" }},
                 "focused_container": {{ "enable": true, "display": "Text" }} }} }} ],
             "right_widgets": [
                 {{ "Custom": {{ "enable": true, "exec": "printf '中華民國'", "interval": "once" }} }},
                 {{ "Custom": {{ "enable": true, "exec": "printf '👍🏽 ❤️ 🇯🇵'", "interval": "once" }} }} ] }}"#
    );
    let (dir, config) = config_file(&config);
    let log = dir.path().join("obi.log");
    let _bar = session.start_bar_drawn(&config, &log, &[]);
    let png = dir.path().join("bar.png");

    // The left: the workspaces, then the focused window's title.
    let expected = [("jpn", "日本語"), ("kor", "한국어"), ("chi_sim", "简体中文"), ("chi_sim", "北京市")];
    let mut readings = Vec::new();
    let read_all = wait_for(Duration::from_secs(20), || {
        grab(&session, 0, 800, &png);
        readings = expected.iter().map(|(language, _)| read(&png, language)).collect();
        expected.iter().zip(&readings).all(|((_, text), reading)| reading.contains(text))
    });
    if !read_all {
        let _ = std::fs::copy(&png, obi_test_support::workspace().join("target/e2e-artifacts/every-script-left.png"));
    }
    assert!(
        read_all,
        "expected {expected:?}, read {readings:?}; the bar said:\n{}",
        std::fs::read_to_string(&log).unwrap()
    );

    // The right: the Custom items, Traditional Chinese and emoji in colour.
    grab(&session, 800, 800, &png);
    let traditional = read(&png, "chi_tra");
    assert!(traditional.contains("中華民國"), "read {traditional:?}");
    let frame = crate::support::Frame::read(&png);
    let coloured = (0..frame.height)
        .flat_map(|y| (0..frame.width).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let [r, g, b, _] = frame.pixel(x, y);
            r.max(g).max(b) - r.min(g).min(b) > 64
        })
        .count();
    assert!(coloured > 100, "the emoji show {coloured} strongly coloured pixels");

    let bar = session.find_window("^obi$", Duration::from_secs(5)).expect("the bar's window");
    let (_, _, _, height) = session.geometry(&bar);
    assert_eq!(height, HEIGHT, "the bar's height changed with what it shows");
}

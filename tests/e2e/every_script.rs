//! Text in every script on a real bar, with DejaVu Sans as its font, on i3
//! under Xvfb and on headless sway: workspaces named in Japanese, Chinese
//! and Korean, a focused window's title, a Custom item, a tooltip and a
//! popup's rows are read back by tesseract in those languages; emoji show
//! in colour; the bar keeps its height. The fonts,
//! and tesseract's languages, are those `.ci/run` installs.

use crate::ocr::HEIGHT;
use crate::support::{Frame, XSession, config_file, have_tools, is_ink, run, wait_for};
use crate::sway::SwaySession;
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
    read_as(png, language, "7")
}

/// The text tesseract reads in `png` in `language`, without its spaces,
/// taking it as one line (page segmentation `7`) or a block of lines (`6`).
fn read_as(png: &Path, language: &str, segmentation: &str) -> String {
    let large = png.with_extension(format!("{language}.png"));
    let convert = run(Command::new("convert").arg(png).args(["-negate", "-resize", "300%"]).arg(&large));
    assert!(convert.status.success(), "convert: {}", String::from_utf8_lossy(&convert.stderr));
    let ocr = run(Command::new("tesseract").arg(&large).args(["stdout", "--psm", segmentation, "-l", language]));
    assert!(ocr.status.success(), "tesseract: {}", String::from_utf8_lossy(&ocr.stderr));
    String::from_utf8_lossy(&ocr.stdout).chars().filter(|c| !c.is_whitespace()).collect()
}

/// Grabs `width` × [`HEIGHT`] pixels of the bar from column `x` into `png`.
fn grab(session: &XSession, x: u32, width: u32, png: &Path) {
    let crop = format!("{width}x{HEIGHT}+{x}+0");
    let grabbed = run(session.command("import").args(["-window", "root", "-crop", &crop, "+repage"]).arg(png));
    assert!(grabbed.status.success(), "import: {}", String::from_utf8_lossy(&grabbed.stderr));
}

/// The bar's config: the workspaces and the focused window's title on the
/// left, a Custom item in Traditional Chinese and one of emoji on the right.
fn config() -> String {
    format!(
        r#"{{ "height": {HEIGHT}, "font_size": 20, "font_family": "DejaVu Sans",
             "left_widgets": [ {{ "Komorebi": {{
                 "workspaces": {{ "enable": true, "hide_empty_workspaces": false, "display": "Text" }},
                 "focused_container": {{ "enable": true, "display": "Text" }} }} }} ],
             "right_widgets": [
                 {{ "Custom": {{ "enable": true, "exec": "printf '中華民國'", "interval": "once" }} }},
                 {{ "Custom": {{ "enable": true, "exec": "printf '👍🏽 ❤️ 🇯🇵'", "interval": "once" }} }} ] }}"#
    )
}

/// The workspaces the tests open, with the title of the window on each;
/// the last is focused, so that its pill (light, which tesseract reads
/// badly) holds none of the text read.
const WORKSPACES: [(&str, &str); 4] = [("日本語", "東京"), ("한국어", "서울"), ("简体中文", "上海"), ("4", "北京市")];

/// Reads the bar back through `grab` (columns `x`, `width` into a PNG),
/// `width` pixels wide in all: the left half's workspaces and title by
/// tesseract in their languages, the right half's Traditional Chinese and
/// emoji in colour. `log` is the bar's.
fn read_back(grab: impl Fn(u32, u32, &Path), width: u32, dir: &Path, artifact: &str, log: impl Fn() -> String) {
    let png = dir.join("bar.png");
    let expected = [("jpn", "日本語"), ("kor", "한국어"), ("chi_sim", "简体中文"), ("chi_sim", "北京市")];
    let mut readings = Vec::new();
    let read_all = wait_for(Duration::from_secs(20), || {
        grab(0, width / 2, &png);
        readings = expected.iter().map(|(language, _)| read(&png, language)).collect();
        expected.iter().zip(&readings).all(|((_, text), reading)| reading.contains(text))
    });
    if !read_all {
        let artifacts = obi_test_support::workspace().join("target/e2e-artifacts");
        std::fs::create_dir_all(&artifacts).unwrap();
        let _ = std::fs::copy(&png, artifacts.join(format!("{artifact}.png")));
    }
    assert!(read_all, "expected {expected:?}, read {readings:?} ({artifact}.png); the bar said:\n{}", log());

    grab(width / 2, width / 2, &png);
    let traditional = read(&png, "chi_tra");
    assert!(traditional.contains("中華民國"), "read {traditional:?}");
    let frame = Frame::read(&png);
    let coloured = (0..frame.height)
        .flat_map(|y| (0..frame.width).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let [r, g, b, _] = frame.pixel(x, y);
            r.max(g).max(b) - r.min(g).min(b) > 64
        })
        .count();
    assert!(coloured > 100, "the emoji show {coloured} strongly coloured pixels");
}

#[test]
fn chinese_japanese_and_korean_workspaces_titles_and_items_are_read_back() {
    if !have_tools("every script test", TOOLS) || !tesseract_reads_cjk("every script test") {
        return;
    }
    let session = XSession::start(1600, 720);
    for (workspace, title) in WORKSPACES {
        window_on(&session, workspace, title);
    }
    let (dir, config) = config_file(&config());
    let log = dir.path().join("obi.log");
    let _bar = session.start_bar_drawn(&config, &log, &[]);
    let grab = |x, width, png: &Path| grab(&session, x, width, png);
    read_back(grab, 1600, dir.path(), "every-script-x11", || std::fs::read_to_string(&log).unwrap_or_default());

    let bar = session.find_window("^obi$", Duration::from_secs(5)).expect("the bar's window");
    let (_, _, _, height) = session.geometry(&bar);
    assert_eq!(height, HEIGHT, "the bar's height changed with what it shows");
}

#[test]
fn chinese_japanese_and_korean_workspaces_titles_and_items_are_read_back_on_sway() {
    if !tesseract_reads_cjk("every script on sway test") {
        return;
    }
    let Some(sway) = SwaySession::start("every script on sway test") else { return };
    for (workspace, title) in WORKSPACES {
        sway.populate_titled(workspace, title);
    }
    let _bar = sway.start_bar(&config(), &[]);
    let grab = |x: u32, width: u32, png: &Path| sway.grab((x, 0, width, HEIGHT), png);
    read_back(grab, 1280, sway.dir(), "every-script-sway", || sway.bar_log());
    // The bar's layer surface keeps its height: the space it reserves.
    let top = crate::sway::workspace_top(&sway.tree(), "4");
    assert_eq!(top, Some(i64::from(HEIGHT)), "the bar's height changed with what it shows");
}

/// Waits for the window named `name` to show `wanted` as tesseract reads
/// its lines in `language`, pointing at (30, 20) until it shows; what it read.
fn window_reads(session: &XSession, name: &str, language: &str, wanted: &str, png: &Path) -> (bool, String) {
    let mut reading = String::from("(no window)");
    let read = wait_for(Duration::from_secs(20), || {
        run(session.command("xdotool").args(["mousemove", "30", "20"]));
        let Some(window) = session.find_window(&format!("^{name}$"), Duration::from_millis(1500)) else { return false };
        session.grab_window(&window, png);
        // Without the frame, whose lines tesseract takes for text.
        let shaved = run(Command::new("convert").arg(png).args(["-shave", "3x3"]).arg(png));
        assert!(shaved.status.success(), "convert: {shaved:?}");
        reading = read_as(png, language, "6");
        reading.contains(wanted)
    });
    (read, reading)
}

/// A tooltip and a popup's rows in Japanese and Korean, as a widget gives
/// them (the test's fixed widget), read back from their windows.
#[test]
fn tooltips_and_popup_rows_in_other_scripts_are_read_back() {
    if !have_tools("every script tooltip test", TOOLS) || !tesseract_reads_cjk("every script tooltip test") {
        return;
    }
    let session = XSession::start(1280, 720);
    let (dir, config) = config_file(&tooltip_and_popup_bar());
    let log = dir.path().join("obi.log");
    let _bar = session.start_bar_drawn(&config, &log, &[]);
    let png = dir.path().join("window.png");
    let said = || std::fs::read_to_string(&log).unwrap_or_default();

    let (shown, reading) = window_reads(&session, "obi tooltip", "jpn", "東京都の天気", &png);
    assert!(shown, "the tooltip reads {reading:?}; the bar said:\n{}", said());

    run(session.command("xdotool").args(["click", "1"]));
    let (shown, reading) = window_reads(&session, "obi popup", "kor", "한국어메뉴", &png);
    assert!(shown, "the popup's first row reads {reading:?}; the bar said:\n{}", said());
    let chinese = read_as(&png, "chi_sim", "6");
    assert!(chinese.contains("简体中文菜单"), "the popup's second row reads {chinese:?}");
}

/// The same tooltip and popup rows on sway, read back under the bar, where
/// its tooltip and popup show as popups of its layer surface.
#[test]
fn tooltips_and_popup_rows_in_other_scripts_are_read_back_on_sway() {
    if !tesseract_reads_cjk("every script tooltip on sway test") {
        return;
    }
    let Some(sway) = SwaySession::start("every script tooltip on sway test") else { return };
    let _bar = sway.start_bar(&tooltip_and_popup_bar(), &[]);
    let png = sway.dir().join("under-the-bar.png");
    // What shows under the bar's left end, resting the pointer on the item.
    let reads = |language: &str, wanted: &str| {
        let mut reading = String::new();
        let read = wait_for(Duration::from_secs(20), || {
            sway.point(30, 20);
            sway.grab((0, HEIGHT, 400, 160), &png);
            reading = read_as(&png, language, "6");
            reading.contains(wanted)
        });
        (read, reading)
    };

    let (shown, reading) = reads("jpn", "東京都の天気");
    assert!(shown, "the tooltip reads {reading:?}; the bar said:\n{}", sway.bar_log());

    sway.click(30, 20, 1);
    let (shown, reading) = reads("kor", "한국어메뉴");
    assert!(shown, "the popup's first row reads {reading:?}; the bar said:\n{}", sway.bar_log());
    let chinese = read_as(&png, "chi_sim", "6");
    assert!(chinese.contains("简体中文菜单"), "the popup's second row reads {chinese:?}");
}

/// A bar of one of the test's fixed widgets, whose item has a tooltip in
/// Japanese and a popup of a row in Korean and one in Simplified Chinese.
fn tooltip_and_popup_bar() -> String {
    let items = r#"[ { "text": "ABC", "tooltip": "東京都の天気", "popup": [ "한국어 메뉴", "简体中文菜单" ] } ]"#;
    format!(
        r#"{{ "height": {HEIGHT}, "font_size": 20, "font_family": "DejaVu Sans",
             "left_widgets": [ {} ], "right_widgets": [] }}"#,
        crate::golden::fixed(items)
    )
}

/// A bar of four of the test's fixed widgets, far apart: "Ag" alone; "Ag"
/// then Arabic with digits, Hebrew with brackets, Devanagari, a combining
/// accent and emoji; a Font Awesome glyph; a character no font has.
fn scripts_bar() -> String {
    let fixed = |text: &str| crate::golden::fixed(&format!(r#"[ {{ "text": {} }} ]"#, serde_json::json!(text)));
    let texts = [
        "Ag",
        "Ag العربية ١٢٣ עברית (abc) देवनागरी cafe\u{301} 👍🏽 👨\u{200D}👩\u{200D}👧 🇯🇵 ❤️",
        "\u{f0e0}",
        "\u{10FFF0}",
    ];
    let left: Vec<String> = texts.iter().map(|text| fixed(text)).collect();
    format!(
        r#"{{ "height": {HEIGHT}, "font_size": 20, "font_family": "DejaVu Sans", "widget_spacing": 60,
             "max_label_width": 900,
             "left_widgets": [ {} ], "right_widgets": [] }}"#,
        left.join(",")
    )
}

/// Whether the bar's strip `frame` shows [`scripts_bar`] as it should: four
/// items; the "Ag" that begins the second on the rows of the first (no
/// other script moved the baseline); the icon not drawn as the box.
fn scripts_on_their_baseline(frame: &Frame) -> Result<(), String> {
    let items = frame.inked_runs(30);
    let [ag, mixed, icon, missing] = items.as_slice() else { return Err(format!("not four items but {items:?}")) };
    let background = frame.pixel(0, 0);
    // The ink of `columns`, from their first column.
    let ink = |columns: std::ops::Range<u32>| {
        let start = columns.start;
        let pixels = (0..frame.height).flat_map(|y| columns.clone().map(move |x| (x, y)));
        pixels.filter(|&(x, y)| is_ink(frame.pixel(x, y), background)).map(|(x, y)| (x - start, y)).collect::<Vec<_>>()
    };
    if ink(ag.clone()) != ink(mixed.start..mixed.start + ag.len() as u32) {
        return Err("the \"Ag\" before the other scripts is not on the rows of \"Ag\" alone".into());
    }
    if mixed.len() < 12 * ag.len() {
        return Err(format!("the scripts are {} columns wide, \"Ag\" {}: some are missing", mixed.len(), ag.len()));
    }
    if ink(icon.clone()) == ink(missing.clone()) {
        return Err("the Font Awesome glyph is drawn as the box of a character no font has".into());
    }
    Ok(())
}

#[test]
fn every_script_sits_on_one_baseline_and_icons_are_not_boxes() {
    if !have_tools("every script baseline test", TOOLS) {
        return;
    }
    let session = XSession::start(1600, 720);
    let (dir, config) = config_file(&scripts_bar());
    let log = dir.path().join("obi.log");
    let _bar = session.start_bar_drawn(&config, &log, &[]);
    let mut verdict = Err("nothing grabbed".to_owned());
    let shown = wait_for(Duration::from_secs(20), || {
        verdict = scripts_on_their_baseline(&session.grab().rows(0, HEIGHT));
        verdict.is_ok()
    });
    assert!(shown, "{verdict:?}; the bar said:\n{}", std::fs::read_to_string(&log).unwrap_or_default());
}

#[test]
fn every_script_sits_on_one_baseline_and_icons_are_not_boxes_on_sway() {
    let Some(sway) = SwaySession::start("every script baseline on sway test") else { return };
    let _bar = sway.start_bar(&scripts_bar(), &[]);
    let png = sway.dir().join("strip.png");
    let mut verdict = Err("nothing grabbed".to_owned());
    let shown = wait_for(Duration::from_secs(20), || {
        sway.grab((0, 0, 1280, HEIGHT), &png);
        verdict = scripts_on_their_baseline(&Frame::read(&png));
        verdict.is_ok()
    });
    assert!(shown, "{verdict:?}; the bar said:\n{}", sway.bar_log());
}

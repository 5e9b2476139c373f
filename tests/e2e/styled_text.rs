//! Styled text on a real bar: a Custom script printing Pango markup,
//! `<span foreground='#ff8000'>hot</span> <b>bold</b> bold`, shows orange
//! where "hot" is and the first "bold" with wider strokes than the second;
//! a binding mode declared `--pango_markup` shows in its colour; on i3
//! under Xvfb and on headless sway; the bar keeps its height.

use crate::ocr::HEIGHT;
use crate::support::{Frame, MARKUP_MODE, XSession, config_file, have_tools, is_ink, run, wait_for};
use crate::sway::SwaySession;
use std::time::Duration;

const MARKUP: &str = "<span foreground='#ff8000'>hot</span> <b>bold</b> bold";

fn config() -> String {
    format!(
        r#"{{ "height": {HEIGHT}, "font_size": 20, "font_family": "DejaVu Sans",
             "left_widgets": [ {{ "Custom": {{ "enable": true, "exec": "printf \"{MARKUP}\"", "interval": "once" }} }} ],
             "right_widgets": [ {{ "Komorebi": {{ "binding_mode": {{ "enable": true, "display": "Text" }} }} }} ] }}"#
    )
}

fn is_orange([red, green, blue, _]: [u8; 4]) -> bool {
    red > 180 && (80..=180).contains(&green) && blue < 90
}

/// The mean width of the horizontal runs of ink in `columns`: how thick
/// the strokes of the text there are.
fn stroke_width(frame: &Frame, columns: std::ops::Range<u32>) -> f32 {
    let background = frame.pixel(0, 0);
    let (mut runs, mut inked) = (0, 0);
    for y in 0..frame.height {
        let mut in_run = false;
        for x in columns.clone() {
            let ink = is_ink(frame.pixel(x, y), background);
            runs += u32::from(ink && !in_run);
            inked += u32::from(ink);
            in_run = ink;
        }
    }
    inked as f32 / runs.max(1) as f32
}

/// Whether the strip `frame` shows the markup as styled text: three words,
/// "hot" in orange and nowhere else, the first "bold" heavier than the
/// second. Why not, when it does not.
fn styled_as_marked_up(frame: &Frame) -> Result<(), String> {
    let left = frame.crop(0, frame.width / 2);
    let words = left.inked_runs(5);
    let [hot, bold, plain] = words.as_slice() else { return Err(format!("not three words but {words:?}")) };
    let orange = |columns: &std::ops::Range<u32>| orange_in(frame, columns.clone());
    let (orange_hot, orange_elsewhere) = (orange(hot), orange(bold) + orange(plain));
    if orange_hot < 30 || orange_elsewhere > 0 {
        return Err(format!("orange pixels: {orange_hot} in \"hot\", {orange_elsewhere} in the others"));
    }
    let (heavy, light) = (stroke_width(frame, bold.clone()), stroke_width(frame, plain.clone()));
    if heavy < light * 1.25 {
        return Err(format!("the bold strokes are {heavy:.2} px wide, the plain ones {light:.2}"));
    }
    Ok(())
}

fn orange_in(frame: &Frame, columns: std::ops::Range<u32>) -> usize {
    let pixels = (0..frame.height).flat_map(|y| columns.clone().map(move |x| (x, y)));
    pixels.filter(|&(x, y)| is_orange(frame.pixel(x, y))).count()
}

/// Whether the right half of the strip `frame`, where the binding mode
/// shows, has its markup's orange.
fn mode_in_colour(frame: &Frame) -> Result<(), String> {
    match orange_in(frame, frame.width / 2..frame.width) {
        orange if orange >= 30 => Ok(()),
        orange => Err(format!("the binding mode shows {orange} orange pixels")),
    }
}

/// Waits for the strip `grab` gives to pass `check`; keeps the last one
/// as `target/e2e-artifacts/{artifact}.png` when it does not.
fn wait_for_styled(
    mut grab: impl FnMut() -> Frame,
    check: fn(&Frame) -> Result<(), String>,
    artifact: &str,
    log: impl Fn() -> String,
) {
    let mut verdict = Err("nothing grabbed".to_owned());
    let mut last = None;
    let styled = wait_for(Duration::from_secs(20), || {
        let frame = grab();
        verdict = check(&frame);
        last = Some(frame);
        verdict.is_ok()
    });
    if !styled && let Some(frame) = last {
        let artifacts = obi_test_support::workspace().join("target/e2e-artifacts");
        std::fs::create_dir_all(&artifacts).unwrap();
        let png = artifacts.join(format!("{artifact}.png"));
        let mut encoder = png::Encoder::new(std::fs::File::create(&png).unwrap(), frame.width, frame.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.write_header().unwrap().write_image_data(&frame.rgba).unwrap();
    }
    assert!(styled, "not drawn as marked up: {verdict:?} ({artifact}.png); the bar said:\n{}", log());
}

#[test]
fn a_scripts_markup_is_drawn_with_its_colours_and_weights_on_x11() {
    if !have_tools("styled text test", &["Xvfb", "i3", "import"]) {
        return;
    }
    let session = XSession::start(800, 600);
    let (dir, config) = config_file(&config());
    let log = dir.path().join("obi.log");
    let _bar = session.start_bar_drawn(&config, &log, &[]);
    let log = || std::fs::read_to_string(&log).unwrap_or_default();
    let strip = || session.grab().rows(0, HEIGHT);
    wait_for_styled(strip, styled_as_marked_up, "styled-text-x11", log);
    let moded = run(session.command("i3-msg").arg(format!("mode \"{MARKUP_MODE}\"")));
    assert!(moded.status.success(), "i3-msg mode: {moded:?}");
    wait_for_styled(strip, mode_in_colour, "styled-mode-x11", log);
    let bar = session.find_window("^obi$", Duration::from_secs(5)).expect("the bar's window");
    assert_eq!(session.geometry(&bar).3, HEIGHT, "the bar's height changed with what it shows");
}

#[test]
fn a_scripts_markup_is_drawn_with_its_colours_and_weights_on_sway() {
    let Some(sway) = SwaySession::start("styled text on sway test") else { return };
    let _bar = sway.start_bar(&config(), &[]);
    let png = sway.dir().join("strip.png");
    let grab = || {
        sway.grab((0, 0, 1280, HEIGHT), &png);
        Frame::read(&png)
    };
    wait_for_styled(grab, styled_as_marked_up, "styled-text-sway", || sway.bar_log());
    let moded = sway.swaymsg(&[&format!("mode \"{MARKUP_MODE}\"")]);
    assert!(moded.status.success(), "swaymsg mode: {moded:?}");
    wait_for_styled(grab, mode_in_colour, "styled-mode-sway", || sway.bar_log());
}

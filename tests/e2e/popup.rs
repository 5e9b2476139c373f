//! Widgets' popups in the window: a secondary click on the date opens its
//! month's calendar under the bar, today's month and day on it; scrolling
//! over it turns to the next month (the popup holds the pointer, so the
//! wheel reaches it through its grab); a click outside closes it, and so
//! does Escape. The Komorebi widget's layout picker is such a popup, and
//! so is the power menu, whose Shut down runs on a second click alone; a
//! click outside closes each.

use crate::komorebi_simulator::{Simulator, state, window, workspace as komorebi_workspace};
use crate::support::{Frame, Reaped, XSession, config_file, have_tools, run, same_colour, wait_for, workspace};
use chrono::{Datelike, Months, Utc};
use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

const TOOLS: &[&str] = &["Xvfb", "i3", "xwininfo", "xdotool", "import", "convert", "tesseract"];

#[test]
fn the_date_opens_its_calendar_and_a_click_outside_closes_it() {
    if !have_tools("popup test", TOOLS) {
        return;
    }
    let session = XSession::start(1280, 720);
    let (_dir, config) = config_file(
        r#"{
          "height": 40,
          "font_size": 18,
          "left_widgets": [ { "Date": { "enable": true, "format": "YearMonthDate", "label_prefix": "None",
                                        "timezone": "UTC" } } ],
          "right_widgets": []
        }"#,
    );
    let (_bar, _window) = session.start_bar(&config, Stdio::null());
    let artifacts = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();

    let popup = open_popup(&session);
    let (x, y, width, height) = session.geometry(&popup);
    assert_eq!(y, 40, "right under the bar");
    assert!(x < 60 && width > 150 && height > 150, "{x}+{y} {width}x{height}");
    let today = Utc::now();
    let month = today.format("%B %Y").to_string();
    let png = artifacts.join("popup-calendar.png");
    let text = read_until(&session, &popup, &png, |text| text.contains(&month));
    assert!(text.contains("Wk") && text.contains("Mo"), "the weekdays and week numbers: {text:?}");
    let selected = selected_text(&png);
    let day = today.day().to_string();
    assert!(selected.split_whitespace().any(|word| word == day), "today is marked: {selected:?} ({})", png.display());

    let centre = ((x + width as i32 / 2).to_string(), (y + height as i32 / 2).to_string());
    run(session.command("xdotool").args(["mousemove", &centre.0, &centre.1, "click", "5"]));
    let next = (today.with_day(1).unwrap() + Months::new(1)).format("%B %Y").to_string();
    read_until(&session, &popup, &artifacts.join("popup-next-month.png"), |text| text.contains(&next));

    run(session.command("xdotool").args(["mousemove", "900", "500", "click", "1"]));
    let closed = wait_for(Duration::from_secs(5), || session.find_window("^obi popup$", Duration::ZERO).is_none());
    assert!(closed, "the popup stayed after a click outside it");

    let popup = open_popup(&session);
    run(session.command("xdotool").args(["key", "Escape"]));
    let closed = wait_for(Duration::from_secs(5), || session.find_window("^obi popup$", Duration::ZERO).is_none());
    assert!(closed, "the popup {popup} stayed after Escape");
}

/// What tesseract reads on the one cell of `png` in the theme's selected
/// fill (the default theme's): today's date on the calendar.
pub fn selected_text(png: &Path) -> String {
    let frame = Frame::read(png);
    let obi::colour::Rgba(r, g, b, _) = obi::theme::Theme::from_config(None, 255).selected_fill;
    let filled = |x: u32, y: u32| same_colour(frame.pixel(x, y), [r, g, b, 255]);
    // Inside a filled area, not on a line of the accent's colour (frames).
    let inside = |x: u32, y: u32| (x - 1..=x + 1).all(|x| (y - 1..=y + 1).all(|y| filled(x, y)));
    let pixels: Vec<(u32, u32)> = (1..frame.height - 1)
        .flat_map(|y| (1..frame.width - 1).map(move |x| (x, y)))
        .filter(|&(x, y)| inside(x, y))
        .collect();
    assert!(!pixels.is_empty(), "no cell in the selected fill on {}", png.display());
    let (left, right) = (pixels.iter().map(|p| p.0).min().unwrap(), pixels.iter().map(|p| p.0).max().unwrap());
    let (top, bottom) = (pixels.iter().map(|p| p.1).min().unwrap(), pixels.iter().map(|p| p.1).max().unwrap());
    let cell = png.with_extension("selected.png");
    let crop = format!("{}x{}+{left}+{top}", right - left + 1, bottom - top + 1);
    // Inside the fill's rounded corners, in black and white, with a margin:
    // tesseract read nothing of "27" in the fill's own colours, and read the
    // corners' specks as quotes and bars.
    let cut = ["-crop", crop.as_str(), "+repage", "-shave", "3x3", "-resize", "400%"];
    let clear = ["-colorspace", "Gray", "-threshold", "50%", "-bordercolor", "white", "-border", "40"];
    run(Command::new("convert").arg(png).args(cut).args(clear).arg(&cell));
    let ocr = run(Command::new("tesseract").arg(&cell).args(["stdout", "--psm", "7"]));
    String::from_utf8_lossy(&ocr.stdout).into_owned()
}

/// Secondary-clicks the date until its popup's window shows; its id.
fn open_popup(session: &XSession) -> String {
    open_popup_with(session, "3")
}

/// Opens the popup of the bar's first item with `button`, and a click on
/// the desktop closes it.
pub fn closes_on_a_click_outside(session: &XSession, button: &str) {
    open_popup_with(session, button);
    run(session.command("xdotool").args(["mousemove", "900", "500", "click", "1"]));
    let closed = wait_for(Duration::from_secs(5), || session.find_window("^obi popup$", Duration::ZERO).is_none());
    assert!(closed, "the popup stayed after a click outside it");
}

/// Clicks `button` on the bar's first item until a popup's window shows; its id.
pub fn open_popup_with(session: &XSession, button: &str) -> String {
    let mut found = None;
    let opened = wait_for(Duration::from_secs(20), || {
        run(session.command("xdotool").args(["mousemove", "40", "20", "click", button]));
        found = session.find_window("^obi popup$", Duration::from_millis(1500));
        found.is_some()
    });
    assert!(opened, "no popup window showed after a click (button {button}) on the bar's first item");
    let popup = found.unwrap();
    // Keys reach it once it holds the pointer (it takes the keyboard
    // first), and a grab of it is worth reading once it is painted (its
    // window is black until then).
    assert!(
        wait_for(Duration::from_secs(10), || session.pointer_grabbed()),
        "the popup {popup} never held the pointer"
    );
    let scratch = tempfile::tempdir().unwrap();
    let png = scratch.path().join("popup.png");
    let painted = wait_for(Duration::from_secs(10), || {
        session.grab_window(&popup, &png);
        let frame = Frame::read(&png);
        frame.rgba.chunks_exact(4).any(|pixel| pixel != &frame.rgba[..4])
    });
    assert!(painted, "the popup {popup} was never painted");
    popup
}

/// Reads the popup's window with tesseract until `done` says its text is
/// what it should be (the window is painted once mapped); its text (see
/// [`popup_text`]). The last grab stays at `png`.
pub fn read_until(session: &XSession, window: &str, png: &Path, done: impl Fn(&str) -> bool) -> String {
    let mut text = String::new();
    let read = wait_for(Duration::from_secs(10), || {
        session.grab_window(window, png);
        text = popup_text(png);
        done(&text)
    });
    assert!(read, "the popup ({}) reads {text:?}", png.display());
    text
}

/// What tesseract reads on a popup grabbed as `png`: negated (light text
/// on the dark theme), then as it is (today's dark digits on the selected
/// fill), then in black and white (buttons' frames, which tesseract takes
/// for boxes around text it then leaves out, gone).
pub fn popup_text(png: &Path) -> String {
    let large = png.with_extension("ocr.png");
    let mut text = String::new();
    let ways: [&[&str]; 3] = [&["-negate"], &[], &["-colorspace", "gray", "-negate", "-threshold", "35%"]];
    for way in ways {
        let mut convert = Command::new("convert");
        convert.arg(png).args(way).args(["-resize", "300%"]).arg(&large);
        run(&mut convert);
        let ocr = run(Command::new("tesseract").arg(&large).args(["stdout", "--psm", "6"]));
        text.push_str(&String::from_utf8_lossy(&ocr.stdout));
    }
    text
}

/// The lines of a popup grabbed as `png`, top to bottom, as the left edge
/// of its cells shows them: each run of rows where that column is drawn on
/// (a button's or a label's frame or fill; a slider's track and a
/// separator are too thin to count, and the rounded corners of two cells
/// one above the other leave a gap between them), with the row in its
/// middle and what tesseract reads on the line alone, light on dark and
/// dark on light (read whole, a line in a fill of its own is taken for a
/// box around text and left out).
pub fn popup_lines(png: &Path) -> Vec<(u32, String)> {
    let frame = Frame::read(png);
    // Inside the popup's frame, left of every cell.
    let background = frame.pixel(4, frame.height / 2);
    let inked = |x: u32, y: u32| !same_colour(frame.pixel(x, y), background);
    let rows = 2..frame.height - 2;
    // The column most rows' first ink is in: where the cells begin.
    let mut starts: HashMap<u32, usize> = HashMap::new();
    for y in rows.clone() {
        if let Some(x) = (2..frame.width - 2).find(|&x| inked(x, y)) {
            *starts.entry(x).or_default() += 1;
        }
    }
    let left = starts.into_iter().max_by_key(|&(x, count)| (count, std::cmp::Reverse(x))).map_or(2, |(x, _)| x);
    let mut bands = Vec::new();
    let mut top = None;
    for y in rows.clone().chain([rows.end]) {
        match (y < rows.end && inked(left, y), top) {
            (true, None) => top = Some(y),
            (false, Some(start)) => {
                if y - start >= 12 {
                    bands.push((start, y));
                }
                top = None;
            }
            _ => {}
        }
    }
    let line = png.with_extension("line.png");
    bands
        .into_iter()
        .map(|(top, bottom)| {
            let mut read = String::new();
            for way in [&["-negate"][..], &[]] {
                let crop = format!("{}x{}+0+{top}", frame.width, bottom - top);
                run(Command::new("convert")
                    .arg(png)
                    .args(["-crop", &crop, "+repage"])
                    .args(way)
                    .args(["-resize", "300%"])
                    .arg(&line));
                let ocr = run(Command::new("tesseract").arg(&line).args(["stdout", "--psm", "7"]));
                read.push_str(String::from_utf8_lossy(&ocr.stdout).trim());
                read.push(' ');
            }
            ((top + bottom) / 2, read)
        })
        .collect()
}

/// A popup's lines: the row of each one's middle, and its text.
pub type Lines = Vec<(u32, String)>;

/// The popup's lines (see [`popup_lines`]), grabbed again until `done`
/// says they (and the grab they were read on) are what they should be;
/// the last grab is kept as `name`.
pub fn read_lines(
    session: &XSession,
    popup: &str,
    name: &str,
    done: impl Fn(&Path, &[(u32, String)]) -> bool,
) -> Lines {
    let png = workspace_dir().join(name);
    let mut lines = Vec::new();
    let read = wait_for(Duration::from_secs(10), || {
        session.grab_window(popup, &png);
        lines = popup_lines(&png);
        done(&png, &lines)
    });
    assert!(read, "the popup ({}) reads {lines:?}", png.display());
    lines
}

/// Those of a popup's `lines` (see [`popup_lines`]) of `png` in the
/// default theme's selected fill, read near each line's right end, past
/// its text.
pub fn selected_lines<'a>(png: &Path, lines: &'a [(u32, String)]) -> Vec<&'a str> {
    let frame = Frame::read(png);
    let obi::colour::Rgba(r, g, b, _) = obi::theme::Theme::from_config(None, 255).selected_fill;
    let filled = |row: u32| same_colour(frame.pixel(frame.width - 16, row), [r, g, b, 255]);
    lines.iter().filter(|(row, _)| filled(*row)).map(|(_, text)| text.as_str()).collect()
}

/// The Komorebi widget's layout opens its options in a popup, the current
/// one selected; a click on another sends komorebi the change and closes
/// the picker.
#[test]
fn the_layout_picker_sends_the_chosen_layout_to_komorebi() {
    if !have_tools("layout picker test", TOOLS) {
        return;
    }
    let komorebi_dir = tempfile::tempdir().unwrap();
    let state = state(vec![komorebi_workspace(Some("code"), &[&[window("main.rs", "code.exe")]], 0, "BSP")], 0);
    let komorebi = Simulator::start(komorebi_dir.path(), state);
    let session = XSession::start(1280, 720);
    let (_dir, config) = config_file(
        r#"{
          "height": 40,
          "font_size": 18,
          "left_widgets": [ { "Komorebi": { "layout": { "enable": true, "display": "Text",
                                                        "options": ["BSP", "Columns", "Rows"] } } } ],
          "right_widgets": []
        }"#,
    );
    let env = [("OBI_KOMOREBI_DIR", komorebi_dir.path().as_os_str())];
    let (_bar, _window) = session.start_bar_with_env(&config, Stdio::null(), &env);
    assert!(komorebi.wait_for_subscriber(Duration::from_secs(20)), "the bar subscribed to komorebi");
    closes_on_a_click_outside(&session, "1");

    let popup = open_popup_with(&session, "1");
    let (x, y, width, height) = session.geometry(&popup);
    let png = workspace_dir().join("popup-layout-picker.png");
    let text = read_until(&session, &popup, &png, |text| text.contains("Columns") && text.contains("Rows"));
    assert!(!text.contains("Monocle"), "only the configured options: {text:?}");
    let selected = selected_text(&png);
    assert!(selected.split_whitespace().any(|word| word == "BSP"), "the current layout is selected: {selected:?}");
    // Three lines of equal height between the margins: the second is Columns.
    let line = (x + width as i32 / 2).to_string();
    let columns = (y + height as i32 / 2).to_string();
    run(session.command("xdotool").args(["mousemove", &line, &columns, "click", "1"]));
    let sent = wait_for(Duration::from_secs(10), || {
        komorebi.received().iter().any(|message| message.contains(r#"{"type":"ChangeLayout","content":"Columns"}"#))
    });
    assert!(sent, "komorebi was sent the chosen layout: {:?}", komorebi.received());
    let closed = wait_for(Duration::from_secs(5), || session.find_window("^obi popup$", Duration::ZERO).is_none());
    assert!(closed, "choosing closed the picker");
}

pub fn workspace_dir() -> std::path::PathBuf {
    let artifacts = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    artifacts
}

/// The power menu opens under its button with its five actions; one click
/// on Shut down runs nothing and asks again, a second runs its command (a
/// harmless one here), and the menu closes.
#[test]
fn the_power_menu_shuts_down_on_the_second_click_alone() {
    if !have_tools("power menu test", TOOLS) {
        return;
    }
    let ran = tempfile::tempdir().unwrap();
    let shut_down = ran.path().join("shut-down");
    let session = XSession::start(1280, 720);
    let _bar = start_power_menu(&session, &format!("touch '{}'", shut_down.display()));
    closes_on_a_click_outside(&session, "1");

    let popup = open_popup_with(&session, "1");
    let (x, y, width, height) = session.geometry(&popup);
    assert_eq!(y, 40, "right under the bar");
    let png = workspace_dir().join("popup-power-menu.png");
    let text = read_until(&session, &popup, &png, |text| {
        ["Lock", "Log out", "Suspend", "Reboot", "Shut down"].iter().all(|action| text.contains(action))
    });
    assert!(!text.contains("Click again"), "{text:?}");
    // Five lines of equal height between the margins: the last is Shut down.
    let last = ((x + width as i32 / 2).to_string(), (y + height as i32 * 9 / 10).to_string());
    run(session.command("xdotool").args(["mousemove", &last.0, &last.1, "click", "1"]));
    asks_again(&session, &popup, "popup-power-menu-asks.png");
    assert!(!shut_down.exists(), "one click shut down");
    run(session.command("xdotool").args(["click", "1"]));
    assert!(wait_for(Duration::from_secs(10), || shut_down.exists()), "the second click ran nothing");
    let closed = wait_for(Duration::from_secs(5), || session.find_window("^obi popup$", Duration::ZERO).is_none());
    assert!(closed, "choosing closed the menu");
}

/// The button under the pointer is lit (a veil of the accent), and only
/// while the pointer is on it.
#[test]
fn the_button_under_the_pointer_is_lit() {
    if !have_tools("popup hover test", TOOLS) {
        return;
    }
    let session = XSession::start(1280, 720);
    let _bar = start_power_menu(&session, "true");
    let popup = open_popup_with(&session, "1");
    let (x, y, _, height) = session.geometry(&popup);
    let grab = |name: &str| {
        let png = workspace_dir().join(name);
        session.grab_window(&popup, &png);
        Frame::read(&png)
    };
    // Five lines of equal height between the margins; a point in each, left of its text.
    let line = |n: u32| (12, height * (2 * n + 1) / 10);
    let pixel = |frame: &Frame, n: u32| frame.pixel(line(n).0, line(n).1);
    let move_to = |n: u32| {
        let (at_x, at_y) = (x + line(n).0 as i32, y + line(n).1 as i32);
        run(session.command("xdotool").args(["mousemove", &at_x.to_string(), &at_y.to_string()]));
    };
    let unlit = grab("popup-hover-none.png");
    move_to(2);
    let mut lit = grab("popup-hover-suspend.png");
    let lights = wait_for(Duration::from_secs(10), || {
        lit = grab("popup-hover-suspend.png");
        !same_colour(pixel(&lit, 2), pixel(&unlit, 2))
    });
    assert!(lights, "the third button is lit under the pointer: {:?}", pixel(&lit, 2));
    assert!(same_colour(pixel(&lit, 0), pixel(&unlit, 0)), "the first is not");
    move_to(0);
    let moved = wait_for(Duration::from_secs(10), || {
        lit = grab("popup-hover-lock.png");
        !same_colour(pixel(&lit, 0), pixel(&unlit, 0)) && same_colour(pixel(&lit, 2), pixel(&unlit, 2))
    });
    assert!(moved, "the light follows the pointer to the first button");
    run(session.command("xdotool").args(["mousemove", "40", "20"]));
    let off =
        wait_for(Duration::from_secs(10), || same_colour(pixel(&grab("popup-hover-off.png"), 0), pixel(&unlit, 0)));
    assert!(off, "off the popup, nothing is lit");
}

/// The power menu answers the keys a menu does: Up lights the last action
/// (Shut down), Return asks again, Return again runs it.
#[test]
fn the_power_menu_answers_the_keys() {
    if !have_tools("popup keys test", TOOLS) {
        return;
    }
    let ran = tempfile::tempdir().unwrap();
    let shut_down = ran.path().join("shut-down");
    let session = XSession::start(1280, 720);
    let _bar = start_power_menu(&session, &format!("touch '{}'", shut_down.display()));
    let popup = open_popup_with(&session, "1");
    run(session.command("xdotool").args(["key", "Up", "Return"]));
    asks_again(&session, &popup, "popup-power-menu-keys.png");
    assert!(!shut_down.exists(), "one Return shut down");
    run(session.command("xdotool").args(["key", "Return"]));
    assert!(wait_for(Duration::from_secs(10), || shut_down.exists()), "the second Return ran nothing");
}

/// A bar with the power menu on `session`, its actions harmless but Shut
/// down, which runs `shut_down`; the bar and the folder of its config.
fn start_power_menu(session: &XSession, shut_down: &str) -> (Reaped, tempfile::TempDir) {
    let config = serde_json::json!({
        "height": 40, "font_size": 18, "right_widgets": [],
        "left_widgets": [ { "PowerMenu": { "enable": true, "label_prefix": "IconAndText", "lock": "true",
            "log_out": "true", "suspend": "true", "reboot": "true", "shut_down": shut_down } } ]
    });
    let (dir, config) = config_file(&config.to_string());
    let (bar, _window) = session.start_bar(&config, Stdio::null());
    (bar, dir)
}

/// Waits until the power menu's last line asks again ("Shut down? Click
/// again"); the last grab is kept as `name`.
fn asks_again(session: &XSession, popup: &str, name: &str) {
    let asks = workspace_dir().join(name);
    let mut line = String::new();
    let asked = wait_for(Duration::from_secs(10), || {
        // Wider now, the line being longer: grabbed where it is now.
        session.grab_window(popup, &asks);
        line = last_line_text(&asks, 5);
        line.contains("Shut down? Click again")
    });
    assert!(asked, "the last line ({}) reads {line:?}", asks.display());
}

/// What tesseract reads on the last of `lines` lines of equal height of a
/// popup grabbed as `png` (read alone, a line in the urgent fill is not
/// left out as a box).
fn last_line_text(png: &Path, lines: u32) -> String {
    let line = png.with_extension("last-line.png");
    let crop = format!("100%x{}%+0+0", 100 / lines);
    run(Command::new("convert")
        .arg(png)
        .args(["-gravity", "south", "-crop", &crop, "+repage", "-resize", "300%"])
        .arg(&line));
    String::from_utf8_lossy(&run(Command::new("tesseract").arg(&line).args(["stdout", "--psm", "7"])).stdout)
        .into_owned()
}

//! The Volume widget in the bar, on a real sound server of the test's own
//! (PulseAudio with two null sinks, `PULSE_SERVER` pointing the bar at it):
//! what `pactl` sets shows on the bar, a scroll tick and a click change
//! what `pactl` reads back, and the popup's second output becomes the
//! default when chosen, under Xvfb and under sway. The popup's screenshots
//! are kept.

use crate::ocr::words_on_bar;
use crate::popup::{Lines, open_popup_with, popup_lines, read_lines, selected_lines, workspace_dir};
use crate::support::{XSession, config_file, have_tools, run, wait_for};
use crate::sway::SwaySession;
use obi_test_support::sound_server::SoundServer;
use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

const TOOLS: &[&str] = &["Xvfb", "i3", "xwininfo", "xdotool", "import", "convert", "tesseract", "pulseaudio", "pactl"];

#[test]
fn the_bar_follows_the_sound_server_and_changes_it() {
    if !have_tools("volume test", TOOLS) {
        return;
    }
    let Some(server) = SoundServer::for_tests("volume test") else { return };
    let session = XSession::start(1280, 720);
    let (dir, config) = config_file(
        r#"{ "height": 40, "font_size": 18, "right_widgets": [],
             "left_widgets": [ { "Volume": { "enable": true, "label_prefix": "IconAndText", "step": 5 } } ] }"#,
    );
    let address = server.address();
    let env = [("PULSE_SERVER", OsStr::new(&address))];
    let (_bar, _window) = session.start_bar_with_env(&config, Stdio::null(), &env);

    server.pactl(&["set-sink-volume", "@DEFAULT_SINK@", "37%"]);
    let mut words = Vec::new();
    let shows = |words: &mut Vec<(String, u32)>, percent: &str| {
        wait_for(Duration::from_secs(10), || {
            *words = words_on_bar(&session, dir.path(), 400);
            words.iter().any(|(word, _)| word == "Volume:") && words.iter().any(|(word, _)| word == percent)
        })
    };
    assert!(shows(&mut words, "37%"), "the bar reads {words:?}");
    run(std::process::Command::new("cp").arg(dir.path().join("bar.png")).arg(workspace_dir().join("volume-bar.png")));

    // A click of the wheel up over the widget, then a click on it. winit
    // 0.30 makes a scroll of both the press and the release of a synthetic
    // (XTest) wheel button: two notches, faster than the server answers,
    // and each counts (one was once lost, or not, as the server's answer
    // to the first came before the second or after it).
    run(session.command("xdotool").args(["mousemove", "40", "20", "click", "4"]));
    let volume = || server.pactl(&["get-sink-volume", "first"]);
    assert!(wait_for(Duration::from_secs(10), || volume().contains("/  47% /")), "{}", volume());
    assert!(shows(&mut words, "47%"), "the bar reads {words:?}");
    run(session.command("xdotool").args(["click", "1"]));
    let mute = || server.pactl(&["get-sink-mute", "first"]);
    assert!(wait_for(Duration::from_secs(10), || mute() == "Mute: yes"), "{}", mute());

    let popup = open_popup_with(&session, "3");
    let (x, y, width, _) = session.geometry(&popup);
    assert_eq!(y, 40, "right under the bar");
    let lines = read_lines(&session, &popup, "popup-volume.png", |png, lines| {
        let texts: Vec<&str> = lines.iter().map(|(_, text)| text.as_str()).collect();
        texts.len() == 3
            && texts[0].contains("Unmute")
            && texts[1].contains("First")
            && texts[2].contains("Second")
            && selected_output(png, lines) == Some("First")
    });
    let second = ((x + width as i32 / 2).to_string(), (y + lines[2].0 as i32).to_string());
    run(session.command("xdotool").args(["mousemove", &second.0, &second.1, "click", "1"]));
    let default = || server.pactl(&["get-default-sink"]);
    assert!(wait_for(Duration::from_secs(10), || default() == "second"), "the default is {}", default());
    // Off the popup, so that no cell is lit: the selected one shows its fill.
    run(session.command("xdotool").args(["mousemove", "900", "500"]));
    // The second output is selected now, and not muted: the popup offers to mute it.
    read_lines(&session, &popup, "popup-volume-second.png", |png, lines| {
        lines.first().is_some_and(|(_, text)| text.contains("Mute") && !text.contains("Unmute"))
            && selected_output(png, lines) == Some("Second")
    });

    run(session.command("xdotool").args(["mousemove", "900", "500", "click", "1"]));
    let closed = wait_for(Duration::from_secs(5), || session.find_window("^obi popup$", Duration::ZERO).is_none());
    assert!(closed, "the popup stayed after a click outside it");
}

/// On sway the popup is a popup of the bar's layer surface: it opens under
/// the widget, its second output becomes the default when chosen, and a
/// click outside closes it.
#[test]
fn on_sway_the_volume_popup_chooses_the_default_output() {
    let Some(server) = SoundServer::for_tests("sway volume test") else { return };
    let Some(sway) = SwaySession::start("sway volume test") else { return };
    let address = server.address();
    let _bar = sway.start_bar_with_env(
        r#"{ "height": 40, "font_size": 18, "font_family": "DejaVu Sans", "right_widgets": [],
             "left_widgets": [ { "Volume": { "enable": true, "label_prefix": "IconAndText" } } ] }"#,
        &[],
        &[("PULSE_SERVER", OsStr::new(&address))],
    );
    sway.wait_for_words((0, 0, 400, BAR), &["Volume:", "100%"], "sway-volume-bar");

    let grab = workspace_dir().join("sway-popup-volume-grab.png");
    let png = workspace_dir().join("sway-popup-volume.png");
    // The popup within a grab under the bar: its offset there, and its lines.
    let read = || -> Option<((i64, i64), Lines)> {
        let grabbed = run(Command::new("grim").args(["-g", &format!("0,{BAR} 400x300")]).arg(&grab).envs(sway.env()));
        assert!(grabbed.status.success(), "grim: {}", String::from_utf8_lossy(&grabbed.stderr));
        let bounds = run(Command::new("convert").arg(&grab).args(["-format", "%@", "info:"]));
        let bounds = String::from_utf8_lossy(&bounds.stdout).into_owned();
        let (size, offset) = bounds.split_once('+')?;
        let (x, y) = offset.split_once('+')?;
        let (width, _) = size.split_once('x')?;
        if width.parse::<u32>().ok()? < 100 {
            return None;
        }
        run(Command::new("convert").arg(&grab).args(["-crop", &bounds, "+repage"]).arg(&png));
        Some(((x.parse().ok()?, y.parse().ok()?), popup_lines(&png)))
    };
    let reads = |wanted: &[&str]| {
        read().filter(|(_, lines)| {
            lines.len() == wanted.len() && lines.iter().zip(wanted).all(|((_, text), word)| text.contains(word))
        })
    };

    sway.click(40, BAR / 2, 3);
    let mut opened = None;
    assert!(
        wait_for(Duration::from_secs(20), || {
            opened = reads(&["Mute", "First", "Second"]);
            opened.is_some()
        }),
        "no popup with the outputs ({})",
        png.display()
    );
    let ((x, y), lines) = opened.unwrap();
    std::fs::copy(&png, workspace_dir().join("sway-popup-volume-open.png")).unwrap();
    sway.click(x + 60, BAR + y + i64::from(lines[2].0), 1);
    let default = || server.pactl(&["get-default-sink"]);
    assert!(wait_for(Duration::from_secs(10), || default() == "second"), "the default is {}", default());
    // The popup follows: the second output is the selected one now (its
    // fill read with the pointer off the popup, where it lights nothing:
    // on the bar, since sway tells the popup of no leave for the bare
    // desktop while it holds the seat).
    sway.point(300, BAR / 2);
    let follows = wait_for(Duration::from_secs(10), || {
        reads(&["Mute", "First", "Second"]).is_some_and(|(_, lines)| selected_output(&png, &lines) == Some("Second"))
    });
    assert!(follows, "the popup ({}) did not select the second output", png.display());
    std::fs::copy(&png, workspace_dir().join("sway-popup-volume-second.png")).unwrap();

    sway.click(900, 500, 1);
    assert!(wait_for(Duration::from_secs(10), || read().is_none()), "a click outside closed the popup");
}

/// The output the popup grabbed as `png` shows selected (the default),
/// when it shows one alone.
fn selected_output(png: &Path, lines: &[(u32, String)]) -> Option<&'static str> {
    let selected = selected_lines(png, lines);
    let outputs: Vec<&str> =
        ["First", "Second"].into_iter().filter(|output| selected.iter().any(|line| line.contains(output))).collect();
    (outputs.len() == 1).then(|| outputs[0])
}

/// The bar's height in the sway test's config.
const BAR: i64 = 40;

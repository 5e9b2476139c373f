//! The Volume widget in the bar, on a real sound server of the test's own
//! (PulseAudio with two null sinks and a null source, `PULSE_SERVER`
//! pointing the bar at it): what `pactl` sets shows on the bar, a scroll
//! tick and a click change what `pactl` reads back, and the popup's second
//! output becomes the default when chosen, under Xvfb and under sway;
//! applications playing (`pacat`) each have their own slider, and one
//! recording brings the Privacy item. The popup's screenshots are kept.

use crate::ocr::words_on_bar;
use crate::popup::{Lines, open_popup_with, popup_lines, popup_text, read_lines, selected_lines, workspace_dir};
use crate::support::{XSession, config_file, have_tools, run, same_colour, wait_for};
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

/// Two applications play into the sound server: the popup lists them, a
/// drag of the second's slider sets its volume alone (read back with
/// `pactl`); the microphone shows beside the speaker, and an application
/// recording from it brings the Privacy item naming it, gone when it stops.
#[test]
fn each_application_has_its_own_slider_and_recording_shows_who_records() {
    if !have_tools("volume applications test", TOOLS) {
        return;
    }
    let Some(server) = SoundServer::for_tests("volume applications test") else { return };
    let _music = server.play("Music");
    let _radio = server.play("Radio");
    let session = XSession::start(1280, 720);
    let (dir, config) = config_file(
        r#"{ "height": 40, "font_size": 18, "right_widgets": [],
             "left_widgets": [ { "Volume": { "enable": true, "label_prefix": "Text", "microphone": true } },
                               { "Privacy": { "enable": true, "label_prefix": "Text" } } ] }"#,
    );
    let address = server.address();
    let (_bar, _window) = session.start_bar_with_env(&config, Stdio::null(), &[("PULSE_SERVER", OsStr::new(&address))]);
    let mut words = Vec::new();
    let mut reads = |wanted: &[&str], unwanted: Option<&str>| {
        wait_for(Duration::from_secs(10), || {
            words = words_on_bar(&session, dir.path(), 700);
            // Tesseract reads a stray mark or two before "Mic:" at times.
            let has = |want: &str| words.iter().any(|(word, _)| word.ends_with(want));
            wanted.iter().all(|want| has(want)) && !unwanted.is_some_and(has)
        })
    };
    let first = reads(&["Volume:", "Mic:"], Some("Recording:"));
    run(Command::new("cp").arg(dir.path().join("bar.png")).arg(workspace_dir().join("volume-microphone-bar.png")));
    assert!(first, "the bar reads {words:?}");

    let popup = open_popup_with(&session, "3");
    let (x, y, width, _) = session.geometry(&popup);
    // The applications in the order they began to play.
    let lines = read_lines(&session, &popup, "popup-volume-applications.png", |_, lines| {
        let texts: Vec<&str> = lines.iter().map(|(_, text)| text.as_str()).collect();
        texts.len() == 5 && texts[3].contains("Music") && texts[4].contains("Radio")
    });
    // Each application's slider is the line under its name: half way from
    // one name to the next below the second.
    let under_radio = lines[4].0 + (lines[4].0 - lines[3].0) / 2;
    let row = (y + under_radio as i32).to_string();
    let along = |fraction: f32| (x + (width as f32 * fraction) as i32).to_string();
    run(session.command("xdotool").args(["mousemove", &along(0.5), &row, "mousedown", "1"]));
    run(session.command("xdotool").args(["mousemove", &along(0.3), &row, "mousemove", &along(0.2), &row]));
    run(session.command("xdotool").args(["mouseup", "1"]));
    // What `pactl list sink-inputs` says of the application's stream.
    let sink_input = |application: &str| {
        let listed = server.pactl(&["list", "sink-inputs"]);
        let input = listed.split("Sink Input #").find(|input| input.contains(&format!("\"{application}\"")));
        input.map(str::to_owned).unwrap_or_else(|| panic!("no stream of {application} in {listed}"))
    };
    let volume_of = |application: &str| {
        let input = sink_input(application);
        // "Volume: front-left: 22938 /  35% / -27.36 dB, …"
        let percent = input.split_once("Volume:").and_then(|(_, volume)| volume.split_once('/')?.1.split_once('%'));
        percent.and_then(|(percent, _)| percent.trim().parse::<u32>().ok()).unwrap_or_else(|| panic!("{input}"))
    };
    let dragged = wait_for(Duration::from_secs(10), || (5..=40).contains(&volume_of("Radio")));
    assert!(dragged, "the radio is at {} %", volume_of("Radio"));
    assert_eq!(volume_of("Music"), 100, "the other application is left as it was");
    // The application's name is its mute button.
    let radio_row = (y + lines[4].0 as i32).to_string();
    run(session.command("xdotool").args(["mousemove", &along(0.5), &radio_row, "click", "1"]));
    let muted_of = |application: &str| sink_input(application).contains("Mute: yes");
    assert!(wait_for(Duration::from_secs(10), || muted_of("Radio")), "the radio was not muted by its button");
    assert!(!muted_of("Music"), "the other application was muted too");
    run(session.command("xdotool").args(["mousemove", "900", "500", "click", "1"]));

    // The Privacy item, in the urgent fill while the meeting records: its
    // dark text there is read on its own, as popups' is (see `popup_text`).
    let meeting = server.record("Meeting", "mic");
    let obi::colour::Rgba(r, g, b, _) = obi::theme::Theme::from_config(None, 255).urgent;
    let urgent_columns = || {
        let frame = session.grab().rows(0, 40);
        let urgent = |x: u32| (0..40).any(|y| same_colour(frame.pixel(x, y), [r, g, b, 255]));
        let columns: Vec<u32> = (0..700).filter(|&x| urgent(x)).collect();
        Some((*columns.first()?, *columns.last()?))
    };
    let privacy = workspace_dir().join("privacy-item.png");
    let mut text = String::new();
    let recording = wait_for(Duration::from_secs(10), || {
        let Some((left, right)) = urgent_columns() else { return false };
        let crop = format!("{}x40+{left}+0", right - left + 1);
        run(session.command("import").args(["-window", "root", "-crop", &crop, "+repage"]).arg(&privacy));
        text = popup_text(&privacy);
        text.contains("Recording: Meeting")
    });
    assert!(recording, "the Privacy item ({}) reads {text:?}", privacy.display());
    drop(meeting);
    let stopped = wait_for(Duration::from_secs(10), || urgent_columns().is_none());
    assert!(stopped, "the Privacy item stayed after the meeting stopped recording");
    assert!(reads(&["Volume:", "Mic:"], Some("Recording:")), "the bar reads {words:?}");
}

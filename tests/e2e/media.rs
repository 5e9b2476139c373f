//! A real player end to end: mpv, with its MPRIS plugin, on a private
//! session bus, loops a WAV file the test writes (its title and artist in
//! the file's tags, a `cover.png` beside it, which the plugin names as its
//! art); the bar shows "artist - title", read back with tesseract, a click
//! on it pauses mpv, and its popup shows the cover.

use crate::session_bus::SessionBus;
use crate::support::{Reaped, XSession, config_file, have_tools, run, wait_for};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

const TOOLS: &[&str] = &["Xvfb", "i3", "dbus-daemon", "dbus-send", "mpv", "xdotool", "import", "convert", "tesseract"];
pub const MPRIS_PLUGIN: &str = "/etc/mpv/scripts/mpris.so";
/// The tune's cover: one colour, found again in the popup.
const COVER: &str = "#00c800";

/// Two seconds of a 440 Hz tone as a WAV file, titled and signed in its
/// INFO tags.
fn write_tune(path: &Path) {
    let rate = 8000u32;
    let samples: Vec<u8> = (0..rate * 2)
        .flat_map(|i| {
            ((3000.0 * (2.0 * std::f32::consts::PI * 440.0 * i as f32 / rate as f32).sin()) as i16).to_le_bytes()
        })
        .collect();
    let chunk = |id: &[u8], body: &[u8]| {
        let mut chunk = id.to_vec();
        chunk.extend((body.len() as u32).to_le_bytes());
        chunk.extend(body);
        if body.len() % 2 == 1 {
            chunk.push(0);
        }
        chunk
    };
    let format = [1u16.to_le_bytes(), 1u16.to_le_bytes()].concat();
    let format = [
        format,
        rate.to_le_bytes().to_vec(),
        (rate * 2).to_le_bytes().to_vec(),
        2u16.to_le_bytes().to_vec(),
        16u16.to_le_bytes().to_vec(),
    ]
    .concat();
    let tags = [b"INFO".to_vec(), chunk(b"INAM", b"Obi Test Tune\0"), chunk(b"IART", b"The Sine Waves\0")].concat();
    let body = [b"WAVE".to_vec(), chunk(b"fmt ", &format), chunk(b"LIST", &tags), chunk(b"data", &samples)].concat();
    std::fs::write(path, chunk(b"RIFF", &body)).unwrap();
}

/// mpv on the bus at `address`, playing the tune (written into `dir`) over
/// and over; once it says it plays.
pub fn play(dir: &Path, address: &str) -> Reaped {
    let tune = dir.join("tune.wav");
    write_tune(&tune);
    let cover =
        run(Command::new("convert").args(["-size", "64x64", &format!("xc:{COVER}")]).arg(dir.join("cover.png")));
    assert!(cover.status.success(), "convert: {cover:?}");
    let mpv = Reaped(
        Command::new("mpv")
            .args(["--no-config", &format!("--script={MPRIS_PLUGIN}"), "--no-video", "--ao=null", "--loop=inf"])
            .arg(&tune)
            .env("DBUS_SESSION_BUS_ADDRESS", address)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting mpv"),
    );
    assert!(wait_for(Duration::from_secs(10), || playback_status(address).contains("Playing")), "mpv plays");
    mpv
}

fn playback_status(bus: &str) -> String {
    let output = run(Command::new("dbus-send")
        .env("DBUS_SESSION_BUS_ADDRESS", bus)
        .args(["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.mpv", "/org/mpris/MediaPlayer2"])
        .args([
            "org.freedesktop.DBus.Properties.Get",
            "string:org.mpris.MediaPlayer2.Player",
            "string:PlaybackStatus",
        ]));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn mpv_playing_shows_on_the_bar_and_a_click_pauses_it() {
    if !have_tools("media player test", TOOLS) {
        return;
    }
    if !Path::new(MPRIS_PLUGIN).exists() {
        crate::skip::unavailable(&format!("media player test: {MPRIS_PLUGIN} is missing (.ci/run installs mpv-mpris)"));
        return;
    }
    let session = XSession::start(1280, 720);
    let bus = SessionBus::start().expect("starting dbus-daemon");
    let address = bus.address.clone();
    let (dir, config) = config_file(
        r#"{ "height": 40, "font_size": 18, "left_widgets": [ { "Media": { "enable": true, "display": "Text" } } ], "right_widgets": [] }"#,
    );
    let _mpv = play(dir.path(), &address);
    let (_bar, _window) =
        session.start_bar_with_env(&config, Stdio::null(), &[("DBUS_SESSION_BUS_ADDRESS", address.as_ref())]);

    let png = dir.path().join("bar.png");
    let large = dir.path().join("bar-large.png");
    let mut text = String::new();
    let read = wait_for(Duration::from_secs(20), || {
        run(session.command("import").args(["-window", "root", "-crop", "700x40+0+0", "+repage"]).arg(&png));
        run(Command::new("convert").arg(&png).args(["-negate", "-resize", "300%"]).arg(&large));
        text =
            String::from_utf8_lossy(&run(Command::new("tesseract").arg(&large).args(["stdout", "--psm", "7"])).stdout)
                .trim()
                .to_owned();
        text.contains("The Sine Waves - Obi Test Tune")
    });
    assert!(read, "the bar reads {text:?}");

    run(session.command("xdotool").args(["mousemove", "60", "20", "click", "1"]));
    assert!(
        wait_for(Duration::from_secs(10), || playback_status(&address).contains("Paused")),
        "a click on the label paused mpv: {}",
        playback_status(&address)
    );

    // A secondary click opens what plays with the controls; its play button plays again.
    run(session.command("xdotool").args(["mousemove", "60", "20", "click", "3"]));
    let popup = session.find_window("^obi popup$", Duration::from_secs(10)).expect("the media popup opened");
    let (x, y, width, height) = session.geometry(&popup);
    let artifacts = crate::support::workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let shot = artifacts.join("popup-media.png");
    let read = wait_for(Duration::from_secs(10), || {
        session.grab_window(&popup, &shot);
        run(Command::new("convert").arg(&shot).args(["-negate", "-resize", "300%"]).arg(&large));
        text =
            String::from_utf8_lossy(&run(Command::new("tesseract").arg(&large).args(["stdout", "--psm", "6"])).stdout)
                .into_owned();
        text.contains("Obi Test Tune") && text.contains("The Sine Waves") && text.contains("mpv")
    });
    assert!(read, "the popup ({}) reads {text:?}", shot.display());
    let mut covered = 0;
    let cover_shown = wait_for(Duration::from_secs(10), || {
        session.grab_window(&popup, &shot);
        let frame = crate::support::Frame::read(&shot);
        let pixels = (0..frame.height).flat_map(|y| (0..frame.width).map(move |x| (x, y)));
        covered = pixels.filter(|&(x, y)| crate::support::same_colour(frame.pixel(x, y), [0, 200, 0, 255])).count();
        covered > 100
    });
    assert!(cover_shown, "the cover leads the popup ({covered} of its pixels; {})", shot.display());
    // The controls are the last row, three buttons across: play-pause in the middle.
    let (middle, last_row) = (x + width as i32 / 2, y + height as i32 - 25);
    run(session.command("xdotool").args(["mousemove", &middle.to_string(), &last_row.to_string(), "click", "1"]));
    assert!(
        wait_for(Duration::from_secs(10), || playback_status(&address).contains("Playing")),
        "the popup's play button played mpv again: {}",
        playback_status(&address)
    );
}

//! The audio capability against a real sound server of the test's own
//! (PulseAudio with two null sinks and a null source): what `pactl`
//! changes reaches the widgets that read it, requests change what `pactl`
//! reads back, applications playing and recording (`pacat`) are listed,
//! and a server that goes away and comes back is followed.
#![cfg(target_os = "linux")]

use obi::capabilities::audio::{Output, Streams};
use obi::capabilities::{Audio, AudioRequest, AudioStatus, StreamsStatus, SystemAudio};
use obi::view::images::HeldImages;
use obi::wake::Waker;
use obi_test_support::sound_server::SoundServer;
use obi_test_support::wait::until;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// A reader of the capability, as a widget is: it reads, and is woken.
struct Reader {
    audio: SystemAudio,
    waker: Waker,
}

impl Reader {
    fn of(server: &SoundServer) -> Reader {
        let wakes = Arc::new(AtomicUsize::new(0));
        let waker = Waker::new(move || {
            wakes.fetch_add(1, Ordering::SeqCst);
        });
        Reader { audio: SystemAudio::at(Some(server.socket.clone()), HeldImages::default()), waker }
    }

    /// Waits (10 s at most) until the outputs read satisfy `wanted`.
    fn wait_for(&self, what: &str, wanted: impl Fn(&[Output]) -> bool) -> Vec<Output> {
        let mut last = AudioStatus::Unavailable("never read".into());
        let found = until(Duration::from_secs(10), || {
            last = self.audio.status(&self.waker);
            matches!(&last, AudioStatus::Connected(outputs) if wanted(outputs))
        });
        match (found, last) {
            (true, AudioStatus::Connected(outputs)) => outputs,
            (_, last) => panic!("waited for {what}; last read {last:?}"),
        }
    }

    /// Waits (10 s at most) until the streams read satisfy `wanted`.
    fn wait_for_streams(&self, what: &str, wanted: impl Fn(&Streams) -> bool) -> Streams {
        let mut last = StreamsStatus::Unavailable("never read".into());
        let found = until(Duration::from_secs(10), || {
            last = self.audio.streams(&self.waker);
            matches!(&last, StreamsStatus::Connected(streams) if wanted(streams))
        });
        match (found, last) {
            (true, StreamsStatus::Connected(streams)) => streams,
            (_, last) => panic!("waited for {what}; last read {last:?}"),
        }
    }
}

fn named<'a>(outputs: &'a [Output], name: &str) -> &'a Output {
    outputs.iter().find(|output| output.name == name).unwrap_or_else(|| panic!("no {name} in {outputs:?}"))
}

fn server() -> Option<SoundServer> {
    SoundServer::for_tests("audio tests")
}

#[test]
fn the_outputs_and_their_changes_are_read() {
    let Some(server) = server() else { return };
    let reader = Reader::of(&server);
    let outputs = reader.wait_for("both outputs", |outputs| outputs.len() == 2);
    let first = named(&outputs, "first");
    assert!(first.is_default && !first.muted, "{first:?}");
    assert_eq!(first.description, "First");
    assert!(!named(&outputs, "second").is_default);

    server.pactl(&["set-sink-volume", "@DEFAULT_SINK@", "37%"]);
    reader.wait_for("37 % from pactl", |outputs| named(outputs, "first").volume_percent == 37);
    server.pactl(&["set-sink-mute", "first", "1"]);
    reader.wait_for("muted by pactl", |outputs| named(outputs, "first").muted);
    server.pactl(&["set-default-sink", "second"]);
    reader.wait_for("second made the default", |outputs| named(outputs, "second").is_default);
}

#[test]
fn requests_change_what_pactl_reads_back() {
    let Some(server) = server() else { return };
    let reader = Reader::of(&server);
    reader.wait_for("both outputs", |outputs| outputs.len() == 2);
    let ask = |request| reader.audio.request(request).unwrap();

    ask(AudioRequest::SetVolume { output: "first".into(), percent: 42 });
    reader.wait_for("42 %", |outputs| named(outputs, "first").volume_percent == 42);
    assert!(server.pactl(&["get-sink-volume", "first"]).contains("/  42% /"));

    ask(AudioRequest::SetMuted { output: "first".into(), muted: true });
    reader.wait_for("muted", |outputs| named(outputs, "first").muted);
    assert_eq!(server.pactl(&["get-sink-mute", "first"]), "Mute: yes");

    ask(AudioRequest::SetDefault { output: "second".into() });
    reader.wait_for("second as the default", |outputs| named(outputs, "second").is_default);
    assert_eq!(server.pactl(&["get-default-sink"]), "second");

    let refused = reader.audio.request(AudioRequest::SetMuted { output: "third".into(), muted: true });
    assert!(refused.unwrap_err().contains("no output named \"third\""));
}

#[test]
fn a_server_that_goes_away_is_unavailable_until_it_is_back() {
    let Some(mut server) = server() else { return };
    let reader = Reader::of(&server);
    reader.wait_for("both outputs", |outputs| outputs.len() == 2);
    server.stop();
    let gone = until(
        Duration::from_secs(10),
        || matches!(reader.audio.status(&reader.waker), AudioStatus::Unavailable(why) if why.contains("went away")),
    );
    assert!(gone, "read: {:?}", reader.audio.status(&reader.waker));
    let refused = reader.audio.request(AudioRequest::SetMuted { output: "first".into(), muted: true });
    assert!(refused.unwrap_err().starts_with("no sound server"));

    server.start_again().unwrap();
    server.pactl(&["set-sink-volume", "first", "23%"]);
    reader.wait_for("the server back, at 23 %", |outputs| named(outputs, "first").volume_percent == 23);
}

#[test]
fn the_applications_playing_each_have_their_own_volume_and_mute() {
    let Some(server) = server() else { return };
    let reader = Reader::of(&server);
    let _music = server.play("Music");
    let _radio = server.play("Radio");
    let streams = reader.wait_for_streams("two applications playing", |streams| streams.playing.len() == 2);
    let applications: Vec<&str> = streams.playing.iter().map(|playing| playing.application.as_str()).collect();
    assert_eq!(applications, ["Music", "Radio"]);
    assert!(streams.playing.iter().all(|playing| !playing.paused && !playing.muted), "{streams:?}");
    let radio = streams.playing[1].id;

    reader.audio.request(AudioRequest::SetPlayingVolume { stream: radio, percent: 35 }).unwrap();
    reader.audio.request(AudioRequest::SetPlayingMuted { stream: radio, muted: true }).unwrap();
    let streams = reader.wait_for_streams("the radio at 35 %, muted", |streams| {
        streams.playing.iter().any(|playing| playing.id == radio && playing.volume_percent == 35 && playing.muted)
    });
    assert_eq!(streams.playing[0].volume_percent, 100, "the other application is left as it was");
    let listed = server.pactl(&["list", "sink-inputs"]);
    let radio_listed = listed.split("Sink Input #").find(|input| input.contains("\"Radio\"")).unwrap();
    assert!(radio_listed.contains("/  35% /") && radio_listed.contains("Mute: yes"), "{radio_listed}");

    drop(_radio);
    reader.wait_for_streams("the radio gone", |streams| streams.playing.len() == 1);
    let refused = reader.audio.request(AudioRequest::SetPlayingMuted { stream: radio, muted: false });
    assert!(refused.unwrap_err().contains(&format!("no stream {radio} playing")));
}

#[test]
fn the_inputs_are_read_and_set_and_recording_from_them_is_seen() {
    let Some(server) = server() else { return };
    let reader = Reader::of(&server);
    let streams = reader.wait_for_streams("the microphone", |streams| !streams.inputs.is_empty());
    let inputs: Vec<(&str, &str, bool)> = streams
        .inputs
        .iter()
        .map(|input| (input.name.as_str(), input.description.as_str(), input.is_default))
        .collect();
    assert_eq!(inputs, [("mic", "Mic", true)], "the outputs' monitors are not inputs");
    assert!(streams.recording.is_empty());

    reader.audio.request(AudioRequest::SetInputVolume { input: "mic".into(), percent: 44 }).unwrap();
    reader.audio.request(AudioRequest::SetInputMuted { input: "mic".into(), muted: true }).unwrap();
    reader.wait_for_streams("the microphone at 44 %, muted", |streams| {
        streams.inputs[0].volume_percent == 44 && streams.inputs[0].muted
    });
    assert!(server.pactl(&["get-source-volume", "mic"]).contains("/  44% /"));
    assert_eq!(server.pactl(&["get-source-mute", "mic"]), "Mute: yes");

    // A visualiser reading what an output plays records nobody.
    let _visualiser = server.record("Visualiser", "first.monitor");
    // Nor does a mixer showing the microphone's level.
    let _mixer = server.measure_level("Mixer", "mic");
    let _meeting = server.record("Meeting", "mic");
    let streams = reader.wait_for_streams("the meeting recording", |streams| !streams.recording.is_empty());
    let recording: Vec<(&str, &str)> =
        streams.recording.iter().map(|recording| (recording.application.as_str(), recording.input.as_str())).collect();
    assert_eq!(recording, [("Meeting", "mic")]);
    drop(_meeting);
    reader.wait_for_streams("nobody recording", |streams| streams.recording.is_empty());

    server.pactl(&["set-default-source", "first.monitor"]);
    reader.wait_for_streams("no input the default", |streams| !streams.inputs[0].is_default);
    reader.audio.request(AudioRequest::SetDefaultInput { input: "mic".into() }).unwrap();
    reader.wait_for_streams("the microphone the default again", |streams| streams.inputs[0].is_default);
    assert_eq!(server.pactl(&["get-default-source"]), "mic");
}

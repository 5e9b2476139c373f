//! The audio capability against a real sound server of the test's own
//! (PulseAudio with two null sinks): what `pactl` changes reaches the
//! widgets that read it, requests change what `pactl` reads back, and a
//! server that goes away and comes back is followed.
#![cfg(target_os = "linux")]

use obi::capabilities::audio::Output;
use obi::capabilities::{Audio, AudioRequest, AudioStatus, SystemAudio};
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
        Reader { audio: SystemAudio::at(Some(server.socket.clone())), waker }
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

//! The `audio` and `audio-streams` capabilities: the sound server's
//! outputs (their volume, mute and which is the default), the applications
//! playing to them, the inputs and the applications recording from them,
//! followed by a thread of its own and pushed to the widgets that read
//! them, with requests to change them. On Linux the server is spoken to in
//! PulseAudio's native protocol ([`pulse`]), which PipeWire's pulse server
//! speaks too. The thread starts at the first reading, so a bar without a
//! widget that reads sound connects to nothing.

#[cfg(target_os = "linux")]
mod app_icons;
#[cfg(target_os = "linux")]
mod pulse;

use crate::view::images::HeldImages;
use crate::wake::{Follower, Waker};
#[cfg(target_os = "linux")]
use std::path::PathBuf;

/// A place sound goes (speakers, headphones, a HDMI monitor) or comes from
/// (an [`Input`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct Output {
    /// The server's name for it, which requests take.
    pub name: String,
    /// Its name for people.
    pub description: String,
    /// The mean of its channels, in percent of the server's norm.
    pub volume_percent: u32,
    pub muted: bool,
    pub is_default: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AudioStatus {
    /// Every output, in the server's order.
    Connected(Vec<Output>),
    /// No server to show, and why.
    Unavailable(String),
}

/// An application's stream of sound to an output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Playing {
    /// The server's number for it, which requests take.
    pub id: u32,
    /// The application's name for people.
    pub application: String,
    /// What it says it plays.
    pub title: String,
    /// Its icon from the icon theme, held in [`HeldImages`].
    pub icon: Option<u64>,
    pub volume_percent: u32,
    pub muted: bool,
    /// Corked: held by the application, not playing now.
    pub paused: bool,
}

/// A place sound comes from: a microphone, a line-in (not an output's
/// monitor). The server tells the same of it as of an output.
pub type Input = Output;

/// An application recording from an input, and not held by it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recording {
    pub application: String,
    pub icon: Option<u64>,
    /// The input's name.
    pub input: String,
}

/// What plays and records, in the order they began, and the inputs, in the server's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Streams {
    pub playing: Vec<Playing>,
    pub inputs: Vec<Input>,
    pub recording: Vec<Recording>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamsStatus {
    Connected(Streams),
    /// No server to show, and why.
    Unavailable(String),
}

/// What the thread publishes: the outputs and the streams, read together
/// after each burst of the server's events.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Heard {
    outputs: AudioStatus,
    streams: StreamsStatus,
}

impl Heard {
    fn unavailable(why: String) -> Heard {
        Heard { outputs: AudioStatus::Unavailable(why.clone()), streams: StreamsStatus::Unavailable(why) }
    }
}

/// A change asked of the sound server: of an output or an input by name,
/// or of an application's stream by number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AudioRequest {
    SetVolume { output: String, percent: u32 },
    SetMuted { output: String, muted: bool },
    SetDefault { output: String },
    SetPlayingVolume { stream: u32, percent: u32 },
    SetPlayingMuted { stream: u32, muted: bool },
    SetInputVolume { input: String, percent: u32 },
    SetInputMuted { input: String, muted: bool },
    SetDefaultInput { input: String },
}

/// What a request changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target<'a> {
    Output(&'a str),
    Input(&'a str),
    Playing(u32),
}

impl AudioRequest {
    pub fn target(&self) -> Target<'_> {
        match self {
            AudioRequest::SetVolume { output, .. }
            | AudioRequest::SetMuted { output, .. }
            | AudioRequest::SetDefault { output } => Target::Output(output),
            AudioRequest::SetPlayingVolume { stream, .. } | AudioRequest::SetPlayingMuted { stream, .. } => {
                Target::Playing(*stream)
            }
            AudioRequest::SetInputVolume { input, .. }
            | AudioRequest::SetInputMuted { input, .. }
            | AudioRequest::SetDefaultInput { input } => Target::Input(input),
        }
    }

    /// Whether it sets a volume: of such requests for one target, only the
    /// last matters.
    pub fn sets_volume(&self) -> bool {
        matches!(
            self,
            AudioRequest::SetVolume { .. }
                | AudioRequest::SetPlayingVolume { .. }
                | AudioRequest::SetInputVolume { .. }
        )
    }
}

/// The highest volume a request may set, in percent: what pavucontrol's
/// slider allows, loud enough for a quiet recording and short of clipping
/// everything.
pub const MAX_PERCENT: u32 = 150;

pub trait Audio: Send + Sync {
    /// The outputs as last reported; `waker`'s widget is woken at each
    /// change of what the server has from now on.
    fn status(&self, waker: &Waker) -> AudioStatus;

    /// The streams and inputs as last reported, read as [`Audio::status`].
    fn streams(&self, waker: &Waker) -> StreamsStatus;

    /// Asks the server for `request`, which it answers by reporting the
    /// change. Fails, saying why, without a server or such a target.
    fn request(&self, request: AudioRequest) -> Result<(), String>;
}

/// What readers see until the thread has first reached the server.
#[cfg(target_os = "linux")]
const CONNECTING: &str = "looking for the sound server";

/// The sound server, followed by a thread of its own; requests are handed
/// to it.
pub struct SystemAudio(Follower<Heard, AudioRequest>);

impl SystemAudio {
    /// The server of this session: `PULSE_SERVER`'s `unix:` socket, else
    /// `pulse/native` in `XDG_RUNTIME_DIR`. Applications' icons are held in `held`.
    pub fn new(held: HeldImages) -> SystemAudio {
        #[cfg(target_os = "linux")]
        return SystemAudio::at(None, held);
        #[cfg(not(target_os = "linux"))]
        return SystemAudio(Follower::new(
            "the sound server",
            "obi-audio",
            Heard::unavailable("sound is read from PulseAudio or PipeWire, which this system does not have".into()),
            move |_, _| drop(held),
        ));
    }

    /// The server listening on `socket` (a test's own), or the session's.
    #[cfg(target_os = "linux")]
    pub fn at(socket: Option<PathBuf>, held: HeldImages) -> SystemAudio {
        SystemAudio(Follower::new(
            "the sound server",
            "obi-audio",
            Heard::unavailable(CONNECTING.into()),
            move |shown, requests| pulse::follow(socket, &mut app_icons::AppIcons::new(held), shown, requests),
        ))
    }
}

impl Audio for SystemAudio {
    fn status(&self, waker: &Waker) -> AudioStatus {
        self.0.read(waker).outputs
    }

    fn streams(&self, waker: &Waker) -> StreamsStatus {
        self.0.read(waker).streams
    }

    fn request(&self, request: AudioRequest) -> Result<(), String> {
        let heard = self.0.current();
        check(&heard.outputs, &heard.streams, &request)?;
        match self.0.request(request) {
            true => Ok(()),
            false => Err("the sound server is not followed".into()),
        }
    }
}

/// Refuses a request the server could not take: no server, no such
/// output, input or stream.
pub fn check(outputs: &AudioStatus, streams: &StreamsStatus, request: &AudioRequest) -> Result<(), String> {
    let no_server = |why: &str| Err(format!("no sound server: {why}"));
    let found = match (request.target(), outputs, streams) {
        (Target::Output(name), AudioStatus::Connected(outputs), _) => {
            outputs.iter().any(|output| output.name == name).then_some(()).ok_or(format!("no output named {name:?}"))
        }
        (Target::Input(name), _, StreamsStatus::Connected(streams)) => streams
            .inputs
            .iter()
            .any(|input| input.name == name)
            .then_some(())
            .ok_or(format!("no input named {name:?}")),
        (Target::Playing(id), _, StreamsStatus::Connected(streams)) => streams
            .playing
            .iter()
            .any(|playing| playing.id == id)
            .then_some(())
            .ok_or(format!("no stream {id} playing")),
        (Target::Output(_), AudioStatus::Unavailable(why), _) => return no_server(why),
        (_, _, StreamsStatus::Unavailable(why)) => return no_server(why),
    };
    found.map_err(|missing| format!("the sound server has {missing}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn speakers() -> Output {
        Output {
            name: "speakers".into(),
            description: "Speakers".into(),
            volume_percent: 40,
            muted: false,
            is_default: true,
        }
    }

    fn streams() -> StreamsStatus {
        StreamsStatus::Connected(Streams {
            playing: vec![Playing {
                id: 7,
                application: "Music".into(),
                title: "A song".into(),
                icon: None,
                volume_percent: 80,
                muted: false,
                paused: false,
            }],
            inputs: vec![Input {
                name: "mic".into(),
                description: "Microphone".into(),
                volume_percent: 60,
                muted: false,
                is_default: true,
            }],
            recording: Vec::new(),
        })
    }

    #[test]
    fn a_request_names_an_output_the_server_has() {
        let connected = AudioStatus::Connected(vec![speakers()]);
        let mute = |output: &str| AudioRequest::SetMuted { output: output.into(), muted: true };
        assert_eq!(check(&connected, &streams(), &mute("speakers")), Ok(()));
        let error = check(&connected, &streams(), &mute("headphones")).unwrap_err();
        assert!(error.contains("no output named \"headphones\""), "{error}");
        let gone = Heard::unavailable("it is not running".into());
        let error = check(&gone.outputs, &gone.streams, &mute("speakers")).unwrap_err();
        assert_eq!(error, "no sound server: it is not running");
    }

    #[test]
    fn a_request_names_an_input_or_a_stream_the_server_has() {
        let connected = AudioStatus::Connected(vec![speakers()]);
        let input = |input: &str| AudioRequest::SetDefaultInput { input: input.into() };
        let stream = |stream| AudioRequest::SetPlayingMuted { stream, muted: true };
        assert_eq!(check(&connected, &streams(), &input("mic")), Ok(()));
        assert_eq!(check(&connected, &streams(), &stream(7)), Ok(()));
        assert_eq!(
            check(&connected, &streams(), &input("speakers")).unwrap_err(),
            "the sound server has no input named \"speakers\""
        );
        assert_eq!(check(&connected, &streams(), &stream(8)).unwrap_err(), "the sound server has no stream 8 playing");
        let gone = StreamsStatus::Unavailable("it went away".into());
        assert_eq!(check(&connected, &gone, &stream(7)).unwrap_err(), "no sound server: it went away");
    }
}

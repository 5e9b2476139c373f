//! The `audio` capability: the sound server's outputs (their volume, mute
//! and which is the default), followed by a thread of its own and pushed to
//! the widgets that read them, with requests to change them. On Linux the
//! server is spoken to in PulseAudio's native protocol ([`pulse`]), which
//! PipeWire's pulse server speaks too. The thread starts at the first
//! reading, so a bar without a Volume widget connects to nothing.

#[cfg(target_os = "linux")]
mod pulse;

use crate::wake::{Follower, Waker};
#[cfg(target_os = "linux")]
use std::path::PathBuf;

/// A place sound goes: speakers, headphones, a HDMI monitor.
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

/// A change asked of the sound server, for one output by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AudioRequest {
    SetVolume { output: String, percent: u32 },
    SetMuted { output: String, muted: bool },
    SetDefault { output: String },
}

impl AudioRequest {
    fn output(&self) -> &str {
        match self {
            AudioRequest::SetVolume { output, .. }
            | AudioRequest::SetMuted { output, .. }
            | AudioRequest::SetDefault { output } => output,
        }
    }
}

/// The highest volume a request may set, in percent: what pavucontrol's
/// slider allows, loud enough for a quiet recording and short of clipping
/// everything.
pub const MAX_PERCENT: u32 = 150;

pub trait Audio: Send + Sync {
    /// The outputs as last reported; `waker`'s widget is woken at each
    /// change from now on.
    fn status(&self, waker: &Waker) -> AudioStatus;

    /// Asks the server for `request`, which it answers by reporting the
    /// change. Fails, saying why, without a server or such an output.
    fn request(&self, request: AudioRequest) -> Result<(), String>;
}

/// What readers see until the thread has first reached the server.
#[cfg(target_os = "linux")]
const CONNECTING: &str = "looking for the sound server";

/// The sound server, followed by a thread of its own; requests are handed
/// to it.
pub struct SystemAudio(Follower<AudioStatus, AudioRequest>);

impl SystemAudio {
    /// The server of this session: `PULSE_SERVER`'s `unix:` socket, else
    /// `pulse/native` in `XDG_RUNTIME_DIR`.
    pub fn new() -> SystemAudio {
        #[cfg(target_os = "linux")]
        return SystemAudio::at(None);
        #[cfg(not(target_os = "linux"))]
        return SystemAudio(Follower::new(
            "the sound server",
            "obi-audio",
            AudioStatus::Unavailable(
                "volume is read from PulseAudio or PipeWire, which this system does not have".into(),
            ),
            |_, _| {},
        ));
    }

    /// The server listening on `socket` (a test's own), or the session's.
    #[cfg(target_os = "linux")]
    pub fn at(socket: Option<PathBuf>) -> SystemAudio {
        SystemAudio(Follower::new(
            "the sound server",
            "obi-audio",
            AudioStatus::Unavailable(CONNECTING.into()),
            move |shown, requests| pulse::follow(socket, shown, requests),
        ))
    }
}

impl Default for SystemAudio {
    fn default() -> Self {
        SystemAudio::new()
    }
}

impl Audio for SystemAudio {
    fn status(&self, waker: &Waker) -> AudioStatus {
        self.0.read(waker)
    }

    fn request(&self, request: AudioRequest) -> Result<(), String> {
        check(&self.0.current(), &request)?;
        match self.0.request(request) {
            true => Ok(()),
            false => Err("the sound server is not followed".into()),
        }
    }
}

/// Refuses a request the server could not take: no server, no such output.
pub fn check(status: &AudioStatus, request: &AudioRequest) -> Result<(), String> {
    let outputs = match status {
        AudioStatus::Connected(outputs) => outputs,
        AudioStatus::Unavailable(why) => return Err(format!("no sound server: {why}")),
    };
    match outputs.iter().any(|output| output.name == request.output()) {
        true => Ok(()),
        false => Err(format!("the sound server has no output named {:?}", request.output())),
    }
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

    #[test]
    fn a_request_names_an_output_the_server_has() {
        let connected = AudioStatus::Connected(vec![speakers()]);
        let mute = |output: &str| AudioRequest::SetMuted { output: output.into(), muted: true };
        assert_eq!(check(&connected, &mute("speakers")), Ok(()));
        let error = check(&connected, &mute("headphones")).unwrap_err();
        assert!(error.contains("no output named \"headphones\""), "{error}");
        let error = check(&AudioStatus::Unavailable("it is not running".into()), &mute("speakers")).unwrap_err();
        assert_eq!(error, "no sound server: it is not running");
    }
}

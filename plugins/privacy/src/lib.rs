//! # Privacy
//!
//! Shows while an application records from a microphone (the sound
//! server's recording streams, those on an output's monitor left out):
//! a microphone in the theme's urgent fill (with a text label, who
//! records), the tooltip naming who records from which input; and while
//! the screen is captured (shared, recorded), where the compositor says so
//! (Hyprland, niri): a screen beside it, its tooltip naming the output or
//! the window. Nothing shows while neither happens (an Obi extension of
//! the format, after Waybar's `privacy`).
//!
//! | key            | values                                 | default |
//! |----------------|----------------------------------------|---------|
//! | `enable`       | `true` / `false`                       | required |
//! | `label_prefix` | `None`, `Icon`, `Text`, `IconAndText`  | `Icon` |
//! | `ignore`       | application names whose recording is not shown, in any case | `[]` |
//!
//! ```json
//! { "Privacy": { "enable": true } }
//! ```

use obi_sdk::audio_streams::{self, Streams, StreamsStatus};
use obi_sdk::config::PrivacyConfig as Config;
use obi_sdk::log::{self, Level};
use obi_sdk::screen_casts::{self, ScreenCast};
use obi_sdk::{Emphasis, ItemBuilder, LabelPrefix, Piece, Schedule, View, Widget, icons, item};

/// The items' keys on the bar.
const RECORDING: &str = "recording";
const SHARING: &str = "sharing";

pub struct Privacy {
    prefix: LabelPrefix,
    /// Lowercase, as they are matched.
    ignored: Vec<String>,
}

/// The applications recording, each once, in the server's order.
fn recorders(streams: &Streams) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for recording in &streams.recording {
        if !names.contains(&recording.application.as_str()) {
            names.push(&recording.application);
        }
    }
    names
}

/// "Firefox records from Built-in Microphone", a line per recording.
fn tooltip(streams: &Streams) -> String {
    let input_named = |name: &str| {
        let input = streams.inputs.iter().find(|input| input.name == name);
        input.map_or(name.to_owned(), |input| input.description.clone())
    };
    let lines: Vec<String> = streams
        .recording
        .iter()
        .map(|recording| format!("{} records from {}", recording.application, input_named(&recording.input)))
        .collect();
    lines.join("\n")
}

/// What a cast captures, for people: the output's name, the window's
/// title, or which kind of thing where the compositor does not say.
fn captured(cast: &ScreenCast) -> String {
    match cast {
        ScreenCast::Output(name) => name.clone().unwrap_or_else(|| "the screen".into()),
        ScreenCast::Window(title) => {
            title.as_ref().map_or_else(|| "a window".into(), |title| format!("window {title}"))
        }
    }
}

impl Privacy {
    fn recording(&self, mut streams: Streams) -> Option<ItemBuilder> {
        streams.recording.retain(|recording| !self.ignored.contains(&recording.application.to_lowercase()));
        let streams = &streams;
        let recorders = recorders(streams);
        if recorders.is_empty() {
            return None;
        }
        let shown = item(RECORDING)
            .maybe(self.prefix.shows_icon().then(|| Piece::Icon(icons::MICROPHONE.into())))
            .maybe(
                (self.prefix != LabelPrefix::Icon)
                    .then(|| Piece::Text(self.prefix.label("Recording", &recorders.join(", ")))),
            )
            .tooltip(tooltip(streams))
            .emphasis(Emphasis::Urgent);
        Some(shown)
    }

    fn sharing(&self, casts: &[ScreenCast]) -> Option<ItemBuilder> {
        if casts.is_empty() {
            return None;
        }
        let captured: Vec<String> = casts.iter().map(captured).collect();
        let shown = item(SHARING)
            .maybe(self.prefix.shows_icon().then(|| Piece::Icon(icons::SCREENCAST.into())))
            .maybe(
                (self.prefix != LabelPrefix::Icon)
                    .then(|| Piece::Text(self.prefix.label("Sharing", &captured.join(", ")))),
            )
            .tooltip(captured.iter().map(|what| format!("Sharing {what}")).collect::<Vec<_>>().join("\n"))
            .emphasis(Emphasis::Urgent);
        Some(shown)
    }
}

impl Widget for Privacy {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let ignored = config.ignore.unwrap_or_default().iter().map(|name| name.to_lowercase()).collect();
        let privacy = Privacy { prefix: config.label_prefix.unwrap_or(LabelPrefix::Icon), ignored };
        // The host wakes the widget at each change of the server's streams,
        // and of the compositor's casts.
        Ok((privacy, Schedule { interval_ms: 0, align_to_wall_clock: false }))
    }

    fn refresh(&mut self) -> View {
        let streams = match audio_streams::status() {
            StreamsStatus::Connected(streams) => Some(streams),
            StreamsStatus::Unavailable(why) => {
                log::log(Level::Debug, &why);
                None
            }
        };
        let recording = streams.and_then(|streams| self.recording(streams));
        View::of(recording.into_iter().chain(self.sharing(&screen_casts::casts())))
    }
}

obi_sdk::export!(Privacy);

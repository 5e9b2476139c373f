//! # Volume
//!
//! The default output's volume and whether it is muted, from the sound
//! server (PulseAudio, or PipeWire's pulse server), pushed as it changes
//! (an Obi extension of the format). Scrolling changes it by `step`
//! percent a tick (up to 100; a louder output is left as loud when
//! scrolled up), a click mutes or unmutes it, and a secondary click opens a
//! popup with a slider, a mute button, the outputs, where choosing one
//! makes it the default, and each application playing, with its own slider
//! and mute. With `microphone`, the default input (a microphone) shows as
//! an item of its own beside it that answers the same way, its popup
//! listing the inputs and the applications recording. Without a sound
//! server the widget shows nothing; without an input, no microphone.
//! Ticks that come faster than the server answers each count: a tick goes
//! on from the volume the last one asked for.
//!
//! | key            | values                                  | default |
//! |----------------|-----------------------------------------|---------|
//! | `enable`       | `true` / `false`                        | required |
//! | `label_prefix` | `None`, `Icon`, `Text`, `IconAndText`   | `Icon` |
//! | `step`         | percent a scroll tick moves it, 1 to 100 | 5 |
//! | `microphone`   | `true`: the default input shown too     | `false` |
//!
//! ```json
//! { "Volume": { "enable": true, "label_prefix": "IconAndText", "step": 5, "microphone": true } }
//! ```

use obi_sdk::asked::Asked;
use obi_sdk::audio::{self, AudioStatus, Output};
use obi_sdk::audio_streams::{self, Input as SoundInput, Playing, Streams, StreamsStatus};
use obi_sdk::config::VolumeConfig as Config;
use obi_sdk::log::{self, Level};
use obi_sdk::{
    Emphasis, Input, Inputs, ItemBuilder, LabelPrefix, Piece, Popup, PopupInput, Schedule, ScrollDirection, View,
    Widget, ask, button, cell, icons, item, slider,
};

/// The items' keys on the bar, and the popup's cells.
const VOLUME: &str = "volume";
const MICROPHONE: &str = "microphone";
const SLIDER: &str = "slider";
const MUTE: &str = "mute";
/// An output's button is this and its name; an input's, the other.
const OUTPUT: &str = "output:";
const INPUT: &str = "input:";
/// An application's mute button and slider are these and its stream's number.
const APP_MUTE: &str = "app-mute:";
const APP_SLIDER: &str = "app-slider:";

/// The speaker's side or the microphone's: which item, which devices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Speaker,
    Microphone,
}

/// An output or an input, as an item and a popup show it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Device {
    name: String,
    description: String,
    volume_percent: u32,
    muted: bool,
    is_default: bool,
}

impl From<Output> for Device {
    fn from(output: Output) -> Device {
        let Output { name, description, volume_percent, muted, is_default } = output;
        Device { name, description, volume_percent, muted, is_default }
    }
}

impl From<SoundInput> for Device {
    fn from(input: SoundInput) -> Device {
        let SoundInput { name, description, volume_percent, muted, is_default } = input;
        Device { name, description, volume_percent, muted, is_default }
    }
}

impl Side {
    fn key(self) -> &'static str {
        match self {
            Side::Speaker => VOLUME,
            Side::Microphone => MICROPHONE,
        }
    }

    /// Its glyph for a level: crossed out when muted; a speaker's waves by loudness.
    fn glyph(self, device: &Device) -> &'static str {
        match (self, device.muted, device.volume_percent) {
            (Side::Microphone, true, _) => icons::MICROPHONE_SLASH,
            (Side::Microphone, false, _) => icons::MICROPHONE,
            (Side::Speaker, true, _) => icons::SPEAKER_X,
            (Side::Speaker, false, 0) => icons::SPEAKER_NONE,
            (Side::Speaker, false, 1..=50) => icons::SPEAKER_LOW,
            (Side::Speaker, false, _) => icons::SPEAKER_HIGH,
        }
    }

    /// What its devices' buttons' keys start with.
    fn device_prefix(self) -> &'static str {
        match self {
            Side::Speaker => OUTPUT,
            Side::Microphone => INPUT,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Side::Speaker => "Volume",
            Side::Microphone => "Mic",
        }
    }

    fn set_volume(self, device: &str, percent: u32) -> Result<(), String> {
        match self {
            Side::Speaker => audio::set_volume(device, percent),
            Side::Microphone => audio_streams::set_input_volume(device, percent),
        }
    }

    fn set_muted(self, device: &str, muted: bool) -> Result<(), String> {
        match self {
            Side::Speaker => audio::set_muted(device, muted),
            Side::Microphone => audio_streams::set_input_muted(device, muted),
        }
    }

    fn set_default(self, device: &str) -> Result<(), String> {
        match self {
            Side::Speaker => audio::set_default(device),
            Side::Microphone => audio_streams::set_default_input(device),
        }
    }
}

pub struct Volume {
    prefix: LabelPrefix,
    step: u32,
    microphone: bool,
    /// The outputs as last read; empty without a sound server.
    outputs: Vec<Device>,
    /// What plays and records, and the inputs, as last read.
    streams: Streams,
    /// The side whose popup is open.
    open: Option<Side>,
    asked_of_output: Asked,
    asked_of_input: Asked,
}

/// The volume after a scroll tick of `step` percent: up to 100, never
/// lowering a louder one; down to 0.
fn scrolled(percent: u32, direction: ScrollDirection, step: u32) -> u32 {
    match direction {
        ScrollDirection::Up | ScrollDirection::Right => percent.max((percent + step).min(100)),
        ScrollDirection::Down | ScrollDirection::Left => percent.saturating_sub(step),
    }
}

/// The device in use of `devices`: the server's default, or its first.
fn in_use(devices: &[Device]) -> Option<&Device> {
    devices.iter().find(|device| device.is_default).or(devices.first())
}

impl Volume {
    fn inputs(&self) -> Vec<Device> {
        self.streams.inputs.iter().cloned().map(Device::from).collect()
    }

    fn devices(&self, side: Side) -> Vec<Device> {
        match side {
            Side::Speaker => self.outputs.clone(),
            Side::Microphone => self.inputs(),
        }
    }

    fn asked(&mut self, side: Side) -> &mut Asked {
        match side {
            Side::Speaker => &mut self.asked_of_output,
            Side::Microphone => &mut self.asked_of_input,
        }
    }

    fn set_volume(&mut self, side: Side, percent: u32) {
        let Some(device) = in_use(&self.devices(side)).cloned() else { return };
        let asked = self.asked(side);
        if percent == asked.target(&device.name, device.volume_percent) {
            return;
        }
        match side.set_volume(&device.name, percent) {
            Ok(()) => asked.note(&device.name, device.volume_percent, percent),
            Err(error) => log::log(Level::Warn, &format!("cannot change the volume: {error}")),
        }
    }

    fn scroll(&mut self, side: Side, direction: ScrollDirection) {
        let Some(device) = in_use(&self.devices(side)).cloned() else { return };
        let target = self.asked(side).target(&device.name, device.volume_percent);
        self.set_volume(side, scrolled(target, direction, self.step));
    }

    fn toggle_mute(&self, side: Side) {
        let Some(device) = in_use(&self.devices(side)).cloned() else { return };
        ask("mute or unmute", side.set_muted(&device.name, !device.muted));
    }

    fn shown(&self, side: Side, device: &Device) -> ItemBuilder {
        let percent = format!("{}%", device.volume_percent);
        let state = if device.muted { ", muted" } else { "" };
        let shown = item(side.key())
            .takes(Inputs::PRIMARY_CLICK | Inputs::SECONDARY_CLICK | Inputs::SCROLL)
            .maybe(self.prefix.shows_icon().then(|| Piece::Icon(side.glyph(device).into())))
            .text(self.prefix.label(side.name(), &percent))
            .tooltip(format!("{}: {} %{state}", device.description, device.volume_percent));
        if device.muted { shown.emphasis(Emphasis::Muted) } else { shown.selected(self.open == Some(side)) }
    }

    fn playing(&self, stream: u32) -> Option<&Playing> {
        self.streams.playing.iter().find(|playing| playing.id == stream)
    }

    /// An application's lines: its mute button, named, and its slider.
    fn application(popup: Popup, playing: &Playing) -> Popup {
        let glyph = if playing.muted { icons::SPEAKER_X } else { icons::SPEAKER_HIGH };
        let name = match playing.title.is_empty() || playing.title == playing.application {
            true => playing.application.clone(),
            false => format!("{}: {}", playing.application, playing.title),
        };
        let mute = button(format!("{APP_MUTE}{}", playing.id))
            .maybe(Some(playing.icon.map_or(Piece::Icon(glyph.into()), Piece::HeldImage)))
            .text(name)
            .emphasis(if playing.muted || playing.paused { Emphasis::Muted } else { Emphasis::Normal });
        let level =
            slider(format!("{APP_SLIDER}{}", playing.id), playing.volume_percent.min(100) as u8).takes(Inputs::SCROLL);
        popup.line(mute).line(level)
    }
}

impl Widget for Volume {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let step = config.step.unwrap_or(5);
        if !(1..=100).contains(&step) {
            return Err(format!("`step` is percent a scroll tick moves the volume, 1 to 100, not {step}"));
        }
        let volume = Volume {
            prefix: config.label_prefix.unwrap_or(LabelPrefix::Icon),
            step: step.into(),
            microphone: config.microphone.unwrap_or(false),
            outputs: Vec::new(),
            streams: Streams { playing: Vec::new(), inputs: Vec::new(), recording: Vec::new() },
            open: None,
            asked_of_output: Asked::default(),
            asked_of_input: Asked::default(),
        };
        // The server tells the host of every change.
        Ok((volume, Schedule { interval_ms: 0, align_to_wall_clock: false }))
    }

    fn refresh(&mut self) -> View {
        self.outputs = match audio::status() {
            AudioStatus::Connected(outputs) => outputs.into_iter().map(Device::from).collect(),
            AudioStatus::Unavailable(why) => {
                log::log(Level::Debug, &why);
                Vec::new()
            }
        };
        self.streams = match audio_streams::status() {
            StreamsStatus::Connected(streams) => streams,
            StreamsStatus::Unavailable(_) => Streams { playing: Vec::new(), inputs: Vec::new(), recording: Vec::new() },
        };
        let mut items = Vec::new();
        for side in [Side::Speaker, Side::Microphone] {
            let device = in_use(&self.devices(side)).cloned();
            self.asked(side).settle(device.as_ref().map(|device| (device.name.as_str(), device.volume_percent)));
            let shows = side == Side::Speaker || self.microphone;
            if let Some(device) = device.filter(|_| shows) {
                items.push(self.shown(side, &device));
            } else if self.open == Some(side) {
                self.open = None;
            }
        }
        View::of(items)
    }

    fn on_input(&mut self, key: &str, input: Input) {
        let side = if key == MICROPHONE { Side::Microphone } else { Side::Speaker };
        match input {
            Input::Scroll(direction) => self.scroll(side, direction),
            Input::PrimaryClick => self.toggle_mute(side),
            Input::SecondaryClick => self.open = if self.open == Some(side) { None } else { Some(side) },
            _ => {}
        }
    }

    fn popup(&mut self) -> Option<Popup> {
        let side = self.open?;
        let devices = self.devices(side);
        let device = in_use(&devices)?;
        let mute = button(MUTE)
            .icon(side.glyph(&Device { volume_percent: 100, ..device.clone() }))
            .text(if device.muted { "Unmute" } else { "Mute" })
            .selected(device.muted);
        let level = slider(SLIDER, device.volume_percent.min(100) as u8).takes(Inputs::SCROLL);
        let popup = Popup::beside(side.key()).line(level).line(mute).separator();
        let choices = devices.iter().map(|device| {
            button(format!("{}{}", side.device_prefix(), device.name))
                .maybe(device.is_default.then(|| Piece::Icon(icons::CHECK.into())))
                .text(&device.description)
                .selected(device.is_default)
        });
        let popup = choices.fold(popup, Popup::line);
        Some(match side {
            Side::Speaker if !self.streams.playing.is_empty() => {
                self.streams.playing.iter().fold(popup.separator(), Volume::application)
            }
            Side::Microphone if !self.streams.recording.is_empty() => {
                let recording = self.streams.recording.iter().map(|recording| {
                    let from = devices.iter().find(|device| device.name == recording.input);
                    let from = from.map_or(recording.input.as_str(), |device| device.description.as_str());
                    cell("")
                        .maybe(Some(recording.icon.map_or(Piece::Icon(icons::MICROPHONE.into()), Piece::HeldImage)))
                        .text(format!("{} records from {from}", recording.application))
                });
                recording.fold(popup.separator(), Popup::line)
            }
            _ => popup,
        })
    }

    fn on_popup_input(&mut self, _item_key: &str, cell_key: &str, input: PopupInput) {
        let Some(side) = self.open else { return };
        let app = |prefix: &str| cell_key.strip_prefix(prefix).and_then(|id| id.parse::<u32>().ok());
        match (cell_key, input) {
            (SLIDER, PopupInput::Slide(percent)) => self.set_volume(side, percent.into()),
            (SLIDER, PopupInput::Input(Input::Scroll(direction))) => self.scroll(side, direction),
            (MUTE, PopupInput::Input(Input::PrimaryClick)) => self.toggle_mute(side),
            (_, PopupInput::Input(Input::PrimaryClick)) if app(APP_MUTE).is_some() => {
                let Some(playing) = app(APP_MUTE).and_then(|stream| self.playing(stream)) else { return };
                ask("mute or unmute the application", audio_streams::set_playing_muted(playing.id, !playing.muted));
            }
            (_, PopupInput::Slide(percent)) if app(APP_SLIDER).is_some() => {
                let Some(stream) = app(APP_SLIDER) else { return };
                ask("change the application's volume", audio_streams::set_playing_volume(stream, percent.into()));
            }
            (_, PopupInput::Input(Input::Scroll(direction))) if app(APP_SLIDER).is_some() => {
                let Some(playing) = app(APP_SLIDER).and_then(|stream| self.playing(stream)) else { return };
                let percent = scrolled(playing.volume_percent, direction, self.step);
                ask("change the application's volume", audio_streams::set_playing_volume(playing.id, percent));
            }
            (cell, PopupInput::Input(Input::PrimaryClick)) => {
                let Some(name) = cell.strip_prefix(side.device_prefix()) else { return };
                if self.devices(side).iter().any(|device| device.name == name && !device.is_default) {
                    ask("choose the device", side.set_default(name));
                }
            }
            _ => {}
        }
    }

    fn on_popup_closed(&mut self, _item_key: &str) {
        self.open = None;
    }
}

obi_sdk::export!(Volume);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tick_moves_by_the_step_up_to_100_and_down_to_0() {
        assert_eq!(scrolled(37, ScrollDirection::Up, 5), 42);
        assert_eq!(scrolled(98, ScrollDirection::Up, 5), 100);
        assert_eq!(scrolled(120, ScrollDirection::Up, 5), 120, "a boosted output is not lowered by scrolling up");
        assert_eq!(scrolled(37, ScrollDirection::Down, 5), 32);
        assert_eq!(scrolled(3, ScrollDirection::Left, 5), 0);
        assert_eq!(scrolled(120, ScrollDirection::Down, 5), 115);
    }

    #[test]
    fn the_glyph_shows_the_level_and_muting() {
        let at = |volume_percent, muted| Device {
            name: "n".into(),
            description: "d".into(),
            volume_percent,
            muted,
            is_default: true,
        };
        assert_eq!(Side::Speaker.glyph(&at(0, false)), icons::SPEAKER_NONE);
        assert_eq!(Side::Speaker.glyph(&at(30, false)), icons::SPEAKER_LOW);
        assert_eq!(Side::Speaker.glyph(&at(80, false)), icons::SPEAKER_HIGH);
        assert_eq!(Side::Speaker.glyph(&at(80, true)), icons::SPEAKER_X);
        assert_eq!(Side::Microphone.glyph(&at(80, false)), icons::MICROPHONE);
        assert_eq!(Side::Microphone.glyph(&at(80, true)), icons::MICROPHONE_SLASH);
    }
}

//! # Volume
//!
//! The default output's volume and whether it is muted, from the sound
//! server (PulseAudio, or PipeWire's pulse server), pushed as it changes
//! (an Obi extension of the format). Scrolling changes it by `step`
//! percent a tick (up to 100; a louder output is left as loud when
//! scrolled up), a click mutes or unmutes it, and a secondary click opens a
//! popup with a slider, a mute button and the outputs, where choosing one
//! makes it the default. Without a sound server the widget shows nothing.
//! Ticks that come faster than the server answers each count: a tick goes
//! on from the volume the last one asked for.
//!
//! | key            | values                                  | default |
//! |----------------|-----------------------------------------|---------|
//! | `enable`       | `true` / `false`                        | required |
//! | `label_prefix` | `None`, `Icon`, `Text`, `IconAndText`   | `Icon` |
//! | `step`         | percent a scroll tick moves it, 1 to 100 | 5 |
//!
//! ```json
//! { "Volume": { "enable": true, "label_prefix": "IconAndText", "step": 5 } }
//! ```

use obi_sdk::asked::Asked;
use obi_sdk::audio::{self, AudioStatus, Output};
use obi_sdk::config::VolumeConfig as Config;
use obi_sdk::log::{self, Level};
use obi_sdk::{
    Emphasis, Input, Inputs, LabelPrefix, Piece, Popup, PopupInput, Schedule, ScrollDirection, View, Widget, ask,
    button, icons, item, slider,
};

/// The item's key on the bar, and the popup's cells.
const VOLUME: &str = "volume";
const SLIDER: &str = "slider";
const MUTE: &str = "mute";
/// An output's button is this and its name.
const OUTPUT: &str = "output:";

pub struct Volume {
    prefix: LabelPrefix,
    step: u32,
    /// The outputs as last read; empty without a sound server.
    outputs: Vec<Output>,
    open: bool,
    asked: Asked,
}

/// The speaker for a level: crossed out when muted, its waves by loudness.
fn glyph(output: &Output) -> &'static str {
    match (output.muted, output.volume_percent) {
        (true, _) => icons::SPEAKER_X,
        (false, 0) => icons::SPEAKER_NONE,
        (false, 1..=50) => icons::SPEAKER_LOW,
        (false, _) => icons::SPEAKER_HIGH,
    }
}

/// The volume after a scroll tick of `step` percent: up to 100, never
/// lowering a louder one; down to 0.
fn scrolled(percent: u32, direction: ScrollDirection, step: u32) -> u32 {
    match direction {
        ScrollDirection::Up | ScrollDirection::Right => percent.max((percent + step).min(100)),
        ScrollDirection::Down | ScrollDirection::Left => percent.saturating_sub(step),
    }
}

impl Volume {
    /// The output sound goes to: the server's default, or its first.
    fn default_output(&self) -> Option<&Output> {
        self.outputs.iter().find(|output| output.is_default).or(self.outputs.first())
    }

    fn set_volume(&mut self, percent: u32) {
        let Some(output) = self.default_output() else { return };
        if percent == self.asked.target(&output.name, output.volume_percent) {
            return;
        }
        let (name, reading) = (output.name.clone(), output.volume_percent);
        match audio::set_volume(&name, percent) {
            Ok(()) => self.asked.note(&name, reading, percent),
            Err(error) => log::log(Level::Warn, &format!("cannot change the volume: {error}")),
        }
    }

    fn scroll(&mut self, direction: ScrollDirection) {
        let Some(output) = self.default_output() else { return };
        let target = self.asked.target(&output.name, output.volume_percent);
        self.set_volume(scrolled(target, direction, self.step));
    }

    fn toggle_mute(&self) {
        let Some(output) = self.default_output() else { return };
        ask("mute or unmute", audio::set_muted(&output.name, !output.muted));
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
            outputs: Vec::new(),
            open: false,
            asked: Asked::default(),
        };
        // The server tells the host of every change.
        Ok((volume, Schedule { interval_ms: 0, align_to_wall_clock: false }))
    }

    fn refresh(&mut self) -> View {
        self.outputs = match audio::status() {
            AudioStatus::Connected(outputs) => outputs,
            AudioStatus::Unavailable(why) => {
                log::log(Level::Debug, &why);
                Vec::new()
            }
        };
        let default = self.default_output().cloned();
        self.asked.settle(default.as_ref().map(|output| (output.name.as_str(), output.volume_percent)));
        let Some(output) = self.default_output() else { return View::empty() };
        let percent = format!("{}%", output.volume_percent);
        let state = if output.muted { ", muted" } else { "" };
        let shown = item(VOLUME)
            .takes(Inputs::PRIMARY_CLICK | Inputs::SECONDARY_CLICK | Inputs::SCROLL)
            .maybe(self.prefix.shows_icon().then(|| Piece::Icon(glyph(output).into())))
            .text(self.prefix.label("Volume", &percent))
            .tooltip(format!("{}: {} %{state}", output.description, output.volume_percent));
        View::of([if output.muted { shown.emphasis(Emphasis::Muted) } else { shown.selected(self.open) }])
    }

    fn on_input(&mut self, _key: &str, input: Input) {
        match input {
            Input::Scroll(direction) => self.scroll(direction),
            Input::PrimaryClick => self.toggle_mute(),
            Input::SecondaryClick => self.open = !self.open,
            _ => {}
        }
    }

    fn popup(&mut self) -> Option<Popup> {
        let output = self.default_output().filter(|_| self.open)?;
        let mute = button(MUTE)
            .icon(if output.muted { icons::SPEAKER_X } else { icons::SPEAKER_HIGH })
            .text(if output.muted { "Unmute" } else { "Mute" })
            .selected(output.muted);
        let level = slider(SLIDER, output.volume_percent.min(100) as u8).takes(Inputs::SCROLL);
        let popup = Popup::beside(VOLUME).line(level).line(mute).separator();
        let outputs = self.outputs.iter().map(|output| {
            button(format!("{OUTPUT}{}", output.name))
                .maybe(output.is_default.then(|| Piece::Icon(icons::CHECK.into())))
                .text(&output.description)
                .selected(output.is_default)
        });
        Some(outputs.fold(popup, Popup::line))
    }

    fn on_popup_input(&mut self, _item_key: &str, cell_key: &str, input: PopupInput) {
        match (cell_key, input) {
            (SLIDER, PopupInput::Slide(percent)) => self.set_volume(percent.into()),
            (SLIDER, PopupInput::Input(Input::Scroll(direction))) => self.scroll(direction),
            (MUTE, PopupInput::Input(Input::PrimaryClick)) => self.toggle_mute(),
            (cell, PopupInput::Input(Input::PrimaryClick)) => {
                let Some(name) = cell.strip_prefix(OUTPUT) else { return };
                if self.outputs.iter().any(|output| output.name == name && !output.is_default) {
                    ask("choose the output", audio::set_default(name));
                }
            }
            _ => {}
        }
    }

    fn on_popup_closed(&mut self, _item_key: &str) {
        self.open = false;
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
    fn the_speaker_shows_the_level_and_muting() {
        let at = |volume_percent, muted| Output {
            name: "n".into(),
            description: "d".into(),
            volume_percent,
            muted,
            is_default: true,
        };
        assert_eq!(glyph(&at(0, false)), icons::SPEAKER_NONE);
        assert_eq!(glyph(&at(30, false)), icons::SPEAKER_LOW);
        assert_eq!(glyph(&at(80, false)), icons::SPEAKER_HIGH);
        assert_eq!(glyph(&at(80, true)), icons::SPEAKER_X);
    }
}

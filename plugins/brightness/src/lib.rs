//! # Brightness
//!
//! The screen's backlight (a laptop's panel, from Linux's backlight
//! class), pushed as it changes and set through logind, which lets the
//! user at the seat do so without root (an Obi extension of the format).
//! Scrolling changes it by `step` percent a tick, never below 1 so the
//! panel stays lit; a click opens a popup with a slider. Without a
//! backlight (a desktop's monitor) the widget shows nothing. Ticks that
//! come faster than the level is read back each count: a tick goes on from
//! the level the last one asked for.
//!
//! | key            | values                                   | default |
//! |----------------|------------------------------------------|---------|
//! | `enable`       | `true` / `false`                         | required |
//! | `label_prefix` | `None`, `Icon`, `Text`, `IconAndText`    | `Icon` |
//! | `step`         | percent a scroll tick moves it, 1 to 100 | 5 |
//!
//! ```json
//! { "Brightness": { "enable": true, "label_prefix": "IconAndText", "step": 5 } }
//! ```

use obi_sdk::asked::Asked;
use obi_sdk::backlight::{self, BacklightStatus, Panel};
use obi_sdk::config::BrightnessConfig as Config;
use obi_sdk::log::{self, Level};
use obi_sdk::{
    Input, Inputs, LabelPrefix, Piece, Popup, PopupInput, Schedule, ScrollDirection, View, Widget, icons, item, slider,
};

/// The item's key on the bar, and the popup's slider.
const BRIGHTNESS: &str = "brightness";
const SLIDER: &str = "slider";

/// The dimmest a tick or the slider sets: a panel at 0 is dark on many
/// laptops, the bar with it.
const DIMMEST: u32 = 1;

pub struct Brightness {
    prefix: LabelPrefix,
    step: u32,
    /// The panel as last read; none without a backlight.
    panel: Option<Panel>,
    open: bool,
    asked: Asked,
}

/// The level after a scroll tick of `step` percent: up to 100, down to [`DIMMEST`].
fn scrolled(percent: u32, direction: ScrollDirection, step: u32) -> u32 {
    match direction {
        ScrollDirection::Up | ScrollDirection::Right => (percent + step).min(100),
        ScrollDirection::Down | ScrollDirection::Left => percent.saturating_sub(step).max(DIMMEST),
    }
}

impl Brightness {
    fn set_level(&mut self, percent: u32) {
        let Some(panel) = &self.panel else { return };
        let percent = percent.clamp(DIMMEST, 100);
        if percent == self.asked.target(&panel.device, panel.percent) {
            return;
        }
        let (device, reading) = (panel.device.clone(), panel.percent);
        match backlight::set_percent(percent) {
            Ok(()) => self.asked.note(&device, reading, percent),
            Err(error) => log::log(Level::Warn, &format!("cannot change the brightness: {error}")),
        }
    }

    fn scroll(&mut self, direction: ScrollDirection) {
        let Some(panel) = &self.panel else { return };
        let target = self.asked.target(&panel.device, panel.percent);
        self.set_level(scrolled(target, direction, self.step));
    }
}

impl Widget for Brightness {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let step = config.step.unwrap_or(5);
        if !(1..=100).contains(&step) {
            return Err(format!("`step` is percent a scroll tick moves the brightness, 1 to 100, not {step}"));
        }
        let brightness = Brightness {
            prefix: config.label_prefix.unwrap_or(LabelPrefix::Icon),
            step: step.into(),
            panel: None,
            open: false,
            asked: Asked::default(),
        };
        // The host follows the panel and wakes the widget at each change.
        Ok((brightness, Schedule { interval_ms: 0, align_to_wall_clock: false }))
    }

    fn refresh(&mut self) -> View {
        self.panel = match backlight::status() {
            BacklightStatus::Level(panel) => Some(panel),
            BacklightStatus::Absent(why) => {
                log::log(Level::Debug, &why);
                None
            }
        };
        self.asked.settle(self.panel.as_ref().map(|panel| (panel.device.as_str(), panel.percent)));
        let Some(panel) = &self.panel else { return View::empty() };
        let percent = format!("{}%", panel.percent);
        let shown = item(BRIGHTNESS)
            .takes(Inputs::PRIMARY_CLICK | Inputs::SCROLL)
            .maybe(self.prefix.shows_icon().then(|| Piece::Icon(icons::SUN.into())))
            .text(self.prefix.label("Brightness", &percent))
            .tooltip(format!("Brightness ({}): {} %", panel.device, panel.percent))
            .selected(self.open);
        View::of([shown])
    }

    fn on_input(&mut self, _key: &str, input: Input) {
        match input {
            Input::Scroll(direction) => self.scroll(direction),
            Input::PrimaryClick => self.open = !self.open,
            _ => {}
        }
    }

    fn popup(&mut self) -> Option<Popup> {
        let panel = self.panel.as_ref().filter(|_| self.open)?;
        let level = slider(SLIDER, panel.percent.min(100) as u8).takes(Inputs::SCROLL);
        Some(Popup::beside(BRIGHTNESS).line(level))
    }

    fn on_popup_input(&mut self, _item_key: &str, cell_key: &str, input: PopupInput) {
        match (cell_key, input) {
            (SLIDER, PopupInput::Slide(percent)) => self.set_level(percent.into()),
            (SLIDER, PopupInput::Input(Input::Scroll(direction))) => self.scroll(direction),
            _ => {}
        }
    }

    fn on_popup_closed(&mut self, _item_key: &str) {
        self.open = false;
    }
}

obi_sdk::export!(Brightness);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tick_moves_by_the_step_up_to_100_and_down_to_the_dimmest() {
        assert_eq!(scrolled(37, ScrollDirection::Up, 5), 42);
        assert_eq!(scrolled(98, ScrollDirection::Up, 5), 100);
        assert_eq!(scrolled(37, ScrollDirection::Down, 5), 32);
        assert_eq!(scrolled(3, ScrollDirection::Left, 5), DIMMEST, "the panel stays lit");
    }
}

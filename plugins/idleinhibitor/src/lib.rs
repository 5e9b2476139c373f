//! # IdleInhibitor
//!
//! A switch that holds idling off while on, as Waybar's `idle_inhibitor`
//! (one hold for the bar's process: every bar's inhibitor shows it):
//! the screen does not blank or lock, nor the machine sleep, for want of
//! input (a film, a talk). A click switches it; an open eye shows it on, a
//! closed one off; the tooltip says which, or why idling cannot be held off
//! here (an Obi extension of the format).
//!
//! | key               | values                                 | default |
//! |-------------------|----------------------------------------|---------|
//! | `enable`          | `true` / `false`                       | required |
//! | `label_prefix`    | `None`, `Icon`, `Text`, `IconAndText`  | `Icon` |
//! | `start_activated` | `true`: on from the start              | `false` |
//!
//! ```json
//! { "IdleInhibitor": { "enable": true, "start_activated": false } }
//! ```

use obi_sdk::config::IdleInhibitorConfig as Config;
use obi_sdk::idle_inhibit::{self, IdleStatus};
use obi_sdk::{Input, Inputs, LabelPrefix, Piece, Schedule, View, Widget, icons, item};

/// The item's key on the bar.
const INHIBITOR: &str = "idle-inhibitor";

pub struct IdleInhibitor {
    prefix: LabelPrefix,
}

impl Widget for IdleInhibitor {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        if config.start_activated.unwrap_or(false) {
            idle_inhibit::set_held(true);
        }
        let inhibitor = IdleInhibitor { prefix: config.label_prefix.unwrap_or(LabelPrefix::Icon) };
        // The host wakes the widget when the hold changes.
        Ok((inhibitor, Schedule { interval_ms: 0, align_to_wall_clock: false }))
    }

    fn refresh(&mut self) -> View {
        let status = idle_inhibit::status();
        let held = status == IdleStatus::Held;
        let (state, tooltip) = match &status {
            IdleStatus::Held => ("on", "Idle inhibitor on: the screen stays awake".to_owned()),
            IdleStatus::NotHeld => ("off", "Idle inhibitor off".to_owned()),
            IdleStatus::Unavailable(why) => ("off", format!("Idle inhibitor: {why}")),
        };
        let shown = item(INHIBITOR)
            .takes(Inputs::PRIMARY_CLICK)
            .maybe(
                self.prefix.shows_icon().then(|| Piece::Icon(if held { icons::EYE } else { icons::EYE_CLOSED }.into())),
            )
            .maybe(self.prefix.shows_text().then(|| Piece::Text(self.prefix.label("Idle", state))))
            .tooltip(tooltip)
            .selected(held);
        View::of([shown])
    }

    fn on_input(&mut self, _key: &str, input: Input) {
        // The hold is the process's: a click switches it from what it is,
        // whichever bar's inhibitor switched it last.
        if input == Input::PrimaryClick {
            idle_inhibit::set_held(idle_inhibit::status() != IdleStatus::Held);
        }
    }
}

obi_sdk::export!(IdleInhibitor);

//! # Battery
//!
//! Each battery's charge in percent, with an icon for its level (or for
//! charging). A machine without a battery shows nothing.
//!
//! | key                     | values                                                | default |
//! |-------------------------|-------------------------------------------------------|---------|
//! | `enable`                | `true` / `false`                                      | required |
//! | `data_refresh_interval` | seconds between two readings                          | `10`    |
//! | `label_prefix`          | `None`, `Icon`, `Text`, `IconAndText`                 | `Icon`  |
//! | `auto_select_under`     | percent; selected while the charge is below it        | none    |
//! | `hide_on_full_charge`   | `true`: hidden while the battery reports itself full  | `false` |
//!
//! The tooltip names the battery and its state ("BAT0: charging").
//!
//! ```json
//! { "Battery": { "enable": true, "auto_select_under": 20, "hide_on_full_charge": true } }
//! ```

use obi_sdk::battery::{self, Battery as Reading, ChargeState};
use obi_sdk::config::BatteryConfig as Config;
use obi_sdk::{LabelPrefix, Piece, Schedule, View, Widget, icons, item};

pub struct Battery {
    label_prefix: LabelPrefix,
    auto_select_under: Option<u8>,
    hide_on_full_charge: bool,
}

fn icon(reading: &Reading, percent: u8) -> &'static str {
    match (reading.state, percent) {
        (ChargeState::Charging, _) => icons::BATTERY_CHARGING,
        (_, 90..) => icons::BATTERY_FULL,
        (_, 60..) => icons::BATTERY_HIGH,
        (_, 30..) => icons::BATTERY_MEDIUM,
        (_, 10..) => icons::BATTERY_LOW,
        _ => icons::BATTERY_EMPTY,
    }
}

fn state_name(state: ChargeState) -> &'static str {
    match state {
        ChargeState::Charging => "charging",
        ChargeState::Discharging => "discharging",
        ChargeState::Full => "full",
        ChargeState::NotCharging => "not charging",
        ChargeState::Unknown => "state unknown",
    }
}

impl Widget for Battery {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let battery = Battery {
            label_prefix: config.label_prefix.unwrap_or(LabelPrefix::Icon),
            auto_select_under: config.auto_select_under,
            hide_on_full_charge: config.hide_on_full_charge.unwrap_or(false),
        };
        Ok((battery, Schedule::data_refresh_interval(config.data_refresh_interval)))
    }

    fn refresh(&mut self) -> View {
        let items = battery::batteries()
            .into_iter()
            .filter(|reading| !(self.hide_on_full_charge && reading.state == ChargeState::Full))
            .map(|reading| {
                let percent = reading.percent.clamp(0.0, 100.0).round() as u8;
                item(reading.name.clone())
                    .maybe(self.label_prefix.shows_icon().then(|| Piece::Icon(icon(&reading, percent).into())))
                    .text(self.label_prefix.label("BAT", &format!("{percent}%")))
                    .selected(self.auto_select_under.is_some_and(|under| percent < under))
                    .tooltip(format!("{}: {}", reading.name, state_name(reading.state)))
            });
        View::of(items)
    }
}

obi_sdk::export!(Battery);

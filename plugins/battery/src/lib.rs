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
//! The tooltip names the battery and its state ("BAT0: charging"). Where
//! power-profiles-daemon runs, a click opens a popup of its profiles
//! (power saver, balanced, performance) with the one in use marked, where
//! choosing one makes it the one in use (an Obi extension of the format).
//!
//! ```json
//! { "Battery": { "enable": true, "auto_select_under": 20, "hide_on_full_charge": true } }
//! ```

use obi_sdk::battery::{self, Battery as Reading, ChargeState};
use obi_sdk::config::BatteryConfig as Config;
use obi_sdk::log::{self, Level};
use obi_sdk::power_profiles::{self, OfferedProfiles, ProfilesStatus};
use obi_sdk::{
    Input, Inputs, LabelPrefix, Piece, Popup, PopupInput, Schedule, View, Widget, ask, button, icons, item, label,
};

/// A profile's button in the popup is this and the profile's name.
const PROFILE: &str = "profile:";

pub struct Battery {
    label_prefix: LabelPrefix,
    auto_select_under: Option<u8>,
    hide_on_full_charge: bool,
    /// The power profiles as last read; none without the daemon.
    profiles: Option<OfferedProfiles>,
    /// The battery whose popup is open.
    open: Option<String>,
}

/// A profile's name for people; one the daemon adds later by its own.
fn profile_name(profile: &str) -> &str {
    match profile {
        "power-saver" => "Power saver",
        "balanced" => "Balanced",
        "performance" => "Performance",
        other => other,
    }
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
            profiles: None,
            open: None,
        };
        Ok((battery, Schedule::data_refresh_interval(config.data_refresh_interval)))
    }

    fn refresh(&mut self) -> View {
        let readings: Vec<Reading> = battery::batteries()
            .into_iter()
            .filter(|reading| !(self.hide_on_full_charge && reading.state == ChargeState::Full))
            .collect();
        // Only a battery shown has a popup: without one (a desktop) the
        // daemon is not looked for.
        self.profiles = match readings.is_empty() {
            true => None,
            false => match power_profiles::status() {
                ProfilesStatus::Offered(profiles) => Some(profiles),
                ProfilesStatus::Unavailable(why) => {
                    log::log(Level::Debug, &why);
                    None
                }
            },
        };
        let takes = if self.profiles.is_some() { Inputs::PRIMARY_CLICK } else { Inputs::empty() };
        let items = readings.into_iter().map(|reading| {
            let percent = reading.percent.clamp(0.0, 100.0).round() as u8;
            item(reading.name.clone())
                .maybe(self.label_prefix.shows_icon().then(|| Piece::Icon(icon(&reading, percent).into())))
                .text(self.label_prefix.label("BAT", &format!("{percent}%")))
                .takes(takes)
                .selected(
                    self.auto_select_under.is_some_and(|under| percent < under)
                        || self.open.as_ref() == Some(&reading.name),
                )
                .tooltip(format!("{}: {}", reading.name, state_name(reading.state)))
        });
        View::of(items)
    }

    fn on_input(&mut self, key: &str, input: Input) {
        if input == Input::PrimaryClick && self.profiles.is_some() {
            self.open = if self.open.as_deref() == Some(key) { None } else { Some(key.to_owned()) };
        }
    }

    fn popup(&mut self) -> Option<Popup> {
        let (open, profiles) = (self.open.as_ref()?, self.profiles.as_ref()?);
        let popup = Popup::beside(open.clone()).line(label("Power profile"));
        let buttons = profiles.profiles.iter().map(|profile| {
            let active = *profile == profiles.active;
            button(format!("{PROFILE}{profile}"))
                .maybe(active.then(|| Piece::Icon(icons::CHECK.into())))
                .text(profile_name(profile))
                .selected(active)
        });
        Some(buttons.fold(popup, Popup::line))
    }

    fn on_popup_input(&mut self, _item_key: &str, cell_key: &str, input: PopupInput) {
        let Some(profile) = cell_key.strip_prefix(PROFILE) else { return };
        if input == PopupInput::Input(Input::PrimaryClick) {
            ask("change the power profile", power_profiles::set_active(profile));
        }
    }

    fn on_popup_closed(&mut self, _item_key: &str) {
        self.open = None;
    }
}

obi_sdk::export!(Battery);

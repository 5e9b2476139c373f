//! # Network
//!
//! The traffic of the interface the default route leaves through: its rates
//! (received, transmitted), its totals since it came up, and its name.
//!
//! | key                      | values                                                      | default |
//! |--------------------------|-------------------------------------------------------------|---------|
//! | `enable`                 | `true` / `false`                                            | required |
//! | `show_activity`          | show the received and transmitted rates                     | required |
//! | `show_total_activity`    | show the received and transmitted totals                    | required |
//! | `show_default_interface` | show the default interface's name                           | `true`  |
//! | `activity_left_padding`  | characters reserved for each rate, so the bar does not jitter | none  |
//! | `auto_select`            | `received_over`, `transmitted_over` (bytes a second), `total_received_over`, `total_transmitted_over` (bytes): each reading is selected while over its limit | none |
//! | `data_refresh_interval`  | seconds between two readings                                | `10`    |
//! | `label_prefix`           | `None`, `Icon`, `Text`, `IconAndText`                       | `Icon`  |
//!
//! Sizes are in binary units from KiB up (`1.5 MiB/s`, `3.2 GiB`). The rate
//! is padded with figure spaces, which are as wide as a digit. With no
//! default route the interface shows as offline and there is no traffic to show.
//!
//! ```json
//! { "Network": { "enable": true, "show_activity": true, "show_total_activity": false,
//!                "activity_left_padding": 10, "auto_select": { "received_over": 1048576 } } }
//! ```

use obi_sdk::config::{NetworkConfig as Config, NetworkSelectConfig as AutoSelect};
use obi_sdk::network::{self, NetworkInterface};
use obi_sdk::{LabelPrefix, Piece, Schedule, View, Widget, icons, item};

pub struct Network {
    show_activity: bool,
    show_total_activity: bool,
    show_default_interface: bool,
    padding: usize,
    auto_select: AutoSelect,
    label_prefix: LabelPrefix,
}

/// Binary units from KiB up, so that a quiet link does not flip between B and KiB.
fn human(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// `text` right-aligned in `width` characters with figure spaces (a digit's width).
fn pad(text: String, width: usize) -> String {
    let missing = width.saturating_sub(text.chars().count());
    std::iter::repeat_n('\u{2007}', missing).chain(text.chars()).collect()
}

/// One reading of the interface: rate or total, received or transmitted.
struct Reading {
    key: &'static str,
    icon: &'static str,
    name: &'static str,
    bytes: u64,
    over: Option<u64>,
    rate: bool,
}

impl Network {
    fn readings(&self, interface: &NetworkInterface) -> Vec<Reading> {
        let select = &self.auto_select;
        let mut readings = Vec::new();
        if self.show_activity {
            readings.extend([
                Reading {
                    key: "received",
                    icon: icons::ARROW_DOWN,
                    name: "DOWN",
                    bytes: interface.received_per_second,
                    over: select.received_over,
                    rate: true,
                },
                Reading {
                    key: "transmitted",
                    icon: icons::ARROW_UP,
                    name: "UP",
                    bytes: interface.transmitted_per_second,
                    over: select.transmitted_over,
                    rate: true,
                },
            ]);
        }
        if self.show_total_activity {
            readings.extend([
                Reading {
                    key: "total-received",
                    icon: icons::ARROW_LINES_DOWN,
                    name: "TOTAL DOWN",
                    bytes: interface.total_received,
                    over: select.total_received_over,
                    rate: false,
                },
                Reading {
                    key: "total-transmitted",
                    icon: icons::ARROW_LINES_UP,
                    name: "TOTAL UP",
                    bytes: interface.total_transmitted,
                    over: select.total_transmitted_over,
                    rate: false,
                },
            ]);
        }
        readings
    }

    fn labelled(&self, key: &str, icon: &str, name: &str, value: &str) -> obi_sdk::ItemBuilder {
        item(key)
            .maybe(self.label_prefix.shows_icon().then(|| Piece::Icon(icon.into())))
            .text(self.label_prefix.label(name, value))
    }
}

impl Widget for Network {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let network = Network {
            show_activity: config.show_activity,
            show_total_activity: config.show_total_activity,
            show_default_interface: config.show_default_interface.unwrap_or(true),
            padding: config.activity_left_padding.unwrap_or(0),
            auto_select: config.auto_select.unwrap_or_default(),
            label_prefix: config.label_prefix.unwrap_or(LabelPrefix::Icon),
        };
        Ok((network, Schedule::data_refresh_interval(config.data_refresh_interval)))
    }

    fn refresh(&mut self) -> View {
        let interfaces = network::interfaces();
        let Some(default) = interfaces.iter().find(|interface| interface.default_route) else {
            let offline = self.labelled("interface", icons::WIFI_OFF, "NET", "offline").tooltip("no default route");
            return View::of(self.show_default_interface.then_some(offline));
        };
        let readings = self.readings(default).into_iter().map(|reading| {
            let value = if reading.rate {
                pad(format!("{}/s", human(reading.bytes)), self.padding)
            } else {
                human(reading.bytes)
            };
            self.labelled(reading.key, reading.icon, reading.name, &value)
                .selected(reading.over.is_some_and(|over| reading.bytes > over))
                .tooltip(&default.name)
        });
        let icon = if default.wireless { icons::WIFI } else { icons::NETWORK };
        let interface = self.labelled("interface", icon, "NET", &default.name).tooltip("the default route's interface");
        View::of(readings.chain(self.show_default_interface.then_some(interface)))
    }
}

obi_sdk::export!(Network);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_in_binary_units_from_kib() {
        assert_eq!(human(0), "0.0 KiB");
        assert_eq!(human(512), "0.5 KiB");
        assert_eq!(human(1536 * 1024), "1.5 MiB");
        assert_eq!(human(3 << 30), "3.0 GiB");
    }

    #[test]
    fn padding_reserves_digit_wide_characters() {
        assert_eq!(pad("1.0 KiB/s".into(), 11), "\u{2007}\u{2007}1.0 KiB/s");
        assert_eq!(pad("1.0 KiB/s".into(), 3), "1.0 KiB/s");
    }
}

//! # Cpu
//!
//! The average use of all CPU cores, in percent, from the host's shared
//! metrics sampler.
//!
//! | key                     | values                                  | default       |
//! |-------------------------|-----------------------------------------|---------------|
//! | `enable`                | `true` / `false`                        | required      |
//! | `data_refresh_interval` | seconds between two readings            | `10`          |
//! | `label_prefix`          | `None`, `Icon`, `Text`, `IconAndText`   | `IconAndText` |
//! | `auto_select_over`      | percent; selected while usage is above  | none          |
//!
//! ```json
//! { "Cpu": { "enable": true, "data_refresh_interval": 2, "auto_select_over": 90 } }
//! ```

use obi_sdk::{LabelPrefix, Schedule, View, Widget, icons, item, metrics};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Config {
    #[serde(default)]
    data_refresh_interval: Option<u64>,
    #[serde(default)]
    label_prefix: Option<LabelPrefix>,
    #[serde(default)]
    auto_select_over: Option<u8>,
}

pub struct Cpu {
    label_prefix: LabelPrefix,
    auto_select_over: Option<u8>,
}

impl Widget for Cpu {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        // komorebi-bar treats a 0 s interval as "every frame"; a bar that is
        // idle when idle reads no more than once a second.
        let interval = config.data_refresh_interval.unwrap_or(10).max(1);
        let cpu = Cpu {
            label_prefix: config.label_prefix.unwrap_or(LabelPrefix::IconAndText),
            auto_select_over: config.auto_select_over,
        };
        Ok((cpu, Schedule::every_secs(interval)))
    }

    fn refresh(&mut self) -> View {
        let usage = metrics::cpu_usage().round() as u8;
        let selected = self.auto_select_over.is_some_and(|threshold| usage > threshold);
        let label = self.label_prefix.label("CPU", &format!("{usage}%"));
        View::of([item("cpu")
            .maybe(self.label_prefix.shows_icon().then(|| obi_sdk::Piece::Icon(icons::CPU.into())))
            .text(label)
            .selected(selected)])
    }
}

obi_sdk::export!(Cpu);

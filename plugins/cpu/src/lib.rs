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

use obi_sdk::config::UsageConfig;
use obi_sdk::meter::Meter;
use obi_sdk::{Schedule, View, Widget, icons, metrics};

pub struct Cpu(Meter);

impl Widget for Cpu {
    type Config = UsageConfig;

    fn new(config: UsageConfig) -> Result<(Self, Schedule), String> {
        let (meter, schedule) = Meter::new("CPU", icons::CPU, &config);
        Ok((Cpu(meter), schedule))
    }

    fn refresh(&mut self) -> View {
        self.0.view("cpu", metrics::cpu_usage())
    }
}

obi_sdk::export!(Cpu);

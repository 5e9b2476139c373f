//! # Memory
//!
//! The share of RAM in use, in percent (used of total, as the system counts
//! used: not available to programs), from the host's shared metrics sampler.
//!
//! | key                     | values                                  | default       |
//! |-------------------------|-----------------------------------------|---------------|
//! | `enable`                | `true` / `false`                        | required      |
//! | `data_refresh_interval` | seconds between two readings            | `10`          |
//! | `label_prefix`          | `None`, `Icon`, `Text`, `IconAndText`   | `IconAndText` |
//! | `auto_select_over`      | percent; selected while use is above    | none          |
//!
//! ```json
//! { "Memory": { "enable": true, "data_refresh_interval": 5, "auto_select_over": 80 } }
//! ```

use obi_sdk::config::UsageConfig;
use obi_sdk::meter::Meter;
use obi_sdk::{Schedule, View, Widget, icons, metrics};

pub struct Memory(Meter);

impl Widget for Memory {
    type Config = UsageConfig;

    fn new(config: UsageConfig) -> Result<(Self, Schedule), String> {
        let (meter, schedule) = Meter::new("RAM", icons::MEMORY, &config);
        Ok((Memory(meter), schedule))
    }

    fn refresh(&mut self) -> View {
        let memory = metrics::memory();
        let percent =
            if memory.total_bytes == 0 { 0.0 } else { memory.used_bytes as f64 / memory.total_bytes as f64 * 100.0 };
        self.0.view("memory", percent as f32)
    }
}

obi_sdk::export!(Memory);

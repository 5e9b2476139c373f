//! A percentage read on an interval, with a `label_prefix` and a threshold
//! over which it is selected: what the Cpu and Memory widgets show, with
//! their config keys as komorebi-bar spells them.

use crate::config::UsageConfig;
use crate::{LabelPrefix, Piece, Schedule, View, item};

pub struct Meter {
    /// The short name a text prefix shows ("CPU").
    name: &'static str,
    icon: &'static str,
    label_prefix: LabelPrefix,
    auto_select_over: Option<u8>,
}

impl Meter {
    pub fn new(name: &'static str, icon: &'static str, config: &UsageConfig) -> (Meter, Schedule) {
        let meter = Meter {
            name,
            icon,
            label_prefix: config.label_prefix.unwrap_or(LabelPrefix::IconAndText),
            auto_select_over: config.auto_select_over,
        };
        (meter, Schedule::data_refresh_interval(config.data_refresh_interval))
    }

    /// One item, keyed `key`, showing `percent` rounded to a whole number.
    pub fn view(&self, key: &str, percent: f32) -> View {
        let percent = percent.clamp(0.0, 100.0).round() as u8;
        let selected = self.auto_select_over.is_some_and(|threshold| percent > threshold);
        View::of([item(key)
            .maybe(self.label_prefix.shows_icon().then(|| Piece::Icon(self.icon.into())))
            .text(self.label_prefix.label(self.name, &format!("{percent}%")))
            .selected(selected)])
    }
}

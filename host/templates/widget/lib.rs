//! A widget for the Obi bar: says hello, and counts the clicks it gets.

use obi_sdk::{Input, Inputs, Schedule, View, Widget, clock, item};
use serde::Deserialize;

/// The widget's `config` object from the bar's config file.
#[derive(Deserialize)]
pub struct Config {
    #[serde(default = "world")]
    name: String,
}

fn world() -> String {
    "world".into()
}

pub struct Hello {
    name: String,
    clicks: u32,
}

impl Widget for Hello {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        // Refreshed every minute, and after each click.
        Ok((Hello { name: config.name, clicks: 0 }, Schedule::every_secs(60)))
    }

    fn refresh(&mut self) -> View {
        let time = clock::format(clock::now(), "%H:%M", None).unwrap_or_default();
        View::of([item("hello")
            .text(format!("Hello, {} ({} clicks)", self.name, self.clicks))
            .tooltip(format!("said at {time}"))
            .takes(Inputs::PRIMARY_CLICK)])
    }

    fn on_input(&mut self, _key: &str, input: Input) {
        if input == Input::PrimaryClick {
            self.clicks += 1;
        }
    }
}

obi_sdk::export!(Hello);

//! # Time
//!
//! The time of day in the local or a named time zone, ticking on the second
//! (or minute) boundary of the wall clock.
//!
//! | key            | values                                                      | default |
//! |----------------|-------------------------------------------------------------|---------|
//! | `enable`       | `true` / `false`                                            | required |
//! | `format`       | `TwelveHour`, `TwelveHourWithoutSeconds`, `TwentyFourHour`, `TwentyFourHourWithoutSeconds`, `BinaryCircle`, `BinaryRectangle`, `{ "Custom": "<strftime>" }` | required |
//! | `label_prefix` | `None`, `Icon`, `Text`, `IconAndText`                       | `Icon`  |
//! | `timezone`     | an IANA zone name such as `"Asia/Tokyo"`                    | local   |
//!
//! ```json
//! { "Time": { "enable": true, "format": { "Custom": "%T %Z (Tokyo)" }, "timezone": "Asia/Tokyo" } }
//! ```

use obi_sdk::{BinaryClock, BinaryClockStyle, LabelPrefix, Schedule, View, Widget, clock, icons, item, pattern};
use serde::Deserialize;

#[derive(Deserialize)]
pub enum TimeFormat {
    TwelveHour,
    TwelveHourWithoutSeconds,
    TwentyFourHour,
    TwentyFourHourWithoutSeconds,
    BinaryCircle,
    BinaryRectangle,
    Custom(String),
}

#[derive(Deserialize)]
pub struct Config {
    format: TimeFormat,
    #[serde(default)]
    label_prefix: Option<LabelPrefix>,
    #[serde(default)]
    timezone: Option<String>,
}

enum Face {
    Pattern(String),
    Binary(BinaryClockStyle),
}

pub struct Time {
    face: Face,
    label_prefix: LabelPrefix,
    timezone: Option<String>,
}

impl TimeFormat {
    fn face(self) -> Face {
        let pattern = |p: &str| Face::Pattern(p.to_owned());
        match self {
            TimeFormat::TwelveHour => pattern("%l:%M:%S %p"),
            TimeFormat::TwelveHourWithoutSeconds => pattern("%l:%M %p"),
            TimeFormat::TwentyFourHour => pattern("%T"),
            TimeFormat::TwentyFourHourWithoutSeconds => pattern("%H:%M"),
            TimeFormat::BinaryCircle => Face::Binary(BinaryClockStyle::Circle),
            TimeFormat::BinaryRectangle => Face::Binary(BinaryClockStyle::Rectangle),
            TimeFormat::Custom(custom) => Face::Pattern(custom),
        }
    }
}

impl Widget for Time {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        // An unknown zone is a config error now, not a broken label later.
        clock::civil(clock::now(), config.timezone.as_deref())?;
        let face = config.format.face();
        let tick_ms = match &face {
            Face::Pattern(format) => pattern::tick_ms(format),
            Face::Binary(_) => 1_000,
        };
        let time =
            Time { face, label_prefix: config.label_prefix.unwrap_or(LabelPrefix::Icon), timezone: config.timezone };
        Ok((time, Schedule::on_wall_clock(tick_ms)))
    }

    fn refresh(&mut self) -> View {
        let now = clock::now();
        let tz = self.timezone.as_deref();
        let icon = self.label_prefix.shows_icon().then(|| obi_sdk::Piece::Icon(icons::CLOCK.into()));
        let face = match &self.face {
            Face::Pattern(pattern) => match clock::format(now, pattern, tz) {
                Ok(text) => item("time").maybe(icon).text(self.label_prefix.label("TIME", text.trim())),
                Err(error) => item("time").maybe(icon).text("time?").tooltip(error),
            },
            Face::Binary(style) => match clock::civil(now, tz) {
                Ok(civil) => item("time").maybe(icon).binary_clock(BinaryClock {
                    hour: civil.hour,
                    minute: civil.minute,
                    second: civil.second,
                    style: *style,
                }),
                Err(error) => item("time").maybe(icon).text("time?").tooltip(error),
            },
        };
        View::of([face])
    }
}

obi_sdk::export!(Time);

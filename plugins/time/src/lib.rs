//! # Time
//!
//! The time of day in the local or a named time zone, ticking on the second
//! (or minute) boundary of the wall clock. A secondary click opens the
//! month's calendar (see [`obi_sdk::month_popup`]).
//!
//! | key            | values                                                      | default |
//! |----------------|-------------------------------------------------------------|---------|
//! | `enable`       | `true` / `false`                                            | required |
//! | `format`       | `TwelveHour`, `TwelveHourWithoutSeconds`, `TwentyFourHour`, `TwentyFourHourWithoutSeconds`, `BinaryCircle`, `BinaryRectangle`, `{ "Custom": "<strftime>" }` | required |
//! | `label_prefix` | `None`, `Icon`, `Text`, `IconAndText`                       | `Icon`  |
//! | `timezone`     | an IANA zone name such as `"Asia/Tokyo"`                    | local   |
//! | `changing_icon`| `true`: the icon follows the time of day                     | `false` |
//!
//! With `changing_icon`, the icon is the stars from midnight, the sunrise
//! from 6:00, the plain clock from 8:30 to noon (komorebi-bar's rule for
//! its default icon), the afternoon clock from 12:00, the sunset from 17:00
//! and the moon from 20:00.
//!
//! ```json
//! { "Time": { "enable": true, "format": { "Custom": "%T %Z (Tokyo)" }, "timezone": "Asia/Tokyo" } }
//! ```

use obi_sdk::config::{TimeConfig as Config, TimeFormat};
use obi_sdk::month_popup::Calendar;
use obi_sdk::{
    BinaryClock, BinaryClockStyle, Input, Inputs, LabelPrefix, Popup, PopupInput, Schedule, View, Widget, clock, icons,
    item, pattern,
};

enum Face {
    Pattern(String),
    Binary(BinaryClockStyle),
}

pub struct Time {
    face: Face,
    label_prefix: LabelPrefix,
    timezone: Option<String>,
    changing_icon: bool,
    calendar: Calendar,
}

/// The icon for a time of day, when it follows the time.
fn icon_at(hour: u8, minute: u8) -> &'static str {
    match (hour, minute) {
        (0..=5, _) => icons::MOON_STARS,
        (6..=7, _) | (8, 0..=29) => icons::SUN_HORIZON,
        (8..=11, _) => icons::CLOCK,
        (12..=16, _) => icons::CLOCK_AFTERNOON,
        (17..=19, _) => icons::SUN_HORIZON,
        _ => icons::MOON,
    }
}

/// How `format` shows the time.
fn face_of(format: TimeFormat) -> Face {
    let pattern = |p: &str| Face::Pattern(p.to_owned());
    match format {
        TimeFormat::TwelveHour => pattern("%l:%M:%S %p"),
        TimeFormat::TwelveHourWithoutSeconds => pattern("%l:%M %p"),
        TimeFormat::TwentyFourHour => pattern("%T"),
        TimeFormat::TwentyFourHourWithoutSeconds => pattern("%H:%M"),
        TimeFormat::BinaryCircle => Face::Binary(BinaryClockStyle::Circle),
        TimeFormat::BinaryRectangle => Face::Binary(BinaryClockStyle::Rectangle),
        TimeFormat::Custom(custom) => Face::Pattern(custom),
    }
}

impl Time {
    fn icon(&self, now: clock::Instant) -> &'static str {
        if !self.changing_icon {
            return icons::CLOCK;
        }
        clock::civil(now, self.timezone.as_deref()).map_or(icons::CLOCK, |civil| icon_at(civil.hour, civil.minute))
    }
}

impl Widget for Time {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        // An unknown zone is a config error now, not a broken label later.
        clock::civil(clock::now(), config.timezone.as_deref())?;
        let face = face_of(config.format);
        let tick_ms = match &face {
            Face::Pattern(format) => pattern::tick_ms(format),
            Face::Binary(_) => 1_000,
        };
        let time = Time {
            face,
            label_prefix: config.label_prefix.unwrap_or(LabelPrefix::Icon),
            timezone: config.timezone,
            changing_icon: config.changing_icon.unwrap_or(false),
            calendar: Calendar::default(),
        };
        Ok((time, Schedule::on_wall_clock(tick_ms)))
    }

    fn refresh(&mut self) -> View {
        let now = clock::now();
        let tz = self.timezone.as_deref();
        let icon = self.label_prefix.shows_icon().then(|| obi_sdk::Piece::Icon(self.icon(now).into()));
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
        View::of([face.takes(Inputs::SECONDARY_CLICK)])
    }

    fn on_input(&mut self, _key: &str, input: Input) {
        self.calendar.on_item_input(input, self.timezone.as_deref());
    }

    fn popup(&mut self) -> Option<Popup> {
        self.calendar.popup_today("time", self.timezone.as_deref())
    }

    fn on_popup_input(&mut self, _item_key: &str, cell_key: &str, input: PopupInput) {
        self.calendar.on_input(cell_key, input);
    }

    fn on_popup_closed(&mut self, _item_key: &str) {
        self.calendar.close();
    }
}

obi_sdk::export!(Time);

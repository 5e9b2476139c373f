//! # Date
//!
//! Today's date in the local or a named time zone, redrawn on the minute
//! boundary of the wall clock (on the second when a custom pattern shows
//! seconds). A secondary click opens the month's calendar (see
//! [`obi_sdk::month_popup`]).
//!
//! | key            | values                                                      | default  |
//! |----------------|-------------------------------------------------------------|----------|
//! | `enable`       | `true` / `false`                                            | required |
//! | `format`       | `MonthDateYear` (09/08/24), `YearMonthDate` (2024-09-08), `DateMonthYear` (8-Sep-2024), `DayDateMonthYear` (Sunday 8 September 2024), `{ "Custom": "<strftime>" }`, `{ "CustomModifiers": { "format": "<strftime>", "modifiers": { "%U": 1 } } }` | required |
//! | `label_prefix` | `None`, `Icon`, `Text`, `IconAndText`                       | `Icon`   |
//! | `timezone`     | an IANA zone name such as `"Asia/Tokyo"`                    | local    |
//!
//! A modifier adds its number to what its specifier shows, as komorebi-bar
//! does: `{ "%U": 1 }` turns week 9 into week 10 (the number loses its
//! zero padding). A specifier that does not show a number is left alone.
//!
//! ```json
//! { "Date": { "enable": true, "format": { "CustomModifiers": { "format": "week %U", "modifiers": { "%U": 1 } } } } }
//! ```

use obi_sdk::config::{DateConfig as Config, DateFormat};
use obi_sdk::month_popup::Calendar;
use obi_sdk::{Input, Inputs, LabelPrefix, Popup, PopupInput, Schedule, View, Widget, clock, icons, item, pattern};
use std::collections::BTreeMap;

pub struct Date {
    format: String,
    modifiers: BTreeMap<String, i32>,
    label_prefix: LabelPrefix,
    timezone: Option<String>,
    calendar: Calendar,
}

/// The strftime pattern of `format`, and the modifiers to apply to it.
fn pattern_of(format: DateFormat) -> (String, BTreeMap<String, i32>) {
    let fixed = |pattern: &str| (pattern.to_owned(), BTreeMap::new());
    match format {
        DateFormat::MonthDateYear => fixed("%D"),
        DateFormat::YearMonthDate => fixed("%F"),
        DateFormat::DateMonthYear => fixed("%-d-%b-%Y"),
        DateFormat::DayDateMonthYear => fixed("%A %-d %B %Y"),
        DateFormat::Custom(custom) => (custom, BTreeMap::new()),
        DateFormat::CustomModifiers(custom) => (custom.format, custom.modifiers),
    }
}

impl Date {
    /// The date at `at`: each modified specifier replaced by its shifted
    /// number, then the whole pattern formatted.
    fn format(&self, at: clock::Instant) -> Result<String, String> {
        let tz = self.timezone.as_deref();
        let mut format = self.format.clone();
        for (specifier, shift) in &self.modifiers {
            if let Ok(number) = clock::format(at, specifier, tz)?.trim().parse::<i32>() {
                format = format.replace(specifier.as_str(), &(number + shift).to_string());
            }
        }
        clock::format(at, &format, tz)
    }
}

impl Widget for Date {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let (format, modifiers) = pattern_of(config.format);
        let date = Date {
            format,
            modifiers,
            label_prefix: config.label_prefix.unwrap_or(LabelPrefix::Icon),
            timezone: config.timezone,
            calendar: Calendar::default(),
        };
        // An unknown zone or a bad pattern is a config error now, not a broken label later.
        date.format(clock::now())?;
        let tick_ms = pattern::tick_ms(&date.format);
        Ok((date, Schedule::on_wall_clock(tick_ms)))
    }

    fn refresh(&mut self) -> View {
        let icon = self.label_prefix.shows_icon().then(|| obi_sdk::Piece::Icon(icons::CALENDAR.into()));
        let date = match self.format(clock::now()) {
            Ok(text) => item("date").maybe(icon).text(self.label_prefix.label("DATE", text.trim())),
            Err(error) => item("date").maybe(icon).text("date?").tooltip(error),
        };
        View::of([date.takes(Inputs::SECONDARY_CLICK)])
    }

    fn on_input(&mut self, _key: &str, input: Input) {
        self.calendar.on_item_input(input, self.timezone.as_deref());
    }

    fn popup(&mut self) -> Option<Popup> {
        self.calendar.popup_today("date", self.timezone.as_deref())
    }

    fn on_popup_input(&mut self, _item_key: &str, cell_key: &str, input: PopupInput) {
        self.calendar.on_input(cell_key, input);
    }

    fn on_popup_closed(&mut self, _item_key: &str) {
        self.calendar.close();
    }
}

obi_sdk::export!(Date);

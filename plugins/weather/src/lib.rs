//! # Weather
//!
//! The current temperature and an icon for the weather from Open-Meteo's
//! forecast API (no key needed), the day's forecast in the tooltip (an Obi
//! extension of the format). Read every `data_refresh_interval` seconds;
//! while Open-Meteo cannot be reached the last reading stays, muted, its
//! tooltip saying since when, and it is asked again within five minutes.
//! `obi msg refresh Weather` reads it again at once.
//!
//! | key                     | values                                  | default |
//! |-------------------------|-----------------------------------------|---------|
//! | `enable`                | `true` / `false`                        | required |
//! | `latitude`, `longitude` | degrees (south and west negative)       | required |
//! | `units`                 | `Metric` (°C), `Imperial` (°F)           | `Metric` |
//! | `data_refresh_interval` | seconds between two readings (≥ 60)     | 1800 |
//! | `label_prefix`          | `None`, `Icon`, `Text`, `IconAndText`   | `Icon` |
//! | `open_meteo_url`        | the server asked (`OBI_OPEN_METEO_URL` in the bar's environment wins) | `https://api.open-meteo.com` |
//!
//! ```json
//! { "Weather": { "enable": true, "latitude": 52.52, "longitude": 13.41, "units": "Metric" } }
//! ```

use obi_sdk::config::{WeatherConfig as Config, WeatherUnits};
use obi_sdk::log::{self, Level};
use obi_sdk::web::{self, FetchState, Response};
use obi_sdk::{Emphasis, LabelPrefix, Piece, Schedule, View, Widget, clock, icons, item};

const OPEN_METEO: &str = "https://api.open-meteo.com";
/// How soon a reading that failed is tried again, and how often the widget
/// looks whether a reading is due.
const RETRY_SECS: i64 = 300;

/// What Open-Meteo said.
#[derive(Debug, Clone, PartialEq)]
struct Reading {
    temperature: f64,
    /// "°C" or "°F", as Open-Meteo gives it.
    unit: String,
    /// The WMO weather code.
    code: u8,
    day: bool,
    /// Its local time, `2026-11-25T06:00`.
    time: String,
    today: Option<Today>,
}

#[derive(Debug, Clone, PartialEq)]
struct Today {
    code: u8,
    low: f64,
    high: f64,
    rain_chance: Option<f64>,
}

/// A forecast answer of Open-Meteo (`current` and `daily`), read.
fn reading(body: &str) -> Result<Reading, String> {
    let answer: serde_json::Value = serde_json::from_str(body).map_err(|error| format!("not JSON: {error}"))?;
    if let Some(reason) = answer.get("reason").and_then(|reason| reason.as_str()) {
        return Err(reason.to_owned());
    }
    let current = answer.get("current").ok_or("no current weather")?;
    let number = |value: &serde_json::Value, name: &str| value.get(name).and_then(|value| value.as_f64());
    let first = |name: &str| answer.get("daily")?.get(name)?.get(0)?.as_f64();
    let today = match (first("weather_code"), first("temperature_2m_min"), first("temperature_2m_max")) {
        (Some(code), Some(low), Some(high)) => {
            Some(Today { code: code as u8, low, high, rain_chance: first("precipitation_probability_max") })
        }
        _ => None,
    };
    Ok(Reading {
        temperature: number(current, "temperature_2m").ok_or("no current temperature")?,
        unit: answer
            .get("current_units")
            .and_then(|units| units.get("temperature_2m"))
            .and_then(|unit| unit.as_str())
            .unwrap_or("°C")
            .to_owned(),
        code: number(current, "weather_code").ok_or("no current weather code")? as u8,
        day: number(current, "is_day").is_none_or(|day| day != 0.0),
        time: current.get("time").and_then(|time| time.as_str()).unwrap_or_default().to_owned(),
        today,
    })
}

/// What WMO code `code` says, and its icon by day or by night.
fn weather(code: u8, day: bool) -> (&'static str, &'static str) {
    match code {
        0 => ("Clear", if day { icons::SUN } else { icons::MOON }),
        1 => ("Mainly clear", if day { icons::SUN } else { icons::MOON }),
        2 => ("Partly cloudy", if day { icons::CLOUD_SUN } else { icons::CLOUD_MOON }),
        3 => ("Overcast", icons::CLOUD),
        45 | 48 => ("Fog", icons::CLOUD_FOG),
        51 | 53 | 55 => ("Drizzle", icons::DROP),
        56 | 57 => ("Freezing drizzle", icons::DROP),
        61 | 63 | 65 => ("Rain", icons::CLOUD_RAIN),
        66 | 67 => ("Freezing rain", icons::CLOUD_RAIN),
        71 | 73 | 75 | 77 => ("Snow", icons::CLOUD_SNOW),
        80..=82 => ("Rain showers", icons::CLOUD_RAIN),
        85 | 86 => ("Snow showers", icons::CLOUD_SNOW),
        95 => ("Thunderstorm", icons::CLOUD_LIGHTNING),
        96 | 99 => ("Thunderstorm with hail", icons::CLOUD_LIGHTNING),
        _ => ("Unknown weather", icons::QUESTION),
    }
}

/// A temperature as the bar shows it: whole degrees ("-3°C"; never "-0").
fn degrees(temperature: f64, unit: &str) -> String {
    let whole = temperature.round();
    format!("{}{unit}", if whole == 0.0 { 0.0 } else { whole })
}

pub struct Weather {
    url: String,
    label_prefix: LabelPrefix,
    every_secs: i64,
    /// When the next reading is due, in seconds since the epoch.
    next_reading: i64,
    reading_now: bool,
    shown: Option<Reading>,
    /// Why the last reading failed, while the one shown is older.
    stale: Option<String>,
}

impl Weather {
    fn read(&mut self, now: i64) {
        let failed = match web::fetch(&self.url) {
            FetchState::Pending => {
                self.reading_now = true;
                return;
            }
            FetchState::Done(Response { status: 200..=299, body, .. }) => match reading(&body) {
                Ok(reading) => {
                    self.shown = Some(reading);
                    None
                }
                Err(error) => Some(format!("Open-Meteo's answer is {error}")),
            },
            FetchState::Done(Response { status, body }) => {
                let reason = reading(&body).err().unwrap_or_default();
                Some(format!("Open-Meteo answered {status} {reason}").trim_end().to_owned())
            }
            FetchState::Failed(error) => Some(format!("Open-Meteo cannot be reached: {error}")),
        };
        self.reading_now = false;
        self.next_reading = now + if failed.is_some() { RETRY_SECS.min(self.every_secs) } else { self.every_secs };
        if let Some(why) = &failed {
            log::log(Level::Debug, why);
        }
        self.stale = failed;
    }
}

impl Widget for Weather {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        if !(-90.0..=90.0).contains(&config.latitude) || !(-180.0..=180.0).contains(&config.longitude) {
            return Err(format!("no place is at latitude {}, longitude {}", config.latitude, config.longitude));
        }
        let base = config.open_meteo_url.as_deref().unwrap_or(OPEN_METEO).trim_end_matches('/');
        let units = match config.units.unwrap_or_default() {
            WeatherUnits::Metric => "",
            WeatherUnits::Imperial => "&temperature_unit=fahrenheit",
        };
        let url = format!(
            "{base}/v1/forecast?latitude={}&longitude={}&current=temperature_2m,weather_code,is_day\
             &daily=weather_code,temperature_2m_min,temperature_2m_max,precipitation_probability_max\
             &timezone=auto&forecast_days=1{units}",
            config.latitude, config.longitude
        );
        let every_secs = config.data_refresh_interval.unwrap_or(1800).max(60) as i64;
        let weather = Weather {
            url,
            label_prefix: config.label_prefix.unwrap_or(LabelPrefix::Icon),
            every_secs,
            next_reading: i64::MIN,
            reading_now: false,
            shown: None,
            stale: None,
        };
        Ok((weather, Schedule::every_secs(RETRY_SECS.min(every_secs) as u64)))
    }

    fn refresh(&mut self) -> View {
        let now = clock::now().seconds;
        if self.reading_now || now >= self.next_reading {
            self.read(now);
        }
        let Some(shown) = &self.shown else { return View::empty() };
        let (words, glyph) = weather(shown.code, shown.day);
        let mut tooltip = format!("{words}, {:.1} {} at {}", shown.temperature, shown.unit, clock_time(&shown.time));
        if let Some(today) = &shown.today {
            let (words, _) = weather(today.code, true);
            let (low, high) = (degrees(today.low, &shown.unit), degrees(today.high, &shown.unit));
            tooltip += &format!("\nToday: {words}, {low} to {high}");
            if let Some(chance) = today.rain_chance {
                tooltip += &format!(", {chance:.0} % chance of rain");
            }
        }
        if let Some(why) = &self.stale {
            tooltip = format!("{why}: the last reading, from {}\n{tooltip}", clock_time(&shown.time));
        }
        let label = self.label_prefix.label("Weather", &degrees(shown.temperature, &shown.unit));
        let item = item("weather")
            .maybe(self.label_prefix.shows_icon().then(|| Piece::Icon(glyph.into())))
            .text(label)
            .tooltip(tooltip);
        View::of([if self.stale.is_some() { item.emphasis(Emphasis::Muted) } else { item }])
    }

    fn on_refresh_requested(&mut self) {
        self.next_reading = i64::MIN;
    }
}

/// "06:00" of "2026-11-25T06:00".
fn clock_time(time: &str) -> &str {
    time.split_once('T').map_or(time, |(_, clock)| clock)
}

obi_sdk::export!(Weather);

#[cfg(test)]
mod tests {
    use super::*;

    const BERLIN: &str = include_str!("../tests/berlin.json");

    #[test]
    fn an_answer_is_read_with_the_days_forecast() {
        let read = reading(BERLIN).unwrap();
        assert_eq!((read.temperature, read.unit.as_str(), read.code, read.day), (3.4, "°C", 3, false));
        assert_eq!(read.time, "2026-11-25T06:00");
        assert_eq!(read.today, Some(Today { code: 61, low: 1.2, high: 5.1, rain_chance: Some(80.0) }));
        assert_eq!(
            reading(r#"{ "error": true, "reason": "Latitude must be in range" }"#).unwrap_err(),
            "Latitude must be in range"
        );
        assert!(reading("[]").is_err());
    }

    #[test]
    fn whole_degrees_and_never_minus_zero() {
        assert_eq!(degrees(3.4, "°C"), "3°C");
        assert_eq!(degrees(-0.4, "°C"), "0°C");
        assert_eq!(degrees(-2.6, "°F"), "-3°F");
    }

    #[test]
    fn codes_have_words_and_icons_by_day_and_night() {
        assert_eq!(weather(0, true), ("Clear", icons::SUN));
        assert_eq!(weather(0, false), ("Clear", icons::MOON));
        assert_eq!(weather(63, true).1, icons::CLOUD_RAIN);
        assert_eq!(weather(200, true).0, "Unknown weather");
    }
}

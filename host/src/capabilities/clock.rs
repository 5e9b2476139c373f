//! The `clock` capability: the current instant, and wall-clock fields and
//! strftime formatting in the local or a named IANA time zone (chrono-tz);
//! with it, `calendar`'s first day of the week ([`super::locale`]).

use chrono::{DateTime, Datelike, FixedOffset, Local, Offset, TimeZone, Timelike, Utc};
use std::fmt::Write;

/// Where "now" comes from, and the calendar of the user's locale; tests
/// and the SDK harness script them.
pub trait Clock: Send + Sync {
    fn now(&self) -> DateTime<Utc>;

    /// The first day of the week: 0 = Monday .. 6 = Sunday.
    fn first_weekday(&self) -> u8 {
        super::locale::first_weekday()
    }
}

pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// Wall-clock fields of an instant in some zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Civil {
    pub year: i32,
    pub month: u8,
    pub day: u8,
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
    pub nanosecond: u32,
    pub weekday: u8,
    pub day_of_year: u16,
    pub utc_offset_seconds: i32,
}

/// `at` in `timezone`, or in the host's local zone when `None`.
pub fn in_zone(at: DateTime<Utc>, timezone: Option<&str>) -> Result<DateTime<FixedOffset>, String> {
    match timezone {
        None => Ok(at.with_timezone(&Local).fixed_offset()),
        Some(name) => {
            let local = at.with_timezone(&zone(name)?);
            Ok(local.with_timezone(&local.offset().fix()))
        }
    }
}

fn zone(name: &str) -> Result<chrono_tz::Tz, String> {
    name.parse()
        .map_err(|_| format!("unknown time zone {name:?}: use an IANA name such as \"Europe/Paris\" or \"Asia/Tokyo\""))
}

pub fn civil(at: DateTime<Utc>, timezone: Option<&str>) -> Result<Civil, String> {
    let local = in_zone(at, timezone)?;
    Ok(Civil {
        year: local.year(),
        month: local.month() as u8,
        day: local.day() as u8,
        hour: local.hour() as u8,
        minute: local.minute() as u8,
        second: local.second() as u8,
        nanosecond: local.nanosecond(),
        weekday: local.weekday().num_days_from_monday() as u8,
        day_of_year: local.ordinal() as u16,
        utc_offset_seconds: local.offset().local_minus_utc(),
    })
}

/// Formats with chrono's strftime syntax; a bad pattern is an error, not a
/// panic. A named zone keeps its abbreviation for `%Z` ("JST").
pub fn format(at: DateTime<Utc>, pattern: &str, timezone: Option<&str>) -> Result<String, String> {
    let mut out = String::new();
    let written = match timezone {
        None => write!(out, "{}", at.with_timezone(&Local).format(pattern)),
        Some(name) => write!(out, "{}", at.with_timezone(&zone(name)?).format(pattern)),
    };
    written.map_err(|_| format!("invalid time format {pattern:?}"))?;
    Ok(out)
}

/// Converts the WIT instant (seconds + nanoseconds) to chrono, clamping nonsense.
pub fn from_unix(seconds: i64, nanoseconds: u32) -> DateTime<Utc> {
    Utc.timestamp_opt(seconds, nanoseconds.min(999_999_999)).single().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instant() -> DateTime<Utc> {
        // 2024-03-09 15:04:05 UTC, a Saturday
        from_unix(1_709_996_645, 0)
    }

    #[test]
    fn formats_in_a_named_zone() {
        assert_eq!(format(instant(), "%T", Some("UTC")).unwrap(), "15:04:05");
        assert_eq!(format(instant(), "%H:%M %Z", Some("Asia/Tokyo")).unwrap(), "00:04 JST");
        assert_eq!(format(instant(), "%l:%M:%S %p", Some("America/New_York")).unwrap(), "10:04:05 AM");
    }

    #[test]
    fn civil_fields_follow_the_zone() {
        let tokyo = civil(instant(), Some("Asia/Tokyo")).unwrap();
        assert_eq!((tokyo.year, tokyo.month, tokyo.day, tokyo.hour), (2024, 3, 10, 0));
        assert_eq!(tokyo.weekday, 6);
        assert_eq!(tokyo.utc_offset_seconds, 9 * 3600);
    }

    #[test]
    fn unknown_zone_and_bad_pattern_are_errors() {
        assert!(civil(instant(), Some("Mars/Olympus")).unwrap_err().contains("Mars/Olympus"));
        assert!(format(instant(), "%Q", None).is_err());
    }
}

//! The `clock` capability: the current instant, and wall-clock fields and
//! strftime formatting in the local or a named IANA time zone
//! ([`crate::time_zones`]); with it, `calendar`'s first day of the week
//! ([`super::locale`]). Formatting is chrono's strftime, the syntax of
//! komorebi-bar's formats.

use chrono::format::{Fixed, Item, StrftimeItems};
use chrono::{DateTime, Datelike, FixedOffset, Local, TimeZone, Timelike, Utc};
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
        Some(name) => Ok(in_named_zone(at, name)?.0),
    }
}

/// `at` in the zone `name`, with the zone's abbreviation then ("JST").
fn in_named_zone(at: DateTime<Utc>, name: &str) -> Result<(DateTime<FixedOffset>, String), String> {
    let zone = crate::time_zones::named(name)?;
    let instant = jiff::Timestamp::new(at.timestamp(), at.timestamp_subsec_nanos() as i32)
        .map_err(|_| format!("{at} is beyond the time zone database's years"))?;
    let info = zone.to_offset_info(instant);
    let offset = FixedOffset::east_opt(info.offset().seconds())
        .ok_or_else(|| format!("time zone {name:?} has an offset of a day or more"))?;
    Ok((at.with_timezone(&offset), info.abbreviation().to_owned()))
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
        Some(name) => {
            let (local, abbreviation) = in_named_zone(at, name)?;
            // A fixed offset prints `%Z` as "+09:00"; the zone's own name is wanted.
            let items = StrftimeItems::new(pattern).map(|item| match item {
                Item::Fixed(Fixed::TimezoneName) => Item::Literal(&abbreviation),
                item => item,
            });
            write!(out, "{}", local.format_with_items(items))
        }
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
    fn a_literal_percent_z_is_not_the_zones_name() {
        assert_eq!(format(instant(), "%%Z %Z", Some("Asia/Tokyo")).unwrap(), "%Z JST");
        assert_eq!(format(instant(), "%:z", Some("Asia/Kolkata")).unwrap(), "+05:30");
    }

    #[test]
    fn unknown_zone_and_bad_pattern_are_errors() {
        assert!(civil(instant(), Some("Mars/Olympus")).unwrap_err().contains("Mars/Olympus"));
        assert!(format(instant(), "%Q", None).is_err());
        assert!(format(instant(), "%Q", Some("Asia/Tokyo")).is_err());
    }
}

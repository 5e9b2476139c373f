//! The IANA time zones a config may name: the system's database (kept
//! current by the system), else the copy Obi carries (jiff's), for Windows,
//! which has none, and for an old name (`US/Eastern`) that komorebi-bar's
//! configs use and a system may no longer install.
//!
//! jiff reads them rather than chrono-tz: chrono-tz compiles its rules into
//! tables of pointers that the loader relocates at every start, 1 MB of
//! memory written in every process that links it.

use jiff::tz::{TimeZone, TimeZoneDatabase};
use std::sync::LazyLock;

static SYSTEM: LazyLock<TimeZoneDatabase> = LazyLock::new(TimeZoneDatabase::from_env);
static CARRIED: LazyLock<TimeZoneDatabase> = LazyLock::new(TimeZoneDatabase::bundled);

/// The zone `name`, its case aside.
pub fn named(name: &str) -> Result<TimeZone, String> {
    named_in(&SYSTEM, name)
}

/// The zone `name` in `system`, else in the database Obi carries.
fn named_in(system: &TimeZoneDatabase, name: &str) -> Result<TimeZone, String> {
    system
        .get(name)
        .or_else(|_| CARRIED.get(name))
        .map_err(|_| format!("unknown time zone {name:?}: use an IANA name such as \"Europe/Paris\" or \"Asia/Tokyo\""))
}

/// Every zone name Obi knows wherever it runs (its own database's), to
/// suggest one in place of a misspelt name.
pub fn known() -> impl Iterator<Item = String> {
    CARRIED.available().map(|name| name.as_str().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zone_the_system_lacks_is_found_in_obis_own_database() {
        assert!(named_in(&TimeZoneDatabase::none(), "US/Eastern").is_ok());
        assert_eq!(named_in(&TimeZoneDatabase::none(), "Asia/Tokyo").unwrap().iana_name(), Some("Asia/Tokyo"));
        assert!(named_in(&TimeZoneDatabase::none(), "Mars/Olympus").unwrap_err().contains("Mars/Olympus"));
    }

    #[test]
    fn the_names_known_everywhere_are_the_carried_databases() {
        assert!(known().any(|name| name == "America/Argentina/Buenos_Aires"));
        assert!(known().all(|name| named_in(&TimeZoneDatabase::none(), &name).is_ok()));
    }
}

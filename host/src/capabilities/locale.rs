//! The calendar's conventions of the user's locale: which day starts the
//! week. Windows says it (`LOCALE_IFIRSTDAYOFWEEK`); elsewhere the
//! territory of the time locale (`LC_ALL`, `LC_TIME`, `LANG`, as the C
//! library reads them) is looked up in CLDR's week data.

/// 0 = Monday .. 6 = Sunday.
pub type Weekday = u8;

const MONDAY: Weekday = 0;
const FRIDAY: Weekday = 4;
const SATURDAY: Weekday = 5;
const SUNDAY: Weekday = 6;

/// The first day of the week where the user lives; Monday when the
/// locale does not say (ISO 8601's, and most of the world's).
#[cfg(not(windows))]
pub fn first_weekday() -> Weekday {
    let locale = ["LC_ALL", "LC_TIME", "LANG"]
        .into_iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|value| !value.is_empty());
    locale.as_deref().and_then(territory).map_or(MONDAY, first_weekday_in)
}

#[cfg(windows)]
pub fn first_weekday() -> Weekday {
    use windows::Win32::Globalization::{GetLocaleInfoEx, LOCALE_IFIRSTDAYOFWEEK};
    use windows::core::PCWSTR;
    let mut text = [0u16; 4];
    // SAFETY: the buffer is the length passed; a null name is the user's locale.
    let written = unsafe { GetLocaleInfoEx(PCWSTR::null(), LOCALE_IFIRSTDAYOFWEEK, Some(&mut text)) };
    // "0" is Monday .. "6" Sunday, the same numbering as ours.
    match (written, text[0]) {
        (2.., digit @ 0x30..=0x36) => (digit - 0x30) as Weekday,
        _ => MONDAY,
    }
}

/// The territory of a POSIX locale name: `en_US.UTF-8@euro` → `US`.
#[cfg_attr(windows, allow(dead_code))]
fn territory(locale: &str) -> Option<&str> {
    let name = locale.split(['.', '@']).next()?;
    let (_, territory) = name.split_once('_')?;
    (territory.len() == 2 && territory.bytes().all(|byte| byte.is_ascii_uppercase())).then_some(territory)
}

/// CLDR's `weekData/firstDay` (its supplemental data): the territories
/// whose week does not start on Monday.
#[cfg_attr(windows, allow(dead_code))]
fn first_weekday_in(territory: &str) -> Weekday {
    const FRIDAY_FIRST: &[&str] = &["MV"];
    const SATURDAY_FIRST: &[&str] =
        &["AE", "AF", "BH", "DJ", "DZ", "EG", "IQ", "IR", "JO", "KW", "LY", "OM", "QA", "SD", "SY"];
    const SUNDAY_FIRST: &[&str] = &[
        "AG", "AS", "BD", "BR", "BS", "BT", "BW", "BZ", "CA", "CO", "DM", "DO", "ET", "GT", "GU", "HK", "HN", "ID",
        "IL", "IN", "JM", "JP", "KE", "KH", "KR", "LA", "MH", "MM", "MO", "MT", "MX", "MZ", "NI", "NP", "PA", "PE",
        "PH", "PK", "PR", "PT", "PY", "SA", "SG", "SV", "TH", "TT", "TW", "UM", "US", "VE", "VI", "WS", "YE", "ZA",
        "ZW",
    ];
    if SUNDAY_FIRST.contains(&territory) {
        SUNDAY
    } else if SATURDAY_FIRST.contains(&territory) {
        SATURDAY
    } else if FRIDAY_FIRST.contains(&territory) {
        FRIDAY
    } else {
        MONDAY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_territory_is_read_from_a_posix_locale_name() {
        assert_eq!(territory("en_US.UTF-8"), Some("US"));
        assert_eq!(territory("de_DE@euro"), Some("DE"));
        assert_eq!(territory("pt_BR"), Some("BR"));
        assert_eq!(territory("C.UTF-8"), None);
        assert_eq!(territory("POSIX"), None);
        assert_eq!(territory("en"), None);
    }

    #[test]
    fn the_week_starts_where_cldr_says() {
        assert_eq!(first_weekday_in("US"), SUNDAY);
        assert_eq!(first_weekday_in("DE"), MONDAY);
        assert_eq!(first_weekday_in("GB"), MONDAY);
        assert_eq!(first_weekday_in("EG"), SATURDAY);
        assert_eq!(first_weekday_in("MV"), FRIDAY);
    }
}

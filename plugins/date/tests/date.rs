//! The Date widget: the date in a zone, in komorebi-bar's formats or a pattern.

use obi_harness::{Harness, Script, has_icon, texts};
use std::time::Duration;

/// 2024-03-09 15:04:05 UTC, a Saturday.
fn script() -> Script {
    Script::at("2024-03-09T15:04:05Z".parse().unwrap())
}

#[test]
fn date_formats_in_two_zones() {
    // 15:04 UTC on Saturday 9 March is already Sunday 10 March in Tokyo.
    let cases = [
        ("\"MonthDateYear\"", "03/09/24", "03/10/24"),
        ("\"YearMonthDate\"", "2024-03-09", "2024-03-10"),
        ("\"DateMonthYear\"", "9-Mar-2024", "10-Mar-2024"),
        ("\"DayDateMonthYear\"", "Saturday 9 March 2024", "Sunday 10 March 2024"),
        (r#"{ "Custom": "%D %Z" }"#, "03/09/24 UTC", "03/10/24 JST"),
        // Week numbers counted from the first Sunday: 09 in UTC, 10 in Tokyo, each shifted by one.
        (
            r#"{ "CustomModifiers": { "format": "week %U of %Y", "modifiers": { "%U": 1 } } }"#,
            "week 10 of 2024",
            "week 11 of 2024",
        ),
    ];
    for (format, utc, tokyo) in cases {
        for (zone, expected) in [("UTC", utc), ("Asia/Tokyo", tokyo)] {
            let config =
                format!(r#"{{ "enable": true, "format": {format}, "timezone": "{zone}", "label_prefix": "None" }}"#);
            assert_eq!(
                texts(&Harness::first_view("Date", &config, &script())).concat(),
                expected,
                "{format} in {zone}"
            );
        }
    }
}

#[test]
fn date_prefixes_and_ticks() {
    let script = script();
    let config = r#"{ "enable": true, "format": "YearMonthDate", "timezone": "UTC", "label_prefix": "IconAndText" }"#;
    let mut date = Harness::stock("Date", config, &script).unwrap();
    let view = date.refresh().unwrap();
    assert!(has_icon(&view));
    assert_eq!(texts(&view), ["DATE: 2024-03-09"]);
    // Midnight passes: the next refresh shows the next day.
    script.advance(Duration::from_secs(9 * 3600));
    assert_eq!(texts(&date.refresh().unwrap()), ["DATE: 2024-03-10"]);
    assert_eq!((date.schedule().interval_ms, date.schedule().align_to_wall_clock), (60_000, true));
    let seconds = r#"{ "enable": true, "format": { "Custom": "%F %T" } }"#;
    assert_eq!(Harness::stock("Date", seconds, &script).unwrap().schedule().interval_ms, 1_000);
}

#[test]
fn date_refuses_an_unknown_zone() {
    let config = r#"{ "enable": true, "format": "YearMonthDate", "timezone": "Europe/Atlantis" }"#;
    let error = Harness::stock("Date", config, &script()).err().unwrap();
    assert!(error.starts_with("Date: ") && error.contains("Europe/Atlantis"), "{error}");
}

/// A secondary click opens the month's calendar beside the date, from the
/// locale's first weekday with today selected; its buttons and scrolling
/// change the month; closing it (a click outside) leaves the next refresh
/// without it, and a second secondary click closes it too.
#[test]
fn a_secondary_click_opens_the_calendar() {
    use obi_harness::{Input, PopupInput, ScrollDirection, popup_rows};
    let script = script();
    script.set_first_weekday(6);
    let config = r#"{ "enable": true, "format": "YearMonthDate", "timezone": "UTC" }"#;
    let mut date = Harness::stock("Date", config, &script).unwrap();
    assert_eq!(date.refresh().unwrap().popup, None);
    let view = date.input("date", Input::SecondaryClick).unwrap();
    let rows = popup_rows(&view);
    assert_eq!(view.popup.as_ref().unwrap().item_key, "date");
    assert_eq!(rows[0], ["‹", "March 2024", "›"]);
    assert_eq!(rows[2], ["Wk", "Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"]);
    assert_eq!(rows[3], ["9", "25", "26", "27", "28", "29", "1", "2"]);
    let today = view.popup.as_ref().unwrap().cells().find(|cell| cell.emphasis == obi_harness::Emphasis::Selected);
    assert_eq!(today.map(|cell| cell.key.as_str()), Some("day-13"), "Saturday 9 March, the second week's last day");

    let next = date.popup_input("date", "next", PopupInput::Input(Input::PrimaryClick)).unwrap();
    assert_eq!(popup_rows(&next)[0][1], "April 2024");
    let scrolled = date.popup_input("date", "day-20", PopupInput::Input(Input::Scroll(ScrollDirection::Up))).unwrap();
    assert_eq!(popup_rows(&scrolled)[0][1], "March 2024");
    assert!(date.refresh().unwrap().popup.is_some(), "it stays open from refresh to refresh");

    assert_eq!(date.close_popup().unwrap().popup, None);
    assert_eq!(date.popup_input("date", "next", PopupInput::Input(Input::PrimaryClick)).unwrap().popup, None);
    assert!(date.input("date", Input::SecondaryClick).unwrap().popup.is_some());
    assert_eq!(date.input("date", Input::SecondaryClick).unwrap().popup, None, "a second click closes it");
}

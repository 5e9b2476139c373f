//! The Time widget: the time in a zone, in komorebi-bar's formats, as text or a binary clock.

use obi_harness::{Harness, Piece, Script, View, texts};
use std::time::Duration;

/// 2024-03-09 15:04:05 UTC, a Saturday.
fn script() -> Script {
    Script::at("2024-03-09T15:04:05Z".parse().unwrap())
}

#[test]
fn time_formats_in_two_zones() {
    let cases = [
        ("TwentyFourHour", "UTC", "15:04:05"),
        ("TwentyFourHourWithoutSeconds", "Asia/Tokyo", "00:04"),
        ("TwelveHour", "America/New_York", "10:04:05 AM"),
        ("TwelveHourWithoutSeconds", "UTC", "3:04 PM"),
    ];
    for (format, zone, expected) in cases {
        let config =
            format!(r#"{{ "enable": true, "format": "{format}", "timezone": "{zone}", "label_prefix": "None" }}"#);
        assert_eq!(texts(&Harness::first_view("Time", &config, &script())).concat(), expected, "{format} in {zone}");
    }
    let custom = r#"{ "enable": true, "format": { "Custom": "%T %Z (Tokyo)" }, "timezone": "Asia/Tokyo", "label_prefix": "None" }"#;
    assert_eq!(texts(&Harness::first_view("Time", custom, &script())).concat(), "00:04:05 JST (Tokyo)");
}

#[test]
fn time_follows_the_clock() {
    let script = script();
    let config = r#"{ "enable": true, "format": "TwentyFourHour", "timezone": "UTC", "label_prefix": "None" }"#;
    let mut time = Harness::stock("Time", config, &script).unwrap();
    assert_eq!(texts(&time.refresh().unwrap()), ["15:04:05"]);
    script.advance(Duration::from_secs(61));
    assert_eq!(texts(&time.refresh().unwrap()), ["15:05:06"]);
    let schedule = time.schedule();
    assert!(schedule.align_to_wall_clock && schedule.interval_ms == 1000, "{schedule:?}");
}

#[test]
fn binary_time_is_a_binary_clock_piece() {
    let config = r#"{ "enable": true, "format": "BinaryRectangle", "timezone": "Asia/Tokyo" }"#;
    let view = Harness::first_view("Time", config, &script());
    let clock = view.items[0].pieces.iter().find_map(|piece| match piece {
        Piece::BinaryClock(clock) => Some(*clock),
        _ => None,
    });
    let clock = clock.expect("a binary clock piece");
    assert_eq!((clock.hour, clock.minute, clock.second), (0, 4, 5));
}

#[test]
fn a_refused_config_names_the_widget() {
    let error = Harness::stock(
        "Time",
        r#"{ "enable": true, "format": "TwentyFourHour", "timezone": "Mars/Olympus" }"#,
        &script(),
    )
    .err()
    .unwrap();
    assert!(error.starts_with("Time: ") && error.contains("Mars/Olympus"), "{error}");
}

#[test]
fn the_time_icon_follows_the_time_of_day_when_asked() {
    use obi_sdk::icons;
    let icon = |view: &View| {
        view.items[0].pieces.iter().find_map(|piece| match piece {
            Piece::Icon(glyph) => Some(glyph.clone()),
            _ => None,
        })
    };
    let script = Script::at("2024-03-09T00:04:05Z".parse().unwrap());
    let config = r#"{ "enable": true, "format": "TwentyFourHour", "timezone": "UTC", "changing_icon": true }"#;
    let mut time = Harness::stock("Time", config, &script).unwrap();
    let mut at = |hh_mm: &str| {
        script.set_now(format!("2024-03-09T{hh_mm}:00Z").parse().unwrap());
        icon(&time.refresh().unwrap()).unwrap()
    };
    let expected = [
        ("03:00", icons::MOON_STARS),
        ("06:00", icons::SUN_HORIZON),
        ("08:29", icons::SUN_HORIZON),
        ("08:30", icons::CLOCK),
        ("11:59", icons::CLOCK),
        ("12:00", icons::CLOCK_AFTERNOON),
        ("17:00", icons::SUN_HORIZON),
        ("20:00", icons::MOON),
    ];
    for (hh_mm, glyph) in expected {
        assert_eq!(at(hh_mm), glyph, "at {hh_mm}");
    }
    // In Tokyo, 15:04 UTC is past midnight; without the option the icon stays the clock.
    let tokyo = r#"{ "enable": true, "format": "TwentyFourHour", "timezone": "Asia/Tokyo", "changing_icon": true }"#;
    assert_eq!(icon(&Harness::first_view("Time", tokyo, &self::script())).unwrap(), icons::MOON_STARS);
    let fixed = r#"{ "enable": true, "format": "TwentyFourHour", "timezone": "Asia/Tokyo" }"#;
    assert_eq!(icon(&Harness::first_view("Time", fixed, &self::script())).unwrap(), icons::CLOCK);
}

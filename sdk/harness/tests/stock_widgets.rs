//! The stock widgets' views for scripted readings, through the harness a
//! widget author uses.

use obi_harness::{Battery, ChargeState, Disk, Harness, MemoryUsage, Piece, Script, View, texts};
use std::time::Duration;

/// 2024-03-09 15:04:05 UTC, a Saturday.
fn script() -> Script {
    Script::at("2024-03-09T15:04:05Z".parse().unwrap())
}

fn view(kind: &str, config: &str, script: &Script) -> View {
    Harness::stock(kind, config, script).unwrap().refresh().unwrap()
}

fn has_icon(view: &View) -> bool {
    view.items[0].pieces.iter().any(|piece| matches!(piece, Piece::Icon(_)))
}

#[test]
fn cpu_over_its_threshold_is_selected() {
    let script = script();
    let mut cpu = Harness::stock("Cpu", r#"{ "enable": true, "auto_select_over": 90 }"#, &script).unwrap();
    script.set_cpu(91.0);
    let hot = cpu.refresh().unwrap();
    assert_eq!((texts(&hot), hot.items[0].is_selected()), (vec!["CPU: 91%".to_string()], true));
    script.set_cpu(90.0);
    let calm = cpu.refresh().unwrap();
    assert_eq!((texts(&calm), calm.items[0].is_selected()), (vec!["CPU: 90%".to_string()], false));
}

#[test]
fn cpu_and_memory_label_prefixes() {
    let script = script();
    script.set_cpu(7.4);
    script.set_memory(MemoryUsage { total_bytes: 1000, used_bytes: 415, available_bytes: 585 });
    for (kind, name, value) in [("Cpu", "CPU", "7%"), ("Memory", "RAM", "42%")] {
        let show = |prefix: &str| {
            let view = view(kind, &format!(r#"{{ "enable": true, "label_prefix": "{prefix}" }}"#), &script);
            (has_icon(&view), texts(&view).concat())
        };
        assert_eq!(show("None"), (false, value.into()), "{kind}");
        assert_eq!(show("Icon"), (true, value.into()), "{kind}");
        assert_eq!(show("Text"), (false, format!("{name}: {value}")), "{kind}");
        assert_eq!(show("IconAndText"), (true, format!("{name}: {value}")), "{kind}");
    }
}

#[test]
fn memory_follows_its_readings_and_threshold() {
    let script = script();
    let gib = 1u64 << 30;
    let mut memory = Harness::stock("Memory", r#"{ "enable": true, "auto_select_over": 80 }"#, &script).unwrap();
    let mut read = |used: u64| {
        script.set_memory(MemoryUsage { total_bytes: 16 * gib, used_bytes: used, available_bytes: 16 * gib - used });
        let view = memory.refresh().unwrap();
        (texts(&view).concat(), view.items[0].is_selected())
    };
    assert_eq!(read(4 * gib), ("RAM: 25%".into(), false));
    assert_eq!(read(12 * gib + gib / 2), ("RAM: 78%".into(), false));
    assert_eq!(read(14 * gib), ("RAM: 88%".into(), true));
}

#[test]
fn readings_refresh_on_their_data_refresh_interval() {
    let script = script();
    for kind in ["Cpu", "Memory", "Storage", "Battery"] {
        let every = |config: &str| Harness::stock(kind, config, &script).unwrap().schedule().interval_ms;
        assert_eq!(every(r#"{ "enable": true }"#), 10_000, "{kind}");
        assert_eq!(every(r#"{ "enable": true, "data_refresh_interval": 3 }"#), 3_000, "{kind}");
        // komorebi-bar's 0 ("every frame") reads once a second here.
        assert_eq!(every(r#"{ "enable": true, "data_refresh_interval": 0 }"#), 1_000, "{kind}");
    }
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
        assert_eq!(texts(&view("Time", &config, &script())).concat(), expected, "{format} in {zone}");
    }
    let custom = r#"{ "enable": true, "format": { "Custom": "%T %Z (Tokyo)" }, "timezone": "Asia/Tokyo", "label_prefix": "None" }"#;
    assert_eq!(texts(&view("Time", custom, &script())).concat(), "00:04:05 JST (Tokyo)");
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
    let view = view("Time", config, &script());
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
            assert_eq!(texts(&view("Date", &config, &script())).concat(), expected, "{format} in {zone}");
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
    assert_eq!(icon(&view("Time", tokyo, &self::script())).unwrap(), icons::MOON_STARS);
    let fixed = r#"{ "enable": true, "format": "TwentyFourHour", "timezone": "Asia/Tokyo" }"#;
    assert_eq!(icon(&view("Time", fixed, &self::script())).unwrap(), icons::CLOCK);
}

fn disk(mount: &str, name: &str, used_percent: u64, read_only: bool, removable: bool) -> Disk {
    let total = 100 << 30;
    Disk {
        mount_point: mount.into(),
        name: name.into(),
        total_bytes: total,
        available_bytes: total / 100 * (100 - used_percent),
        read_only,
        removable,
    }
}

fn disks() -> Vec<Disk> {
    vec![
        disk("/", "/dev/nvme0n1p2", 63, false, false),
        disk("/home", "/dev/nvme0n1p3", 5, false, false),
        disk("/media/usb", "/dev/sdb1", 95, false, true),
        disk("/snap/core", "/dev/loop0", 100, true, false),
    ]
}

#[test]
fn storage_shows_one_item_per_disk_it_is_asked_to() {
    let script = script();
    script.set_disks(disks());
    let show = |config: &str| {
        let view = view("Storage", config, &script);
        let selected: Vec<bool> = view.items.iter().map(|item| item.is_selected()).collect();
        (texts(&view), selected)
    };
    // Read-only disks are hidden by default, removable ones shown.
    assert_eq!(show(r#"{ "enable": true }"#).0, ["/ 63%", "/home 5%", "/media/usb 95%"]);
    assert_eq!(
        show(r#"{ "enable": true, "show_read_only_disks": true, "show_removable_disks": false }"#).0,
        ["/ 63%", "/home 5%", "/snap/core 100%"]
    );
    assert_eq!(show(r#"{ "enable": true, "auto_hide_under": 10 }"#).0, ["/ 63%", "/media/usb 95%"]);
    assert_eq!(show(r#"{ "enable": true, "auto_select_over": 90 }"#).1, [false, false, true]);
}

#[test]
fn storage_display_names_and_prefixes() {
    let script = script();
    script.set_disks(vec![disk("/home", "/dev/sda3", 42, false, false)]);
    let label = |config: &str| texts(&view("Storage", config, &script)).concat();
    assert_eq!(label(r#"{ "enable": true, "storage_display_name": "Mount" }"#), "/home 42%");
    assert_eq!(label(r#"{ "enable": true, "storage_display_name": "Name" }"#), "/dev/sda3 42%");
    assert_eq!(label(r#"{ "enable": true, "storage_display_name": "MountAndName" }"#), "/home (/dev/sda3) 42%");
    assert_eq!(label(r#"{ "enable": true, "storage_display_name": "NameAndMount" }"#), "/dev/sda3 (/home) 42%");
    assert_eq!(label(r#"{ "enable": true, "label_prefix": "Icon" }"#), "42%");
    let view = view("Storage", r#"{ "enable": true, "label_prefix": "IconAndText" }"#, &script);
    assert!(has_icon(&view));
    assert_eq!(view.items[0].key, "/home");
    assert_eq!(view.items[0].tooltip.as_deref(), Some("/home: 58.0 GiB free of 100.0 GiB"));
}

#[test]
fn storage_follows_its_readings() {
    let script = script();
    let mut storage = Harness::stock("Storage", r#"{ "enable": true }"#, &script).unwrap();
    assert!(storage.refresh().unwrap().items.is_empty(), "no disks, no items");
    script.set_disks(vec![disk("/", "/dev/vda", 40, false, false)]);
    assert_eq!(texts(&storage.refresh().unwrap()), ["/ 40%"]);
    script.set_disks(vec![disk("/", "/dev/vda", 41, false, false)]);
    assert_eq!(texts(&storage.refresh().unwrap()), ["/ 41%"]);
}

fn battery(name: &str, percent: f32, state: ChargeState) -> Battery {
    Battery { name: name.into(), percent, state }
}

#[test]
fn battery_under_its_threshold_is_selected() {
    let script = script();
    let mut widget = Harness::stock("Battery", r#"{ "enable": true, "auto_select_under": 20 }"#, &script).unwrap();
    let mut read = |percent: f32| {
        script.set_batteries(vec![battery("BAT0", percent, ChargeState::Discharging)]);
        let view = widget.refresh().unwrap();
        (texts(&view).concat(), view.items[0].is_selected())
    };
    assert_eq!(read(15.0), ("15%".into(), true));
    assert_eq!(read(20.0), ("20%".into(), false));
    assert_eq!(read(87.4), ("87%".into(), false));
}

#[test]
fn battery_icons_tooltips_and_several_batteries() {
    use obi_sdk::icons;
    let script = script();
    script.set_batteries(vec![
        battery("BAT0", 95.0, ChargeState::Discharging),
        battery("BAT1", 40.0, ChargeState::Charging),
        battery("BAT2", 5.0, ChargeState::NotCharging),
    ]);
    let view = view("Battery", r#"{ "enable": true, "label_prefix": "IconAndText" }"#, &script);
    assert_eq!(texts(&view), ["BAT: 95%", "BAT: 40%", "BAT: 5%"]);
    let icons: Vec<&Piece> = view.items.iter().map(|item| &item.pieces[0]).collect();
    assert_eq!(
        icons,
        [
            &Piece::Icon(icons::BATTERY_FULL.into()),
            &Piece::Icon(icons::BATTERY_CHARGING.into()),
            &Piece::Icon(icons::BATTERY_EMPTY.into())
        ]
    );
    let tooltips: Vec<Option<&str>> = view.items.iter().map(|item| item.tooltip.as_deref()).collect();
    assert_eq!(tooltips, [Some("BAT0: discharging"), Some("BAT1: charging"), Some("BAT2: not charging")]);
}

#[test]
fn battery_hides_on_full_charge_and_without_a_battery() {
    let script = script();
    assert!(view("Battery", r#"{ "enable": true }"#, &script).items.is_empty(), "a desktop shows nothing");
    script.set_batteries(vec![battery("BAT0", 100.0, ChargeState::Full)]);
    assert_eq!(texts(&view("Battery", r#"{ "enable": true }"#, &script)), ["100%"]);
    assert!(view("Battery", r#"{ "enable": true, "hide_on_full_charge": true }"#, &script).items.is_empty());
}

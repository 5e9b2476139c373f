//! Each stock kind's config, with every option it has set, goes from the
//! config file through the bar's model to the JSON the bar sends, and the
//! widget's `init` reads it: the bar and the widgets share one type per
//! kind (`obi-widget-config`), and this shows they stay in step. And every
//! stock kind is registered everywhere the README's "Adding a stock widget"
//! says: its crate in `plugins/`, its line in `with_stock_kinds!` (whence
//! `STOCK_KINDS`), komorebi-bar's schema or `OBI_OWN_KINDS`, its sample
//! here, and the README's list of widgets (its config type's `Enabled` the
//! compiler checks).

mod common;

use common::{KOMOREBI_BAR_SCHEMAS, engine, schema_widget_kinds, shared};
use obi::config::BarConfig;
use obi::runtime::WidgetInstance;
use obi::wake::Waker;
use obi_test_support::workspace;
use obi_widget_config::{OBI_OWN_KINDS, STOCK_KINDS};
use std::collections::BTreeSet;

/// Every stock kind with every option it has set.
const EVERY_OPTION: &[(&str, &str)] = &[
    (
        "Applications",
        r#"{ "enable": true, "display": "IconAndText", "show_command_on_hover": true, "spacing": 4.5,
        "items": [ { "name": "T", "command": "true", "icon": "T", "display": "Text", "enable": true, "show_command_on_hover": false } ] }"#,
    ),
    (
        "Battery",
        r#"{ "enable": true, "hide_on_full_charge": true, "data_refresh_interval": 30, "label_prefix": "Text", "auto_select_under": 20 }"#,
    ),
    ("Bluetooth", r#"{ "enable": true, "label_prefix": "IconAndText" }"#),
    ("Brightness", r#"{ "enable": true, "label_prefix": "IconAndText", "step": 10 }"#),
    ("Cpu", r#"{ "enable": true, "data_refresh_interval": 2, "label_prefix": "IconAndText", "auto_select_over": 80 }"#),
    (
        "Custom",
        r#"{ "enable": true, "name": "mail", "exec": "mail-count --json", "interval": 60, "return_type": "json", "on_click": "thunderbird",
        "on_click_right": "mail-count --sync", "on_click_middle": "true", "max_length": 30, "auto_select_over": 90,
        "escape": true }"#,
    ),
    (
        "Date",
        r#"{ "enable": true, "format": { "CustomModifiers": { "format": "%U", "modifiers": { "%U": 1 } } }, "label_prefix": "None", "timezone": "Asia/Tokyo" }"#,
    ),
    ("IdleInhibitor", r#"{ "enable": true, "label_prefix": "IconAndText", "start_activated": true }"#),
    ("Keyboard", r#"{ "enable": true, "data_refresh_interval": 5, "label_prefix": "Icon" }"#),
    (
        "Komorebi",
        r#"{
        "workspaces": { "enable": true, "hide_empty_workspaces": true, "display": "AllIconsAndTextOnSelected", "strip": "Numbers" },
        "layout": { "enable": true, "options": [ "BSP", { "Default": "Grid" }, "Monocle", "Floating", "Paused" ], "display": "IconAndTextOnSelected" },
        "focused_container": { "enable": true, "show_icon": true, "display": "TextAndIconOnSelected" },
        "locked_container": { "enable": true, "show_when_unlocked": true, "display": "Icon" },
        "workspace_layer": { "enable": true, "show_when_tiling": true, "display": "Text" },
        "configuration_switcher": { "enable": true, "configurations": { "work": "/home/me/work.json" } },
        "binding_mode": { "enable": true, "display": "IconAndText" } }"#,
    ),
    ("Media", r#"{ "enable": true, "display": "Full" }"#),
    ("Memory", r#"{ "enable": true, "data_refresh_interval": 3, "label_prefix": "Text", "auto_select_over": 90 }"#),
    (
        "Network",
        r#"{ "enable": true, "show_total_activity": true, "show_activity": true, "show_default_interface": false,
        "activity_left_padding": 3, "data_refresh_interval": 2, "label_prefix": "IconAndText",
        "auto_select": { "received_over": 1, "transmitted_over": 2, "total_received_over": 3, "total_transmitted_over": 4 } }"#,
    ),
    ("Notifications", r#"{ "enable": true, "label_prefix": "Text", "hide_when_none": true, "history_shown": 5 }"#),
    (
        "PowerMenu",
        r#"{ "enable": true, "label_prefix": "IconAndText", "lock": "swaylock -f", "log_out": "swaymsg exit",
        "suspend": false, "reboot": true, "shut_down": "systemctl poweroff -i" }"#,
    ),
    ("Privacy", r#"{ "enable": true, "label_prefix": "IconAndText", "ignore": ["cava"] }"#),
    ("StatusCommand", r#"{ "enable": true, "command": "i3status -c /etc/i3status.conf" }"#),
    (
        "Storage",
        r#"{ "enable": true, "data_refresh_interval": 60, "label_prefix": "Text", "auto_select_over": 90, "auto_hide_under": 5,
        "show_read_only_disks": true, "show_removable_disks": false, "storage_display_name": "NameAndMount" }"#,
    ),
    (
        "Systray",
        r#"{ "enable": true, "info_button": "Visible", "refresh_button": "Overflow", "shortcuts_button": "Visible",
        "overflow_toggle_position": "Left", "stale_icons_check_interval": 120,
        "hidden_icons": [ "nm-applet", { "exe": "a", "tooltip": { "value": "^x", "matching_strategy": "Regex" }, "guid": "g" } ] }"#,
    ),
    (
        "Time",
        r#"{ "enable": true, "format": { "Custom": "%H:%M" }, "label_prefix": "IconAndText", "timezone": "Europe/Paris", "changing_icon": true }"#,
    ),
    (
        "Update",
        r#"{ "enable": true, "data_refresh_interval": 6, "label_prefix": "Text", "release_feed": "http://127.0.0.1:9/feed" }"#,
    ),
    ("Volume", r#"{ "enable": true, "label_prefix": "IconAndText", "step": 2, "microphone": true }"#),
    (
        "Weather",
        r#"{ "enable": true, "latitude": -33.87, "longitude": 151.21, "units": "Imperial", "data_refresh_interval": 900,
        "label_prefix": "IconAndText", "open_meteo_url": "http://127.0.0.1:9" }"#,
    ),
    ("Wifi", r#"{ "enable": true, "label_prefix": "Text" }"#),
];

#[test]
fn every_kind_reads_what_the_bar_sends_with_every_option_set() {
    let listed: Vec<&str> = EVERY_OPTION.iter().map(|(kind, _)| *kind).collect();
    let stock: Vec<&str> = STOCK_KINDS.iter().map(|kind| kind.key).collect();
    assert_eq!(listed, stock, "every stock kind has its sample here");
    let mut engine = engine();
    for (kind, options) in EVERY_OPTION {
        let file = format!(r#"{{ "left_widgets": [ {{ "{kind}": {options} }} ], "right_widgets": [] }}"#);
        let loaded = BarConfig::parse(&file, kind).unwrap_or_else(|errors| panic!("{kind}: {errors:?}"));
        assert!(loaded.warnings.is_empty(), "{kind}: {:?}", loaded.warnings);
        let config = loaded.config;
        let entry = config.widgets().next().unwrap_or_else(|| panic!("{kind} is enabled"));
        let spec = obi::spec::WidgetSpec::from_entry(&entry, &config).unwrap();
        let sent: serde_json::Value = serde_json::from_str(&spec.config_json).unwrap();
        let written: serde_json::Value = serde_json::from_str(options).unwrap();
        assert_eq!(sent, written, "{kind}: the bar sends every option as written");
        let started = WidgetInstance::start(&mut engine, &spec, Waker::new(|| {}));
        if let Err(failure) = started {
            panic!("{kind}: the widget refuses what the bar sends: {failure}");
        }
    }
}

#[test]
fn every_stock_kind_has_its_crate_named_for_it() {
    for kind in STOCK_KINDS {
        let folder = kind.key.to_lowercase();
        let manifest = workspace().join("plugins").join(&folder).join("Cargo.toml");
        let text = std::fs::read_to_string(&manifest)
            .unwrap_or_else(|error| panic!("{}: no crate at {}: {error}", kind.key, manifest.display()));
        let named = format!("name = \"obi-widget-{folder}\"");
        assert!(
            text.lines().any(|line| line.trim() == named),
            "{}: {} does not say {named}",
            kind.key,
            manifest.display()
        );
    }
}

#[test]
fn every_stock_kind_is_komorebi_bars_or_obis_own_and_not_both() {
    let Some(shared) = shared() else { return };
    let komorebi_bars: BTreeSet<String> =
        KOMOREBI_BAR_SCHEMAS.iter().flat_map(|file| schema_widget_kinds(&shared, file)).collect();
    for kind in STOCK_KINDS {
        let (theirs, ours) = (komorebi_bars.contains(kind.key), OBI_OWN_KINDS.contains(&kind.key));
        assert!(theirs != ours, "{}: komorebi-bar's: {theirs}, in OBI_OWN_KINDS: {ours}", kind.key);
    }
    for own in OBI_OWN_KINDS {
        assert!(STOCK_KINDS.iter().any(|kind| kind.key == *own), "OBI_OWN_KINDS names {own}, no stock kind");
    }
}

#[test]
fn the_readme_lists_every_stock_kind() {
    let readme = std::fs::read_to_string(workspace().join("README.md")).unwrap();
    let start = readme.find("**Widgets as components.**").expect("the README's list of widgets");
    let list = &readme[start..][..readme[start..].find("built against").expect("the end of the list")];
    for kind in STOCK_KINDS {
        assert!(list.contains(&format!("`{}`", kind.key)), "the README's list of widgets lacks `{}`", kind.key);
    }
}

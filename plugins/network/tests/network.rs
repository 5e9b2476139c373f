//! The Network widget's views for scripted interfaces, through the harness.

use obi_harness::{Harness, Interface, Piece, Script, View, texts};

const MIB: u64 = 1 << 20;

fn script_with(interfaces: Vec<Interface>) -> Script {
    let script = Script::at("2024-03-09T15:04:05Z".parse().unwrap());
    script.set_interfaces(interfaces);
    script
}

fn interface(name: &str, default_route: bool, rates: (u64, u64), totals: (u64, u64)) -> Interface {
    Interface {
        name: name.into(),
        received_per_second: rates.0,
        transmitted_per_second: rates.1,
        total_received: totals.0,
        total_transmitted: totals.1,
        default_route,
        wireless: name.starts_with("wl"),
    }
}

fn office() -> Vec<Interface> {
    vec![
        interface("docker0", false, (50 * MIB, 50 * MIB), (9 << 30, 9 << 30)),
        interface("eth0", true, (2 * MIB, 300 * 1024), (3 << 30, 512 * MIB)),
    ]
}

fn view(config: &str, script: &Script) -> View {
    Harness::stock("Network", config, script).unwrap().refresh().unwrap()
}

fn keys(view: &View) -> Vec<&str> {
    view.items.iter().map(|item| item.key.as_str()).collect()
}

fn selected(view: &View) -> Vec<&str> {
    view.items.iter().filter(|item| item.is_selected()).map(|item| item.key.as_str()).collect()
}

#[test]
fn the_default_interfaces_rates_totals_and_name() {
    let script = script_with(office());
    let all = r#"{ "enable": true, "show_activity": true, "show_total_activity": true }"#;
    let shown = view(all, &script);
    assert_eq!(keys(&shown), ["received", "transmitted", "total-received", "total-transmitted", "interface"]);
    assert_eq!(texts(&shown), ["2.0 MiB/s", "300.0 KiB/s", "3.0 GiB", "512.0 MiB", "eth0"]);
    let icons = shown.items.iter().all(|item| matches!(item.pieces.first(), Some(Piece::Icon(_))));
    assert!(icons, "Icon is the default prefix: {shown:?}");

    let rates =
        r#"{ "enable": true, "show_activity": true, "show_total_activity": false, "show_default_interface": false }"#;
    assert_eq!(keys(&view(rates, &script)), ["received", "transmitted"]);
    let totals = r#"{ "enable": true, "show_activity": false, "show_total_activity": true, "label_prefix": "Text" }"#;
    assert_eq!(texts(&view(totals, &script)), ["TOTAL DOWN: 3.0 GiB", "TOTAL UP: 512.0 MiB", "NET: eth0"]);
}

#[test]
fn each_reading_is_selected_over_its_own_threshold() {
    let script = script_with(office());
    let config = |select: &str| {
        format!(r#"{{ "enable": true, "show_activity": true, "show_total_activity": true, "auto_select": {select} }}"#)
    };
    // 2 MiB/s received against a 1 MiB limit.
    assert_eq!(selected(&view(&config(r#"{ "received_over": 1048576 }"#), &script)), ["received"]);
    assert!(selected(&view(&config(r#"{ "received_over": 2097152 }"#), &script)).is_empty(), "over, not at");
    assert_eq!(selected(&view(&config(r#"{ "transmitted_over": 1024 }"#), &script)), ["transmitted"]);
    let totals = r#"{ "total_received_over": 1073741824, "total_transmitted_over": 1073741824 }"#;
    assert_eq!(selected(&view(&config(totals), &script)), ["total-received"]);
}

#[test]
fn rates_are_padded_to_the_reserved_width() {
    let script = script_with(office());
    let config =
        r#"{ "enable": true, "show_activity": true, "show_total_activity": true, "activity_left_padding": 12 }"#;
    let shown = texts(&view(config, &script));
    assert_eq!(shown[0], "\u{2007}\u{2007}\u{2007}2.0 MiB/s");
    assert_eq!(shown[1].chars().count(), 12);
    assert_eq!(shown[2], "3.0 GiB", "totals are not padded");
}

#[test]
fn the_readings_follow_the_interface_over_time() {
    let script = script_with(office());
    let config = r#"{ "enable": true, "show_activity": true, "show_total_activity": false, "auto_select": { "received_over": 1048576 } }"#;
    let mut network = Harness::stock("Network", config, &script).unwrap();
    assert_eq!(selected(&network.refresh().unwrap()), ["received"]);
    script.set_interfaces(vec![interface("wlan0", true, (4096, 0), (1 << 30, 1 << 20))]);
    let calm = network.refresh().unwrap();
    assert_eq!(texts(&calm), ["4.0 KiB/s", "0.0 KiB/s", "wlan0"]);
    assert!(selected(&calm).is_empty());
}

#[test]
fn without_a_default_route_it_shows_offline() {
    let script = script_with(vec![interface("eth0", false, (MIB, MIB), (MIB, MIB))]);
    let config = r#"{ "enable": true, "show_activity": true, "show_total_activity": true }"#;
    assert_eq!(texts(&view(config, &script)), ["offline"]);
    let quiet =
        r#"{ "enable": true, "show_activity": true, "show_total_activity": true, "show_default_interface": false }"#;
    assert!(view(quiet, &script).items.is_empty());
}

//! The Battery widget: each battery's charge, selected under its threshold.

use obi_harness::{Battery, ChargeState, Harness, Piece, Script, texts};

/// 2024-03-09 15:04:05 UTC, a Saturday.
fn script() -> Script {
    Script::at("2024-03-09T15:04:05Z".parse().unwrap())
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
    let view = Harness::first_view("Battery", r#"{ "enable": true, "label_prefix": "IconAndText" }"#, &script);
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
    assert!(
        Harness::first_view("Battery", r#"{ "enable": true }"#, &script).items.is_empty(),
        "a desktop shows nothing"
    );
    script.set_batteries(vec![battery("BAT0", 100.0, ChargeState::Full)]);
    assert_eq!(texts(&Harness::first_view("Battery", r#"{ "enable": true }"#, &script)), ["100%"]);
    assert!(
        Harness::first_view("Battery", r#"{ "enable": true, "hide_on_full_charge": true }"#, &script).items.is_empty()
    );
}

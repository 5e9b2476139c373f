//! The Battery widget: each battery's charge, selected under its threshold.

use obi_harness::{
    Battery, Block, ChargeState, Emphasis, Harness, Input, Piece, PopupInput, ProfilesStatus, Script, popup_rows, texts,
};
use std::time::Duration;

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

fn offered(active: &str) -> ProfilesStatus {
    let profiles = ["power-saver", "balanced", "performance"].map(String::from).to_vec();
    ProfilesStatus::Offered { active: active.into(), profiles }
}

#[test]
fn a_click_opens_the_power_profiles_and_one_chosen_is_used() {
    let script = script();
    script.set_batteries(vec![battery("BAT0", 60.0, ChargeState::Discharging)]);
    let mut widget = Harness::stock("Battery", r#"{ "enable": true }"#, &script).unwrap();
    let shown = widget.refresh().unwrap();
    assert!(!shown.items[0].takes.takes_a_click(), "no daemon: nothing to open");
    assert_eq!(widget.input("BAT0", Input::PrimaryClick).unwrap().popup, None);

    script.set_power_profiles(offered("balanced"));
    assert!(widget.wait_for_wake(Duration::from_secs(5)), "the daemon's change wakes the widget");
    assert!(widget.refresh().unwrap().items[0].takes.takes_a_click());
    let shown = widget.input("BAT0", Input::PrimaryClick).unwrap();
    assert_eq!(popup_rows(&shown), [["Power profile"], ["Power saver"], ["Balanced"], ["Performance"]]);
    assert!(shown.items[0].is_selected(), "lit while its popup is open");
    let marked = |view: &obi_harness::View| -> Vec<bool> {
        let popup = view.popup.as_ref().unwrap();
        let buttons = popup.blocks.iter().filter_map(|block| match block {
            Block::Line(cell) if cell.key.starts_with("profile:") => Some(cell.emphasis == Emphasis::Selected),
            _ => None,
        });
        buttons.collect()
    };
    assert_eq!(marked(&shown), [false, true, false]);

    let shown = widget.popup_input("BAT0", "profile:performance", PopupInput::Input(Input::PrimaryClick)).unwrap();
    assert_eq!(script.profiles_asked(), ["performance"]);
    assert_eq!(marked(&shown), [false, false, true], "the one in use, as the daemon reads back");

    script.set_power_profiles(ProfilesStatus::Unavailable("power-profiles-daemon is not running".into()));
    let shown = widget.refresh().unwrap();
    assert_eq!(shown.popup, None, "the daemon went: its popup goes");
    assert_eq!(texts(&shown), ["60%"], "the battery stays");
}

#[test]
fn without_a_battery_the_daemon_is_not_read() {
    let script = script();
    script.set_power_profiles(offered("balanced"));
    let mut widget = Harness::stock("Battery", r#"{ "enable": true }"#, &script).unwrap();
    assert!(widget.refresh().unwrap().items.is_empty());
    script.set_power_profiles(offered("performance"));
    assert!(!widget.wait_for_wake(Duration::from_millis(500)), "a desktop's bar is not woken by the profiles");
}

//! The power menu through the harness: its button, the menu it opens, the
//! second click Reboot and Shut down wait for, and the commands it names.

use obi_harness::{Emphasis, Harness, Input, Piece, PopupInput, Script, popup_rows};

const HARMLESS: &str = r#"{ "enable": true, "lock": "echo lock", "log_out": "echo log out", "suspend": "echo suspend",
    "reboot": "echo reboot", "shut_down": "echo shut down" }"#;

fn menu(config: &str) -> (Harness, Script) {
    let script = Script::at("2024-03-09T15:04:05Z".parse().unwrap());
    (Harness::stock("PowerMenu", config, &script).unwrap(), script)
}

const CLICK: PopupInput = PopupInput::Input(Input::PrimaryClick);

#[test]
fn a_click_on_its_button_opens_the_menu_and_another_closes_it() {
    let (mut power, _) = menu(HARMLESS);
    let closed = power.refresh().unwrap();
    assert_eq!(closed.items.len(), 1);
    assert!(matches!(closed.items[0].pieces[..], [Piece::Icon(_)]), "its icon alone by default");
    assert_eq!(closed.popup, None);
    let open = power.input("power", Input::PrimaryClick).unwrap();
    assert_eq!(popup_rows(&open), [["Lock"], ["Log out"], ["Suspend"], ["Reboot"], ["Shut down"]]);
    assert!(open.items[0].is_selected(), "the button shows its menu is open");
    assert_eq!(power.input("power", Input::PrimaryClick).unwrap().popup, None);
    power.input("power", Input::PrimaryClick).unwrap();
    assert_eq!(power.close_popup().unwrap().popup, None, "a click elsewhere closes it");
}

#[test]
fn shut_down_runs_on_the_second_click_and_lock_on_the_first() {
    let (mut power, script) = menu(HARMLESS);
    power.input("power", Input::PrimaryClick).unwrap();
    let asked = power.popup_input("power", "shut_down", CLICK).unwrap();
    assert!(script.spawned().is_empty(), "one click shuts nothing down");
    assert_eq!(popup_rows(&asked)[4], ["Shut down? Click again"]);
    assert_eq!(asked.popup.as_ref().unwrap().cell("shut_down").unwrap().emphasis, Emphasis::Urgent);
    let done = power.popup_input("power", "shut_down", CLICK).unwrap();
    assert_eq!(script.spawned(), ["echo shut down"]);
    assert_eq!(done.popup, None, "choosing closes the menu");

    power.input("power", Input::PrimaryClick).unwrap();
    power.popup_input("power", "lock", CLICK).unwrap();
    assert_eq!(script.spawned(), ["echo shut down", "echo lock"]);
}

#[test]
fn a_first_click_is_forgotten_when_the_menu_closes_or_another_is_chosen() {
    let (mut power, script) = menu(HARMLESS);
    power.input("power", Input::PrimaryClick).unwrap();
    power.popup_input("power", "reboot", CLICK).unwrap();
    power.close_popup().unwrap();
    power.input("power", Input::PrimaryClick).unwrap();
    let again = power.popup_input("power", "reboot", CLICK).unwrap();
    assert_eq!(popup_rows(&again)[3], ["Reboot? Click again"], "asked anew");
    let other = power.popup_input("power", "shut_down", CLICK).unwrap();
    assert_eq!(popup_rows(&other)[3..], [["Reboot"], ["Shut down? Click again"]]);
    assert!(script.spawned().is_empty());
}

#[test]
fn actions_left_out_are_not_offered_and_the_label_prefix_is_kept() {
    let (mut power, script) = menu(
        r#"{ "enable": true, "label_prefix": "IconAndText", "lock": "echo lock",
        "log_out": false, "reboot": false, "shut_down": false }"#,
    );
    let view = power.input("power", Input::PrimaryClick).unwrap();
    assert!(matches!(view.items[0].pieces[..], [Piece::Icon(_), Piece::Text(ref text)] if text == "Power"));
    assert_eq!(popup_rows(&view), [["Lock"], ["Suspend"]]);
    power.popup_input("power", "reboot", CLICK).unwrap();
    power.popup_input("power", "reboot", CLICK).unwrap();
    assert!(script.spawned().is_empty(), "an action left out runs nothing");

    let (mut nothing, _) = menu(
        r#"{ "enable": true, "lock": false, "log_out": false, "suspend": false, "reboot": false, "shut_down": false }"#,
    );
    assert!(nothing.refresh().unwrap().items.is_empty(), "no action, no button");
}

//! The Systray widget over scripted tray items: hidden icons in the
//! overflow on either side of its toggle, the three buttons where they are
//! put, what each click asks of an item, its menu opened in the bar, and
//! the sweep on its interval.

use obi_harness::{
    Emphasis, Harness, Input, ItemStatus, MenuEntry, Piece, Script, ScrollDirection, TrayAction, TrayItem, View,
};
use std::time::Duration;

fn entry(id: i32, depth: u32, label: &str) -> MenuEntry {
    MenuEntry { id, depth, label: label.into(), enabled: true, toggled: None, separator: false, submenu: false }
}

fn tray_item(key: &str, id: &str, exe: &str, icon: Option<u64>, menu: Vec<MenuEntry>) -> TrayItem {
    TrayItem {
        key: key.into(),
        id: id.into(),
        title: format!("{id} title"),
        exe: exe.into(),
        status: ItemStatus::Active,
        icon,
        tooltip: format!("{id} says hello"),
        menu,
        item_is_menu: false,
    }
}

fn items() -> Vec<TrayItem> {
    let mut wifi = entry(3, 1, "Wi-Fi");
    wifi.toggled = Some(true);
    let mut off = entry(5, 0, "Off");
    off.enabled = false;
    let mut settings = entry(2, 0, "Settings");
    settings.submenu = true;
    let mut separator = entry(6, 0, "");
    separator.separator = true;
    let menu = vec![settings, wifi, separator, entry(4, 0, "Quit"), off];
    vec![
        tray_item(":1.5/StatusNotifierItem", "nm-applet", "nm-applet", Some(11), menu),
        tray_item(":1.6/org/ayatana/NotificationItem/blueman", "blueman", "blueman-applet", None, Vec::new()),
        tray_item(":1.7/StatusNotifierItem", "updates", "update-notifier", Some(12), Vec::new()),
    ]
}

fn systray(config: &str) -> (Harness, Script) {
    let script = Script::at("2024-03-09T15:04:05Z".parse().unwrap());
    script.set_tray(items());
    (Harness::stock("Systray", config, &script).unwrap(), script)
}

fn keys(view: &View) -> Vec<&str> {
    view.items.iter().map(|item| item.key.as_str()).collect()
}

#[test]
fn each_item_shows_its_icon_or_first_letter_and_its_tooltip() {
    let (mut widget, _) = systray(r#"{ "enable": true }"#);
    let view = widget.refresh().unwrap();
    assert_eq!(
        keys(&view),
        [
            "item::1.5/StatusNotifierItem",
            "item::1.6/org/ayatana/NotificationItem/blueman",
            "item::1.7/StatusNotifierItem"
        ]
    );
    assert_eq!(view.items[0].pieces, [Piece::HeldImage(11)]);
    assert_eq!(view.items[1].pieces, [Piece::Text("B".into())], "no icon: the first letter of its title");
    assert_eq!(view.items[0].tooltip.as_deref(), Some("nm-applet says hello"));
}

#[test]
fn hidden_icons_go_to_the_overflow_on_the_side_of_its_toggle() {
    let config = r#"{ "enable": true, "hidden_icons": [ "BLUEMAN-APPLET", { "tooltip": { "value": "updates", "matching_strategy": "StartsWith" } } ] }"#;
    let (mut widget, _) = systray(config);
    assert_eq!(keys(&widget.refresh().unwrap()), ["item::1.5/StatusNotifierItem", "overflow"]);
    let opened = widget.input("overflow", Input::PrimaryClick).unwrap();
    assert_eq!(
        keys(&opened),
        [
            "item::1.5/StatusNotifierItem",
            "overflow",
            "item::1.6/org/ayatana/NotificationItem/blueman",
            "item::1.7/StatusNotifierItem"
        ]
    );
    let left = config.replace("\"enable\": true,", "\"enable\": true, \"overflow_toggle_position\": \"Left\",");
    let (mut widget, _) = systray(&left);
    widget.refresh().unwrap();
    let opened = widget.input("overflow", Input::PrimaryClick).unwrap();
    assert_eq!(keys(&opened)[2], "overflow", "the hidden ones, then the toggle, then the rest");
    assert_eq!(keys(&opened)[3], "item::1.5/StatusNotifierItem");
}

#[test]
fn the_buttons_sit_where_they_are_put_and_do_what_they_say() {
    let config =
        r#"{ "enable": true, "info_button": "Visible", "refresh_button": "Overflow", "shortcuts_button": "Visible" }"#;
    let (mut widget, script) = systray(config);
    let view = widget.refresh().unwrap();
    assert_eq!(&keys(&view)[3..], ["info", "shortcuts", "overflow"]);
    let info = view.items.iter().find(|item| item.key == "info").unwrap();
    assert!(info.tooltip.as_deref().unwrap().contains("blueman: blueman title (blueman-applet)"), "{:?}", info.tooltip);
    assert!(
        view.items
            .iter()
            .find(|item| item.key == "shortcuts")
            .unwrap()
            .tooltip
            .as_deref()
            .unwrap()
            .contains("Right click")
    );
    widget.input("overflow", Input::PrimaryClick).unwrap();
    widget.input("refresh", Input::PrimaryClick).unwrap();
    assert_eq!(script.sweeps(), 1, "refresh sweeps and reads the tray again");
}

#[test]
fn clicks_and_scrolls_go_to_the_item() {
    let (mut widget, script) = systray(r#"{ "enable": true }"#);
    widget.refresh().unwrap();
    let blueman = "item::1.6/org/ayatana/NotificationItem/blueman";
    for input in [
        Input::PrimaryClick,
        Input::MiddleClick,
        Input::SecondaryClick,
        Input::Scroll(ScrollDirection::Down),
        Input::Scroll(ScrollDirection::Left),
    ] {
        widget.input(blueman, input).unwrap();
    }
    let key = ":1.6/org/ayatana/NotificationItem/blueman".to_string();
    assert_eq!(
        script.tray_actions(),
        [
            (key.clone(), TrayAction::Activate),
            (key.clone(), TrayAction::SecondaryActivate),
            (key.clone(), TrayAction::ContextMenu),
            (key.clone(), TrayAction::Scroll { delta: 1, horizontal: false }),
            (key, TrayAction::Scroll { delta: -1, horizontal: true }),
        ],
        "a right click on an item without a menu here asks it for its own"
    );
}

#[test]
fn a_right_click_opens_the_menu_in_the_bar() {
    let (mut widget, script) = systray(r#"{ "enable": true }"#);
    widget.refresh().unwrap();
    let nm = "item::1.5/StatusNotifierItem";
    let view = widget.input(nm, Input::SecondaryClick).unwrap();
    let entries: Vec<String> = view.items[1..3]
        .iter()
        .map(|item| {
            item.pieces
                .iter()
                .filter_map(|piece| if let Piece::Text(text) = piece { Some(text.clone()) } else { None })
                .collect()
        })
        .collect();
    assert_eq!(
        entries,
        ["Settings", "Quit"],
        "the top level; the separator and the closed submenu's entries are not shown"
    );
    let off = &view.items[3];
    assert_eq!((off.emphasis, off.takes.takes(Input::PrimaryClick)), (Emphasis::Muted, false), "a disabled entry");
    let opened = widget.input("entry::1.5/StatusNotifierItem:2", Input::PrimaryClick).unwrap();
    let wifi =
        opened.items.iter().find(|item| item.key == "entry::1.5/StatusNotifierItem:3").expect("the submenu opened");
    assert!(wifi.pieces.iter().any(|piece| matches!(piece, Piece::Icon(_))), "checked");
    let closed = widget.input("entry::1.5/StatusNotifierItem:4", Input::PrimaryClick).unwrap();
    assert_eq!(closed.items.len(), 3, "choosing closes the menu");
    assert_eq!(script.tray_actions(), [(":1.5/StatusNotifierItem".to_string(), TrayAction::MenuChosen(4))]);
}

#[test]
fn the_sweep_comes_on_its_interval_and_pushes_wake_the_widget() {
    let (mut widget, script) = systray(r#"{ "enable": true, "stale_icons_check_interval": 10 }"#);
    assert_eq!(widget.schedule().interval_ms, 30_000, "clamped to 30..=600 s");
    widget.refresh().unwrap();
    assert_eq!(script.sweeps(), 0);
    script.advance(Duration::from_secs(30));
    widget.refresh().unwrap();
    assert_eq!(script.sweeps(), 1);
    let (off, _) = systray(r#"{ "enable": true, "stale_icons_check_interval": 0 }"#);
    assert_eq!(off.schedule().interval_ms, 0, "0: never");
    let mut fewer = items();
    fewer.pop();
    script.set_tray(fewer);
    assert!(widget.wait_for_wake(Duration::from_secs(1)));
    assert_eq!(widget.refresh().unwrap().items.len(), 2);
}

/// 300 items with long titles: the view holds the first ones and the
/// widget's own buttons, and the info button's list of every item is cut,
/// so the widget never fails (a view has 256 items and 4 KiB texts).
#[test]
fn more_items_than_a_view_holds_show_as_many_as_fit() {
    let script = Script::at("2024-03-09T15:04:05Z".parse().unwrap());
    let many: Vec<TrayItem> = (0..300)
        .map(|index| {
            let mut item =
                tray_item(&format!(":1.{index}/StatusNotifierItem"), &format!("app{index}"), "app", None, vec![]);
            item.title = "t".repeat(400);
            item
        })
        .collect();
    script.set_tray(many);
    let config = r#"{ "enable": true, "info_button": "Visible", "refresh_button": "Visible" }"#;
    let mut tray = Harness::stock("Systray", config, &script).unwrap();
    let shown = tray.refresh().expect("the widget shows what fits");
    assert_eq!(shown.items.len(), 256);
    let keys: Vec<&str> = shown.items.iter().map(|item| item.key.as_str()).collect();
    assert!(keys.contains(&"info") && keys.contains(&"refresh"), "the buttons show: {keys:?}");
    assert_eq!(keys[0], "item::1.0/StatusNotifierItem");
    let info = shown.items.iter().find(|item| item.key == "info").unwrap();
    assert!(info.tooltip.as_deref().unwrap().len() <= 4096);
}

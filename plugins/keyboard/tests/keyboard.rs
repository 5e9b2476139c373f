//! The Keyboard widget over scripted layouts: the layout's name with its
//! prefix, woken when the layout changes, and nothing when the host cannot
//! tell.

use obi_harness::{Harness, KeyboardLayout, Piece, Script, texts};
use std::time::Duration;

fn layout(name: &str, short_name: &str) -> KeyboardLayout {
    KeyboardLayout {
        name: name.into(),
        short_name: short_name.into(),
        all: vec!["English (US)".into(), "German".into()],
    }
}

fn script() -> Script {
    Script::at("2024-03-09T15:04:05Z".parse().unwrap())
}

#[test]
fn the_layouts_name_follows_each_switch() {
    let script = script();
    script.set_keyboard(Some(layout("English (US)", "us")));
    let mut keyboard = Harness::stock("Keyboard", r#"{ "enable": true }"#, &script).unwrap();
    let view = keyboard.refresh().unwrap();
    assert_eq!(texts(&view), ["KB: English (US)"]);
    assert!(matches!(view.items[0].pieces[0], Piece::Icon(_)), "IconAndText by default");
    assert_eq!(view.items[0].tooltip.as_deref(), Some("English (US) (us)\nLayouts: English (US), German"));
    script.set_keyboard(Some(layout("German", "de")));
    assert!(keyboard.wait_for_wake(Duration::from_secs(1)), "the switch woke the widget");
    assert_eq!(texts(&keyboard.refresh().unwrap()), ["KB: German"]);
}

#[test]
fn label_prefix_and_interval() {
    let script = script();
    script.set_keyboard(Some(layout("German", "de")));
    let mut plain = Harness::stock(
        "Keyboard",
        r#"{ "enable": true, "label_prefix": "None", "data_refresh_interval": 3 }"#,
        &script,
    )
    .unwrap();
    let view = plain.refresh().unwrap();
    assert_eq!((texts(&view), view.items[0].pieces.len()), (vec!["German".to_string()], 1));
    assert_eq!(plain.schedule().interval_ms, 3000);
}

#[test]
fn without_a_layout_nothing_shows() {
    let script = script();
    let mut keyboard = Harness::stock("Keyboard", r#"{ "enable": true }"#, &script).unwrap();
    assert!(keyboard.refresh().unwrap().items.is_empty());
}

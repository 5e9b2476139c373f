//! The status program widget through the harness: a status line's blocks
//! as items with their looks, a program's failure in their place, and
//! clicks handed to the program as swaybar writes them.

use obi_harness::{
    Align, Emphasis, Harness, Header, Input, Inputs, LeastWidth, Piece, Pointer, Rgba, Script, ScrollDirection,
    StatusClick, StatusRead, View, texts,
};

const CONFIG: &str = r#"{ "enable": true, "command": "i3status -c ~/.i3status" }"#;
const PROGRAM: &str = "i3status -c ~/.i3status";

fn status() -> (Harness, Script) {
    let script = Script::at("2024-03-09T15:04:05Z".parse().unwrap());
    (Harness::stock("StatusCommand", CONFIG, &script).unwrap(), script)
}

fn said(script: &Script, click_events: bool, line: &str) {
    let header = Header { version: 1, click_events, stop_signal: 19, cont_signal: 18 };
    script.set_status(PROGRAM, StatusRead { header: Some(header), line: Some(line.into()), failure: None });
}

#[test]
fn the_program_is_started_and_its_blocks_are_items_with_their_looks() {
    let (mut widget, script) = status();
    assert_eq!(widget.refresh().unwrap(), View::of(Vec::new()), "nothing before its first line");
    assert_eq!(script.follows(), [PROGRAM]);
    said(
        &script,
        false,
        r##"[{"full_text":"W: up","color":"#00ff00","background":"#10203040","border":"#ff0000","border_left":3,
             "min_width":120,"align":"center","separator":false,"separator_block_width":0},
            {"full_text":""},
            {"full_text":"<b>BAT</b> 12%","short_text":"12%","markup":"pango","urgent":true,"color":"#000000"}]"##,
    );
    let view = widget.refresh().unwrap();
    assert_eq!(texts(&view), ["W: up", "BAT 12%"], "an empty full_text hides its block");
    let wifi = view.items[0].look.as_deref().unwrap();
    assert_eq!(wifi.colour, Some(Rgba::rgb(0, 255, 0)));
    assert_eq!(wifi.background, Some(Rgba(0x10, 0x20, 0x30, 0x40)));
    let border = wifi.border.unwrap();
    assert_eq!((border.colour, border.left, border.top), (Rgba::rgb(255, 0, 0), 3.0, 1.0));
    assert_eq!((wifi.least_width.clone(), wifi.align), (Some(LeastWidth::Pixels(120.0)), Align::Center));
    assert_eq!((wifi.room_after, wifi.separator), (Some(0.0), false));
    let battery = &view.items[1];
    assert_eq!((battery.key.as_str(), battery.emphasis), ("2", Emphasis::Urgent));
    assert!(matches!(&battery.pieces[..], [Piece::Styled(spans)] if spans[0].style.weight == Some(700)));
    let look = battery.look.as_deref().unwrap();
    assert_eq!(look.colour, None, "an urgent block takes the theme's urgent colours");
    assert_eq!(look.short, Some(vec![Piece::Text("12%".into())]));
    assert_eq!(battery.takes, Inputs::NONE, "no clicks: the header asked for none");
}

#[test]
fn a_program_that_failed_is_said_in_place_of_its_blocks_until_it_prints_again() {
    let (mut widget, script) = status();
    said(&script, false, r#"[{"full_text":"load 0.5"}]"#);
    assert_eq!(texts(&widget.refresh().unwrap()), ["load 0.5"]);
    let failure = "exited with 1: i3status: trying to auto-detect output_format setting".to_owned();
    let last = StatusRead { failure: Some(failure), ..StatusRead::default() };
    script.set_status(PROGRAM, last);
    let view = widget.refresh().unwrap();
    assert_eq!(view.items.len(), 1);
    assert_eq!(view.items[0].emphasis, Emphasis::Urgent);
    assert!(texts(&view)[0].starts_with("exited with 1: i3status"), "{:?}", texts(&view));
    assert!(view.items[0].tooltip.as_deref().unwrap().contains("auto-detect output_format setting"));
    said(&script, false, r#"[{"full_text":"load 0.7"}]"#);
    assert_eq!(texts(&widget.refresh().unwrap()), ["load 0.7"]);
    said(&script, false, r#"{"full_text":"not a line"}"#);
    let unreadable = texts(&widget.refresh().unwrap());
    assert!(unreadable[0].contains("not a JSON array"), "{unreadable:?}");
    assert!(texts(&widget.refresh().unwrap())[0].contains("not a JSON array"), "said until the next line");
}

#[test]
fn clicks_and_scrolls_reach_the_program_as_swaybar_writes_them() {
    let (mut widget, script) = status();
    said(&script, true, r#"[{"full_text":"vol 40%","name":"volume","instance":"master"},{"full_text":"12:00"}]"#);
    let view = widget.refresh().unwrap();
    assert!(
        view.items[0].takes.takes(Input::PrimaryClick) && view.items[0].takes.takes(Input::Scroll(ScrollDirection::Up))
    );
    let pointer = Pointer {
        x: 45.0,
        y: 10.0,
        bar_x: 1920.0,
        bar_y: 1050.0,
        output_x: 1920.0,
        output_y: 0.0,
        item_x: 40.0,
        item_y: 2.0,
        item_width: 50.0,
        item_height: 26.0,
        scale: 2.0,
    };
    widget.input_at("0", Input::MiddleClick, pointer).unwrap();
    widget.input_at("1", Input::Scroll(ScrollDirection::Down), Pointer::default()).unwrap();
    let clicks = script.status_clicks();
    assert_eq!(clicks.len(), 2);
    let (program, middle) = &clicks[0];
    assert_eq!(program, PROGRAM);
    let expected = StatusClick {
        name: Some("volume".into()),
        instance: Some("master".into()),
        button: 2,
        event: 0x112,
        x: 1965,
        y: 1060,
        relative_x: 5,
        relative_y: 8,
        output_x: 45,
        output_y: 1060,
        width: 50,
        height: 26,
        scale: 2.0,
    };
    assert_eq!(*middle, expected);
    assert_eq!((clicks[1].1.name.as_deref(), clicks[1].1.button, clicks[1].1.event), (None, 5, 0x301));
}

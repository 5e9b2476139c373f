//! The Brightness widget against a scripted backlight, which reaches the
//! levels asked of it as logind and the kernel would (the bar's own tests
//! drive logind's simulator and a backlight folder).

use obi_harness::{
    BacklightStatus, Emphasis, Harness, Input, LevelAsked, Piece, PopupInput, Script, ScrollDirection, popup_rows,
    texts,
};
use std::time::Duration;

fn at(percent: u32) -> BacklightStatus {
    BacklightStatus::Level { device: "intel_backlight".into(), percent }
}

fn panel_at(percent: u32) -> Script {
    let script = Script::at("2026-12-04T08:00:00Z".parse().unwrap());
    script.set_backlight(at(percent));
    script
}

fn brightness(options: &str, script: &Script) -> Harness {
    Harness::stock("Brightness", &format!(r#"{{ "enable": true {options} }}"#), script).unwrap()
}

fn asked(percent: u32) -> LevelAsked {
    LevelAsked { device: "intel_backlight".into(), percent }
}

#[test]
fn the_panels_level_follows_the_backlight_and_none_hides_it() {
    let script = panel_at(40);
    let mut brightness = brightness(r#", "label_prefix": "IconAndText""#, &script);
    assert_eq!(brightness.schedule().interval_ms, 0, "pushed, never polled");
    let shown = brightness.refresh().unwrap();
    assert_eq!(texts(&shown), ["Brightness: 40%"]);
    assert!(shown.items[0].pieces.contains(&Piece::Icon("\u{e472}".into())), "a sun");
    assert_eq!(shown.items[0].tooltip.as_deref(), Some("Brightness (intel_backlight): 40 %"));

    script.set_backlight(at(75));
    assert!(brightness.wait_for_wake(Duration::from_secs(5)), "a change wakes the widget");
    assert_eq!(texts(&brightness.refresh().unwrap()), ["Brightness: 75%"]);

    script.set_backlight(BacklightStatus::Absent("no backlight in /sys/class/backlight".into()));
    assert!(brightness.refresh().unwrap().items.is_empty(), "no backlight: nothing shown");
}

#[test]
fn scrolling_moves_it_by_the_step_and_never_to_dark() {
    let script = panel_at(40);
    let mut brightness = brightness(r#", "step": 10"#, &script);
    brightness.refresh().unwrap();
    let shown = brightness.input("brightness", Input::Scroll(ScrollDirection::Up)).unwrap();
    assert_eq!(texts(&shown), ["50%"]);
    script.set_backlight(at(5));
    brightness.refresh().unwrap();
    let shown = brightness.input("brightness", Input::Scroll(ScrollDirection::Down)).unwrap();
    assert_eq!(texts(&shown), ["1%"], "the panel stays lit");
    brightness.input("brightness", Input::Scroll(ScrollDirection::Down)).unwrap();
    assert_eq!(script.backlight_asked(), [asked(50), asked(1)], "at the dimmest, a tick down asks nothing");
}

/// A wheel spun faster than logind and the kernel answer: each notch
/// counts, and the readings that come in one by one do not send it back.
#[test]
fn notches_faster_than_the_panel_each_count() {
    let script = panel_at(40);
    script.hold_backlight_answers();
    let mut brightness = brightness("", &script);
    brightness.refresh().unwrap();
    for _ in 0..3 {
        brightness.input("brightness", Input::Scroll(ScrollDirection::Up)).unwrap();
    }
    assert_eq!(script.backlight_asked(), [asked(45), asked(50), asked(55)]);
    script.set_backlight(at(45));
    brightness.refresh().unwrap();
    brightness.input("brightness", Input::Scroll(ScrollDirection::Up)).unwrap();
    assert_eq!(script.backlight_asked().last(), Some(&asked(60)));
}

#[test]
fn a_click_opens_a_slider_that_sets_it() {
    let script = panel_at(40);
    let mut brightness = brightness("", &script);
    brightness.refresh().unwrap();
    let shown = brightness.input("brightness", Input::PrimaryClick).unwrap();
    assert_eq!(popup_rows(&shown), [["[40]"]]);
    assert_eq!(shown.items[0].emphasis, Emphasis::Selected, "lit while its popup is open");
    let shown = brightness.popup_input("brightness", "slider", PopupInput::Slide(0)).unwrap();
    assert_eq!((texts(&shown), popup_rows(&shown)), (vec!["1%".to_owned()], vec![vec!["[1]".to_owned()]]));
    let shown = brightness.popup_input("brightness", "slider", PopupInput::Slide(64)).unwrap();
    assert_eq!(texts(&shown), ["64%"]);
    assert_eq!(script.backlight_asked(), [asked(1), asked(64)]);
    assert_eq!(brightness.close_popup().unwrap().popup, None);
}

#[test]
fn a_step_out_of_range_is_refused() {
    let Err(error) = Harness::stock("Brightness", r#"{ "enable": true, "step": 101 }"#, &panel_at(40)) else {
        panic!("a step of 101 was taken");
    };
    assert!(error.contains("`step`") && error.contains("not 101"), "{error}");
}

//! The Volume widget against a scripted sound server, which carries out
//! its requests as a real one would (the bar's own tests drive a real one).

use obi_harness::{
    AudioRequest, AudioStatus, Emphasis, Harness, Input, Output, Piece, PopupInput, Script, ScrollDirection, View,
    popup_rows, texts,
};

fn output(name: &str, description: &str, volume_percent: u32, is_default: bool) -> Output {
    Output { name: name.into(), description: description.into(), volume_percent, muted: false, is_default }
}

fn two_outputs() -> Script {
    let script = Script::at("2026-11-25T08:00:00Z".parse().unwrap());
    script.set_audio(AudioStatus::Connected(vec![
        output("speakers", "Speakers", 37, true),
        output("headphones", "Headphones", 80, false),
    ]));
    script
}

fn volume(options: &str, script: &Script) -> Harness {
    Harness::stock("Volume", &format!(r#"{{ "enable": true {options} }}"#), script).unwrap()
}

fn icon(view: &View) -> Option<&str> {
    view.items[0].pieces.iter().find_map(|piece| match piece {
        Piece::Icon(glyph) => Some(glyph.as_str()),
        _ => None,
    })
}

#[test]
fn the_default_outputs_volume_follows_the_server() {
    let script = two_outputs();
    let mut volume = volume(r#", "label_prefix": "IconAndText""#, &script);
    assert_eq!(volume.schedule().interval_ms, 0, "pushed, never polled");
    let shown = volume.refresh().unwrap();
    assert_eq!(texts(&shown), ["Volume: 37%"]);
    assert_eq!(icon(&shown), Some("\u{e44c}"), "a low speaker");
    assert_eq!(shown.items[0].tooltip.as_deref(), Some("Speakers: 37 %"));

    script.set_audio(AudioStatus::Connected(vec![output("speakers", "Speakers", 0, true)]));
    assert!(volume.wait_for_wake(std::time::Duration::from_secs(5)), "a change wakes the widget");
    let shown = volume.refresh().unwrap();
    assert_eq!((texts(&shown), icon(&shown)), (vec!["Volume: 0%".to_owned()], Some("\u{e44e}")));

    script.set_audio(AudioStatus::Unavailable("no sound server is running".into()));
    assert!(volume.refresh().unwrap().items.is_empty(), "no server: nothing shown");
}

#[test]
fn scrolling_moves_it_by_the_step_and_a_click_mutes() {
    let script = two_outputs();
    let mut volume = volume(r#", "step": 10"#, &script);
    volume.refresh().unwrap();
    let shown = volume.input("volume", Input::Scroll(ScrollDirection::Up)).unwrap();
    assert_eq!(texts(&shown), ["47%"]);
    let shown = volume.input("volume", Input::Scroll(ScrollDirection::Down)).unwrap();
    assert_eq!(texts(&shown), ["37%"]);
    let shown = volume.input("volume", Input::PrimaryClick).unwrap();
    assert_eq!(shown.items[0].emphasis, Emphasis::Muted);
    assert_eq!(icon(&shown), Some("\u{e45c}"), "a crossed-out speaker");
    assert_eq!(shown.items[0].tooltip.as_deref(), Some("Speakers: 37 %, muted"));
    volume.input("volume", Input::PrimaryClick).unwrap();
    let set = |percent| AudioRequest::SetVolume { output: "speakers".into(), percent };
    let mute = |muted| AudioRequest::SetMuted { output: "speakers".into(), muted };
    assert_eq!(script.audio_requests(), [set(47), set(37), mute(true), mute(false)]);
}

/// A wheel spun faster than the server answers: each notch counts, and the
/// readings that come in one by one do not send it back.
#[test]
fn notches_faster_than_the_server_each_count() {
    let script = two_outputs();
    script.hold_audio_answers();
    let mut volume = volume("", &script);
    volume.refresh().unwrap();
    for _ in 0..3 {
        volume.input("volume", Input::Scroll(ScrollDirection::Up)).unwrap();
    }
    let set = |percent| AudioRequest::SetVolume { output: "speakers".into(), percent };
    assert_eq!(script.audio_requests(), [set(42), set(47), set(52)]);

    // The server reads back the first of them; a notch then goes on from the last asked.
    script.set_audio(AudioStatus::Connected(vec![output("speakers", "Speakers", 42, true)]));
    volume.refresh().unwrap();
    volume.input("volume", Input::Scroll(ScrollDirection::Up)).unwrap();
    assert_eq!(script.audio_requests().last(), Some(&set(57)));

    // Someone else sets it: what was asked is forgotten, and a notch goes on from there.
    script.set_audio(AudioStatus::Connected(vec![output("speakers", "Speakers", 20, true)]));
    volume.refresh().unwrap();
    volume.input("volume", Input::Scroll(ScrollDirection::Down)).unwrap();
    assert_eq!(script.audio_requests().last(), Some(&set(15)));
}

#[test]
fn the_popup_slides_mutes_and_chooses_the_default_output() {
    let script = two_outputs();
    let mut volume = volume("", &script);
    volume.refresh().unwrap();
    let shown = volume.input("volume", Input::SecondaryClick).unwrap();
    assert_eq!(popup_rows(&shown), [["[37]"], ["Mute"], ["-"], ["Speakers"], ["Headphones"]]);

    let shown = volume.popup_input("volume", "slider", PopupInput::Slide(64)).unwrap();
    assert_eq!((texts(&shown), popup_rows(&shown)[0].clone()), (vec!["64%".to_owned()], vec!["[64]".to_owned()]));
    let shown = volume.popup_input("volume", "mute", PopupInput::Input(Input::PrimaryClick)).unwrap();
    assert_eq!(popup_rows(&shown)[1], ["Unmute"]);

    let shown = volume.popup_input("volume", "output:headphones", PopupInput::Input(Input::PrimaryClick)).unwrap();
    assert_eq!(texts(&shown), ["80%"], "the bar shows the new default");
    assert_eq!(script.audio_requests().last(), Some(&AudioRequest::SetDefault { output: "headphones".into() }));
    let popup = shown.popup.as_ref().unwrap();
    let selected: Vec<bool> = popup
        .blocks
        .iter()
        .filter_map(|block| match block {
            obi_harness::Block::Line(cell) if cell.key.starts_with("output:") => {
                Some(cell.emphasis == Emphasis::Selected)
            }
            _ => None,
        })
        .collect();
    assert_eq!(selected, [false, true], "the default output is marked");

    let closed = volume.close_popup().unwrap();
    assert_eq!(closed.popup, None);
}

#[test]
fn a_step_out_of_range_is_refused() {
    let Err(error) = Harness::stock("Volume", r#"{ "enable": true, "step": 0 }"#, &two_outputs()) else {
        panic!("a step of 0 was taken");
    };
    assert!(error.contains("`step`") && error.contains("not 0"), "{error}");
}

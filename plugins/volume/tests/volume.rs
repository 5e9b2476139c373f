//! The Volume widget against a scripted sound server, which carries out
//! its requests as a real one would (the bar's own tests drive a real
//! one): the default output, the applications playing and the microphone.

use obi_harness::{
    AudioRequest, AudioStatus, Emphasis, Harness, Input, Output, Piece, Playing, PopupInput, Recording, Script,
    ScrollDirection, SoundInput, Streams, StreamsStatus, View, popup_rows, texts,
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

fn playing(id: u32, application: &str, volume_percent: u32) -> Playing {
    Playing {
        id,
        application: application.into(),
        title: "Playback".into(),
        icon: None,
        volume_percent,
        muted: false,
        paused: false,
    }
}

fn microphone(name: &str, description: &str, volume_percent: u32, is_default: bool) -> SoundInput {
    SoundInput { name: name.into(), description: description.into(), volume_percent, muted: false, is_default }
}

/// Two outputs, two applications playing, two inputs and one recording.
fn a_busy_server() -> Script {
    let script = two_outputs();
    script.set_streams(StreamsStatus::Connected(Streams {
        playing: vec![playing(7, "Music", 80), playing(9, "Browser", 30)],
        inputs: vec![microphone("mic", "Headset Mic", 55, true), microphone("line", "Line In", 100, false)],
        recording: vec![Recording { application: "Recorder".into(), icon: None, input: "mic".into() }],
    }));
    script
}

#[test]
fn the_popup_has_each_application_with_its_own_slider_and_mute() {
    let script = a_busy_server();
    let mut volume = volume("", &script);
    volume.refresh().unwrap();
    let shown = volume.input("volume", Input::SecondaryClick).unwrap();
    assert_eq!(
        popup_rows(&shown),
        [
            ["[37]"],
            ["Mute"],
            ["-"],
            ["Speakers"],
            ["Headphones"],
            ["-"],
            ["Music: Playback"],
            ["[80]"],
            ["Browser: Playback"],
            ["[30]"]
        ]
    );

    let shown = volume.popup_input("volume", "app-slider:9", PopupInput::Slide(64)).unwrap();
    assert_eq!(popup_rows(&shown)[9], ["[64]"], "the server's reading shows");
    let shown = volume.popup_input("volume", "app-mute:7", PopupInput::Input(Input::PrimaryClick)).unwrap();
    assert_eq!(texts(&shown), ["37%"], "the output is not muted");
    volume.popup_input("volume", "app-slider:7", PopupInput::Input(Input::Scroll(ScrollDirection::Down))).unwrap();
    assert_eq!(
        script.audio_requests(),
        [
            AudioRequest::SetPlayingVolume { stream: 9, percent: 64 },
            AudioRequest::SetPlayingMuted { stream: 7, muted: true },
            AudioRequest::SetPlayingVolume { stream: 7, percent: 75 },
        ]
    );
    let StreamsStatus::Connected(streams) = script.streams() else { panic!("the server went") };
    assert!(streams.playing[0].muted && !streams.playing[1].muted);

    // An application that stops playing between the popup and the click is let be.
    volume.popup_input("volume", "app-mute:8", PopupInput::Input(Input::PrimaryClick)).unwrap();
    assert_eq!(script.audio_requests().len(), 3);
}

#[test]
fn the_microphone_shows_beside_the_speaker_and_answers_as_it_does() {
    let script = a_busy_server();
    let mut volume = volume(r#", "microphone": true, "label_prefix": "Text""#, &script);
    let shown = volume.refresh().unwrap();
    assert_eq!(texts(&shown), ["Volume: 37%", "Mic: 55%"]);
    assert_eq!(shown.items[1].tooltip.as_deref(), Some("Headset Mic: 55 %"));

    volume.input("microphone", Input::Scroll(ScrollDirection::Up)).unwrap();
    let shown = volume.input("microphone", Input::PrimaryClick).unwrap();
    assert_eq!(texts(&shown), ["Volume: 37%", "Mic: 60%"]);
    assert_eq!((shown.items[0].emphasis, shown.items[1].emphasis), (Emphasis::Normal, Emphasis::Muted));

    let shown = volume.input("microphone", Input::SecondaryClick).unwrap();
    assert_eq!(shown.popup.as_ref().unwrap().item_key, "microphone");
    assert_eq!(
        popup_rows(&shown),
        [["[60]"], ["Unmute"], ["-"], ["Headset Mic"], ["Line In"], ["-"], ["Recorder records from Headset Mic"]]
    );
    volume.popup_input("microphone", "input:line", PopupInput::Input(Input::PrimaryClick)).unwrap();
    let shown = volume.popup_input("microphone", "slider", PopupInput::Slide(20)).unwrap();
    assert_eq!(texts(&shown), ["Volume: 37%", "Mic: 20%"], "the new default input's level");
    let line = |request| match request {
        AudioRequest::SetInputVolume { input, percent } => format!("volume {input} {percent}"),
        AudioRequest::SetInputMuted { input, muted } => format!("muted {input} {muted}"),
        AudioRequest::SetDefaultInput { input } => format!("default {input}"),
        other => panic!("{other:?} asked of the microphone"),
    };
    let asked: Vec<String> = script.audio_requests().into_iter().map(line).collect();
    assert_eq!(asked, ["volume mic 60", "muted mic true", "default line", "volume line 20"]);

    // Without an input the microphone goes, its popup with it.
    script.set_streams(StreamsStatus::Connected(Streams::default()));
    let shown = volume.refresh().unwrap();
    assert_eq!((texts(&shown), shown.popup), (vec!["Volume: 37%".to_owned()], None));
}

#[test]
fn without_microphone_the_input_is_not_shown() {
    let script = a_busy_server();
    let shown = volume("", &script).refresh().unwrap();
    assert_eq!(texts(&shown), ["37%"]);
}

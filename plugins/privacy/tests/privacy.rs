//! The Privacy widget against a scripted sound server and compositor (the
//! bar's own tests record from a real server): shown only while an
//! application records or the screen is captured.

use obi_harness::tiler::{Kind, ScreenCast, State, Status};
use obi_harness::{Emphasis, Harness, Piece, Recording, Script, SoundInput, Streams, StreamsStatus, has_icon, texts};

fn input(name: &str, description: &str) -> SoundInput {
    SoundInput {
        name: name.into(),
        description: description.into(),
        volume_percent: 50,
        muted: false,
        is_default: true,
    }
}

fn recording(application: &str, input: &str) -> Recording {
    Recording { application: application.into(), icon: None, input: input.into() }
}

fn recorded_by(recordings: Vec<Recording>) -> StreamsStatus {
    StreamsStatus::Connected(Streams {
        playing: Vec::new(),
        inputs: vec![input("mic", "Headset Mic"), input("line", "Line In")],
        recording: recordings,
    })
}

#[test]
fn it_shows_who_records_while_they_do() {
    let script = Script::at("2026-12-04T08:00:00Z".parse().unwrap());
    script.set_streams(recorded_by(Vec::new()));
    let mut privacy = Harness::stock("Privacy", r#"{ "enable": true }"#, &script).unwrap();
    assert_eq!(privacy.schedule().interval_ms, 0, "pushed, never polled");
    assert!(privacy.refresh().unwrap().items.is_empty(), "nobody records: nothing shown");

    script.set_streams(recorded_by(vec![
        recording("Meeting", "mic"),
        recording("Meeting", "line"),
        recording("Recorder", "mic"),
    ]));
    assert!(privacy.wait_for_wake(std::time::Duration::from_secs(5)), "a recording wakes the widget");
    let shown = privacy.refresh().unwrap();
    let item = &shown.items[0];
    assert!(has_icon(&shown) && texts(&shown) == [""], "a microphone alone: {:?}", item.pieces);
    assert_eq!(item.pieces, [Piece::Icon("\u{e326}".into())]);
    assert_eq!(item.emphasis, Emphasis::Urgent);
    assert_eq!(
        item.tooltip.as_deref(),
        Some("Meeting records from Headset Mic\nMeeting records from Line In\nRecorder records from Headset Mic")
    );

    script.set_streams(StreamsStatus::Unavailable("the sound server went away".into()));
    assert!(privacy.refresh().unwrap().items.is_empty(), "no server: nothing shown");
}

#[test]
fn a_text_label_names_each_recorder_once() {
    let script = Script::at("2026-12-04T08:00:00Z".parse().unwrap());
    script.set_streams(recorded_by(vec![recording("Meeting", "mic"), recording("Meeting", "line")]));
    let shown =
        Harness::stock("Privacy", r#"{ "enable": true, "label_prefix": "Text" }"#, &script).unwrap().refresh().unwrap();
    assert_eq!(texts(&shown), ["Recording: Meeting"]);
    let shown =
        Harness::stock("Privacy", r#"{ "enable": true, "label_prefix": "None" }"#, &script).unwrap().refresh().unwrap();
    assert_eq!(texts(&shown), ["Meeting"]);
}

#[test]
fn an_ignored_application_records_unseen() {
    let script = Script::at("2026-12-04T08:00:00Z".parse().unwrap());
    script.set_streams(recorded_by(vec![recording("cava", "mic"), recording("Meeting", "line")]));
    let config = r#"{ "enable": true, "label_prefix": "Text", "ignore": ["CAVA"] }"#;
    let mut privacy = Harness::stock("Privacy", config, &script).unwrap();
    let shown = privacy.refresh().unwrap();
    assert_eq!(texts(&shown), ["Recording: Meeting"]);
    assert_eq!(shown.items[0].tooltip.as_deref(), Some("Meeting records from Line In"));

    script.set_streams(recorded_by(vec![recording("cava", "mic")]));
    assert!(privacy.refresh().unwrap().items.is_empty(), "only the ignored one records: nothing shown");
}

/// `casts` as the compositor tells them.
fn sharing(casts: Vec<ScreenCast>) -> Status {
    Status::Connected(State { screen_casts: casts, ..State::empty(Kind::Niri) })
}

#[test]
fn a_screen_captured_shows_beside_a_recording_naming_what_is_shared() {
    let script = Script::at("2026-12-04T08:00:00Z".parse().unwrap());
    script.set_streams(recorded_by(vec![recording("Meeting", "mic")]));
    script.set_tiler(sharing(vec![ScreenCast::Output(Some("DP-1".into())), ScreenCast::Window(Some("notes".into()))]));
    let mut privacy =
        Harness::stock("Privacy", r#"{ "enable": true, "label_prefix": "IconAndText" }"#, &script).unwrap();
    let shown = privacy.refresh().unwrap();
    assert_eq!(texts(&shown), ["Recording: Meeting", "Sharing: DP-1, window notes"]);
    assert_eq!(shown.items[1].pieces[0], Piece::Icon("\u{e404}".into()), "a screen");
    assert_eq!(
        (shown.items[1].emphasis, shown.items[1].tooltip.as_deref()),
        (Emphasis::Urgent, Some("Sharing DP-1\nSharing window notes"))
    );

    // Hyprland says what kind of thing is shared, not which.
    script.set_streams(recorded_by(Vec::new()));
    script.set_tiler(sharing(vec![ScreenCast::Window(None)]));
    assert!(privacy.wait_for_wake(std::time::Duration::from_secs(5)), "a cast wakes the widget");
    let shown = privacy.refresh().unwrap();
    assert_eq!(
        (texts(&shown), shown.items[0].tooltip.as_deref()),
        (vec!["Sharing: a window".to_owned()], Some("Sharing a window"))
    );

    script.set_tiler(Status::Disconnected("niri went away".into()));
    assert!(privacy.refresh().unwrap().items.is_empty(), "no compositor, no sharing");
}

//! The Media widget over scripted players: every display form, the label
//! and the controls and what their clicks ask of the player, woken when
//! what plays changes, and nothing without a player.

use obi_harness::{
    Control, Emphasis, Harness, Input, NowPlaying, Piece, Playback, PopupInput, Script, View, popup_rows, texts,
};
use std::time::Duration;

fn playing(title: &str, playback: Playback) -> NowPlaying {
    NowPlaying {
        player: "mpv".into(),
        title: title.into(),
        artist: "The Band".into(),
        album: "Live".into(),
        playback,
        can_go_previous: false,
        can_go_next: true,
        can_play_pause: true,
        source: "org.mpris.MediaPlayer2.mpv".into(),
        art_url: None,
    }
}

fn media(display: &str, now: Option<NowPlaying>) -> (Harness, Script) {
    let script = Script::at("2024-03-09T15:04:05Z".parse().unwrap());
    script.set_playing(now);
    let config = format!(r#"{{ "enable": true, "display": "{display}" }}"#);
    (Harness::stock("Media", &config, &script).unwrap(), script)
}

/// Each item as its keys and kinds of pieces: "label:icon+text".
fn shape(view: &View) -> Vec<String> {
    view.items
        .iter()
        .map(|item| {
            let pieces: Vec<&str> = item
                .pieces
                .iter()
                .map(|piece| match piece {
                    Piece::Icon(_) => "icon",
                    Piece::Text(_) => "text",
                    _ => "other",
                })
                .collect();
            format!("{}:{}", item.key, pieces.join("+"))
        })
        .collect()
}

#[test]
fn every_display_form() {
    let controls = ["previous:icon", "play-pause:icon", "next:icon"];
    let cases: [(&str, Vec<&str>); 7] = [
        ("Icon", vec!["label:icon"]),
        ("Text", vec!["label:text"]),
        ("IconAndText", vec!["label:icon+text"]),
        ("ControlsOnly", controls.to_vec()),
        ("IconAndControls", [&["label:icon"][..], &controls].concat()),
        ("TextAndControls", [&["label:text"][..], &controls].concat()),
        ("Full", [&["label:icon+text"][..], &controls].concat()),
    ];
    for (display, expected) in cases {
        let (mut widget, _) = media(display, Some(playing("Song", Playback::Playing)));
        assert_eq!(shape(&widget.refresh().unwrap()), expected, "{display}");
    }
    let script = Script::at("2024-03-09T15:04:05Z".parse().unwrap());
    script.set_playing(Some(playing("Song", Playback::Playing)));
    let mut default = Harness::stock("Media", r#"{ "enable": true }"#, &script).unwrap();
    assert_eq!(shape(&default.refresh().unwrap()), ["label:icon+text"], "IconAndText by default");
}

#[test]
fn the_label_says_artist_and_title_and_the_tooltip_more() {
    let (mut widget, _) = media("Text", Some(playing("Song", Playback::Paused)));
    let view = widget.refresh().unwrap();
    assert_eq!(texts(&view), ["The Band - Song"]);
    assert_eq!(view.items[0].tooltip.as_deref(), Some("Song\nThe Band\nLive\nmpv (paused)"));
    let mut untitled = playing("Song", Playback::Playing);
    untitled.artist.clear();
    let (mut widget, _) = media("Text", Some(untitled));
    assert_eq!(texts(&widget.refresh().unwrap()), ["Song"]);
}

#[test]
fn clicks_ask_the_player_and_what_it_cannot_do_is_muted() {
    let (mut widget, script) = media("Full", Some(playing("Song", Playback::Playing)));
    let view = widget.refresh().unwrap();
    let previous = view.items.iter().find(|item| item.key == "previous").unwrap();
    assert_eq!(previous.emphasis, Emphasis::Muted, "the player cannot go back");
    assert!(!previous.takes.takes(Input::PrimaryClick) && previous.takes.takes(Input::SecondaryClick));
    for key in ["label", "play-pause", "next", "previous"] {
        widget.input(key, Input::PrimaryClick).unwrap();
    }
    assert_eq!(script.controls(), [Control::PlayPause, Control::PlayPause, Control::Next]);
}

#[test]
fn the_widget_follows_what_plays() {
    let (mut widget, script) = media("Text", Some(playing("One", Playback::Playing)));
    assert_eq!(texts(&widget.refresh().unwrap()), ["The Band - One"]);
    script.set_playing(Some(playing("Two", Playback::Playing)));
    assert!(widget.wait_for_wake(Duration::from_secs(1)), "the change woke the widget");
    assert_eq!(texts(&widget.refresh().unwrap()), ["The Band - Two"]);
    script.set_playing(None);
    assert!(widget.refresh().unwrap().items.is_empty(), "no player, nothing shown");
}

/// A secondary click opens what plays at length, with the controls, beside
/// the item clicked; its buttons ask the player, and what it cannot do is
/// muted and does nothing; a second secondary click closes it, and so does
/// the player going away.
#[test]
fn a_secondary_click_opens_what_plays_with_the_controls() {
    let (mut widget, script) = media("IconAndText", Some(playing("Song", Playback::Paused)));
    assert_eq!(widget.refresh().unwrap().popup, None);
    let view = widget.input("label", Input::SecondaryClick).unwrap();
    assert_eq!(view.popup.as_ref().map(|popup| popup.item_key.as_str()), Some("label"));
    assert_eq!(
        popup_rows(&view),
        [vec!["Song"], vec!["The Band"], vec!["Live"], vec!["mpv (paused)"], vec!["-"], vec!["", "", ""]]
    );
    let previous = view.popup.as_ref().unwrap().cell("previous").unwrap();
    assert_eq!(previous.emphasis, Emphasis::Muted, "the player cannot go back");
    for cell in ["play-pause", "previous", "next"] {
        widget.popup_input("label", cell, PopupInput::Input(Input::PrimaryClick)).unwrap();
    }
    assert_eq!(script.controls(), [Control::PlayPause, Control::Next]);
    assert!(widget.refresh().unwrap().popup.is_some(), "the controls keep it open");
    assert_eq!(widget.input("label", Input::SecondaryClick).unwrap().popup, None);
    widget.input("label", Input::SecondaryClick).unwrap();
    script.set_playing(None);
    assert_eq!(widget.refresh().unwrap().popup, None, "no player, no popup");
}

/// The cover, once the host has it, leads the popup's first line.
#[test]
fn the_cover_leads_the_popup() {
    let (mut widget, script) = media("Icon", Some(playing("Song", Playback::Playing)));
    let first_line = |view: &View| match &view.popup.as_ref().unwrap().blocks[0] {
        obi_harness::Block::Line(cell) => cell.content.clone(),
        other => panic!("{other:?}"),
    };
    let view = widget.input("label", Input::SecondaryClick).unwrap();
    assert_eq!(first_line(&view), obi_harness::Content::Label(vec![Piece::Text("Song".into())]));
    script.set_cover(Some(7));
    assert!(widget.wait_for_wake(Duration::from_secs(5)), "the cover's coming wakes the widget");
    let view = widget.refresh().unwrap();
    assert_eq!(first_line(&view), obi_harness::Content::Label(vec![Piece::HeldImage(7), Piece::Text("Song".into())]));
}

/// A player whose title is 5 KiB: the bar shows it cut, its tooltip too,
/// and the widget never fails (a view's text is 4 KiB at most).
#[test]
fn a_title_of_kilobytes_is_shown_cut() {
    let mut long = playing(&"Ω".repeat(2560), Playback::Playing);
    long.artist = "A".repeat(5000);
    long.album = "B".repeat(5000);
    let (mut media, _script) = media("IconAndText", Some(long));
    let shown = media.refresh().expect("the widget shows it");
    let label = texts(&shown).join("");
    assert!(label.contains('…') && label.len() <= 4096, "{} bytes", label.len());
    let tooltip = shown.items[0].tooltip.as_deref().unwrap_or_default();
    assert!(tooltip.contains("Ω…") && tooltip.len() <= 4096, "{} bytes", tooltip.len());
}

//! # Media
//!
//! What the desktop's media players play (MPRIS on Linux): the artist and
//! title of the player playing, or of the one that played last, with
//! controls. The host pushes every change; no interval.
//!
//! | key       | values                                                          | default       |
//! |-----------|-----------------------------------------------------------------|---------------|
//! | `enable`  | `true` / `false`                                                | required      |
//! | `display` | `Icon`, `Text`, `IconAndText`, `ControlsOnly`, `IconAndControls`, `TextAndControls`, `Full` | `IconAndText` |
//!
//! The label is "artist - title" (the title alone without an artist); a
//! click on it plays or pauses. The controls are previous, play or pause,
//! and next; one the player cannot do is muted and does nothing. The
//! tooltip says the title, artist, album and player. A secondary click on
//! any of its items opens a popup with the cover (when the player gives
//! one), the title, artist, album and player, and the controls. Without a player the widget shows nothing.
//!
//! ```json
//! { "Media": { "enable": true, "display": "Full" } }
//! ```

use obi_sdk::config::{MediaConfig as Config, MediaDisplayFormat as Display};
use obi_sdk::log::{self, Level};
use obi_sdk::media::{self, Action, Playback, Track};
use obi_sdk::media_cover;
use obi_sdk::{Emphasis, Input, Inputs, Item, Piece, Popup, PopupInput, Schedule, View, Widget, button, icons, item};

/// Whether `display` shows the icon, the text and the controls.
fn shows(display: Display) -> (bool, bool, bool) {
    match display {
        Display::Icon => (true, false, false),
        Display::Text => (false, true, false),
        Display::IconAndText => (true, true, false),
        Display::ControlsOnly => (false, false, true),
        Display::IconAndControls => (true, false, true),
        Display::TextAndControls => (false, true, true),
        Display::Full => (true, true, true),
    }
}

pub struct Media {
    display: Display,
    /// What the controls can do, as last shown.
    shown: Option<Track>,
    /// The item whose popup is open.
    popup_beside: Option<String>,
}

impl Widget for Media {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let media = Media { display: config.display.unwrap_or(Display::IconAndText), shown: None, popup_beside: None };
        // The host wakes the widget at every change: no interval.
        Ok((media, Schedule { interval_ms: 0, align_to_wall_clock: false }))
    }

    fn refresh(&mut self) -> View {
        self.shown = media::now_playing();
        let Some(playing) = &self.shown else { return View::empty() };
        let (icon, text, controls) = shows(self.display);
        let mut items = Vec::new();
        if icon || text {
            items.push(
                item("label")
                    .maybe(icon.then(|| Piece::Icon(icons::MUSIC_NOTES.into())))
                    .maybe(text.then(|| Piece::Text(label(playing))))
                    .takes(Inputs::PRIMARY_CLICK | Inputs::SECONDARY_CLICK)
                    .tooltip(tooltip(playing))
                    .build(),
            );
        }
        if controls {
            let playing_now = playing.playback == Playback::Playing;
            let toggle = if playing_now { icons::PAUSE } else { icons::PLAY };
            items.push(control("previous", icons::SKIP_BACK, playing.can_go_previous));
            items.push(control("play-pause", toggle, playing.can_play_pause));
            items.push(control("next", icons::SKIP_FORWARD, playing.can_go_next));
        }
        View::of(items)
    }

    fn on_input(&mut self, key: &str, input: Input) {
        if input == Input::SecondaryClick {
            self.popup_beside = match self.popup_beside.take() {
                Some(_) => None,
                None => Some(key.to_owned()),
            };
            return;
        }
        let Some(playing) = &self.shown else { return };
        let action = match (key, input) {
            ("label" | "play-pause", Input::PrimaryClick) if playing.can_play_pause => Action::PlayPause,
            ("previous", Input::PrimaryClick) if playing.can_go_previous => Action::Previous,
            ("next", Input::PrimaryClick) if playing.can_go_next => Action::Next,
            _ => return,
        };
        if let Err(why) = media::control(action) {
            log::log(Level::Warn, &why);
        }
    }

    /// What plays, at length, and the controls.
    fn popup(&mut self) -> Option<Popup> {
        let (Some(beside), Some(playing)) = (&self.popup_beside, &self.shown) else { return None };
        let mut popup = Popup::beside(beside.clone());
        let mut cover = media_cover::cover().map(Piece::HeldImage);
        for (line, muted) in [(&playing.title, false), (&playing.artist, false), (&playing.album, true)] {
            if !line.is_empty() {
                // The cover leads the first line.
                let label = obi_sdk::cell("").maybe(cover.take()).text(line.clone());
                popup = popup.line(label.emphasis(if muted { Emphasis::Muted } else { Emphasis::Normal }));
            }
        }
        let player = format!("{} ({})", playing.player, playback_word(playing.playback));
        let toggle = if playing.playback == Playback::Playing { icons::PAUSE } else { icons::PLAY };
        let controls = [
            ("previous", icons::SKIP_BACK, playing.can_go_previous),
            ("play-pause", toggle, playing.can_play_pause),
            ("next", icons::SKIP_FORWARD, playing.can_go_next),
        ];
        let buttons = controls.map(|(key, glyph, can)| {
            let shown = button(key).icon(glyph);
            if can { shown } else { shown.emphasis(Emphasis::Muted) }
        });
        Some(popup.line(obi_sdk::label(player).emphasis(Emphasis::Muted)).separator().grid([buttons]))
    }

    fn on_popup_input(&mut self, _item_key: &str, cell_key: &str, input: PopupInput) {
        if input == PopupInput::Input(Input::PrimaryClick) {
            self.on_input(cell_key, Input::PrimaryClick);
        }
    }

    fn on_popup_closed(&mut self, _item_key: &str) {
        self.popup_beside = None;
    }
}

fn playback_word(playback: Playback) -> &'static str {
    match playback {
        Playback::Playing => "playing",
        Playback::Paused => "paused",
        Playback::Stopped => "stopped",
    }
}

/// "artist - title", or the title alone.
fn label(playing: &Track) -> String {
    match (playing.artist.is_empty(), playing.title.is_empty()) {
        (true, true) => playing.player.clone(),
        (true, false) => playing.title.clone(),
        (false, true) => playing.artist.clone(),
        (false, false) => format!("{} - {}", playing.artist, playing.title),
    }
}

fn tooltip(playing: &Track) -> String {
    let state = playback_word(playing.playback);
    let lines = [playing.title.as_str(), playing.artist.as_str(), playing.album.as_str()];
    let mut tooltip: Vec<String> =
        lines.iter().filter(|line| !line.is_empty()).map(|line| (*line).to_owned()).collect();
    tooltip.push(format!("{} ({state})", playing.player));
    tooltip.join("\n")
}

/// A control button; muted and deaf when the player cannot do it.
fn control(key: &str, glyph: &str, can: bool) -> Item {
    let button = item(key).icon(glyph);
    let takes = if can { Inputs::PRIMARY_CLICK | Inputs::SECONDARY_CLICK } else { Inputs::SECONDARY_CLICK };
    if can { button } else { button.emphasis(Emphasis::Muted) }.takes(takes).build()
}

obi_sdk::export!(Media);

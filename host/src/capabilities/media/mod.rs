//! The `media` capability: what the desktop's media player plays, followed
//! by a thread of its own and pushed to the widgets that read it, with
//! controls for it (back, play or pause, on). On Linux the players speak
//! MPRIS 2 on the D-Bus session bus ([`mpris`]); on Windows they are the
//! sessions of its media transport controls ([`smtc`]). The thread starts at
//! the first reading, so a bar without a Media widget follows nothing. The
//! cover of what plays is fetched and held apart ([`cover`]).

mod cover;
#[cfg(not(windows))]
mod mpris;
#[cfg(windows)]
mod smtc;

use crate::view::images::HeldImages;
use crate::wake::{Follower, Waker};
pub use cover::{COVER_PIXELS, Covers};

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
pub enum Playback {
    Playing,
    Paused,
    Stopped,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct NowPlaying {
    /// The player's own name: "mpv", "Firefox".
    pub player: String,
    pub title: String,
    /// The artists, joined by ", ".
    pub artist: String,
    pub album: String,
    pub playback: Playback,
    pub can_go_previous: bool,
    pub can_go_next: bool,
    pub can_play_pause: bool,
    /// Where controls go: its name on the bus (MPRIS), or its app's id (Windows).
    pub source: String,
    /// Where its cover is (`mpris:artUrl`): a `file://` or http(s) address.
    pub art_url: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    Previous,
    PlayPause,
    Next,
}

pub trait Media: Send + Sync {
    /// What plays, when a player is there; `waker`'s widget is woken at
    /// each change from now on.
    fn now_playing(&self, waker: &Waker) -> Option<NowPlaying>;

    /// Asks the player shown to go back, play or pause, or go on.
    fn control(&self, control: Control) -> Result<(), String>;

    /// The held image of the cover of what the player shown plays, once it
    /// has come; `waker`'s widget is woken when it does.
    fn cover(&self, waker: &Waker) -> Option<u64>;
}

/// The player shown, followed by a thread of its own; controls are
/// requests to that thread, naming the player's source.
pub struct SystemMedia {
    shown: Follower<Option<NowPlaying>, (String, Control)>,
    covers: Covers,
}

impl SystemMedia {
    /// The session's players; covers are held in `held`.
    pub fn new(held: HeldImages) -> SystemMedia {
        #[cfg(not(windows))]
        return SystemMedia::on_bus(None, held);
        #[cfg(windows)]
        return SystemMedia {
            shown: Follower::new("media players", "obi-media", None, smtc::follow),
            covers: Covers::new(held),
        };
    }

    /// Players on the bus at `address` (a test's own bus), or the session's.
    #[cfg(not(windows))]
    pub fn on_bus(address: Option<String>, held: HeldImages) -> SystemMedia {
        let shown = Follower::new("media players", "obi-media", None, move |shown, controls| {
            mpris::follow(address, shown, controls)
        });
        SystemMedia { shown, covers: Covers::new(held) }
    }
}

impl Media for SystemMedia {
    fn now_playing(&self, waker: &Waker) -> Option<NowPlaying> {
        self.shown.read(waker)
    }

    fn control(&self, control: Control) -> Result<(), String> {
        let Some(player) = self.shown.current() else { return Err("no media player is there".into()) };
        match self.shown.request((player.source, control)) {
            true => Ok(()),
            false => Err("media players are not followed".into()),
        }
    }

    fn cover(&self, waker: &Waker) -> Option<u64> {
        let art_url = self.shown.read(waker).and_then(|playing| playing.art_url);
        self.covers.at(art_url.as_deref(), waker)
    }
}

/// A player's name from its app's id on Windows: `Spotify.exe` gives
/// "Spotify", `Microsoft.ZuneMusic_8wekyb3d8bbwe!Microsoft.ZuneMusic`
/// "ZuneMusic".
#[cfg(any(windows, test))]
fn player_name(app_id: &str) -> String {
    let app = app_id.rsplit(['!', '\\', '/']).next().unwrap_or(app_id);
    let app = app.rsplit('.').find(|part| !part.eq_ignore_ascii_case("exe")).unwrap_or(app);
    app.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_windows_player_is_named_by_its_app() {
        assert_eq!(player_name("Spotify.exe"), "Spotify");
        assert_eq!(player_name("chrome"), "chrome");
        assert_eq!(player_name("Microsoft.ZuneMusic_8wekyb3d8bbwe!Microsoft.ZuneMusic"), "ZuneMusic");
        assert_eq!(player_name("C:\\Program Files\\foobar2000\\foobar2000.exe"), "foobar2000");
    }
}

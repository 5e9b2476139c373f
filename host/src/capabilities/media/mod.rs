//! The `media` capability: what the desktop's media player plays, followed
//! by a thread of its own and pushed to the widgets that read it, with
//! controls for it (back, play or pause, on). On Linux the players speak
//! MPRIS 2 on the D-Bus session bus ([`mpris`]); on Windows they are the
//! sessions of its media transport controls ([`smtc`]). The thread starts at
//! the first reading, so a bar without a Media widget follows nothing.

#[cfg(not(windows))]
mod mpris;
#[cfg(windows)]
mod smtc;

use crate::wake::{Follower, Waker};

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
}

/// The player shown, followed by a thread of its own; controls are
/// requests to that thread, naming the player's source.
pub struct SystemMedia(Follower<Option<NowPlaying>, (String, Control)>);

impl SystemMedia {
    pub fn new() -> SystemMedia {
        #[cfg(not(windows))]
        return SystemMedia::on_bus(None);
        #[cfg(windows)]
        return SystemMedia(Follower::new("media players", "obi-media", None, smtc::follow));
    }

    /// Players on the bus at `address` (a test's own bus), or the session's.
    #[cfg(not(windows))]
    pub fn on_bus(address: Option<String>) -> SystemMedia {
        SystemMedia(Follower::new("media players", "obi-media", None, move |shown, controls| {
            mpris::follow(address, shown, controls)
        }))
    }
}

impl Default for SystemMedia {
    fn default() -> Self {
        SystemMedia::new()
    }
}

impl Media for SystemMedia {
    fn now_playing(&self, waker: &Waker) -> Option<NowPlaying> {
        self.0.read(waker)
    }

    fn control(&self, control: Control) -> Result<(), String> {
        let Some(player) = self.0.current() else { return Err("no media player is there".into()) };
        match self.0.request((player.source, control)) {
            true => Ok(()),
            false => Err("media players are not followed".into()),
        }
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

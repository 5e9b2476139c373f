//! Media players on Windows: the sessions of the system's media transport
//! controls (the ones the volume flyout shows), through their session
//! manager. The session shown is the one Windows calls current. Windows
//! tells changes as events on threads of its own (a new current session, a
//! new title, play or pause); each is a nudge to the following thread, which
//! reads the current session again and pushes it. Controls go to the
//! session they were asked for. A system without the session manager (an
//! older Windows, Wine) shows no player, and says so once.

use super::{Control, NowPlaying, Playback, player_name};
use crate::wake::Pushed;
use std::sync::mpsc::{self, Receiver, Sender};
use windows::Foundation::TypedEventHandler;
use windows::Media::Control::{
    GlobalSystemMediaTransportControlsSession as Session, GlobalSystemMediaTransportControlsSessionManager as Manager,
    GlobalSystemMediaTransportControlsSessionPlaybackStatus as Status,
};

/// What wakes the following thread.
enum Nudge {
    Changed,
    Control(String, Control),
}

/// Follows the current session for as long as the bar runs.
pub fn follow(shown: &Pushed<Option<NowPlaying>>, requests: Receiver<(String, Control)>) {
    if let Err(error) = follow_sessions(shown, requests) {
        tracing::info!("no media sessions on this system ({error}): no media players are shown");
    }
    shown.publish(None);
}

fn follow_sessions(
    shown: &Pushed<Option<NowPlaying>>,
    requests: Receiver<(String, Control)>,
) -> windows::core::Result<()> {
    let manager = Manager::RequestAsync()?.join()?;
    let (nudge, nudges) = mpsc::channel();
    let forwarded = nudge.clone();
    let forwarding = std::thread::Builder::new().name("obi-media-controls".into()).spawn(move || {
        for (source, control) in requests {
            if forwarded.send(Nudge::Control(source, control)).is_err() {
                return;
            }
        }
    });
    if let Err(error) = forwarding {
        tracing::warn!("media: no thread for the controls: {error}");
    }
    let changed = nudger(&nudge);
    manager.CurrentSessionChanged(&TypedEventHandler::new(move |_, _| changed()))?;
    let mut watched: Option<Watched> = None;
    loop {
        let current = manager.GetCurrentSession().ok();
        if watched.as_ref().map(|watched| &watched.session) != current.as_ref() {
            watched = current.map(|session| Watched::new(session, &nudge)).transpose()?;
        }
        shown.publish(watched.as_ref().and_then(|watched| read(&watched.session).ok()));
        match nudges.recv() {
            Ok(Nudge::Changed) => {}
            Ok(Nudge::Control(source, control)) => obey(&manager, &source, control),
            Err(_) => return Ok(()),
        }
        // A burst of events is read once; controls in it are not dropped.
        while let Ok(next) = nudges.try_recv() {
            if let Nudge::Control(source, control) = next {
                obey(&manager, &source, control);
            }
        }
    }
}

/// A callback for Windows' events that nudges the following thread.
fn nudger(nudge: &Sender<Nudge>) -> impl Fn() -> windows::core::Result<()> + Send + Sync + 'static {
    let nudge = nudge.clone();
    move || {
        let _ = nudge.send(Nudge::Changed);
        Ok(())
    }
}

/// The session shown, with the handlers of its events, removed with it.
struct Watched {
    session: Session,
    tokens: [i64; 2],
}

impl Watched {
    fn new(session: Session, nudge: &Sender<Nudge>) -> windows::core::Result<Watched> {
        let (properties, playback) = (nudger(nudge), nudger(nudge));
        let tokens = [
            session.MediaPropertiesChanged(&TypedEventHandler::new(move |_, _| properties()))?,
            session.PlaybackInfoChanged(&TypedEventHandler::new(move |_, _| playback()))?,
        ];
        Ok(Watched { session, tokens })
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        let _ = self.session.RemoveMediaPropertiesChanged(self.tokens[0]);
        let _ = self.session.RemovePlaybackInfoChanged(self.tokens[1]);
    }
}

fn read(session: &Session) -> windows::core::Result<NowPlaying> {
    let source = session.SourceAppUserModelId()?.to_string_lossy();
    let properties = session.TryGetMediaPropertiesAsync()?.join()?;
    let info = session.GetPlaybackInfo()?;
    let controls = info.Controls()?;
    Ok(NowPlaying {
        player: player_name(&source),
        title: properties.Title()?.to_string_lossy(),
        artist: properties.Artist()?.to_string_lossy(),
        album: properties.AlbumTitle()?.to_string_lossy(),
        playback: match info.PlaybackStatus()? {
            Status::Playing => Playback::Playing,
            Status::Paused => Playback::Paused,
            _ => Playback::Stopped,
        },
        can_go_previous: controls.IsPreviousEnabled()?,
        can_go_next: controls.IsNextEnabled()?,
        can_play_pause: controls.IsPlayPauseToggleEnabled()?,
        source,
        // The session's thumbnail is a stream, not an address: not read yet.
        art_url: None,
    })
}

/// Sends `control` to the session of `source`, if it is still there.
fn obey(manager: &Manager, source: &str, control: Control) {
    let sent = (|| -> windows::core::Result<bool> {
        let sessions = manager.GetSessions()?;
        let Some(session) = sessions
            .into_iter()
            .find(|session| session.SourceAppUserModelId().is_ok_and(|id| id.to_string_lossy() == source))
        else {
            return Ok(false);
        };
        let asked = match control {
            Control::Previous => session.TrySkipPreviousAsync()?,
            Control::PlayPause => session.TryTogglePlayPauseAsync()?,
            Control::Next => session.TrySkipNextAsync()?,
        };
        asked.join()
    })();
    match sent {
        Ok(true) => {}
        Ok(false) => tracing::warn!("{source} did not take {control:?}"),
        Err(error) => tracing::warn!("{source} did not take {control:?}: {error}"),
    }
}

//! The D-Bus buses, for the capabilities that follow what is on them
//! (media players and tray icons on the session's; power profiles, BlueZ
//! and NetworkManager on the system's): staying connected, and looking for
//! the bus again every few seconds after it goes away or when there is none.
//!
//! Every call on the bus has a time limit, and a peer that lets one run out
//! is left alone for a while ([`Unresponsive`]), so a player or a tray item
//! that never answers costs the others one wait, not one at each reading.

use std::collections::HashMap;
use std::time::{Duration, Instant};
use zbus::blocking::Connection;

/// How long a capability waits before looking for a bus that went away again.
const RETRY: Duration = Duration::from_secs(5);

/// How long any call on the bus may take.
pub const CALL_TIME: Duration = Duration::from_secs(3);

/// How long a peer that did not answer in time is left alone.
const LEFT_ALONE: Duration = Duration::from_secs(60);

/// Peers (by bus name) that let a call run out of time, and when.
#[derive(Default)]
pub struct Unresponsive(HashMap<String, Instant>);

impl Unresponsive {
    /// Whether `peer` is left alone now.
    pub fn skips(&mut self, peer: &str) -> bool {
        match self.0.get(peer) {
            Some(since) if since.elapsed() < LEFT_ALONE => true,
            Some(_) => {
                self.0.remove(peer);
                false
            }
            None => false,
        }
    }

    /// Leaves `peer` alone for a while when `result` ran out of time; `what`
    /// names the peer for the log.
    pub fn note<T>(&mut self, peer: &str, what: &str, result: &zbus::Result<T>) {
        if let Err(error) = result
            && timed_out(error)
        {
            tracing::warn!(
                "{what} did not answer within {} s: left out for {} s",
                CALL_TIME.as_secs(),
                LEFT_ALONE.as_secs()
            );
            self.leave_alone(peer);
        }
    }

    /// Leaves `peer` alone for a while: reading it, all its calls together,
    /// took longer than `allowed`.
    pub fn note_late(&mut self, peer: &str, what: &str, allowed: Duration) {
        tracing::warn!("{what} was not read within {} s: left out for {} s", allowed.as_secs(), LEFT_ALONE.as_secs());
        self.leave_alone(peer);
    }

    /// When the next peer left alone is to be asked again (none that has
    /// been let be long enough: it is asked at the next reading). For the
    /// players and power-profiles-daemon, which on Windows are not on a bus.
    #[cfg(not(windows))]
    pub fn next_return(&self) -> Option<Instant> {
        let now = Instant::now();
        self.0.values().map(|since| *since + LEFT_ALONE).filter(|at| *at > now).min()
    }

    fn leave_alone(&mut self, peer: &str) {
        // Names that have been let be long enough go, so the list stays short.
        self.0.retain(|_, since| since.elapsed() < LEFT_ALONE);
        self.0.insert(peer.to_owned(), Instant::now());
    }
}

/// Whether `error` is a call's time limit running out.
pub fn timed_out(error: &zbus::Error) -> bool {
    match error {
        zbus::Error::InputOutput(error) => error.kind() == std::io::ErrorKind::TimedOut,
        zbus::Error::FDO(error) => matches!(&**error, zbus::fdo::Error::ZBus(inner) if timed_out(inner)),
        _ => false,
    }
}

/// A bus a capability follows.
#[derive(Debug, Clone, Copy)]
pub enum Bus<'a> {
    /// The session's, or a test's own at this address.
    Session(Option<&'a str>),
    /// The system's: where `DBUS_SYSTEM_BUS_ADDRESS` says (a test's own),
    /// else its well-known socket.
    System,
}

impl Bus<'_> {
    fn name(self) -> &'static str {
        match self {
            Bus::Session(_) => "session",
            Bus::System => "system",
        }
    }
}

/// Runs `follow` on a connection to `bus` until it fails; then `lost`, a
/// wait, and again, for ever. `lost` also runs while there is no bus.
/// `shown` names what is not shown without one, for the log.
pub fn stay_connected(
    bus: Bus<'_>,
    shown: &str,
    mut follow: impl FnMut(&Connection) -> zbus::Result<()>,
    mut lost: impl FnMut(),
) -> ! {
    let mut said_why = false;
    loop {
        match connect(bus) {
            Ok(connection) => {
                said_why = false;
                if let Err(error) = follow(&connection) {
                    tracing::warn!("lost the D-Bus {} bus: {error}; looking for it again", bus.name());
                }
            }
            Err(error) if !said_why => {
                tracing::info!("no D-Bus {} bus ({error}): no {shown} are shown", bus.name());
                said_why = true;
            }
            Err(_) => {}
        }
        lost();
        std::thread::sleep(RETRY);
    }
}

/// Reads what is followed on `connection` with `read` (handed the peers
/// left alone for not answering), at first and again after each burst of
/// the signals `rules` match, heard on one thread named `thread_name`; a
/// peer left alone is read again when its time is up, whether or not it
/// said anything, so one slow once (a loaded machine) comes back. Returns
/// when `read` fails or the connection does.
#[cfg(not(windows))]
pub fn follow_signals(
    connection: &Connection,
    rules: &[String],
    thread_name: &str,
    mut read: impl FnMut(&mut Unresponsive) -> zbus::Result<()>,
) -> zbus::Result<()> {
    use futures_lite::StreamExt;
    use std::sync::mpsc;
    let (changed, changes) = mpsc::channel::<()>();
    let mut heard = Vec::new();
    for rule in rules {
        let signals = zbus::MessageStream::for_match_rule(rule.as_str(), connection.inner(), Some(64));
        heard.push(zbus::block_on(signals)?.boxed());
    }
    // Any signal means the same (read again), so one thread hears them all.
    if let Some(mut signals) = heard.into_iter().reduce(|heard, more| heard.or(more).boxed()) {
        let changed = changed.clone();
        std::thread::Builder::new().name(thread_name.into()).spawn(move || {
            zbus::block_on(async {
                while signals.next().await.is_some() {
                    if changed.send(()).is_err() {
                        return;
                    }
                }
            })
        })?;
    }
    let stopped = || zbus::Error::Failure("the signal thread stopped".into());
    let mut unresponsive = Unresponsive::default();
    loop {
        read(&mut unresponsive)?;
        match unresponsive.next_return() {
            Some(at) => {
                let waited = changes.recv_timeout(at.saturating_duration_since(Instant::now()));
                if let Err(mpsc::RecvTimeoutError::Disconnected) = waited {
                    return Err(stopped());
                }
            }
            None => changes.recv().map_err(|_| stopped())?,
        }
        // A burst of changes is read once.
        while changes.try_recv().is_ok() {}
    }
}

/// A connection to `bus` whose every call has [`CALL_TIME`] to be answered.
pub fn connect(bus: Bus<'_>) -> zbus::Result<Connection> {
    let builder = match bus {
        Bus::Session(Some(address)) => zbus::blocking::connection::Builder::address(address)?,
        Bus::Session(None) => zbus::blocking::connection::Builder::session()?,
        Bus::System => zbus::blocking::connection::Builder::system()?,
    };
    builder.method_timeout(CALL_TIME).build()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A peer left alone is due back when its time is up; one let be long
    /// enough (gone from the bus since) is not waited for.
    #[test]
    #[cfg(not(windows))]
    fn a_peer_left_alone_is_due_back_after_its_time() {
        let mut unresponsive = Unresponsive::default();
        assert_eq!(unresponsive.next_return(), None);
        unresponsive.leave_alone("org.mpris.MediaPlayer2.slow");
        let due = unresponsive.next_return().expect("due back");
        assert!(due > Instant::now() + LEFT_ALONE - Duration::from_secs(5));
        if let Some(long_ago) = Instant::now().checked_sub(LEFT_ALONE * 2) {
            unresponsive.0.insert("org.mpris.MediaPlayer2.gone".into(), long_ago);
            assert_eq!(unresponsive.next_return(), Some(due));
        }
    }
}

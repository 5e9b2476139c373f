//! i3 and sway, over their IPC (`ipc`): the bar subscribes to workspace,
//! window, mode, binding and output events, fetches the layout tree after
//! each burst of them and folds it into the tiler model (`tree`); komorebi
//! messages from widgets and the `mouse` config are sent as the commands
//! they stand for (`commands`, where the table is).
//!
//! The socket is `$I3SOCK` (`$SWAYSOCK`), else, for i3, the X server's
//! `I3_SOCKET_PATH` (what `i3 --get-socketpath` reads); it is looked up
//! again at every reconnection, because a restarted i3 listens somewhere
//! new. When the tiler goes away the bar asks again ([`Backoff`]). Every
//! reply, and every event once it has begun, is read whole within a time
//! limit.

mod commands;
#[cfg(not(target_os = "macos"))]
mod icons;
mod inputs;
pub mod ipc;
pub mod tree;

/// macOS has no X server to ask for window icons.
#[cfg(target_os = "macos")]
mod icons {
    pub struct Icons;

    impl Icons {
        pub fn new(_: crate::view::images::HeldImages) -> Icons {
            Icons
        }

        pub fn icon(&mut self, _: u64) -> Option<u64> {
            None
        }

        pub fn keep_only(&mut self, _: &std::collections::HashSet<u64>) {}
    }
}

pub use commands::translate;

use super::deadline::{Begun, Within};
use super::meaning::commands_for;
use super::{Client, Kind, Options, Publisher, State, Status};
use crate::backoff::Backoff;
use crate::sync::lock;
use anyhow::Context;
use serde::Deserialize;
use std::collections::HashSet;
use std::io;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    I3,
    Sway,
}

impl Flavour {
    fn kind(self) -> Kind {
        match self {
            Flavour::I3 => Kind::I3,
            Flavour::Sway => Kind::Sway,
        }
    }

    fn name(self) -> &'static str {
        self.kind().name()
    }
}

/// A request the tiler does not answer whole in this time has failed.
const TIMEOUT: Duration = Duration::from_secs(2);

/// The events that can change what the bar shows. `output` comes last:
/// sway before 1.9 refuses it, and keeps what came before.
const EVENTS: &[&str] = &["workspace", "window", "mode", "binding", "shutdown", "output"];
/// sway's, besides: its input devices, for the keyboard layout.
const SWAY_EVENTS: &[&str] = &["workspace", "window", "mode", "binding", "shutdown", "input", "output"];

/// Where the tiler's socket is, if it runs: `$I3SOCK` (`$SWAYSOCK`), else,
/// for i3, the path it writes on the X server's root window.
pub fn socket_path(flavour: Flavour) -> Option<PathBuf> {
    let variable = match flavour {
        Flavour::I3 => "I3SOCK",
        Flavour::Sway => "SWAYSOCK",
    };
    let from_environment = std::env::var_os(variable).map(PathBuf::from);
    let from_the_display = std::iter::once_with(|| match flavour {
        Flavour::I3 => written_by_i3(),
        Flavour::Sway => None,
    });
    from_environment.into_iter().chain(from_the_display.flatten()).find(|path| UnixStream::connect(path).is_ok())
}

/// `sway --get-socketpath` prints `$SWAYSOCK` back, which the bar has as
/// well; `i3 --get-socketpath` reads the X server's `I3_SOCKET_PATH`, which
/// the bar reads itself where it speaks X11. Asking either would start a
/// process, tens of milliseconds on the way to the first frame, for nothing.
#[cfg(free_unix)]
fn written_by_i3() -> Option<PathBuf> {
    use x11rb::connection::Connection as _;
    use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _};
    std::env::var_os("DISPLAY")?;
    let (connection, screen) = x11rb::connect(None).ok()?;
    let root = connection.setup().roots.get(screen)?.root;
    let atom = connection.intern_atom(true, b"I3_SOCKET_PATH").ok()?.reply().ok()?.atom;
    if atom == 0 {
        return None;
    }
    let property = connection.get_property(false, root, atom, AtomEnum::ANY, 0, 1024).ok()?.reply().ok()?;
    let path = String::from_utf8(property.value).ok()?;
    (!path.is_empty()).then(|| path.into())
}

/// Without X11 of its own, the bar asks i3 (XQuartz's i3, on macOS).
#[cfg(not(free_unix))]
fn written_by_i3() -> Option<PathBuf> {
    let output = std::process::Command::new("i3").arg("--get-socketpath").output().ok()?;
    let path = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    (output.status.success() && !path.is_empty()).then(|| path.into())
}

/// Starts following the tiler in the background.
pub fn start(flavour: Flavour, options: &Options, publisher: Publisher) -> anyhow::Result<Box<dyn Client>> {
    let fetcher = Arc::new(Fetcher {
        flavour,
        monitor: options.monitor,
        path: Mutex::new(None),
        mode: Mutex::new(None),
        icons: Mutex::new(icons::Icons::new(options.held.clone())),
    });
    let (refresh, refreshes) = mpsc::channel();
    let (events_fetcher, events_publisher, events_refresh) = (fetcher.clone(), publisher.clone(), refresh.clone());
    thread::Builder::new()
        .name(format!("obi-{}-events", flavour.name()))
        .spawn(move || follow(flavour, &events_fetcher, &events_publisher, &events_refresh))
        .with_context(|| format!("cannot start following {}", flavour.name()))?;
    let state_fetcher = fetcher.clone();
    thread::Builder::new()
        .name(format!("obi-{}-state", flavour.name()))
        .spawn(move || refetch(&state_fetcher, &publisher, &refreshes))
        .with_context(|| format!("cannot start following {}", flavour.name()))?;
    Ok(Box::new(I3 { fetcher, refresh, warned: Mutex::new(HashSet::new()) }))
}

struct I3 {
    fetcher: Arc<Fetcher>,
    /// Asks for the state again: a command may change it without an event.
    refresh: Sender<()>,
    /// The messages without an i3 meaning already warned about.
    warned: Mutex<HashSet<&'static str>>,
}

#[derive(Deserialize)]
struct Outcome {
    success: bool,
    #[serde(default)]
    error: Option<String>,
}

impl Client for I3 {
    fn send(&self, batch: &[super::Message], state: Option<&State>) -> anyhow::Result<()> {
        let name = self.fetcher.flavour.name();
        let commands = commands_for(name, batch, state, translate, &self.warned)?;
        if commands.is_empty() {
            return Ok(());
        }
        let line = commands.join("; ");
        let reply = self.fetcher.request(ipc::RUN_COMMAND, line.as_bytes())?;
        let outcomes: Vec<Outcome> =
            serde_json::from_slice(&reply).with_context(|| format!("{name} answered `{line}` oddly"))?;
        let _ = self.refresh.send(());
        match outcomes.iter().find(|outcome| !outcome.success) {
            Some(failed) => {
                Err(anyhow::anyhow!("{name} refused `{line}`: {}", failed.error.as_deref().unwrap_or("no reason")))
            }
            None => Ok(()),
        }
    }
}

/// Fetches the whole state from the socket the events came from.
struct Fetcher {
    flavour: Flavour,
    monitor: Option<usize>,
    path: Mutex<Option<PathBuf>>,
    /// The binding mode, as the last mode event said.
    mode: Mutex<Option<String>>,
    icons: Mutex<icons::Icons>,
}

impl Fetcher {
    fn request(&self, kind: u32, payload: &[u8]) -> anyhow::Result<Vec<u8>> {
        let name = self.flavour.name();
        let path = lock(&self.path).clone();
        let path = path.with_context(|| format!("{name} is not running"))?;
        let stream = UnixStream::connect(&path).with_context(|| format!("{name} is not running"))?;
        let _ = stream.set_write_timeout(Some(TIMEOUT));
        ipc::request(&mut Within::new(&stream, TIMEOUT), kind, payload).with_context(|| format!("asking {name}"))
    }

    fn fetch(&self) -> anyhow::Result<State> {
        let name = self.flavour.name();
        let tree: tree::Node = serde_json::from_slice(&self.request(ipc::GET_TREE, b"")?)
            .with_context(|| format!("{name}'s tree cannot be read"))?;
        let outputs: Vec<tree::Output> = serde_json::from_slice(&self.request(ipc::GET_OUTPUTS, b"")?)
            .with_context(|| format!("{name}'s outputs cannot be read"))?;
        let mode = lock(&self.mode).clone();
        let mut icons = lock(&self.icons);
        let mut windows = HashSet::new();
        let state = tree::fold(self.flavour.kind(), &tree, &outputs, self.monitor, mode, &mut |node| {
            let window = node.window?;
            windows.insert(window);
            icons.icon(window)
        });
        icons.keep_only(&windows);
        let keyboard = match self.flavour {
            Flavour::Sway => self.request(ipc::GET_INPUTS, b"").ok().and_then(|reply| inputs::keyboard_layout(&reply)),
            Flavour::I3 => None,
        };
        Ok(State { keyboard, ..state })
    }

    fn set_mode(&self, payload: &[u8]) {
        if let Some(mode) = binding_mode(payload) {
            *lock(&self.mode) = mode;
        }
    }
}

/// The binding mode a mode event or a binding state reply names (none:
/// the default), as Pango markup: a mode declared with `--pango_markup` is
/// named in markup, another's name is escaped. None when the payload is no
/// such thing.
fn binding_mode(payload: &[u8]) -> Option<Option<String>> {
    #[derive(Deserialize)]
    struct Mode {
        #[serde(alias = "name")]
        change: String,
        #[serde(default)]
        pango_markup: bool,
    }
    let Mode { change, pango_markup } = serde_json::from_slice(payload).ok()?;
    Some((change != "default").then(|| if pango_markup { change } else { obi_markup::escape(&change) }))
}

/// Subscribes to the tiler's events and asks for the state after each,
/// reconnecting whenever the tiler goes away.
fn follow(flavour: Flavour, fetcher: &Fetcher, publisher: &Publisher, refresh: &Sender<()>) {
    let name = flavour.name();
    let mut backoff = Backoff::default();
    loop {
        match subscribe(flavour) {
            Ok((events, path)) => {
                backoff.connected();
                tracing::info!("connected to {name} at {}", path.display());
                *lock(&fetcher.path) = Some(path);
                if let Ok(binding) = fetcher.request(ipc::GET_BINDING_STATE, b"") {
                    fetcher.set_mode(&binding);
                }
                let _ = refresh.send(());
                loop {
                    match next_event(&events) {
                        Ok((ipc::EVENT_SHUTDOWN, _)) => break,
                        Ok((ipc::EVENT_MODE, payload)) => fetcher.set_mode(&payload),
                        Ok(_) => {}
                        Err(error) => {
                            tracing::debug!("{name}'s events ended: {error}");
                            break;
                        }
                    }
                    let _ = refresh.send(());
                }
                tracing::info!("{name} went away; waiting for it to come back");
                publisher.publish(Status::Disconnected(format!("{name} went away")));
            }
            Err(why) => publisher.unreachable(why),
        }
        backoff.sleep();
    }
}

/// The next event: waited for as long as it takes to begin, then read
/// whole within the time limit, so a frame that starts and stalls is a
/// lost connection rather than a frozen state.
fn next_event(events: &UnixStream) -> io::Result<(u32, Vec<u8>)> {
    ipc::read_frame(&mut Begun::new(events, TIMEOUT))
}

/// A connection subscribed to the events, and the socket it is on.
fn subscribe(flavour: Flavour) -> anyhow::Result<(UnixStream, PathBuf)> {
    let name = flavour.name();
    let path = socket_path(flavour).with_context(|| format!("{name} is not running (no IPC socket found)"))?;
    let events = match flavour {
        Flavour::I3 => EVENTS,
        Flavour::Sway => SWAY_EVENTS,
    };
    match subscribe_to(name, &path, events) {
        // sway before 1.9 knows no `output` event; the outputs are read with
        // the tree after every other event all the same.
        Err(refused) if flavour == Flavour::Sway => {
            let without_outputs = &events[..events.len() - 1];
            let events = subscribe_to(name, &path, without_outputs).map_err(|_| refused)?;
            tracing::info!("{name} offers no output events (before 1.9): outputs are read again at its other events");
            Ok((events, path))
        }
        subscribed => subscribed.map(|events| (events, path)),
    }
}

/// A new connection to the tiler at `path`, subscribed to `events`.
fn subscribe_to(name: &str, path: &Path, events: &[&str]) -> anyhow::Result<UnixStream> {
    let stream = UnixStream::connect(path).with_context(|| format!("{name} is not running"))?;
    let _ = stream.set_write_timeout(Some(TIMEOUT));
    let names = serde_json::to_string(events).expect("event names serialize");
    let reply = ipc::request(&mut Within::new(&stream, TIMEOUT), ipc::SUBSCRIBE, names.as_bytes())
        .with_context(|| format!("subscribing to {name}'s events"))?;
    if !serde_json::from_slice::<Outcome>(&reply).is_ok_and(|outcome| outcome.success) {
        anyhow::bail!("{name} refused the subscription to {names}: {}", String::from_utf8_lossy(&reply));
    }
    Ok(stream)
}

/// Fetches and publishes the state each time it is asked to; asks that
/// come while a fetch runs are answered by the next one.
fn refetch(fetcher: &Fetcher, publisher: &Publisher, refreshes: &Receiver<()>) {
    while refreshes.recv().is_ok() {
        while refreshes.try_recv().is_ok() {}
        match fetcher.fetch() {
            Ok(state) => publisher.publish(Status::Connected(state)),
            Err(error) => tracing::debug!("{error:#}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::time::Instant;

    #[test]
    fn a_binding_mode_is_read_as_markup_and_the_default_is_none() {
        assert_eq!(binding_mode(br#"{"change": "resize", "pango_markup": false}"#), Some(Some("resize".into())));
        assert_eq!(
            binding_mode(br#"{"change": "<b>move</b> &amp; go", "pango_markup": true}"#),
            Some(Some("<b>move</b> &amp; go".into()))
        );
        assert_eq!(
            binding_mode(br#"{"change": "a <b> tag", "pango_markup": false}"#),
            Some(Some("a &lt;b&gt; tag".into())),
            "a name that is not markup is escaped"
        );
        assert_eq!(binding_mode(br#"{"name": "default"}"#), Some(None), "a binding state reply");
        assert_eq!(binding_mode(b"[]"), None);
    }

    #[test]
    fn an_event_that_begins_and_stalls_ends_the_connection_within_the_limit() {
        let (bar, tiler) = UnixStream::pair().unwrap();
        let mut tiler = tiler;
        tiler.write_all(&ipc::encode(ipc::EVENT_MODE, b"{\"change\": \"resize\"}")).unwrap();
        assert_eq!(next_event(&bar).unwrap(), (ipc::EVENT_MODE, b"{\"change\": \"resize\"}".to_vec()));
        // Half a header, then nothing more.
        tiler.write_all(&ipc::encode(ipc::EVENT_MODE, b"{}")[..7]).unwrap();
        let started = Instant::now();
        let stalled = next_event(&bar).unwrap_err();
        assert!(matches!(stalled.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut), "{stalled}");
        assert!(started.elapsed() < TIMEOUT + Duration::from_secs(1), "{:?}", started.elapsed());
    }

    #[test]
    fn a_reply_dripped_a_byte_at_a_time_is_cut_off_at_the_deadline() {
        let (bar, tiler) = UnixStream::pair().unwrap();
        let dripping = thread::spawn(move || {
            let mut tiler = tiler;
            for byte in ipc::encode(ipc::GET_TREE, &[b' '; 64]) {
                if tiler.write_all(&[byte]).is_err() {
                    return;
                }
                thread::sleep(Duration::from_millis(100));
            }
        });
        let started = Instant::now();
        assert!(ipc::read_frame(&mut Within::new(&bar, TIMEOUT)).is_err(), "7 s of dripping is past the 2 s limit");
        assert!(started.elapsed() < TIMEOUT + Duration::from_secs(1), "{:?}", started.elapsed());
        drop(bar);
        dripping.join().unwrap();
    }
}

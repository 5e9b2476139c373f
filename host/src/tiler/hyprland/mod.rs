//! Hyprland, over its two sockets in its instance's folder
//! (`$XDG_RUNTIME_DIR/hypr/$HYPRLAND_INSTANCE_SIGNATURE/`; `/tmp/hypr/...`
//! before 0.40, used only when that folder is the user's own):
//! `.socket2.sock` says what happens, a line an event (`EVENT>>DATA`), and
//! after each burst of events the bar asks `.socket.sock` for monitors,
//! workspaces, windows and keyboards in one batch, and folds the replies
//! into the tiler model (`fold`). komorebi's messages go as the requests
//! they stand for (`commands`, where the table is), in the dialect
//! Hyprland's config speaks (`j/status`).
//!
//! Each request is a connection of its own, written whole at once: a
//! Hyprland up to 0.56 waits on a connection with its whole compositor.
//! Replies and event lines are read within a time limit and a size; a line
//! that is not an event is logged and skipped. When Hyprland goes away the
//! bar asks again ([`Backoff`]).

mod commands;
mod fold;

use super::deadline::{Within, read_lines};
use super::meaning::commands_for;
use super::{Client, Options, Publisher, ScreenCast, State, Status};
use crate::backoff::Backoff;
use crate::sync::lock;
use anyhow::Context;
use commands::Dialect;
use fold::Replies;
use std::collections::HashSet;
use std::io::{self, Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// A reply or an event line not read whole in this time has failed.
const TIMEOUT: Duration = Duration::from_secs(2);
/// Hyprland cuts an event's data to 1024 bytes; a longer line is not its.
const MAX_EVENT_LINE: u64 = 4096;
/// A reply larger than this is not Hyprland's.
const MAX_REPLY: u64 = 64 << 20;
/// What the bar asks for after each burst of events.
const STATE_BATCH: &str = "[[BATCH]]j/monitors;j/workspaces;j/clients;j/activewindow;j/devices";

/// The folder of the running Hyprland's sockets, when there is one.
pub fn instance_dir() -> Option<PathBuf> {
    let signature = std::env::var("HYPRLAND_INSTANCE_SIGNATURE").ok().filter(|signature| {
        !signature.is_empty() && !signature.contains('/') && signature != "." && signature != ".."
    })?;
    let runtime = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from);
    let user_runtime = PathBuf::from(format!("/run/user/{}", rustix::process::geteuid().as_raw()));
    let old = Path::new("/tmp/hypr").join(&signature);
    runtime
        .into_iter()
        .chain([user_runtime])
        .map(|runtime| runtime.join("hypr").join(&signature))
        .chain(crate::files::OwnDir::existing(&old).ok().map(|_| old))
        .find(|dir| dir.join(".socket.sock").exists())
}

/// Starts following Hyprland in the background.
pub fn start(options: &Options, publisher: Publisher) -> anyhow::Result<Box<dyn Client>> {
    let hyprland = Arc::new(Hyprland {
        monitor: options.monitor,
        dir: Mutex::new(None),
        urgent: Mutex::new(HashSet::new()),
        submap: Mutex::new(None),
        screencast: Mutex::new(None),
        dialect: Mutex::new(Dialect::Hyprlang),
        warned: Mutex::new(HashSet::new()),
    });
    let (refresh, refreshes) = mpsc::channel();
    let (events, events_publisher, events_refresh) = (hyprland.clone(), publisher.clone(), refresh.clone());
    thread::Builder::new()
        .name("obi-hyprland-events".into())
        .spawn(move || follow(&events, &events_publisher, &events_refresh))
        .context("cannot start following Hyprland")?;
    let fetcher = hyprland.clone();
    thread::Builder::new()
        .name("obi-hyprland-state".into())
        .spawn(move || refetch(&fetcher, &publisher, &refreshes))
        .context("cannot start following Hyprland")?;
    Ok(Box::new(HyprlandClient { hyprland, refresh }))
}

struct Hyprland {
    monitor: Option<usize>,
    /// The instance's folder, found again at every connection.
    dir: Mutex<Option<PathBuf>>,
    /// The windows (by address, as events write them) that asked for
    /// attention and have not had focus since.
    urgent: Mutex<HashSet<String>>,
    /// The submap (binding mode) other than the default, as the last
    /// `submap` event said (no request tells it), as markup.
    submap: Mutex<Option<String>>,
    /// The screen capture going on, as the last `screencast` event said.
    screencast: Mutex<Option<ScreenCast>>,
    dialect: Mutex<Dialect>,
    /// The messages without a Hyprland meaning already warned about.
    warned: Mutex<HashSet<&'static str>>,
}

struct HyprlandClient {
    hyprland: Arc<Hyprland>,
    /// Asks for the state again: a request may change it without an event.
    refresh: Sender<()>,
}

impl Client for HyprlandClient {
    fn send(&self, batch: &[super::Message], state: Option<&State>) -> anyhow::Result<()> {
        let dialect = *lock(&self.hyprland.dialect);
        let translate = |message: &super::Message, state: Option<&State>| commands::translate(message, state, dialect);
        let requests = commands_for("Hyprland", batch, state, translate, &self.hyprland.warned)?;
        for request in requests {
            let reply = self.hyprland.request(&request)?;
            if reply.trim() != "ok" {
                let _ = self.refresh.send(());
                anyhow::bail!("Hyprland refused `{request}`: {}", reply.trim());
            }
        }
        let _ = self.refresh.send(());
        Ok(())
    }
}

impl Hyprland {
    /// Writes `request` on a connection of its own and reads the reply.
    fn request(&self, request: &str) -> anyhow::Result<String> {
        let dir = lock(&self.dir).clone().context("Hyprland is not running")?;
        let stream = UnixStream::connect(dir.join(".socket.sock")).context("Hyprland is not running")?;
        let _ = stream.set_write_timeout(Some(TIMEOUT));
        (&stream)
            .write_all(request.as_bytes())
            .and_then(|()| stream.shutdown(std::net::Shutdown::Write))
            .with_context(|| format!("asking Hyprland `{request}`"))?;
        let mut reply = Vec::new();
        Within::new(&stream, TIMEOUT)
            .take(MAX_REPLY)
            .read_to_end(&mut reply)
            .with_context(|| format!("reading Hyprland's answer to `{request}`"))?;
        String::from_utf8(reply).map_err(|_| anyhow::anyhow!("Hyprland's answer to `{request}` is not text"))
    }

    /// The whole state, asked for in one batch.
    fn fetch(&self) -> anyhow::Result<State> {
        let reply = self.request(STATE_BATCH)?;
        let parts: Vec<&str> = reply.split("\n\n\n").collect();
        let [monitors, workspaces, clients, active, devices] = parts[..] else {
            anyhow::bail!("Hyprland answered {} parts to a batch of five", parts.len());
        };
        let active: serde_json::Value = read("active window", active)?;
        let replies = Replies {
            monitors: read("monitors", monitors)?,
            workspaces: read("workspaces", workspaces)?,
            clients: read("windows", clients)?,
            active: active["address"].as_str().map(str::to_owned),
            keyboard: fold::keyboard_layout(devices),
        };
        let urgent = lock(&self.urgent).clone();
        let mode = lock(&self.submap).clone();
        let screen_casts = lock(&self.screencast).iter().cloned().collect();
        Ok(State { mode, screen_casts, ..fold::fold(&replies, self.monitor, &urgent) })
    }

    /// Notes what an event says that no reply does: which windows asked
    /// for attention, the submap, and a screen capture.
    fn note(&self, event: &str, data: &str) {
        match event {
            "urgent" => {
                lock(&self.urgent).insert(fold::normalised(data));
            }
            "activewindowv2" | "closewindow" => {
                lock(&self.urgent).remove(&fold::normalised(data));
            }
            // Empty when the default one is back.
            "submap" => *lock(&self.submap) = Some(data).filter(|name| !name.is_empty()).map(obi_markup::escape),
            "screencast" => *lock(&self.screencast) = screencast(data),
            _ => {}
        }
    }
}

/// The capture a `screencast` event's `STATE,OWNER` says goes on: none
/// when it ended (0), else of a monitor (owner 0) or a window (1), which
/// the event does not name.
fn screencast(data: &str) -> Option<ScreenCast> {
    match data.split_once(',')? {
        ("1", "1") => Some(ScreenCast::Window(None)),
        ("1", _) => Some(ScreenCast::Output(None)),
        _ => None,
    }
}

/// One of Hyprland's JSON replies, read.
fn read<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> anyhow::Result<T> {
    serde_json::from_str(text).with_context(|| format!("Hyprland's {what} cannot be read"))
}

/// Listens to Hyprland's events and asks for the state after each burst,
/// connecting again whenever Hyprland goes away.
fn follow(hyprland: &Hyprland, publisher: &Publisher, refresh: &Sender<()>) {
    let mut backoff = Backoff::default();
    loop {
        match connect_events() {
            Ok((events, dir)) => {
                backoff.connected();
                tracing::info!("connected to Hyprland at {}", dir.display());
                *lock(&hyprland.dir) = Some(dir);
                // Told by events alone: until one says otherwise, the default.
                *lock(&hyprland.submap) = None;
                *lock(&hyprland.screencast) = None;
                *lock(&hyprland.dialect) = dialect(hyprland);
                let _ = refresh.send(());
                let error = read_events(&events, hyprland, refresh);
                tracing::info!("Hyprland went away ({error}); waiting for it to come back");
                publisher.publish(Status::Disconnected("Hyprland went away".into()));
            }
            Err(why) => publisher.unreachable(why),
        }
        backoff.sleep();
    }
}

fn connect_events() -> anyhow::Result<(UnixStream, PathBuf)> {
    let dir = instance_dir().context("Hyprland is not running (no instance socket found)")?;
    let events = UnixStream::connect(dir.join(".socket2.sock")).context("Hyprland is not running")?;
    Ok((events, dir))
}

/// Which language a dispatch is written in: Lua when `j/status` says the
/// config is Lua (0.55 on), else hyprlang (`status` is unknown before 0.55).
fn dialect(hyprland: &Hyprland) -> Dialect {
    let status = hyprland.request("j/status").unwrap_or_default();
    let provider = serde_json::from_str::<serde_json::Value>(&status).ok();
    match provider.as_ref().and_then(|status| status["configProvider"].as_str()) {
        Some("lua") => Dialect::Lua,
        _ => Dialect::Hyprlang,
    }
}

/// Reads event lines until the connection ends; what ended it.
fn read_events(events: &UnixStream, hyprland: &Hyprland, refresh: &Sender<()>) -> io::Error {
    read_lines(events, TIMEOUT, MAX_EVENT_LINE, "Hyprland", |line, _| match line.split_once(">>") {
        Some((event, data)) if !event.is_empty() && event.bytes().all(|b| b.is_ascii_alphanumeric()) => {
            hyprland.note(event, data);
            let _ = refresh.send(());
            Ok(())
        }
        _ => Err(anyhow::anyhow!("not an event: {:?}", excerpt(line))),
    })
}

/// The start of `text`, for a log line.
fn excerpt(text: &str) -> &str {
    let cut = (0..=text.len().min(80)).rev().find(|at| text.is_char_boundary(*at)).unwrap_or(0);
    &text[..cut]
}

/// Fetches and publishes the state each time it is asked to; asks that
/// come while a fetch runs are answered by the next one.
fn refetch(hyprland: &Hyprland, publisher: &Publisher, refreshes: &Receiver<()>) {
    while refreshes.recv().is_ok() {
        // A burst of events is one fetch.
        thread::sleep(Duration::from_millis(20));
        while refreshes.try_recv().is_ok() {}
        match hyprland.fetch() {
            Ok(state) => publisher.publish(Status::Connected(state)),
            Err(error) => tracing::debug!("{error:#}"),
        }
    }
}

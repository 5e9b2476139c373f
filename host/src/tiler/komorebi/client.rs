//! The komorebi client: its sockets and the thread that listens to it.
//!
//! komorebi listens on `komorebi.sock` in its data directory. A message is
//! one connection carrying its JSON; a batch is one connection carrying
//! each message's JSON followed by a newline; a query writes the message,
//! shuts down its write half and reads the one JSON document of the reply.
//! To hear changes the bar binds a socket of its own beside it and
//! subscribes it; komorebi then connects to it for every notification,
//! writes one document and closes. A connection that carries nothing means
//! komorebi is shutting down: the bar then asks to subscribe again every
//! second until komorebi is back (waiting longer each time one that comes
//! back drops it again at once, see [`Backoff`]), and asks for the whole
//! state anew.
//!
//! Windows has Unix-domain sockets too, as komorebi opens them: there the
//! same code runs over `uds_windows`' streams, so the Linux tests of this
//! framing are its tests on Windows as well (Wine 8 has no such sockets).

use super::state::{read_notification, read_state};
use super::{Message, SOCKET};
use crate::backoff::Backoff;
use crate::config::model::Sides;
use crate::tiler::{Client, Publisher, State, Status};
use anyhow::Context;
use serde_json::json;
use std::io::{Read, Write};
#[cfg(unix)]
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::thread;
use std::time::Duration;
#[cfg(windows)]
use uds_windows::{UnixListener, UnixStream};

/// komorebi's own timeout on the bar's writes and reads.
const TIMEOUT: Duration = Duration::from_secs(1);
/// A notification larger than this is not one komorebi sends.
const MAX_NOTIFICATION: u64 = 64 << 20;

pub struct Komorebi {
    dir: PathBuf,
    /// The subscriber socket's file, removed when the bar ends.
    subscriber: PathBuf,
}

impl Client for Komorebi {
    fn send(&self, batch: &[Message], _: Option<&State>) -> anyhow::Result<()> {
        send(&self.dir, batch)
    }
}

impl Drop for Komorebi {
    fn drop(&mut self) {
        let name = self.subscriber.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        let _ = send(&self.dir, &[Message::with("RemoveSubscriberSocket", json!(name))]);
        let _ = std::fs::remove_file(&self.subscriber);
    }
}

/// What the listening thread needs to know of the bar.
pub struct Subscription {
    pub dir: PathBuf,
    /// The bar's monitor as its config numbers it.
    pub monitor: Option<usize>,
    /// Each bar's monitor, as its config numbers it, and the offset to keep free there.
    pub work_area_offsets: Vec<(Option<usize>, Sides)>,
}

/// Binds the bar's subscriber socket in `subscription.dir` and starts the
/// thread that subscribes it, reads komorebi's notifications and publishes
/// each state, reconnecting whenever komorebi goes away.
pub fn start(subscription: Subscription, publisher: Publisher) -> anyhow::Result<Komorebi> {
    let name = format!("obi-{}.sock", std::process::id());
    let path = subscription.dir.join(&name);
    // A file of that name is left from an earlier bar with this pid.
    let _ = std::fs::remove_file(&path);
    let listener =
        UnixListener::bind(&path).with_context(|| format!("cannot listen for komorebi at {}", path.display()))?;
    let client = Komorebi { dir: subscription.dir.clone(), subscriber: path };
    thread::Builder::new()
        .name("obi-komorebi".into())
        .spawn(move || listen(subscription, name, listener, publisher))
        .context("cannot start listening to komorebi")?;
    Ok(client)
}

fn listen(subscription: Subscription, name: String, listener: UnixListener, publisher: Publisher) {
    let dir = &subscription.dir;
    let subscribe = [Message::with("AddSubscriberSocketWithOptions", json!([name, { "filter_state_changes": true }]))];
    let mut backoff = Backoff::default();
    loop {
        // Subscribe, then ask for the whole state: nothing is missed between them.
        let state = loop {
            match send(dir, &subscribe).and_then(|()| query_state(dir, subscription.monitor)) {
                Ok(state) => break state,
                Err(why) => {
                    publisher.unreachable(why);
                    backoff.sleep();
                }
            }
        };
        backoff.connected();
        tracing::info!("connected to komorebi at {}", dir.join(SOCKET).display());
        for (monitor, offset) in &subscription.work_area_offsets {
            offer_work_area_offset(dir, state.numbered_monitor(*monitor).or(*monitor), *offset);
        }
        publisher.publish(Status::Connected(state));
        hear_notifications(&listener, subscription.monitor, &publisher);
        tracing::info!("komorebi stopped; waiting for it to come back");
        publisher.publish(Status::Disconnected("komorebi stopped".into()));
        backoff.sleep();
    }
}

/// Reads notifications until komorebi says it is going away.
fn hear_notifications(listener: &UnixListener, monitor: Option<usize>, publisher: &Publisher) {
    for stream in listener.incoming() {
        let mut stream = match stream {
            Ok(stream) => stream,
            Err(error) => {
                tracing::warn!("komorebi's notification could not be accepted: {error}");
                continue;
            }
        };
        let _ = stream.set_read_timeout(Some(TIMEOUT));
        let mut text = String::new();
        if let Err(error) = Read::by_ref(&mut stream).take(MAX_NOTIFICATION).read_to_string(&mut text) {
            tracing::warn!("komorebi's notification could not be read: {error}; keeping the last state");
            continue;
        }
        if text.is_empty() {
            return;
        }
        match read_notification(&text, monitor) {
            Ok(state) => publisher.publish(Status::Connected(state)),
            Err(error) => tracing::warn!(
                "komorebi sent a notification Obi cannot read ({error}): {}; keeping the last state",
                excerpt(&text)
            ),
        }
    }
}

/// The start of `text`, for a log line.
fn excerpt(text: &str) -> String {
    let cut = (0..=text.len().min(120)).rev().find(|at| text.is_char_boundary(*at)).unwrap_or(0);
    if cut < text.len() { format!("{}…", &text[..cut]) } else { text.to_owned() }
}

/// Asks komorebi to keep `offset` free on a bar's monitor (komorebi's
/// index for it), as komorebi-bar does for a `work_area_offset` in its
/// monitor config.
fn offer_work_area_offset(dir: &Path, monitor: Option<usize>, offset: Sides) {
    let rect = json!({ "left": offset.left, "top": offset.top, "right": offset.right, "bottom": offset.bottom });
    let message = Message::with("MonitorWorkAreaOffset", json!([monitor.unwrap_or(0), rect]));
    if let Err(why) = send(dir, &[message]) {
        tracing::warn!("the work area offset was not set: {why:#}");
    }
}

/// Sends `batch` on one connection: each message's JSON and a newline.
pub fn send(dir: &Path, batch: &[Message]) -> anyhow::Result<()> {
    let mut stream = connect(dir)?;
    let mut bytes = String::new();
    for message in batch {
        bytes.push_str(&message.to_json());
        bytes.push('\n');
    }
    stream.write_all(bytes.as_bytes()).context("writing to komorebi")
}

/// Asks komorebi for its whole state.
pub fn query_state(dir: &Path, monitor: Option<usize>) -> anyhow::Result<State> {
    let mut stream = connect(dir)?;
    let _ = stream.set_read_timeout(Some(TIMEOUT));
    stream
        .write_all(Message::unit("State").to_json().as_bytes())
        .and_then(|()| stream.shutdown(std::net::Shutdown::Write))
        .context("asking komorebi for its state")?;
    let mut reply = String::new();
    stream.take(MAX_NOTIFICATION).read_to_string(&mut reply).context("reading komorebi's state")?;
    read_state(&reply, monitor).context("komorebi's state cannot be read")
}

fn connect(dir: &Path) -> anyhow::Result<UnixStream> {
    let path = dir.join(SOCKET);
    let stream = UnixStream::connect(&path)
        .map_err(|error| anyhow::anyhow!("komorebi is not running (no answer at {}: {error})", path.display()))?;
    let _ = stream.set_write_timeout(Some(TIMEOUT));
    Ok(stream)
}

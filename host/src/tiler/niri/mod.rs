//! niri, over the socket `$NIRI_SOCKET` names: newline-delimited JSON both
//! ways. One connection asks for the event stream, after which niri tells
//! its whole state as events and then each change; the bar applies them to
//! its own lenient model (`model`) and publishes the folded state after
//! each. The outputs' places are asked for on another connection at the
//! start and whenever the workspaces move. komorebi's messages go as niri's
//! actions (`commands`, where the table is), a connection each.
//!
//! Replies and event lines are read within a time limit and a size; a line
//! that cannot be read is logged and skipped. When niri goes away the bar
//! asks again ([`Backoff`]) and is told the whole state anew.

mod commands;
mod model;

use super::deadline::{Within, read_lines};
use super::meaning::commands_for;
use super::{Client, Options, Publisher, State, Status};
use crate::backoff::Backoff;
use crate::sync::lock;
use anyhow::Context;
use model::{Applied, Logical, Model};
use std::collections::{BTreeMap, HashSet};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A reply or an event line not read whole in this time has failed.
const TIMEOUT: Duration = Duration::from_secs(2);
/// The whole list of windows comes as one line; more than this is not niri.
const MAX_LINE: u64 = 16 << 20;

/// niri's socket, when it runs.
pub fn socket_path() -> Option<PathBuf> {
    std::env::var_os("NIRI_SOCKET").filter(|path| !path.is_empty()).map(PathBuf::from).filter(|path| path.exists())
}

/// Starts following niri in the background.
pub fn start(options: &Options, publisher: Publisher) -> anyhow::Result<Box<dyn Client>> {
    let niri = Arc::new(Niri {
        monitor: options.monitor,
        model: Mutex::new(Model::default()),
        warned: Mutex::new(HashSet::new()),
    });
    let following = niri.clone();
    std::thread::Builder::new()
        .name("obi-niri-events".into())
        .spawn(move || follow(&following, &publisher))
        .context("cannot start following niri")?;
    Ok(Box::new(NiriClient { niri }))
}

struct Niri {
    monitor: Option<usize>,
    model: Mutex<Model>,
    /// The messages without a niri meaning already warned about.
    warned: Mutex<HashSet<&'static str>>,
}

struct NiriClient {
    niri: Arc<Niri>,
}

impl Client for NiriClient {
    fn send(&self, batch: &[super::Message], state: Option<&State>) -> anyhow::Result<()> {
        let translate = |message: &super::Message, state: Option<&State>| {
            let model = lock(&self.niri.model);
            commands::translate(message, state, &|monitor, workspace| model.workspace_id(monitor, workspace))
        };
        for request in commands_for("niri", batch, state, translate, &self.niri.warned)? {
            let reply = request_line(&request)?;
            if reply.get("Ok").is_none() {
                anyhow::bail!("niri refused {request}: {}", reply.get("Err").unwrap_or(&reply));
            }
        }
        Ok(())
    }
}

/// Writes `request` (one line of JSON) on a connection of its own and reads
/// the one line of the reply.
fn request_line(request: &str) -> anyhow::Result<serde_json::Value> {
    let path = socket_path().context("niri is not running (no $NIRI_SOCKET)")?;
    let stream = UnixStream::connect(&path).context("niri is not running")?;
    let _ = stream.set_write_timeout(Some(TIMEOUT));
    (&stream)
        .write_all(format!("{request}\n").as_bytes())
        .and_then(|()| stream.shutdown(std::net::Shutdown::Write))
        .with_context(|| format!("asking niri {request}"))?;
    let mut line = Vec::new();
    BufReader::new(Within::new(&stream, TIMEOUT))
        .take(MAX_LINE)
        .read_until(b'\n', &mut line)
        .with_context(|| format!("reading niri's answer to {request}"))?;
    serde_json::from_slice(&line).with_context(|| format!("niri's answer to {request} cannot be read"))
}

/// The outputs' places in the layout (none for an output that is off).
fn outputs() -> anyhow::Result<BTreeMap<String, Option<Logical>>> {
    let reply = request_line(r#""Outputs""#)?;
    let outputs =
        reply.pointer("/Ok/Outputs").cloned().with_context(|| format!("niri answered Outputs with {reply}"))?;
    let outputs: BTreeMap<String, serde_json::Value> =
        serde_json::from_value(outputs).context("niri's outputs cannot be read")?;
    Ok(outputs
        .into_iter()
        .map(|(name, output)| (name, serde_json::from_value(output["logical"].clone()).ok()))
        .collect())
}

/// Follows niri's event stream, connecting again whenever niri goes away.
fn follow(niri: &Niri, publisher: &Publisher) {
    let mut backoff = Backoff::default();
    loop {
        match event_stream() {
            Ok(stream) => {
                backoff.connected();
                tracing::info!("connected to niri at {}", socket_path().unwrap_or_default().display());
                *lock(&niri.model) = Model::default();
                let error = read_events(&stream, niri, publisher);
                tracing::info!("niri went away ({error}); waiting for it to come back");
                publisher.publish(Status::Disconnected("niri went away".into()));
            }
            Err(why) => publisher.unreachable(why),
        }
        backoff.sleep();
    }
}

/// A connection that asked for the event stream, and was granted it.
fn event_stream() -> anyhow::Result<UnixStream> {
    let path = socket_path().context("niri is not running (no $NIRI_SOCKET)")?;
    let stream = UnixStream::connect(&path).context("niri is not running")?;
    let _ = stream.set_write_timeout(Some(TIMEOUT));
    (&stream).write_all(b"\"EventStream\"\n").context("asking niri for its events")?;
    let mut reply = Vec::new();
    // Byte by byte: what follows the reply is the first event.
    let mut reader = Within::new(&stream, TIMEOUT);
    let mut byte = [0u8; 1];
    while byte[0] != b'\n' && reply.len() < 4096 {
        reader.read_exact(&mut byte).context("niri did not grant its events")?;
        reply.push(byte[0]);
    }
    let granted: serde_json::Value = serde_json::from_slice(&reply).unwrap_or_default();
    if granted.get("Ok").is_none() {
        anyhow::bail!("niri refused its events: {}", String::from_utf8_lossy(&reply).trim());
    }
    Ok(stream)
}

/// Applies event lines until the connection ends; what ended it.
fn read_events(stream: &UnixStream, niri: &Niri, publisher: &Publisher) -> io::Error {
    // A burst of events (70,000 windows told one by one at the start) is
    // shown once, when the lines waiting are read.
    let mut unshown = false;
    read_lines(stream, TIMEOUT, MAX_LINE, "niri", |line, more| {
        // Applied under the lock, which is let go of before the outputs are asked for.
        let applied = lock(&niri.model).apply(line);
        match applied {
            Ok(Applied::Nothing) => {}
            Ok(Applied::OutputsMayHaveChanged) => {
                match outputs() {
                    Ok(outputs) => lock(&niri.model).outputs = outputs,
                    Err(error) => tracing::debug!("{error:#}"),
                }
                unshown = true;
            }
            Ok(Applied::Changed) => unshown = true,
            Err(_) => {}
        }
        if unshown && !more {
            let state = lock(&niri.model).fold(niri.monitor);
            publisher.publish(Status::Connected(state));
            unshown = false;
        }
        applied.map(drop)
    })
}

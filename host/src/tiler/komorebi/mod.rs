//! komorebi's socket protocol: its messages ([`Message`]), its state read
//! into the tiler model, and the client that subscribes to it.
//!
//! The sockets are in komorebi's data directory: `--komorebi-dir`, else
//! `$OBI_KOMOREBI_DIR`, else komorebi's own rule (`%LOCALAPPDATA%\komorebi`
//! on Windows; `$XDG_DATA_HOME/komorebi`, or `~/.local/share/komorebi`,
//! elsewhere). Without any of those there is no folder to look in: a
//! shared one such as `/tmp/komorebi` could be anybody's.

mod client;
mod state;

pub use crate::komorebi_messages::{Invalid, MESSAGES, Message};
pub use state::{read_notification, read_state};

use super::{Client, Options, Publisher};
use anyhow::Context;
use std::path::PathBuf;

/// komorebi's socket in its data directory.
pub const SOCKET: &str = "komorebi.sock";

/// Where komorebi's sockets are, when the environment says.
pub fn socket_dir(options: &Options) -> Option<PathBuf> {
    if let Some(dir) = &options.komorebi_dir {
        return Some(dir.clone());
    }
    if let Some(dir) = std::env::var_os("OBI_KOMOREBI_DIR") {
        return Some(PathBuf::from(dir));
    }
    let data = if cfg!(windows) {
        std::env::var_os("LOCALAPPDATA").map(PathBuf::from)
    } else {
        std::env::var_os("XDG_DATA_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local/share")))
    };
    data.map(|data| data.join("komorebi"))
}

/// Whether komorebi runs: its socket is where the environment says.
pub fn running(options: &Options) -> bool {
    socket_dir(options).is_some_and(|dir| dir.join(SOCKET).exists())
}

/// Subscribes to komorebi in the background; its states go to `publisher`.
pub fn start(options: &Options, publisher: Publisher) -> anyhow::Result<Box<dyn Client>> {
    let subscription = client::Subscription {
        dir: socket_dir(options)
            .context("komorebi's folder is unknown: the environment names no data folder (give --komorebi-dir)")?,
        monitor: options.monitor,
        work_area_offsets: options.work_area_offsets.clone(),
    };
    Ok(Box::new(client::start(subscription, publisher)?))
}

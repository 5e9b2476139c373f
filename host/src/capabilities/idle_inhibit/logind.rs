//! Idling held off through logind: an `idle` inhibitor lock (`Inhibit` on
//! the login manager, mode `block`), held as long as the file descriptor
//! logind hands back is open. X11 screen lockers and idle daemons that
//! follow logind (xss-lock, xidlehook, GNOME and KDE) honour it.

use super::IdleStatus;
use crate::capabilities::session_bus::{Bus, connect};
use crate::wake::Pushed;
use std::sync::mpsc::Receiver;
use zbus::zvariant::OwnedFd;

/// Holds or lets go at each ask, the newest of those waiting, until the
/// asks end.
pub fn hold(status: &Pushed<IdleStatus>, asked: Receiver<bool>) {
    let mut lock: Option<OwnedFd> = None;
    while let Ok(first) = asked.recv() {
        let held = asked.try_iter().last().unwrap_or(first);
        if !held {
            // Closing it is letting go.
            lock = None;
            status.publish(IdleStatus::NotHeld);
            continue;
        }
        if lock.is_none() {
            match take_lock() {
                Ok(taken) => lock = Some(taken),
                Err(error) => {
                    tracing::warn!("idle inhibitor: {error:#}");
                    status.publish(IdleStatus::Unavailable(format!("{error:#}")));
                    continue;
                }
            }
        }
        status.publish(IdleStatus::Held);
    }
}

fn take_lock() -> anyhow::Result<OwnedFd> {
    use anyhow::Context;
    let bus = connect(Bus::System).context("no D-Bus system bus to ask logind")?;
    let reply = bus
        .call_method(
            Some("org.freedesktop.login1"),
            "/org/freedesktop/login1",
            Some("org.freedesktop.login1.Manager"),
            "Inhibit",
            &("idle", "Obi", "the bar's idle inhibitor is on", "block"),
        )
        .context("logind did not take the idle inhibitor")?;
    reply.body().deserialize::<OwnedFd>().context("logind's answer to Inhibit")
}

//! power-profiles-daemon on the D-Bus system bus: asked by its freedesktop
//! name first, then by the older one every release still owns; followed
//! from its signals, its profile set from a thread of its own.

use super::ProfilesStatus;
use crate::capabilities::bus_properties::{Loose, property};
use crate::capabilities::session_bus::{Bus, Unresponsive, follow_signals, stay_connected};
use crate::sync::lock;
use crate::wake::Pushed;
use std::collections::HashMap;
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use zbus::blocking::Connection;
use zbus::names::BusName;

/// The daemon's names, paths and interfaces, the freedesktop one first.
const DAEMONS: [Daemon; 2] = [
    Daemon {
        name: "org.freedesktop.UPower.PowerProfiles",
        path: "/org/freedesktop/UPower/PowerProfiles",
        interface: "org.freedesktop.UPower.PowerProfiles",
    },
    Daemon {
        name: "net.hadess.PowerProfiles",
        path: "/net/hadess/PowerProfiles",
        interface: "net.hadess.PowerProfiles",
    },
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Daemon {
    name: &'static str,
    path: &'static str,
    interface: &'static str,
}

const NOT_RUNNING: &str = "power-profiles-daemon is not running";

/// The daemon followed now, and the connection it is on, for the thread
/// that sets profiles.
type Followed = Arc<Mutex<Option<(Connection, Daemon)>>>;

/// Connects to the system bus, again whenever it goes away.
pub fn follow(shown: &Pushed<ProfilesStatus>, requests: Receiver<String>) {
    let followed = Followed::default();
    let setting = followed.clone();
    let spawned =
        std::thread::Builder::new().name("obi-power-profiles-set".into()).spawn(move || set(&setting, requests));
    if let Err(error) = spawned {
        tracing::warn!("power profiles: no thread to set them: {error}");
    }
    let follow = |connection: &Connection| watch(connection, shown, &followed);
    stay_connected(Bus::System, "power profiles", follow, || {
        *lock(&followed) = None;
        shown.publish(ProfilesStatus::Unavailable("no D-Bus system bus".into()));
    })
}

/// Sets each profile asked for, the newest of those waiting, on the
/// daemon followed now.
fn set(followed: &Followed, requests: Receiver<String>) {
    while let Ok(first) = requests.recv() {
        let profile = requests.try_iter().last().unwrap_or(first);
        let Some((connection, daemon)) = lock(followed).clone() else { continue };
        let value = zbus::zvariant::Value::from(profile.as_str());
        let called = connection.call_method(
            Some(daemon.name),
            daemon.path,
            Some("org.freedesktop.DBus.Properties"),
            "Set",
            &(daemon.interface, "ActiveProfile", value),
        );
        if let Err(error) = called {
            tracing::warn!("power-profiles-daemon did not take the profile {profile:?}: {error}");
        }
    }
}

/// Follows the daemon on `connection` until the connection fails.
fn watch(connection: &Connection, shown: &Pushed<ProfilesStatus>, followed: &Followed) -> zbus::Result<()> {
    let rules: Vec<String> = DAEMONS
        .iter()
        .flat_map(|daemon| {
            [
                format!(
                    "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='{}'",
                    daemon.name
                ),
                format!(
                    "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path='{}'",
                    daemon.path
                ),
            ]
        })
        .collect();
    follow_signals(connection, &rules, "obi-power-signals", |unresponsive| {
        let (daemon, status) = read(connection, unresponsive)?;
        *lock(followed) = daemon.map(|daemon| (connection.clone(), daemon));
        shown.publish(status);
        Ok(())
    })
}

/// The daemon on the bus and its profiles; an error only when the bus
/// itself fails.
fn read(connection: &Connection, unresponsive: &mut Unresponsive) -> zbus::Result<(Option<Daemon>, ProfilesStatus)> {
    let bus = zbus::blocking::fdo::DBusProxy::new(connection)?;
    for daemon in DAEMONS {
        if !bus.name_has_owner(BusName::try_from(daemon.name)?)? {
            continue;
        }
        if unresponsive.skips(daemon.name) {
            let why = "power-profiles-daemon did not answer; it is asked again in a minute";
            return Ok((None, ProfilesStatus::Unavailable(why.into())));
        }
        let profiles = read_profiles(connection, daemon);
        unresponsive.note(daemon.name, "power-profiles-daemon", &profiles);
        return Ok(match profiles {
            Ok(status) => (Some(daemon), status),
            Err(error) => (None, ProfilesStatus::Unavailable(format!("power-profiles-daemon cannot be read: {error}"))),
        });
    }
    Ok((None, ProfilesStatus::Unavailable(NOT_RUNNING.into())))
}

/// Most profiles read: the daemon offers three.
const MOST_PROFILES: usize = 16;

fn read_profiles(connection: &Connection, daemon: Daemon) -> zbus::Result<ProfilesStatus> {
    let active = property::<String>(connection, daemon.name, daemon.path, daemon.interface, "ActiveProfile")?;
    let offered = property::<Vec<HashMap<String, Loose<String>>>>(
        connection,
        daemon.name,
        daemon.path,
        daemon.interface,
        "Profiles",
    )?;
    let profiles: Vec<String> = offered
        .unwrap_or_default()
        .into_iter()
        .filter_map(|mut profile| profile.remove("Profile").and_then(|name| name.0))
        .take(MOST_PROFILES)
        .collect();
    Ok(match active {
        Some(active) if !profiles.is_empty() => ProfilesStatus::Offered { active, profiles },
        _ => ProfilesStatus::Unavailable("power-profiles-daemon offers no profiles".into()),
    })
}

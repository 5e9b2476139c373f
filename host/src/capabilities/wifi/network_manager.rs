//! NetworkManager on the D-Bus system bus: its objects (`GetManagedObjects`
//! on `/org/freedesktop`) and its saved connections' settings read again
//! at each burst of its signals (objects added or removed, properties
//! changed, a saved connection changed, NetworkManager coming or going);
//! the first Wi-Fi device's networks and every VPN connection published.
//! Requests are carried out from a thread of their own.

use super::{Link, Networks, Security, Vpn, WifiNetwork, WifiRequest, WifiStatus};
use crate::capabilities::managed_objects::{self, Objects, Service, property};
use crate::capabilities::session_bus::{Bus, Unresponsive, connect, follow_signals, stay_connected};
use crate::sync::lock;
use crate::wake::Pushed;
use std::collections::HashMap;
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use zbus::blocking::Connection;
use zbus::zvariant::{ObjectPath, OwnedObjectPath, OwnedValue, Value};

const NETWORK_MANAGER: Service =
    Service { name: "org.freedesktop.NetworkManager", called: "NetworkManager", manager: "/org/freedesktop" };
const NM: &str = NETWORK_MANAGER.name;
const MANAGER_PATH: &str = "/org/freedesktop/NetworkManager";
const MANAGER: &str = "org.freedesktop.NetworkManager";
const WIRELESS: &str = "org.freedesktop.NetworkManager.Device.Wireless";
const ACCESS_POINT: &str = "org.freedesktop.NetworkManager.AccessPoint";
const ACTIVE: &str = "org.freedesktop.NetworkManager.Connection.Active";
const SAVED: &str = "org.freedesktop.NetworkManager.Settings.Connection";

/// Most networks and VPNs shown: a city street has more than a menu holds.
const MOST_NETWORKS: usize = 32;
const MOST_VPNS: usize = 32;

/// An access point that needs a secret (NM80211ApFlags' PRIVACY).
const AP_PRIVACY: u32 = 0x1;
/// WPA and RSN flags: an account (802.1X), else a password (PSK, SAE).
const KEY_MGMT_802_1X: u32 = 0x200;

/// A saved connection's settings, by setting and key.
type Settings = HashMap<String, HashMap<String, OwnedValue>>;

/// What the requests need of the last reading: the paths behind the names.
#[derive(Debug, Clone, Default)]
struct Found {
    device: Option<String>,
    /// Each network's strongest access point, and its saved connection.
    networks: HashMap<String, (String, Option<String>)>,
    /// Each VPN's saved connection, by uuid.
    vpns: HashMap<String, String>,
    /// The active connections by their saved connection's path.
    active: HashMap<String, String>,
}

/// Connects to the system bus, again whenever it goes away.
pub fn follow(shown: &Pushed<WifiStatus>, requests: Receiver<WifiRequest>) {
    let found = Arc::new(Mutex::new(None::<Found>));
    let asking = found.clone();
    let spawned = std::thread::Builder::new().name("obi-wifi-requests".into()).spawn(move || serve(&asking, requests));
    if let Err(error) = spawned {
        tracing::warn!("Wi-Fi: no thread for the requests: {error}");
    }
    let follow = |connection: &Connection| watch(connection, shown, &found);
    stay_connected(Bus::System, "Wi-Fi networks", follow, || {
        *lock(&found) = None;
        shown.publish(WifiStatus::Absent("no D-Bus system bus".into()));
    })
}

/// Carries out each request on what was found last.
fn serve(found: &Mutex<Option<Found>>, requests: Receiver<WifiRequest>) {
    managed_objects::serve(NETWORK_MANAGER.called, found, requests, || connect(Bus::System), carry_out);
}

fn carry_out(connection: &Connection, found: &Found, request: &WifiRequest) -> zbus::Result<()> {
    let none = ObjectPath::from_static_str_unchecked("/");
    match request {
        WifiRequest::SetEnabled(on) => {
            let set = (MANAGER, "WirelessEnabled", Value::from(*on));
            connection.call_method(Some(NM), MANAGER_PATH, Some("org.freedesktop.DBus.Properties"), "Set", &set)?;
        }
        WifiRequest::SetConnected { ssid, connected: true } => {
            let (Some(device), Some((access_point, saved))) = (&found.device, found.networks.get(ssid)) else {
                return Ok(());
            };
            let (device, access_point) =
                (ObjectPath::try_from(device.as_str())?, ObjectPath::try_from(access_point.as_str())?);
            match saved {
                Some(saved) => {
                    let saved = ObjectPath::try_from(saved.as_str())?;
                    ask(connection, "ActivateConnection", &(saved, device, access_point))?;
                }
                // An open network: NetworkManager makes its connection from the access point.
                None => ask(connection, "AddAndActivateConnection", &(Settings::new(), device, access_point))?,
            }
        }
        WifiRequest::SetConnected { ssid, connected: false } => {
            let active = found.networks.get(ssid).and_then(|(_, saved)| found.active.get(saved.as_ref()?));
            if let Some(active) = active {
                ask(connection, "DeactivateConnection", &(ObjectPath::try_from(active.as_str())?,))?;
            }
        }
        WifiRequest::SetVpnOn { uuid, on } => {
            let Some(saved) = found.vpns.get(uuid) else { return Ok(()) };
            match (on, found.active.get(saved)) {
                (true, None) => {
                    ask(connection, "ActivateConnection", &(ObjectPath::try_from(saved.as_str())?, &none, &none))?;
                }
                (false, Some(active)) => {
                    ask(connection, "DeactivateConnection", &(ObjectPath::try_from(active.as_str())?,))?;
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// Calls NetworkManager's `method` with `body`.
fn ask<B>(connection: &Connection, method: &str, body: &B) -> zbus::Result<()>
where
    B: serde::Serialize + zbus::zvariant::DynamicType,
{
    connection.call_method(Some(NM), MANAGER_PATH, Some(MANAGER), method, body).map(drop)
}

/// Follows NetworkManager on `connection` until the connection fails.
fn watch(connection: &Connection, shown: &Pushed<WifiStatus>, found: &Mutex<Option<Found>>) -> zbus::Result<()> {
    let mut rules = NETWORK_MANAGER.changes(MANAGER_PATH);
    rules.push(format!("type='signal',sender='{NM}',interface='{SAVED}',member='Updated'"));
    follow_signals(connection, &rules, "obi-wifi-signals", |unresponsive| {
        let (now, status) = read(connection, unresponsive)?;
        *lock(found) = now;
        shown.publish(status);
        Ok(())
    })
}

/// NetworkManager's networks; an error only when the bus itself fails.
fn read(connection: &Connection, unresponsive: &mut Unresponsive) -> zbus::Result<(Option<Found>, WifiStatus)> {
    let objects = match NETWORK_MANAGER.objects(connection, unresponsive)? {
        Ok(objects) => objects,
        Err(why) => return Ok((None, WifiStatus::Absent(why))),
    };
    let mut saved = HashMap::new();
    for (path, interfaces) in &objects {
        if !interfaces.contains_key(SAVED) {
            continue;
        }
        let reply = connection.call_method(Some(NM), path.as_str(), Some(SAVED), "GetSettings", &());
        unresponsive.note(NM, "NetworkManager", &reply);
        match reply.and_then(|reply| reply.body().deserialize::<Settings>()) {
            Ok(settings) => drop(saved.insert(path.to_string(), settings)),
            Err(error) => tracing::debug!("Wi-Fi: the settings of {path} cannot be read: {error}"),
        }
    }
    let (found, networks) = networks(&objects, &saved);
    Ok((Some(found), WifiStatus::Present(networks)))
}

/// The first Wi-Fi device's networks and the VPNs, from NetworkManager's
/// `objects` and its `saved` connections' settings (by path).
fn networks(objects: &Objects, saved: &HashMap<String, Settings>) -> (Found, Networks) {
    let manager = objects.get(&OwnedObjectPath::from(ObjectPath::from_static_str_unchecked(MANAGER_PATH)));
    let switch = |name: &str| manager.and_then(|manager| property::<bool>(manager, MANAGER, name)).unwrap_or(false);
    let mut found = Found::default();

    // The saved connections: Wi-Fi ones by SSID, VPNs by uuid.
    let mut known: HashMap<String, String> = HashMap::new();
    let mut vpns = Vec::new();
    for (path, settings) in saved {
        let connection = settings.get("connection");
        let text = |key: &str| connection.and_then(|connection| String::try_from(connection.get(key)?.clone()).ok());
        match text("type").as_deref() {
            Some("802-11-wireless") => {
                let ssid = settings.get("802-11-wireless").and_then(|wifi| ssid(wifi.get("ssid")?));
                if let Some(ssid) = ssid {
                    known.entry(ssid).or_insert_with(|| path.clone());
                }
            }
            Some("vpn" | "wireguard") => {
                let (Some(name), Some(uuid)) = (text("id"), text("uuid")) else { continue };
                found.vpns.insert(uuid.clone(), path.clone());
                vpns.push(Vpn { name, uuid, link: Link::Disconnected });
            }
            _ => {}
        }
    }

    // The active connections, by their saved connection and access point.
    let mut links: HashMap<String, Link> = HashMap::new();
    for (path, interfaces) in objects {
        let Some(saved) = property::<ObjectPath>(interfaces, ACTIVE, "Connection") else { continue };
        let link = match property::<u32>(interfaces, ACTIVE, "State") {
            Some(1) => Link::Connecting,
            Some(2) => Link::Connected,
            _ => continue,
        };
        found.active.insert(saved.to_string(), path.to_string());
        links.insert(saved.to_string(), link);
        if let Some(access_point) = property::<ObjectPath>(interfaces, ACTIVE, "SpecificObject") {
            links.insert(access_point.to_string(), link);
        }
    }
    for vpn in &mut vpns {
        vpn.link = found.vpns.get(&vpn.uuid).and_then(|saved| links.get(saved)).copied().unwrap_or(Link::Disconnected);
    }
    vpns.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.uuid.cmp(&b.uuid)));
    vpns.truncate(MOST_VPNS);

    // The first Wi-Fi device's access points, one network a SSID.
    let mut devices: Vec<&OwnedObjectPath> =
        objects.iter().filter(|(_, interfaces)| interfaces.contains_key(WIRELESS)).map(|(path, _)| path).collect();
    devices.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    let device = devices.first();
    found.device = device.map(|device| device.to_string());
    let access_points: Vec<OwnedObjectPath> = device
        .and_then(|device| objects[*device].get(WIRELESS)?.get("AccessPoints")?.try_clone().ok())
        .and_then(|paths| Vec::try_from(paths).ok())
        .unwrap_or_default();
    let mut wifi: Vec<WifiNetwork> = Vec::new();
    for path in &access_points {
        let Some(interfaces) = objects.get(path) else { continue };
        let Some(ssid) = interfaces.get(ACCESS_POINT).and_then(|point| ssid(point.get("Ssid")?)) else { continue };
        let strength = property::<u8>(interfaces, ACCESS_POINT, "Strength").unwrap_or(0).min(100);
        let flag = |name: &str| property::<u32>(interfaces, ACCESS_POINT, name).unwrap_or(0);
        let security = security(flag("Flags"), flag("WpaFlags") | flag("RsnFlags"));
        let saved = known.get(&ssid);
        let link = [Some(path.to_string()), saved.cloned()]
            .into_iter()
            .flatten()
            .filter_map(|object| links.get(&object).copied())
            .max_by_key(|link| *link as u8)
            .unwrap_or(Link::Disconnected);
        match wifi.iter_mut().find(|network| network.ssid == ssid) {
            Some(network) => {
                network.link = network.link.max_by_order(link);
                if strength > network.strength {
                    network.strength = strength;
                    found.networks.insert(ssid, (path.to_string(), saved.cloned()));
                }
            }
            None => {
                found.networks.insert(ssid.clone(), (path.to_string(), saved.cloned()));
                wifi.push(WifiNetwork { known: saved.is_some(), ssid, strength, security, link });
            }
        }
    }
    wifi.sort_by(|a, b| (b.link as u8, b.strength).cmp(&(a.link as u8, a.strength)).then_with(|| a.ssid.cmp(&b.ssid)));
    wifi.truncate(MOST_NETWORKS);
    let networks = Networks {
        has_wifi_device: device.is_some(),
        enabled: switch("WirelessEnabled"),
        hardware_enabled: switch("WirelessHardwareEnabled"),
        wifi,
        vpns,
    };
    (found, networks)
}

impl Link {
    /// The further along of two.
    fn max_by_order(self, other: Link) -> Link {
        if other as u8 > self as u8 { other } else { self }
    }
}

/// What an access point's `Flags` and its WPA and RSN flags ask.
fn security(flags: u32, wpa_or_rsn: u32) -> Security {
    match (flags & AP_PRIVACY != 0, wpa_or_rsn) {
        (_, flags) if flags & KEY_MGMT_802_1X != 0 => Security::Enterprise,
        (_, flags) if flags != 0 => Security::Personal,
        (true, _) => Security::Wep,
        (false, _) => Security::Open,
    }
}

/// A SSID (bytes) for people; none for a hidden network's empty one.
fn ssid(value: &OwnedValue) -> Option<String> {
    let bytes = Vec::<u8>::try_from(value.try_clone().ok()?).ok()?;
    (!bytes.is_empty()).then(|| String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn security_is_read_from_the_flags() {
        assert_eq!(security(0, 0), Security::Open);
        assert_eq!(security(AP_PRIVACY, 0), Security::Wep);
        assert_eq!(security(AP_PRIVACY, 0x100 | 0x8), Security::Personal, "PSK");
        assert_eq!(security(AP_PRIVACY, 0x400), Security::Personal, "SAE (WPA3)");
        assert_eq!(security(AP_PRIVACY, KEY_MGMT_802_1X | 0x8), Security::Enterprise);
    }
}

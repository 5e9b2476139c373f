//! BlueZ on the D-Bus system bus: its objects (`GetManagedObjects`) read
//! again at each of its signals (interfaces added or removed, properties
//! changed under `/org/bluez`, bluetoothd coming or going), and the first
//! adapter with the devices paired with it published; requests carried out
//! from a thread of their own, on a connection that waits long enough for a
//! device to connect.

use super::{BluetoothDevice, BluetoothRequest, BluetoothStatus};
use crate::capabilities::session_bus::{Bus, Unresponsive, follow_signals, stay_connected};
use crate::sync::lock;
use crate::wake::Pushed;
use std::collections::HashMap;
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use zbus::blocking::Connection;
use zbus::names::BusName;
use zbus::zvariant::{ObjectPath, OwnedObjectPath, OwnedValue};

const BLUEZ: &str = "org.bluez";
const ADAPTER: &str = "org.bluez.Adapter1";
const DEVICE: &str = "org.bluez.Device1";
const BATTERY: &str = "org.bluez.Battery1";

/// Most devices shown: more than anyone pairs.
const MOST_DEVICES: usize = 64;

/// How long a request may take: connecting a headset takes seconds.
const REQUEST_TIME: Duration = Duration::from_secs(30);

/// BlueZ's objects: each path's interfaces and their properties.
type Objects = HashMap<OwnedObjectPath, HashMap<String, HashMap<String, OwnedValue>>>;

/// The adapter shown and its devices' paths by address, for the requests.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Found {
    adapter: String,
    devices: HashMap<String, String>,
}

/// Connects to the system bus, again whenever it goes away.
pub fn follow(shown: &Pushed<BluetoothStatus>, requests: Receiver<BluetoothRequest>) {
    let found = Arc::new(Mutex::new(None::<Found>));
    let asking = found.clone();
    let spawned =
        std::thread::Builder::new().name("obi-bluetooth-requests".into()).spawn(move || serve(&asking, requests));
    if let Err(error) = spawned {
        tracing::warn!("Bluetooth: no thread for the requests: {error}");
    }
    let follow = |connection: &Connection| watch(connection, shown, &found);
    stay_connected(Bus::System, "Bluetooth devices", follow, || {
        *lock(&found) = None;
        shown.publish(BluetoothStatus::Absent("no D-Bus system bus".into()));
    })
}

/// Carries out each request on the adapter and devices found last.
fn serve(found: &Mutex<Option<Found>>, requests: Receiver<BluetoothRequest>) {
    let mut bus: Option<Connection> = None;
    for request in requests {
        let Some(found) = lock(found).clone() else { continue };
        let connected = bus.take().map_or_else(
            || {
                zbus::blocking::connection::Builder::system()
                    .and_then(|system| system.method_timeout(REQUEST_TIME).build())
            },
            Ok,
        );
        let connection = match connected {
            Ok(connection) => connection,
            Err(error) => {
                tracing::warn!("Bluetooth: no D-Bus system bus for {request:?}: {error}");
                continue;
            }
        };
        match carry_out(&connection, &found, &request) {
            Ok(()) => bus = Some(connection),
            // Connected afresh at the next: the bus may have restarted.
            Err(error) => tracing::warn!("Bluetooth: BlueZ did not take {request:?}: {error}"),
        }
    }
}

fn carry_out(connection: &Connection, found: &Found, request: &BluetoothRequest) -> zbus::Result<()> {
    match request {
        BluetoothRequest::SetPowered(on) => {
            let on = zbus::zvariant::Value::from(*on);
            let set = (ADAPTER, "Powered", on);
            connection.call_method(
                Some(BLUEZ),
                found.adapter.as_str(),
                Some("org.freedesktop.DBus.Properties"),
                "Set",
                &set,
            )?;
        }
        BluetoothRequest::SetConnected { address, connected } => {
            let Some(path) = found.devices.get(address) else { return Ok(()) };
            let method = if *connected { "Connect" } else { "Disconnect" };
            connection.call_method(Some(BLUEZ), path.as_str(), Some(DEVICE), method, &())?;
        }
    }
    Ok(())
}

/// Follows BlueZ on `connection` until the connection fails.
fn watch(connection: &Connection, shown: &Pushed<BluetoothStatus>, found: &Mutex<Option<Found>>) -> zbus::Result<()> {
    let rules = [
        format!("type='signal',sender='{BLUEZ}',interface='org.freedesktop.DBus.ObjectManager',path='/'"),
        format!(
            "type='signal',sender='{BLUEZ}',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path_namespace='/org/bluez'"
        ),
        format!(
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='{BLUEZ}'"
        ),
    ];
    follow_signals(connection, &rules, "obi-bluetooth-signals", |unresponsive| {
        let (now, status) = read(connection, unresponsive)?;
        *lock(found) = now;
        shown.publish(status);
        Ok(())
    })
}

/// BlueZ's adapter and devices; an error only when the bus itself fails.
fn read(connection: &Connection, unresponsive: &mut Unresponsive) -> zbus::Result<(Option<Found>, BluetoothStatus)> {
    let bus = zbus::blocking::fdo::DBusProxy::new(connection)?;
    if !bus.name_has_owner(BusName::try_from(BLUEZ)?)? {
        return Ok((None, BluetoothStatus::Absent("BlueZ is not running".into())));
    }
    if unresponsive.skips(BLUEZ) {
        return Ok((None, BluetoothStatus::Absent("BlueZ did not answer; it is asked again in a minute".into())));
    }
    let reply =
        connection.call_method(Some(BLUEZ), "/", Some("org.freedesktop.DBus.ObjectManager"), "GetManagedObjects", &());
    unresponsive.note(BLUEZ, "BlueZ", &reply);
    let objects = reply.and_then(|reply| reply.body().deserialize::<Objects>());
    Ok(match objects {
        Ok(objects) => adapter_and_devices(&objects),
        Err(error) => (None, BluetoothStatus::Absent(format!("BlueZ cannot be read: {error}"))),
    })
}

/// The first adapter (by path) and the devices paired with it, by name.
fn adapter_and_devices(objects: &Objects) -> (Option<Found>, BluetoothStatus) {
    let mut adapters: Vec<&OwnedObjectPath> =
        objects.iter().filter(|(_, interfaces)| interfaces.contains_key(ADAPTER)).map(|(path, _)| path).collect();
    adapters.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    let Some(adapter) = adapters.first() else {
        return (None, BluetoothStatus::Absent("no Bluetooth adapter".into()));
    };
    let powered = property::<bool>(&objects[*adapter], ADAPTER, "Powered").unwrap_or(false);
    let mut devices = Vec::new();
    let mut paths = HashMap::new();
    for (path, interfaces) in objects {
        let of_adapter = property::<ObjectPath>(interfaces, DEVICE, "Adapter").is_some_and(|of| of == adapter.as_ref());
        if !of_adapter || !property::<bool>(interfaces, DEVICE, "Paired").unwrap_or(false) {
            continue;
        }
        let Some(address) = property::<&str>(interfaces, DEVICE, "Address") else { continue };
        let name = property::<&str>(interfaces, DEVICE, "Alias").or_else(|| property(interfaces, DEVICE, "Name"));
        devices.push(BluetoothDevice {
            address: address.to_owned(),
            name: name.unwrap_or(address).to_owned(),
            connected: property::<bool>(interfaces, DEVICE, "Connected").unwrap_or(false),
            battery_percent: property::<u8>(interfaces, BATTERY, "Percentage").map(|percent| percent.min(100)),
        });
        paths.insert(address.to_owned(), path.to_string());
    }
    devices.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.address.cmp(&b.address)));
    devices.truncate(MOST_DEVICES);
    let found = Found { adapter: adapter.to_string(), devices: paths };
    (Some(found), BluetoothStatus::Present { powered, devices })
}

/// The property `name` of `interface`, when it is there as a `T`.
fn property<'a, T>(
    interfaces: &'a HashMap<String, HashMap<String, OwnedValue>>,
    interface: &str,
    name: &str,
) -> Option<T>
where
    T: TryFrom<&'a zbus::zvariant::Value<'a>>,
{
    let value: &zbus::zvariant::Value<'_> = interfaces.get(interface)?.get(name)?;
    T::try_from(value).ok()
}

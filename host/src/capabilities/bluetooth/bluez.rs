//! BlueZ on the D-Bus system bus: its objects (`GetManagedObjects`) read
//! again at each of its signals (interfaces added or removed, properties
//! changed under `/org/bluez`, bluetoothd coming or going), and the first
//! adapter with the devices paired with it published; requests carried out
//! from a thread of their own, on a connection that waits long enough for a
//! device to connect.

use super::{BluetoothDevice, BluetoothRequest, BluetoothStatus};
use crate::capabilities::managed_objects::{self, Objects, Service, property};
use crate::capabilities::session_bus::{Bus, Unresponsive, follow_signals, stay_connected};
use crate::sync::lock;
use crate::wake::Pushed;
use std::collections::HashMap;
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use zbus::blocking::Connection;
use zbus::zvariant::{ObjectPath, OwnedObjectPath};

const BLUEZ: Service = Service { name: "org.bluez", called: "BlueZ", manager: "/" };
const ADAPTER: &str = "org.bluez.Adapter1";
const DEVICE: &str = "org.bluez.Device1";
const BATTERY: &str = "org.bluez.Battery1";

/// Most devices shown: more than anyone pairs.
const MOST_DEVICES: usize = 64;

/// How long a request may take: connecting a headset takes seconds.
const REQUEST_TIME: Duration = Duration::from_secs(30);

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

/// Carries out each request on the adapter and devices found last, on a
/// connection that waits long enough for a device to connect.
fn serve(found: &Mutex<Option<Found>>, requests: Receiver<BluetoothRequest>) {
    let connect =
        || zbus::blocking::connection::Builder::system().and_then(|system| system.method_timeout(REQUEST_TIME).build());
    managed_objects::serve(BLUEZ.called, found, requests, connect, carry_out);
}

fn carry_out(connection: &Connection, found: &Found, request: &BluetoothRequest) -> zbus::Result<()> {
    match request {
        BluetoothRequest::SetPowered(on) => {
            let on = zbus::zvariant::Value::from(*on);
            let set = (ADAPTER, "Powered", on);
            connection.call_method(
                Some(BLUEZ.name),
                found.adapter.as_str(),
                Some("org.freedesktop.DBus.Properties"),
                "Set",
                &set,
            )?;
        }
        BluetoothRequest::SetConnected { address, connected } => {
            let Some(path) = found.devices.get(address) else { return Ok(()) };
            let method = if *connected { "Connect" } else { "Disconnect" };
            connection.call_method(Some(BLUEZ.name), path.as_str(), Some(DEVICE), method, &())?;
        }
    }
    Ok(())
}

/// Follows BlueZ on `connection` until the connection fails.
fn watch(connection: &Connection, shown: &Pushed<BluetoothStatus>, found: &Mutex<Option<Found>>) -> zbus::Result<()> {
    let rules = BLUEZ.changes("/org/bluez");
    follow_signals(connection, &rules, "obi-bluetooth-signals", |unresponsive| {
        let (now, status) = read(connection, unresponsive)?;
        *lock(found) = now;
        shown.publish(status);
        Ok(())
    })
}

/// BlueZ's adapter and devices; an error only when the bus itself fails.
fn read(connection: &Connection, unresponsive: &mut Unresponsive) -> zbus::Result<(Option<Found>, BluetoothStatus)> {
    Ok(match BLUEZ.objects(connection, unresponsive)? {
        Ok(objects) => adapter_and_devices(&objects),
        Err(why) => (None, BluetoothStatus::Absent(why)),
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

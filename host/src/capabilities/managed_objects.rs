//! A system service that shows its state as objects under an
//! ObjectManager (BlueZ, NetworkManager): its objects read whole, again at
//! each burst of the signals that say they changed, the service left alone
//! a while when it does not answer; and the requests to it carried out on
//! a thread of their own, on what the last reading found.

use crate::capabilities::session_bus::Unresponsive;
use crate::sync::lock;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::mpsc::Receiver;
use zbus::blocking::Connection;
use zbus::names::BusName;
use zbus::zvariant::{OwnedObjectPath, OwnedValue, Value};

/// Each object's interfaces and their properties, by path.
pub type Objects = HashMap<OwnedObjectPath, Interfaces>;
pub type Interfaces = HashMap<String, HashMap<String, OwnedValue>>;

/// A service on the bus: its name, what people call it, and its
/// ObjectManager's path.
#[derive(Debug, Clone, Copy)]
pub struct Service {
    pub name: &'static str,
    pub called: &'static str,
    pub manager: &'static str,
}

impl Service {
    /// The signals that say its objects changed: added or removed,
    /// properties changed under `namespace`, and the service coming or going.
    pub fn changes(self, namespace: &str) -> Vec<String> {
        let Service { name, manager, .. } = self;
        vec![
            format!("type='signal',sender='{name}',interface='org.freedesktop.DBus.ObjectManager',path='{manager}'"),
            format!(
                "type='signal',sender='{name}',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path_namespace='{namespace}'"
            ),
            format!(
                "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='{name}'"
            ),
        ]
    }

    /// Its objects now, or why there are none to read (for people); an
    /// error only when the bus itself fails.
    pub fn objects(
        self,
        connection: &Connection,
        unresponsive: &mut Unresponsive,
    ) -> zbus::Result<Result<Objects, String>> {
        let bus = zbus::blocking::fdo::DBusProxy::new(connection)?;
        if !bus.name_has_owner(BusName::try_from(self.name)?)? {
            return Ok(Err(format!("{} is not running", self.called)));
        }
        if unresponsive.skips(self.name) {
            return Ok(Err(format!("{} did not answer; it is asked again in a minute", self.called)));
        }
        let reply = connection.call_method(
            Some(self.name),
            self.manager,
            Some("org.freedesktop.DBus.ObjectManager"),
            "GetManagedObjects",
            &(),
        );
        unresponsive.note(self.name, self.called, &reply);
        Ok(reply
            .and_then(|reply| reply.body().deserialize::<Objects>())
            .map_err(|error| format!("{} cannot be read: {error}", self.called)))
    }
}

/// Carries out each of `requests` on what was `found` last, on a
/// connection made by `connect` and kept while it serves; one the service
/// refuses is logged, and the next is asked on a new connection (the bus
/// may have restarted).
pub fn serve<Found: Clone, Request: std::fmt::Debug>(
    called: &str,
    found: &Mutex<Option<Found>>,
    requests: Receiver<Request>,
    connect: impl Fn() -> zbus::Result<Connection>,
    carry_out: impl Fn(&Connection, &Found, &Request) -> zbus::Result<()>,
) {
    let mut bus: Option<Connection> = None;
    for request in requests {
        let Some(found) = lock(found).clone() else { continue };
        let connection = match bus.take().map_or_else(&connect, Ok) {
            Ok(connection) => connection,
            Err(error) => {
                tracing::warn!("no D-Bus system bus to ask {called} for {request:?}: {error}");
                continue;
            }
        };
        match carry_out(&connection, &found, &request) {
            Ok(()) => bus = Some(connection),
            Err(error) => tracing::warn!("{called} did not take {request:?}: {error}"),
        }
    }
}

/// The property `name` of `interface`, when it is there as a `T`.
pub fn property<'a, T>(interfaces: &'a Interfaces, interface: &str, name: &str) -> Option<T>
where
    T: TryFrom<&'a Value<'a>>,
{
    let value: &Value<'_> = interfaces.get(interface)?.get(name)?;
    T::try_from(value).ok()
}

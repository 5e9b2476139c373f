//! Following the tray on the bus: the bar is a StatusNotifierHost (and the
//! watcher, when none runs); the watcher's, the items' and their menus'
//! signals make it read every item again (`items`), and the list is pushed
//! as the answers come. An item whose owner leaves the bus goes (at once
//! from Obi's own watcher, and at a sweep from another's); when another's
//! watcher leaves, Obi runs one. Clicks are carried out on a thread that
//! lives as long as the tray, on whatever bus is hosted now. Each item is
//! logged at info when it comes or changes, with what a `hidden_icons` rule
//! can match.

use super::icons::HeldIcons;
use super::items::{Address, Answer, ITEM, MENU, Reading};
use super::watcher::{self, Watcher};
use super::{TrayAction, TrayItem};
use crate::capabilities::bus_properties::property;
use crate::capabilities::session_bus::{Bus, stay_connected};
use crate::sync::lock;
use crate::view::images::HeldImages;
use crate::wake::Pushed;
use std::collections::{HashMap, HashSet};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use zbus::blocking::{Connection, MessageIterator};
use zbus::zvariant::Value;

/// What the widgets ask of the tray.
pub enum Request {
    Act(String, TrayAction),
    Sweep,
}

/// What the tray hears: what makes it read the items again, and their answers.
enum Event {
    Changed,
    /// A name left the bus.
    Gone(String),
    Sweep,
    /// The connection closed under a listener.
    Closed,
    Read(Box<Answer>),
}

/// The bus the tray is hosted on now, for the actions thread: the
/// connection, where each item answers, and the host's events.
#[derive(Clone, Default)]
struct Session(Arc<Mutex<Option<Current>>>);

struct Current {
    connection: Connection,
    addresses: HashMap<String, Address>,
    events: Sender<Event>,
}

impl Session {
    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Current>> {
        lock(&self.0)
    }
}

/// Follows the tray on the bus at `address` (the session's when none),
/// again whenever the bus goes away.
pub fn follow(
    address: Option<String>,
    items: &Pushed<Vec<TrayItem>>,
    images: &HeldImages,
    requests: Receiver<Request>,
) {
    let session = Session::default();
    let acting = session.clone();
    let actions = std::thread::Builder::new().name("obi-tray-actions".into()).spawn(move || act(&acting, requests));
    if let Err(error) = actions {
        tracing::warn!("tray: no thread for clicks on items: {error}");
    }
    let mut held = HeldIcons::new("tray icon", images.clone());
    let follow = |connection: &Connection| {
        let hosted = host(connection, items, &mut held, &session);
        *session.lock() = None;
        held.keep_only(&HashSet::new());
        hosted
    };
    stay_connected(Bus::Session(address.as_deref()), "tray icons", follow, || {
        items.publish(Vec::new());
    })
}

/// Hosts the tray on `connection` until it fails.
fn host(
    connection: &Connection,
    items: &Pushed<Vec<TrayItem>>,
    held: &mut HeldIcons,
    session: &Session,
) -> zbus::Result<()> {
    let dbus = zbus::blocking::fdo::DBusProxy::new(connection)?;
    // Set up before any name is owned, so that no call to a name of ours is lost.
    connection.object_server();
    let host_name = format!("org.kde.StatusNotifierHost-{}", std::process::id());
    connection.request_name(host_name.as_str())?;

    let (events, received) = mpsc::channel();
    listen(connection, "type='signal',interface='org.kde.StatusNotifierWatcher'", &events, |_| Some(Event::Changed))?;
    listen(connection, "type='signal',interface='org.kde.StatusNotifierItem'", &events, |_| Some(Event::Changed))?;
    listen(connection, "type='signal',interface='com.canonical.dbusmenu'", &events, |_| Some(Event::Changed))?;
    let owners =
        "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'";
    listen(connection, owners, &events, |message| {
        let (name, _, new_owner): (String, String, String) = message.body().deserialize().ok()?;
        new_owner.is_empty().then_some(Event::Gone(name))
    })?;
    let mut own_watcher = watch(connection, &dbus, &host_name)?;
    *session.lock() =
        Some(Current { connection: connection.clone(), addresses: HashMap::new(), events: events.clone() });

    let mut reading = Reading::new(move |answer| {
        let _ = events.send(Event::Read(Box::new(answer)));
    });
    let mut event = Some(Event::Changed);
    loop {
        // A burst of changes is read once.
        let mut read_all = false;
        while let Some(heard) = event.take().or_else(|| received.try_recv().ok()) {
            match heard {
                Event::Gone(name) => match &own_watcher {
                    Some(watcher) => forget(connection, watcher, &name),
                    None if name == watcher::NAME => {
                        tracing::info!("the StatusNotifierWatcher left the bus");
                        own_watcher = watch(connection, &dbus, &host_name)?;
                    }
                    None => {}
                },
                Event::Sweep => sweep(connection, own_watcher.as_ref(), &dbus, session),
                Event::Closed => return Err(zbus::Error::Failure("the connection closed".into())),
                Event::Changed => {}
                Event::Read(answer) => {
                    reading.answered(connection, *answer, held);
                    continue;
                }
            }
            read_all = true;
        }
        if read_all {
            reading.read_all(connection, registered(connection, own_watcher.as_ref())?);
        }
        reading.leave_out_the_late();
        if let Some(read) = reading.take_changed(held) {
            if let Some(current) = session.lock().as_mut() {
                current.addresses = read.iter().map(|(item, address)| (item.key.clone(), address.clone())).collect();
            }
            items.publish(read.into_iter().map(|(item, _)| item).collect());
        }
        let heard = match reading.next_deadline() {
            Some(deadline) => received.recv_timeout(deadline.saturating_duration_since(Instant::now())),
            None => received.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        event = match heard {
            Ok(heard) => Some(heard),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(zbus::Error::Failure("the signal threads stopped".into()));
            }
        };
    }
}

/// The items the watcher lists, in the order they registered.
fn registered(connection: &Connection, own_watcher: Option<&Watcher>) -> zbus::Result<Vec<String>> {
    match own_watcher {
        Some(_) => Ok(connection.object_server().interface::<_, Watcher>(watcher::PATH)?.get().items()),
        None => {
            let items = "RegisteredStatusNotifierItems";
            Ok(property::<Vec<String>>(connection, watcher::NAME, watcher::PATH, watcher::NAME, items)?
                .unwrap_or_default())
        }
    }
}

/// Turns each message matching `rule` into an event, on a thread of its own.
fn listen(
    connection: &Connection,
    rule: &str,
    events: &Sender<Event>,
    event: impl Fn(&zbus::Message) -> Option<Event> + Send + 'static,
) -> zbus::Result<()> {
    let messages = MessageIterator::for_match_rule(rule, connection, Some(256))?;
    let events = events.clone();
    std::thread::Builder::new().name("obi-tray-signals".into()).spawn(move || {
        for message in messages.flatten() {
            if let Some(event) = event(&message)
                && events.send(event).is_err()
            {
                return;
            }
        }
        let _ = events.send(Event::Closed);
    })?;
    Ok(())
}

/// Registers the host with the watcher on the bus, first running one when
/// none does; Obi's own watcher, when it runs one.
fn watch(
    connection: &Connection,
    dbus: &zbus::blocking::fdo::DBusProxy<'_>,
    host_name: &str,
) -> zbus::Result<Option<Watcher>> {
    let own_watcher = if dbus.name_has_owner(watcher::NAME.try_into()?)? {
        None
    } else {
        let watcher = Watcher::default();
        connection.object_server().at(watcher::PATH, watcher.clone())?;
        connection.request_name(watcher::NAME)?;
        tracing::info!("no StatusNotifierWatcher was on the bus: obi runs one");
        Some(watcher)
    };
    connection.call_method(
        Some(watcher::NAME),
        watcher::PATH,
        Some(watcher::NAME),
        "RegisterStatusNotifierHost",
        &host_name,
    )?;
    Ok(own_watcher)
}

/// Carries out the widgets' requests on whatever bus the tray is hosted
/// on, for as long as the tray lives.
fn act(session: &Session, requests: Receiver<Request>) {
    for request in requests {
        let (key, action) = match request {
            Request::Act(key, action) => (key, action),
            Request::Sweep => {
                if let Some(current) = session.lock().as_ref() {
                    let _ = current.events.send(Event::Sweep);
                }
                continue;
            }
        };
        let target = session
            .lock()
            .as_ref()
            .and_then(|current| Some((current.connection.clone(), current.addresses.get(&key)?.clone())));
        let Some((connection, address)) = target else { continue };
        let bus = Some(address.bus.as_str());
        let path = address.path.as_str();
        let called = match &action {
            TrayAction::Activate => connection.call_method(bus, path, Some(ITEM), "Activate", &(0i32, 0i32)),
            TrayAction::SecondaryActivate => {
                connection.call_method(bus, path, Some(ITEM), "SecondaryActivate", &(0i32, 0i32))
            }
            TrayAction::ContextMenu => connection.call_method(bus, path, Some(ITEM), "ContextMenu", &(0i32, 0i32)),
            TrayAction::Scroll { delta, horizontal } => {
                let orientation = if *horizontal { "horizontal" } else { "vertical" };
                connection.call_method(bus, path, Some(ITEM), "Scroll", &(*delta, orientation))
            }
            TrayAction::MenuChosen(id) => match &address.menu {
                Some(menu) => connection.call_method(
                    bus,
                    menu.as_str(),
                    Some(MENU),
                    "Event",
                    &(*id, "clicked", Value::I32(0), 0u32),
                ),
                None => continue,
            },
        };
        if let Err(error) = called {
            tracing::warn!("tray item {key} did not take {action:?}: {error}");
        }
    }
}

/// Obi's watcher forgets the items of `owner`, which left the bus, and says so.
fn forget(connection: &Connection, watcher: &Watcher, owner: &str) {
    let gone = watcher.forget_owner(owner);
    let Ok(interface) = connection.object_server().interface::<_, Watcher>(watcher::PATH) else { return };
    for item in gone {
        let _ = zbus::block_on(Watcher::status_notifier_item_unregistered(interface.signal_emitter(), &item));
    }
}

/// Drops the items whose owner has left the bus without anyone saying so.
fn sweep(
    connection: &Connection,
    own_watcher: Option<&Watcher>,
    dbus: &zbus::blocking::fdo::DBusProxy<'_>,
    session: &Session,
) {
    let buses: HashSet<String> = match session.lock().as_ref() {
        Some(current) => current.addresses.values().map(|address| address.bus.clone()).collect(),
        None => return,
    };
    for bus in buses {
        let alive = bus.as_str().try_into().ok().and_then(|name| dbus.name_has_owner(name).ok());
        if alive == Some(false) {
            tracing::info!("the owner of tray item {bus} is gone: dropped");
            if let Some(watcher) = own_watcher {
                forget(connection, watcher, &bus);
            }
            if let Some(current) = session.lock().as_mut() {
                current.addresses.retain(|_, address| address.bus != bus);
            }
        }
    }
}

//! Following the tray on the bus: the bar is a StatusNotifierHost (and the
//! watcher, when none runs); the watcher's, the items' and their menus'
//! signals make it read every item again, and the list is pushed. An item
//! whose owner leaves the bus goes (at once from Obi's own watcher, and at
//! a sweep from another's); when another's watcher leaves, Obi runs one.
//! Clicks are carried out on a thread that lives as long as the tray, on
//! whatever bus is hosted now. Each item is logged at info when it comes or
//! changes, with what a `hidden_icons` rule can match. An item that does not
//! answer in time is left out for a minute, so it cannot hold up the rest.

use super::icons::{self, HeldIcons};
use super::menu::{self, MenuLayout};
use super::watcher::{self, Watcher};
use super::{ItemStatus, TrayAction, TrayItem};
use crate::capabilities::bus_properties::{Skipped, property};
use crate::capabilities::session_bus::{Unresponsive, stay_connected, timed_out};
use crate::sync::lock;
use crate::view::Pixels;
use crate::view::images::HeldImages;
use crate::wake::Pushed;
use std::collections::{HashMap, HashSet};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use zbus::blocking::{Connection, MessageIterator};
use zbus::zvariant::{OwnedObjectPath, Value};

/// What the widgets ask of the tray.
pub enum Request {
    Act(String, TrayAction),
    Sweep,
}

/// What makes the tray be read again.
enum Event {
    Changed,
    /// A name left the bus.
    Gone(String),
    Sweep,
    /// The connection closed under a listener.
    Closed,
}

const ITEM: &str = "org.kde.StatusNotifierItem";
const MENU: &str = "com.canonical.dbusmenu";

/// Where an item answers: its bus name, its path, and its menu's path.
#[derive(Debug, Clone)]
struct Address {
    bus: String,
    path: String,
    menu: Option<String>,
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
    let mut held = HeldIcons::new(images.clone());
    let follow = |connection: &Connection| {
        let hosted = host(connection, items, &mut held, &session);
        *session.lock() = None;
        held.keep_only(&HashSet::new());
        hosted
    };
    stay_connected(address.as_deref(), "tray icons", follow, || {
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
    *session.lock() = Some(Current { connection: connection.clone(), addresses: HashMap::new(), events });

    let mut logged = HashMap::new();
    let mut unresponsive = Unresponsive::default();
    let mut event = Event::Changed;
    loop {
        match event {
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
        }
        let read = read_items(connection, own_watcher.as_ref(), held, &mut logged, &mut unresponsive)?;
        if let Some(current) = session.lock().as_mut() {
            current.addresses = read.iter().map(|(item, address)| (item.key.clone(), address.clone())).collect();
        }
        items.publish(read.into_iter().map(|(item, _)| item).collect());
        event = received.recv().map_err(|_| zbus::Error::Failure("the signal threads stopped".into()))?;
        // A burst of changes is read once.
        while let Ok(more) = received.try_recv() {
            match more {
                Event::Changed => {}
                other => {
                    event = other;
                    break;
                }
            }
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

/// Every registered item, read now, with where it answers.
fn read_items(
    connection: &Connection,
    own_watcher: Option<&Watcher>,
    held: &mut HeldIcons,
    logged: &mut HashMap<String, String>,
    unresponsive: &mut Unresponsive,
) -> zbus::Result<Vec<(TrayItem, Address)>> {
    let registered: Vec<String> = match own_watcher {
        Some(_) => {
            let interface = connection.object_server().interface::<_, Watcher>(watcher::PATH)?;
            interface.get().items()
        }
        None => {
            let items = "RegisteredStatusNotifierItems";
            property::<Vec<String>>(connection, watcher::NAME, watcher::PATH, watcher::NAME, items)?.unwrap_or_default()
        }
    };
    let mut items = Vec::new();
    for entry in &registered {
        let Some(slash) = entry.find('/') else { continue };
        let address = Address { bus: entry[..slash].to_owned(), path: entry[slash..].to_owned(), menu: None };
        if unresponsive.skips(&address.bus) {
            continue;
        }
        let bus = address.bus.clone();
        let read = read_item(connection, entry, address, held);
        unresponsive.note(&bus, &format!("tray item {entry}"), &read);
        match read {
            Ok(item) => items.push(item),
            Err(error) => tracing::debug!("tray item {entry} cannot be read: {error}"),
        }
    }
    let alive: HashSet<String> = items.iter().map(|(item, _)| item.key.clone()).collect();
    held.keep_only(&alive);
    logged.retain(|key, _| alive.contains(key));
    for (item, _) in &items {
        let described = format!(
            "id {:?}, title {:?}, exe {:?}, tooltip {:?}, status {:?}",
            item.id, item.title, item.exe, item.tooltip, item.status
        );
        if logged.get(&item.key) != Some(&described) {
            tracing::info!("tray item {}: {described}", item.key);
            logged.insert(item.key.clone(), described);
        }
    }
    Ok(items)
}

fn read_item(
    connection: &Connection,
    key: &str,
    mut address: Address,
    held: &mut HeldIcons,
) -> zbus::Result<(TrayItem, Address)> {
    let (bus, path) = (address.bus.as_str(), address.path.as_str());
    let text = |name: &str| -> zbus::Result<String> {
        Ok(property::<String>(connection, bus, path, ITEM, name)?.unwrap_or_default())
    };
    let pixmaps = |name: &str| -> zbus::Result<Option<Pixels>> {
        let read = property::<icons::Pixmaps>(connection, bus, path, ITEM, name)?.unwrap_or_default();
        if let Some(why) = &read.refused {
            tracing::warn!("tray item {key}: a pixmap of its {name} is left out: {why}");
        }
        Ok(read.into_pixels())
    };
    let status = match text("Status")?.as_str() {
        "Passive" => ItemStatus::Passive,
        "NeedsAttention" => ItemStatus::NeedsAttention,
        _ => ItemStatus::Active,
    };
    // The attention icon while the item asks for it, else (or when it has
    // none) its icon: a pixmap first, then by name.
    let theme_path = text("IconThemePath")?;
    let mut pixels = None;
    let (names, pixmap_names): (&[&str], &[&str]) = match status {
        ItemStatus::NeedsAttention => (&["AttentionIconName", "IconName"], &["AttentionIconPixmap", "IconPixmap"]),
        _ => (&["IconName"], &["IconPixmap"]),
    };
    for (name, pixmap) in names.iter().zip(pixmap_names) {
        pixels = match pixmaps(pixmap)? {
            Some(pixels) => Some(pixels),
            None => held.named(&text(name)?, &theme_path),
        };
        if pixels.is_some() {
            break;
        }
    }
    let menu_path = property::<OwnedObjectPath>(connection, bus, path, ITEM, "Menu")?;
    address.menu = menu_path.map(|path| path.as_str().to_owned()).filter(|path| path != "/");
    let menu = match &address.menu {
        Some(path) => match read_menu(connection, &address.bus, path) {
            Err(error) if timed_out(&error) => return Err(error),
            read => read.unwrap_or_default(),
        },
        None => Vec::new(),
    };
    let tooltip =
        property::<(String, Skipped<icons::Pixmaps>, String, String)>(connection, bus, path, ITEM, "ToolTip")?;
    let item = TrayItem {
        key: key.to_owned(),
        id: text("Id")?,
        title: text("Title")?,
        exe: owner_exe(connection, &address.bus).unwrap_or_default(),
        status,
        icon: held.set(key, pixels),
        tooltip: tooltip.map(|(_, _, title, description)| tooltip_text(&title, &description)).unwrap_or_default(),
        menu,
        item_is_menu: property::<bool>(connection, bus, path, ITEM, "ItemIsMenu")?.unwrap_or(false),
    };
    Ok((item, address))
}

fn read_menu(connection: &Connection, bus: &str, path: &str) -> zbus::Result<Vec<menu::MenuEntry>> {
    let reply =
        connection.call_method(Some(bus), path, Some(MENU), "GetLayout", &(0i32, -1i32, &menu::PROPERTIES[..]))?;
    let (_revision, layout): (u32, MenuLayout) = reply.body().deserialize()?;
    Ok(menu::read_layout(&layout))
}

/// A tooltip's title, and its description under it.
fn tooltip_text(title: &str, description: &str) -> String {
    [title, description].into_iter().filter(|text| !text.is_empty()).collect::<Vec<_>>().join("\n")
}

/// The executable of the process that owns `bus`.
fn owner_exe(connection: &Connection, bus: &str) -> Option<String> {
    let dbus = zbus::blocking::fdo::DBusProxy::new(connection).ok()?;
    let pid = dbus.get_connection_unix_process_id(bus.try_into().ok()?).ok()?;
    let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok();
    match exe.as_ref().and_then(|exe| exe.file_name()) {
        Some(name) => Some(name.to_string_lossy().into_owned()),
        None => std::fs::read_to_string(format!("/proc/{pid}/comm")).ok().map(|comm| comm.trim().to_owned()),
    }
}

//! Reading the tray's items: each is read on a thread of its own (its
//! properties one by one, as their types, its menu, the program that owns
//! it), so a slow item holds up no other. An answer comes back as an
//! [`Answer`] among the tray's events, and the items are shown in the order
//! they registered, as many as a bar shows. An item not read within
//! [`ITEM_TIME`] is left out, and left alone for a minute; one that
//! changes while it is read is read again once it answers.

use super::icons::{self, HeldIcons};
use super::menu::{self, MenuLayout};
use super::{ItemStatus, TrayItem};
use crate::capabilities::bus_properties::{Skipped, property};
use crate::capabilities::session_bus::{CALL_TIME, Unresponsive, timed_out};
use crate::view::{Pixels, limits};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};
use zbus::blocking::Connection;
use zbus::zvariant::OwnedObjectPath;

pub const ITEM: &str = "org.kde.StatusNotifierItem";
pub const MENU: &str = "com.canonical.dbusmenu";

/// How long one item may take to be read, all its calls together.
const ITEM_TIME: Duration = CALL_TIME;

/// Where an item answers: its bus name, its path, and its menu's path.
#[derive(Debug, Clone)]
pub struct Address {
    pub bus: String,
    pub path: String,
    pub menu: Option<String>,
}

/// An item's reading, as its thread hands it back.
pub struct Answer {
    key: String,
    said: zbus::Result<Said>,
}

/// An item being read: since when, and whether it changed meanwhile.
struct Asked {
    since: Instant,
    again: bool,
}

/// The tray's items as last read, and the readings under way.
pub struct Reading {
    /// Where a reader hands its answer.
    answer: Arc<dyn Fn(Answer) + Send + Sync>,
    /// The items registered, in order, as many as are shown.
    registered: Vec<String>,
    read: HashMap<String, (TrayItem, Address)>,
    asked: HashMap<String, Asked>,
    changed: bool,
    /// What was last said of each item, so that it is said again only
    /// when it changes.
    logged: HashMap<String, String>,
    unresponsive: Unresponsive,
    /// How many items were last left out for being too many.
    left_out: usize,
}

impl Reading {
    /// Readings whose answers go to `answer`.
    pub fn new(answer: impl Fn(Answer) + Send + Sync + 'static) -> Reading {
        Reading {
            answer: Arc::new(answer),
            registered: Vec::new(),
            read: HashMap::new(),
            asked: HashMap::new(),
            changed: true,
            logged: HashMap::new(),
            unresponsive: Unresponsive::default(),
            left_out: 0,
        }
    }

    /// Reads anew the items `registered` lists (those not left alone),
    /// forgetting the ones it no longer lists.
    pub fn read_all(&mut self, connection: &Connection, registered: Vec<String>) {
        // One client may register thousands; a bar shows so many.
        let most = limits::ITEMS;
        let left_out = registered.len().saturating_sub(most);
        if left_out != self.left_out && left_out > 0 {
            tracing::warn!(
                "{} tray items are registered: the first {most} are shown, {left_out} left out",
                registered.len()
            );
        }
        self.left_out = left_out;
        self.registered = registered
            .into_iter()
            .take(most)
            .filter(|key| match key.len() > limits::FOREIGN_TEXT_BYTES {
                true => {
                    tracing::warn!("a tray item at an address of {} bytes is left out", key.len());
                    false
                }
                false => key.contains('/'),
            })
            .collect();
        let listed: HashSet<&String> = self.registered.iter().collect();
        self.read.retain(|key, _| listed.contains(key));
        self.changed = true;
        for key in self.registered.clone() {
            self.ask(connection, key);
        }
    }

    /// Starts reading `key` on a thread of its own, unless it is being read
    /// (then it is read again once it answers) or is left alone.
    fn ask(&mut self, connection: &Connection, key: String) {
        if let Some(asked) = self.asked.get_mut(&key) {
            asked.again = true;
            return;
        }
        let Some(slash) = key.find('/') else { return };
        let address = Address { bus: key[..slash].to_owned(), path: key[slash..].to_owned(), menu: None };
        if self.unresponsive.skips(&address.bus) {
            self.read.remove(&key);
            return;
        }
        let (connection, answer, reading) = (connection.clone(), self.answer.clone(), key.clone());
        let reader = std::thread::Builder::new().name("obi-tray-item".into()).spawn(move || {
            let said = read_item(&connection, &reading, address);
            answer(Answer { key: reading, said });
        });
        match reader {
            Ok(_) => {
                self.asked.insert(key, Asked { since: Instant::now(), again: false });
            }
            Err(error) => tracing::warn!("tray item {key}: no thread to read it: {error}"),
        }
    }

    /// Takes in an item's reading: shown (its icon found and held), or
    /// left out.
    pub fn answered(&mut self, connection: &Connection, answer: Answer, held: &mut HeldIcons) {
        let Answer { key, said } = answer;
        let Some(asked) = self.asked.remove(&key) else { return };
        if !self.registered.contains(&key) {
            return;
        }
        self.changed = true;
        let bus = key.split('/').next().unwrap_or_default();
        match said {
            Ok(said) => {
                self.read.insert(key.clone(), said.shown(held));
            }
            Err(error) => {
                tracing::debug!("tray item {key} cannot be read: {error}");
                self.unresponsive.note(bus, &format!("tray item {key}"), &Err::<(), _>(error));
                self.read.remove(&key);
            }
        }
        if asked.again {
            self.ask(connection, key);
        }
    }

    /// Leaves out, and alone for a while, the items read for longer than
    /// [`ITEM_TIME`]; their answers, when they come, are not taken.
    pub fn leave_out_the_late(&mut self) {
        let late: Vec<String> = self
            .asked
            .iter()
            .filter(|(_, asked)| asked.since.elapsed() >= ITEM_TIME)
            .map(|(key, _)| key.clone())
            .collect();
        for key in late {
            self.asked.remove(&key);
            let bus = key.split('/').next().unwrap_or_default();
            self.unresponsive.note_late(bus, &format!("tray item {key}"), ITEM_TIME);
            self.changed |= self.read.remove(&key).is_some();
        }
    }

    /// When the next reading under way runs out of time.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.asked.values().map(|asked| asked.since + ITEM_TIME).min()
    }

    /// The items read, in the order they registered, when they changed
    /// since last taken; the icons of items gone are let go of.
    pub fn take_changed(&mut self, held: &mut HeldIcons) -> Option<Vec<(TrayItem, Address)>> {
        if !std::mem::take(&mut self.changed) {
            return None;
        }
        let items: Vec<(TrayItem, Address)> =
            self.registered.iter().filter_map(|key| self.read.get(key)).cloned().collect();
        let alive: HashSet<String> = items.iter().map(|(item, _)| item.key.clone()).collect();
        held.keep_only(&alive);
        self.logged.retain(|key, _| alive.contains(key));
        for (item, _) in &items {
            let described = format!(
                "id {:?}, title {:?}, exe {:?}, tooltip {:?}, status {:?}",
                item.id, item.title, item.exe, item.tooltip, item.status
            );
            if self.logged.get(&item.key) != Some(&described) {
                tracing::info!("tray item {}: {described}", item.key);
                self.logged.insert(item.key.clone(), described);
            }
        }
        Some(items)
    }
}

/// An item as it says it is: all but its icon, and where its icon may be
/// found, best first.
struct Said {
    item: TrayItem,
    address: Address,
    icons: Vec<IconSource>,
}

enum IconSource {
    Pixels(Pixels),
    Named { name: String, theme_path: String },
}

impl Said {
    /// The item with its icon, found and held.
    fn shown(self, held: &mut HeldIcons) -> (TrayItem, Address) {
        let pixels = self.icons.into_iter().find_map(|source| match source {
            IconSource::Pixels(pixels) => Some(pixels),
            IconSource::Named { name, theme_path } => held.named(&name, &theme_path),
        });
        let icon = held.set(&self.item.key, pixels);
        (TrayItem { icon, ..self.item }, self.address)
    }
}

fn read_item(connection: &Connection, key: &str, mut address: Address) -> zbus::Result<Said> {
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
    let mut icons = Vec::new();
    let sources: &[(&str, &str)] = match status {
        ItemStatus::NeedsAttention => &[("AttentionIconPixmap", "AttentionIconName"), ("IconPixmap", "IconName")],
        _ => &[("IconPixmap", "IconName")],
    };
    for (pixmap, name) in sources {
        if let Some(pixels) = pixmaps(pixmap)? {
            icons.push(IconSource::Pixels(pixels));
            break;
        }
        icons.push(IconSource::Named { name: text(name)?, theme_path: theme_path.clone() });
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
        icon: None,
        tooltip: tooltip.map(|(_, _, title, description)| tooltip_text(&title, &description)).unwrap_or_default(),
        menu,
        item_is_menu: property::<bool>(connection, bus, path, ITEM, "ItemIsMenu")?.unwrap_or(false),
    };
    Ok(Said { item, address, icons })
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

//! The StatusNotifierWatcher Obi runs when none is on the bus: it keeps
//! the list of registered items (as "<bus name><object path>"), says when
//! one comes or goes, and forgets an item when its owner leaves the bus.

use crate::sync::lock;
use std::sync::{Arc, Mutex};
use zbus::object_server::SignalEmitter;

pub const NAME: &str = "org.kde.StatusNotifierWatcher";
pub const PATH: &str = "/StatusNotifierWatcher";
/// Where an item registered by its bus name alone lives.
pub const ITEM_PATH: &str = "/StatusNotifierItem";

#[derive(Default, Clone)]
pub struct Watcher {
    items: Arc<Mutex<Vec<String>>>,
}

impl Watcher {
    /// The items registered, as "<bus name><object path>".
    pub fn items(&self) -> Vec<String> {
        lock(&self.items).clone()
    }

    /// Forgets the items of `owner`, which left the bus; what it forgot.
    pub fn forget_owner(&self, owner: &str) -> Vec<String> {
        let mut items = lock(&self.items);
        let (gone, kept): (Vec<String>, Vec<String>) = items.drain(..).partition(|item| bus_name(item) == owner);
        *items = kept;
        gone
    }
}

/// The bus name an item entry starts with.
pub fn bus_name(item: &str) -> &str {
    item.find('/').map_or(item, |slash| &item[..slash])
}

/// The item `service` stands for when `sender` registers it: a bus name
/// (its item at the usual path), or an object path of the sender's.
pub fn item_entry(service: &str, sender: &str) -> String {
    if service.starts_with('/') { format!("{sender}{service}") } else { format!("{service}{ITEM_PATH}") }
}

#[zbus::interface(name = "org.kde.StatusNotifierWatcher")]
impl Watcher {
    async fn register_status_notifier_item(
        &self,
        service: &str,
        #[zbus(header)] header: zbus::message::Header<'_>,
        #[zbus(signal_emitter)] emitter: SignalEmitter<'_>,
    ) -> zbus::fdo::Result<()> {
        let sender = header.sender().map(|sender| sender.as_str()).unwrap_or_default();
        let entry = item_entry(service, sender);
        let added = {
            let mut items = lock(&self.items);
            let added = !items.contains(&entry);
            if added {
                items.push(entry.clone());
            }
            added
        };
        if added {
            Self::status_notifier_item_registered(&emitter, &entry).await?;
        }
        Ok(())
    }

    async fn register_status_notifier_host(
        &self,
        _service: &str,
        #[zbus(signal_emitter)] emitter: SignalEmitter<'_>,
    ) -> zbus::fdo::Result<()> {
        Self::status_notifier_host_registered(&emitter).await?;
        Ok(())
    }

    #[zbus(property)]
    fn registered_status_notifier_items(&self) -> Vec<String> {
        lock(&self.items).clone()
    }

    #[zbus(property)]
    fn is_status_notifier_host_registered(&self) -> bool {
        true
    }

    #[zbus(property)]
    fn protocol_version(&self) -> i32 {
        0
    }

    #[zbus(signal)]
    pub async fn status_notifier_item_registered(emitter: &SignalEmitter<'_>, item: &str) -> zbus::Result<()>;

    #[zbus(signal)]
    pub async fn status_notifier_item_unregistered(emitter: &SignalEmitter<'_>, item: &str) -> zbus::Result<()>;

    #[zbus(signal)]
    async fn status_notifier_host_registered(emitter: &SignalEmitter<'_>) -> zbus::Result<()>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_item_is_its_bus_name_and_path() {
        assert_eq!(
            item_entry("org.kde.StatusNotifierItem-7-1", ":1.9"),
            "org.kde.StatusNotifierItem-7-1/StatusNotifierItem"
        );
        assert_eq!(item_entry("/org/ayatana/NotificationItem/nm", ":1.9"), ":1.9/org/ayatana/NotificationItem/nm");
        assert_eq!(bus_name(":1.9/org/ayatana/NotificationItem/nm"), ":1.9");
        let watcher = Watcher::default();
        watcher.items.lock().unwrap().extend([":1.9/a".to_string(), ":1.10/b".to_string()]);
        assert_eq!(watcher.forget_owner(":1.9"), [":1.9/a"]);
        assert_eq!(watcher.registered_status_notifier_items(), [":1.10/b"]);
    }
}

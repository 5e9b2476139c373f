//! Obi as the desktop's notification server (Linux): `org.freedesktop.Notifications`
//! on the session bus ([`server`]), what a `Notify` call is read into
//! ([`incoming`], [`notification`]), where each notification is and for
//! how long ([`store`]), and the one [`Service`] the bus, the bars and the
//! widgets ([`for_widgets`]) share. How they are drawn is the bars'.

mod for_widgets;
mod incoming;
pub mod limits;
mod notification;
mod server;
mod service;
mod store;

pub use notification::{Action, CloseReason, DEFAULT_ACTION, Notification, Signal, Timeout, Urgency};
pub use server::{NAME, PATH};
pub use service::{Service, Standing};
pub use store::{Kept, Settings, Store};

use crate::capabilities::session_bus::{Bus, stay_connected};

/// The notification server, on the bus at `address` (a test's own bus) or
/// the session's, served from a thread of its own for as long as the
/// process runs; again whenever the bus comes back.
pub fn start(settings: Settings, address: Option<String>) -> Service {
    let service = Service::new(settings);
    let serving = service.clone();
    let spawned = std::thread::Builder::new().name("obi-notifications".into()).spawn(move || {
        let serve = |connection: &zbus::blocking::Connection| server::serve(&serving, connection);
        stay_connected(Bus::Session(address.as_deref()), "notifications", serve, || {
            serving.set_standing(Standing::NoBus)
        })
    });
    if let Err(error) = spawned {
        tracing::error!("notifications: no thread to serve them: {error}");
    }
    service
}

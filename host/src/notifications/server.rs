//! `org.freedesktop.Notifications` on the session bus: the interface of the
//! Desktop Notifications Specification 1.2, each call handed to the
//! [`Service`], and the thread that keeps the name and sends the signals.
//! The interface never emits signals itself: that thread does, for calls
//! and for what the user and the clock do alike. It owns the name when
//! nobody else does, says who does when someone does, and takes the name
//! when they leave it.

use super::incoming::{Actions, Call, Hints};
use super::notification::Signal;
use super::service::{Service, Standing};
use zbus::blocking::{Connection, MessageIterator};
use zbus::fdo::{RequestNameFlags, RequestNameReply};
use zbus::names::BusName;
use zbus::object_server::SignalEmitter;

pub const NAME: &str = "org.freedesktop.Notifications";
pub const PATH: &str = "/org/freedesktop/Notifications";

pub struct Server(pub Service);

#[zbus::interface(name = "org.freedesktop.Notifications")]
impl Server {
    /// What Obi does with a notification: actions as buttons (and
    /// `default` on a click), the body and its markup, a still icon, and
    /// keeping them in the history when it keeps one.
    fn get_capabilities(&self) -> Vec<&'static str> {
        let mut capabilities = vec!["actions", "body", "body-markup", "icon-static"];
        if self.0.keeps_history() {
            capabilities.push("persistence");
        }
        capabilities
    }

    #[allow(clippy::too_many_arguments, reason = "the specification's method")]
    fn notify(
        &self,
        app_name: &str,
        replaces_id: u32,
        app_icon: &str,
        summary: &str,
        body: &str,
        actions: Actions,
        hints: Hints,
        expire_timeout: i32,
    ) -> u32 {
        let call = Call { app_name, app_icon, summary, body, actions, hints, expire_timeout };
        self.0.notify(call.read(), replaces_id)
    }

    /// Closes the notification `id`. One that is already closed is not an
    /// error: a sender cannot know the user dismissed it a moment before.
    fn close_notification(&self, id: u32) {
        self.0.close_by_sender(id);
    }

    fn get_server_information(&self) -> (&'static str, &'static str, &'static str, &'static str) {
        ("Obi", "Obi", env!("CARGO_PKG_VERSION"), "1.2")
    }

    #[zbus(signal)]
    async fn notification_closed(emitter: &SignalEmitter<'_>, id: u32, reason: u32) -> zbus::Result<()>;

    #[zbus(signal)]
    async fn action_invoked(emitter: &SignalEmitter<'_>, id: u32, action_key: &str) -> zbus::Result<()>;
}

/// Serves `service` on `connection` until it fails: the interface at its
/// path, the name once nobody else has it, the signals as they come.
pub fn serve(service: &Service, connection: &Connection) -> zbus::Result<()> {
    service.bus_opened();
    follow_the_name(service, connection)?;
    loop {
        if !service.wait_until_switched_on() {
            return Err(closed());
        }
        connection.object_server().at(PATH, Server(service.clone()))?;
        let flags = RequestNameFlags::DoNotQueue.into();
        match connection.request_name_with_flags(NAME, flags) {
            Ok(RequestNameReply::PrimaryOwner | RequestNameReply::AlreadyOwner) => {
                tracing::info!("notifications: obi is the desktop's notification server");
                service.set_standing(Standing::Serving);
                send_signals(service, connection)?;
                connection.release_name(NAME)?;
                connection.object_server().remove::<Server, _>(PATH)?;
                tracing::info!("notifications: no longer enabled by the config; the name is let go");
            }
            // zbus says so as an error; the bus's own answer would be `Exists`.
            Err(zbus::Error::NameTaken) | Ok(RequestNameReply::Exists | RequestNameReply::InQueue) => {
                let holder = holder(connection);
                tracing::warn!(
                    "notifications: {holder} is the desktop's notification server already; \
                     obi shows none until it leaves"
                );
                service.set_standing(Standing::HeldBy(holder));
                if !service.wait_for_the_name() {
                    return Err(closed());
                }
            }
            Err(error) => return Err(error),
        }
    }
}

fn closed() -> zbus::Error {
    zbus::Error::Failure("the connection closed".into())
}

/// Has `service` told when the name is let go, and when the connection closes.
fn follow_the_name(service: &Service, connection: &Connection) -> zbus::Result<()> {
    let rule = format!(
        "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',\
         member='NameOwnerChanged',arg0='{NAME}'"
    );
    let messages = MessageIterator::for_match_rule(rule.as_str(), connection, Some(16))?;
    let service = service.clone();
    std::thread::Builder::new().name("obi-notifications-name".into()).spawn(move || {
        for message in messages.flatten() {
            let body = message.body();
            if body.deserialize::<(&str, &str, &str)>().is_ok_and(|(_, _, new_owner)| new_owner.is_empty()) {
                service.name_freed();
            }
        }
        service.bus_closed();
    })?;
    Ok(())
}

/// Sends what the bus is to be told, as it comes, until the service is
/// switched off (Ok) or the connection closes.
fn send_signals(service: &Service, connection: &Connection) -> zbus::Result<()> {
    while let Some(signals) = service.next_signals() {
        for signal in signals {
            match signal {
                Signal::Closed { id, reason } => {
                    connection.emit_signal(None::<&str>, PATH, NAME, "NotificationClosed", &(id, reason as u32))
                }
                Signal::ActionInvoked { id, key } => {
                    connection.emit_signal(None::<&str>, PATH, NAME, "ActionInvoked", &(id, key.as_str()))
                }
            }?;
        }
    }
    match service.switched_off() {
        true => Ok(()),
        false => Err(closed()),
    }
}

/// Who owns the name, by the program's name and process where the bus
/// says (`mako (pid 812, :1.4)`), else by its connection's name.
fn holder(connection: &Connection) -> String {
    let Ok(dbus) = zbus::blocking::fdo::DBusProxy::new(connection) else { return "another program".into() };
    let Some(owner) = BusName::try_from(NAME).ok().and_then(|name| dbus.get_name_owner(name).ok()) else {
        return "another program".into();
    };
    let pid = dbus.get_connection_unix_process_id(BusName::Unique(owner.inner().clone())).ok();
    let program = pid.and_then(|pid| std::fs::read_to_string(format!("/proc/{pid}/comm")).ok());
    match (program, pid) {
        (Some(program), Some(pid)) => format!("{} (pid {pid}, {owner})", program.trim()),
        (None, Some(pid)) => format!("pid {pid} ({owner})"),
        _ => owner.to_string(),
    }
}

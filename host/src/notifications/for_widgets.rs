//! The service as the `notifications` capability hands it to widgets:
//! the history in the capability's terms, and the user's requests checked
//! against what is alive.

use super::notification::{DEFAULT_ACTION, Urgency};
use super::service::{Service, Standing};
use super::store::Kept;
use crate::capabilities::notifications::{KeptNotification, NotificationServer, Overview};
use std::time::UNIX_EPOCH;

impl NotificationServer for Service {
    fn overview(&self) -> Overview {
        let not_serving = match self.standing() {
            Standing::Serving => None,
            Standing::Starting => Some("Obi is asking the session bus for the notification server's name".into()),
            Standing::HeldBy(holder) => Some(format!("{holder} is the notification server")),
            Standing::NoBus => Some("there is no session bus to serve notifications on".into()),
            Standing::SwitchedOff => Some("the config no longer enables `notifications`".into()),
        };
        self.read(|store| Overview {
            not_serving,
            do_not_disturb: store.do_not_disturb(),
            unseen: store.unseen(),
            kept: store.history().count(),
        })
    }

    fn history(&self, most: usize) -> Vec<KeptNotification> {
        self.read(|store| {
            let on_screen: Vec<u32> = store.on_screen().map(|notification| notification.id).collect();
            let kept = store.history().take(most);
            kept.map(|Kept { notification, seen }| KeptNotification {
                id: notification.id,
                app_name: notification.app_name.clone(),
                summary: notification.summary.clone(),
                body: notification.body.clone(),
                received_seconds: notification
                    .received
                    .duration_since(UNIX_EPOCH)
                    .map_or(0, |since| since.as_secs().try_into().unwrap_or(i64::MAX)),
                critical: notification.urgency == Urgency::Critical,
                has_default_action: notification.default_action().is_some(),
                on_screen: on_screen.contains(&notification.id),
                seen,
            })
            .collect()
        })
    }

    fn listen(&self, listener: Box<dyn Fn() + Send + Sync>) {
        Service::listen(self, listener);
    }

    fn set_do_not_disturb(&self, on: bool) {
        Service::set_do_not_disturb(self, on);
    }

    fn mark_seen(&self) {
        Service::mark_seen(self);
    }

    fn invoke(&self, id: u32) -> Result<(), String> {
        self.alive(id)?;
        Service::invoke(self, id, DEFAULT_ACTION);
        Ok(())
    }

    fn dismiss(&self, id: u32) -> Result<(), String> {
        self.alive(id)?;
        Service::dismiss(self, id);
        Ok(())
    }

    fn dismiss_all(&self) {
        Service::dismiss_all(self);
    }
}

impl Service {
    fn alive(&self, id: u32) -> Result<(), String> {
        match self.read(|store| store.get(id).is_some()) {
            true => Ok(()),
            false => Err(format!("there is no notification {id} (closed, or never sent)")),
        }
    }
}

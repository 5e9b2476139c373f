//! One notification as the server keeps it: what its sender said, cut to
//! the [`limits`](super::limits), with its id once the store gave it one.

use crate::view::Pixels;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

#[derive(Debug, Clone, PartialEq)]
pub struct Notification {
    /// The server's number for it: never 0, the same when it is replaced.
    pub id: u32,
    pub app_name: String,
    pub summary: String,
    /// As the sender wrote it, in the specification's markup (`<b>`, `<i>`,
    /// `<u>`, `<a href>`, `<img>`), cut.
    pub body: String,
    pub actions: Vec<Action>,
    pub urgency: Urgency,
    pub timeout: Timeout,
    /// What it shows beside its text: the pixels it sent, else the image
    /// file or icon it named (the specification's order), shrunk.
    pub icon: Option<Arc<Pixels>>,
    pub category: Option<String>,
    /// The sender's `.desktop` file, without the extension.
    pub desktop_entry: Option<String>,
    /// It stays when one of its actions is invoked.
    pub resident: bool,
    /// It is never kept in the history.
    pub transient: bool,
    pub received: SystemTime,
}

/// An action the user can invoke: `default` is invoked by a click on the
/// notification itself, the others are buttons labelled `label`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    pub key: String,
    pub label: String,
}

pub const DEFAULT_ACTION: &str = "default";

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Urgency {
    Low,
    #[default]
    Normal,
    /// Stays on screen until the user dismisses it, and shows through
    /// do-not-disturb.
    Critical,
}

/// How long a notification stays on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timeout {
    /// As long as the config says (the sender's -1).
    Default,
    /// Until the user dismisses it (the sender's 0).
    Never,
    After(Duration),
}

impl Timeout {
    /// The timeout a sender's `expire_timeout` in milliseconds asks for.
    pub fn from_milliseconds(milliseconds: i32) -> Timeout {
        match milliseconds {
            0 => Timeout::Never,
            positive if positive > 0 => {
                Timeout::After(Duration::from_millis(positive as u64).min(super::limits::LONGEST_TIMEOUT))
            }
            _ => Timeout::Default,
        }
    }
}

impl Notification {
    /// A notification from `app_name` as a sender sends it with nothing
    /// but its texts: no actions, normal urgency, the config's timeout.
    pub fn new(app_name: &str, summary: &str, body: &str) -> Notification {
        Notification {
            id: 0,
            app_name: app_name.into(),
            summary: summary.into(),
            body: body.into(),
            actions: Vec::new(),
            urgency: Urgency::Normal,
            timeout: Timeout::Default,
            icon: None,
            category: None,
            desktop_entry: None,
            resident: false,
            transient: false,
            received: SystemTime::now(),
        }
    }

    /// The action a click on the notification invokes, when it has one.
    pub fn default_action(&self) -> Option<&Action> {
        self.actions.iter().find(|action| action.key == DEFAULT_ACTION)
    }

    /// The actions shown as buttons: all but the default one.
    pub fn buttons(&self) -> impl Iterator<Item = &Action> {
        self.actions.iter().filter(|action| action.key != DEFAULT_ACTION)
    }

    pub fn has_action(&self, key: &str) -> bool {
        self.actions.iter().any(|action| action.key == key)
    }
}

/// Why a notification was closed, as `NotificationClosed` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CloseReason {
    Expired = 1,
    Dismissed = 2,
    /// By its sender, through `CloseNotification`.
    Closed = 3,
    Undefined = 4,
}

/// What the server tells the bus a notification did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Signal {
    Closed { id: u32, reason: CloseReason },
    ActionInvoked { id: u32, key: String },
}

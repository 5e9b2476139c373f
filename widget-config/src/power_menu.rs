//! The power menu's config (an Obi extension of the format): its actions,
//! each with the platform's command unless the config gives another or
//! leaves the action out.

use crate::LabelPrefix;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// A button whose popup offers Lock, Log out, Suspend, Reboot and Shut
/// down, each running the platform's command unless replaced (an Obi
/// extension of the format):
/// `{ "PowerMenu": { "enable": true, "lock": "swaylock -f", "suspend": false } }`
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PowerMenuConfig {
    pub enable: bool,
    /// What the button shows: its icon (the default), "Power", or both.
    pub label_prefix: Option<LabelPrefix>,
    /// Locks the session.
    pub lock: Option<PowerCommand>,
    /// Ends the session.
    pub log_out: Option<PowerCommand>,
    pub suspend: Option<PowerCommand>,
    /// Runs on a second click.
    pub reboot: Option<PowerCommand>,
    /// Runs on a second click.
    pub shut_down: Option<PowerCommand>,
}

/// An action as the config sets it: a command line run in place of the
/// platform's, or `false` to leave the action out (`true`: the platform's
/// command, as when the key is absent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum PowerCommand {
    Command(String),
    Offered(bool),
}

/// What the power menu offers, in its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PowerAction {
    Lock,
    LogOut,
    Suspend,
    Reboot,
    ShutDown,
}

impl PowerAction {
    pub const ALL: [PowerAction; 5] =
        [PowerAction::Lock, PowerAction::LogOut, PowerAction::Suspend, PowerAction::Reboot, PowerAction::ShutDown];

    /// The id its command is declared under: its key in the config.
    pub fn id(self) -> &'static str {
        match self {
            PowerAction::Lock => "lock",
            PowerAction::LogOut => "log_out",
            PowerAction::Suspend => "suspend",
            PowerAction::Reboot => "reboot",
            PowerAction::ShutDown => "shut_down",
        }
    }

    pub fn from_id(id: &str) -> Option<PowerAction> {
        PowerAction::ALL.into_iter().find(|action| action.id() == id)
    }

    /// Its name in the menu.
    pub fn name(self) -> &'static str {
        match self {
            PowerAction::Lock => "Lock",
            PowerAction::LogOut => "Log out",
            PowerAction::Suspend => "Suspend",
            PowerAction::Reboot => "Reboot",
            PowerAction::ShutDown => "Shut down",
        }
    }

    /// Whether it ends everything the user has open, and so waits for a
    /// second click.
    pub fn asks_twice(self) -> bool {
        matches!(self, PowerAction::Reboot | PowerAction::ShutDown)
    }

    /// The command that does it on the platform this is built for:
    /// systemd's `loginctl` and `systemctl` on Linux, Windows' own
    /// programs on Windows (where suspending hibernates when hibernation
    /// is on, as `SetSuspendState` does).
    pub fn platform_command(self) -> &'static str {
        if cfg!(windows) {
            match self {
                PowerAction::Lock => "rundll32.exe user32.dll,LockWorkStation",
                PowerAction::LogOut => "shutdown.exe /l",
                PowerAction::Suspend => "rundll32.exe powrprof.dll,SetSuspendState 0,1,0",
                PowerAction::Reboot => "shutdown.exe /r /t 0",
                PowerAction::ShutDown => "shutdown.exe /s /t 0",
            }
        } else {
            match self {
                PowerAction::Lock => "loginctl lock-session",
                PowerAction::LogOut => "loginctl terminate-session \"$XDG_SESSION_ID\"",
                PowerAction::Suspend => "systemctl suspend",
                PowerAction::Reboot => "systemctl reboot",
                PowerAction::ShutDown => "systemctl poweroff",
            }
        }
    }
}

impl PowerMenuConfig {
    fn setting(&self, action: PowerAction) -> Option<&PowerCommand> {
        match action {
            PowerAction::Lock => self.lock.as_ref(),
            PowerAction::LogOut => self.log_out.as_ref(),
            PowerAction::Suspend => self.suspend.as_ref(),
            PowerAction::Reboot => self.reboot.as_ref(),
            PowerAction::ShutDown => self.shut_down.as_ref(),
        }
    }

    /// The actions offered, in the menu's order.
    pub fn actions(&self) -> Vec<PowerAction> {
        PowerAction::ALL
            .into_iter()
            .filter(|&action| self.setting(action) != Some(&PowerCommand::Offered(false)))
            .collect()
    }

    /// The command line of each action offered, by its id: the config's, or
    /// the platform's.
    pub fn commands(&self) -> std::collections::BTreeMap<String, String> {
        self.actions()
            .into_iter()
            .map(|action| {
                let command = match self.setting(action) {
                    Some(PowerCommand::Command(command)) => command.clone(),
                    _ => action.platform_command().to_owned(),
                };
                (action.id().to_owned(), command)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(json: &str) -> PowerMenuConfig {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn every_action_with_the_platforms_command_unless_replaced_or_left_out() {
        let all = config(r#"{ "enable": true }"#);
        assert_eq!(all.actions(), PowerAction::ALL);
        assert_eq!(all.commands()["reboot"], PowerAction::Reboot.platform_command());

        let own = config(r#"{ "enable": true, "lock": "swaylock -f", "suspend": false, "reboot": true }"#);
        assert_eq!(own.actions(), [PowerAction::Lock, PowerAction::LogOut, PowerAction::Reboot, PowerAction::ShutDown]);
        let commands = own.commands();
        assert_eq!(commands["lock"], "swaylock -f");
        assert_eq!(commands["reboot"], PowerAction::Reboot.platform_command());
        assert!(!commands.contains_key("suspend"));
    }

    #[test]
    fn ids_are_the_config_keys() {
        for action in PowerAction::ALL {
            assert_eq!(PowerAction::from_id(action.id()), Some(action));
        }
        let json =
            serde_json::to_value(config(r#"{ "enable": true, "shut_down": "true", "log_out": false }"#)).unwrap();
        assert_eq!(json, serde_json::json!({ "enable": true, "shut_down": "true", "log_out": false }));
    }
}

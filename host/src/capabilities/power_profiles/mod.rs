//! Power profiles (performance, balanced, power-saver) from
//! power-profiles-daemon on the D-Bus system bus: the one in use and those
//! offered, followed by a thread of its own from the daemon's signals
//! (`PropertiesChanged`, and `NameOwnerChanged` for a daemon that comes or
//! goes), and the one to use set from another thread, so a daemon that
//! never answers keeps no widget waiting ([`daemon`]). The thread starts
//! at the first reading. Elsewhere than on Linux and the BSDs there is no
//! daemon to follow.

#[cfg(free_unix)]
mod daemon;

use crate::wake::{Follower, Waker};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProfilesStatus {
    /// The profile in use, and every one offered, in the daemon's order.
    Offered { active: String, profiles: Vec<String> },
    /// No profiles to show, and why.
    Unavailable(String),
}

pub trait PowerProfiles: Send + Sync {
    /// The profiles as last read; `waker`'s widget is woken at each change
    /// from now on.
    fn status(&self, waker: &Waker) -> ProfilesStatus;

    /// Asks the daemon to use `profile`, which comes back through
    /// [`PowerProfiles::status`]. Fails, saying why, without a daemon or
    /// for a profile it does not offer.
    fn set_active(&self, profile: &str) -> Result<(), String>;
}

/// Refuses a profile the daemon could not take: no daemon, not offered.
pub fn check(status: &ProfilesStatus, profile: &str) -> Result<(), String> {
    match status {
        ProfilesStatus::Offered { profiles, .. } if profiles.iter().any(|offered| offered == profile) => Ok(()),
        ProfilesStatus::Offered { profiles, .. } => {
            Err(format!("no power profile is named {profile:?}; there are {}", profiles.join(", ")))
        }
        ProfilesStatus::Unavailable(why) => Err(format!("no power profiles: {why}")),
    }
}

pub struct SystemPowerProfiles(Follower<ProfilesStatus, String>);

impl SystemPowerProfiles {
    pub fn new() -> SystemPowerProfiles {
        #[cfg(free_unix)]
        let (waiting, follow) = ("looking for power-profiles-daemon", daemon::follow);
        #[cfg(not(free_unix))]
        let (waiting, follow) = ("power profiles are power-profiles-daemon's, which runs on Linux", |_: &_, _| {});
        let waiting = ProfilesStatus::Unavailable(waiting.into());
        SystemPowerProfiles(Follower::new("power profiles", "obi-power-profiles", waiting, follow))
    }
}

impl Default for SystemPowerProfiles {
    fn default() -> Self {
        SystemPowerProfiles::new()
    }
}

impl PowerProfiles for SystemPowerProfiles {
    fn status(&self, waker: &Waker) -> ProfilesStatus {
        self.0.read(waker)
    }

    fn set_active(&self, profile: &str) -> Result<(), String> {
        check(&self.0.current(), profile)?;
        match self.0.request(profile.to_owned()) {
            true => Ok(()),
            false => Err("power profiles are not followed".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_asked_for_is_one_offered() {
        let offered = ProfilesStatus::Offered {
            active: "balanced".into(),
            profiles: vec!["power-saver".into(), "balanced".into(), "performance".into()],
        };
        assert_eq!(check(&offered, "performance"), Ok(()));
        let error = check(&offered, "turbo").unwrap_err();
        assert_eq!(error, "no power profile is named \"turbo\"; there are power-saver, balanced, performance");
        let error =
            check(&ProfilesStatus::Unavailable("power-profiles-daemon is not running".into()), "balanced").unwrap_err();
        assert_eq!(error, "no power profiles: power-profiles-daemon is not running");
    }
}

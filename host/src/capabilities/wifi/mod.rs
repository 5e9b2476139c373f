//! Wi-Fi networks and VPN connections, as NetworkManager has them on the
//! D-Bus system bus: whether Wi-Fi is on, the networks in range (each
//! SSID's access points as one, at the strongest), which the system knows
//! and which is connected, and the VPN connections; followed by a thread of
//! its own from NetworkManager's signals, and changed from another
//! ([`network_manager`]). The thread starts at the first reading. Elsewhere
//! than on Linux and the BSDs there is no NetworkManager to follow.

#[cfg(free_unix)]
mod network_manager;

use crate::wake::{Follower, Waker};

/// What joining a network asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Security {
    Open,
    Wep,
    Personal,
    Enterprise,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    Disconnected,
    Connecting,
    Connected,
}

/// A Wi-Fi network in range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WifiNetwork {
    pub ssid: String,
    pub strength: u8,
    pub security: Security,
    /// The system has a saved connection for it.
    pub known: bool,
    pub link: Link,
}

/// A VPN connection the system has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vpn {
    pub name: String,
    pub uuid: String,
    pub link: Link,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Networks {
    pub has_wifi_device: bool,
    pub enabled: bool,
    pub hardware_enabled: bool,
    /// The connected one first, then by strength.
    pub wifi: Vec<WifiNetwork>,
    /// By name.
    pub vpns: Vec<Vpn>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WifiStatus {
    Present(Networks),
    /// No NetworkManager to show, and why.
    Absent(String),
}

/// A change asked of NetworkManager.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WifiRequest {
    SetEnabled(bool),
    SetConnected { ssid: String, connected: bool },
    SetVpnOn { uuid: String, on: bool },
}

pub trait Wifi: Send + Sync {
    /// The networks as last read; `waker`'s widget is woken at each change
    /// from now on.
    fn status(&self, waker: &Waker) -> WifiStatus;

    /// Asks NetworkManager for `request`, which comes back through
    /// [`Wifi::status`]. Fails, saying why, when it cannot be done.
    fn request(&self, request: WifiRequest) -> Result<(), String>;
}

/// Refuses a request NetworkManager could not carry out without asking
/// the user something: no NetworkManager, no such network or VPN, an
/// unknown secured network (its secret is for the system's settings to ask).
pub fn check(status: &WifiStatus, request: &WifiRequest) -> Result<(), String> {
    let networks = match status {
        WifiStatus::Present(networks) => networks,
        WifiStatus::Absent(why) => return Err(format!("no NetworkManager: {why}")),
    };
    match request {
        WifiRequest::SetEnabled(_) if networks.has_wifi_device => Ok(()),
        WifiRequest::SetEnabled(_) => Err("there is no Wi-Fi device".into()),
        WifiRequest::SetConnected { ssid, connected } => {
            let Some(network) = networks.wifi.iter().find(|network| network.ssid == *ssid) else {
                return Err(format!("no Wi-Fi network {ssid:?} is in range"));
            };
            match (*connected, network.link) {
                (true, _) if !network.known && network.security != Security::Open => Err(format!(
                    "{ssid:?} needs a secret the bar does not ask for: join it once from the system's network settings"
                )),
                (false, Link::Disconnected) => Err(format!("{ssid:?} is not connected")),
                _ => Ok(()),
            }
        }
        WifiRequest::SetVpnOn { uuid, .. } if networks.vpns.iter().any(|vpn| vpn.uuid == *uuid) => Ok(()),
        WifiRequest::SetVpnOn { uuid, .. } => Err(format!("no VPN connection {uuid}")),
    }
}

pub struct SystemWifi(Follower<WifiStatus, WifiRequest>);

impl SystemWifi {
    pub fn new() -> SystemWifi {
        #[cfg(free_unix)]
        let (waiting, follow) = ("looking for NetworkManager", network_manager::follow);
        #[cfg(not(free_unix))]
        let (waiting, follow) = ("Wi-Fi is read from NetworkManager, on Linux", |_: &_, _| {});
        SystemWifi(Follower::new("Wi-Fi", "obi-wifi", WifiStatus::Absent(waiting.into()), follow))
    }
}

impl Default for SystemWifi {
    fn default() -> Self {
        SystemWifi::new()
    }
}

impl Wifi for SystemWifi {
    fn status(&self, waker: &Waker) -> WifiStatus {
        self.0.read(waker)
    }

    fn request(&self, request: WifiRequest) -> Result<(), String> {
        check(&self.0.current(), &request)?;
        match self.0.request(request) {
            true => Ok(()),
            false => Err("NetworkManager is not followed".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn network(ssid: &str, security: Security, known: bool, link: Link) -> WifiNetwork {
        WifiNetwork { ssid: ssid.into(), strength: 60, security, known, link }
    }

    #[test]
    fn only_what_asks_the_user_nothing_is_taken() {
        let status = WifiStatus::Present(Networks {
            has_wifi_device: true,
            enabled: true,
            hardware_enabled: true,
            wifi: vec![
                network("home", Security::Personal, true, Link::Connected),
                network("cafe", Security::Open, false, Link::Disconnected),
                network("neighbour", Security::Personal, false, Link::Disconnected),
            ],
            vpns: vec![Vpn { name: "Office".into(), uuid: "u-1".into(), link: Link::Disconnected }],
        });
        let join = |ssid: &str, connected| WifiRequest::SetConnected { ssid: ssid.into(), connected };
        assert_eq!(check(&status, &join("home", false)), Ok(()));
        assert_eq!(check(&status, &join("cafe", true)), Ok(()), "an open network asks nothing");
        let secret = check(&status, &join("neighbour", true)).unwrap_err();
        assert!(secret.contains("system's network settings"), "{secret}");
        assert_eq!(check(&status, &join("cafe", false)).unwrap_err(), "\"cafe\" is not connected");
        assert_eq!(check(&status, &join("far", true)).unwrap_err(), "no Wi-Fi network \"far\" is in range");
        assert_eq!(check(&status, &WifiRequest::SetVpnOn { uuid: "u-1".into(), on: true }), Ok(()));
        assert!(check(&status, &WifiRequest::SetVpnOn { uuid: "u-2".into(), on: true }).is_err());
        let gone = WifiStatus::Absent("NetworkManager is not running".into());
        assert_eq!(
            check(&gone, &WifiRequest::SetEnabled(true)).unwrap_err(),
            "no NetworkManager: NetworkManager is not running"
        );
    }
}

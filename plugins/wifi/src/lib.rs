//! # Wifi
//!
//! NetworkManager's Wi-Fi, as Waybar's `network` shows it with its menu: a
//! fan whose waves show the connected network's strength (crossed out
//! while Wi-Fi is off, empty while nothing is joined), the network's name
//! with a text label, and a tooltip with its strength and the VPNs on (an
//! Obi extension of the format). A click opens a popup with Wi-Fi's
//! switch, the networks in range (the joined one marked, the secured ones
//! locked), where choosing one joins it or leaves the joined one, and the
//! VPN connections, where choosing one switches it. A secured network the
//! system does not know is joined from the system's network settings,
//! which ask for its secret; the popup says so. Without NetworkManager, or
//! with neither a Wi-Fi device nor a VPN, the widget shows nothing.
//!
//! | key            | values                                  | default |
//! |----------------|-----------------------------------------|---------|
//! | `enable`       | `true` / `false`                        | required |
//! | `label_prefix` | `None`, `Icon`, `Text`, `IconAndText`   | `Icon` |
//!
//! ```json
//! { "Wifi": { "enable": true, "label_prefix": "IconAndText" } }
//! ```

use obi_sdk::config::WifiConfig as Config;
use obi_sdk::log::{self, Level};
use obi_sdk::wifi::{self, Link, Network, Networks, Security, WifiStatus};
use obi_sdk::{
    Emphasis, Input, Inputs, LabelPrefix, Piece, Popup, PopupInput, Schedule, View, Widget, ask, button, cell, icons,
    item,
};

/// The item's key on the bar, and the popup's cells.
const WIFI: &str = "wifi";
const SWITCH: &str = "switch";
/// A network's button is this and its SSID; a VPN's, the other and its uuid.
const NETWORK: &str = "network:";
const VPN: &str = "vpn:";

pub struct Wifi {
    prefix: LabelPrefix,
    /// The networks as last read; none without NetworkManager.
    networks: Option<Networks>,
    open: bool,
}

/// The fan for a network's strength.
fn fan(strength: u8) -> &'static str {
    match strength {
        67.. => icons::WIFI,
        34..=66 => icons::WIFI_MEDIUM,
        _ => icons::WIFI_LOW,
    }
}

/// The network joined (or being joined), if one is.
fn joined(networks: &Networks) -> Option<&Network> {
    networks.wifi.iter().find(|network| network.link != Link::Disconnected)
}

/// Whether joining `network` asks for a secret the bar does not ask for.
fn needs_the_settings(network: &Network) -> bool {
    !network.known && network.security != Security::Open
}

impl Wifi {
    fn shown(&self, networks: &Networks) -> obi_sdk::ItemBuilder {
        let on = networks.enabled && networks.hardware_enabled;
        let (glyph, state, mut tooltip) = match (networks.has_wifi_device, on, joined(networks)) {
            (false, ..) => (icons::SHIELD, "no Wi-Fi".to_owned(), vec!["No Wi-Fi device".to_owned()]),
            (true, false, _) => (icons::WIFI_OFF, "off".to_owned(), vec!["Wi-Fi off".to_owned()]),
            (true, true, None) => (icons::WIFI_NONE, "disconnected".to_owned(), vec!["Wi-Fi on, not connected".into()]),
            (true, true, Some(network)) => {
                let joining = if network.link == Link::Connecting { "Connecting to" } else { "Connected to" };
                let line = format!("{joining} {} ({} %)", network.ssid, network.strength);
                (fan(network.strength), network.ssid.clone(), vec![line])
            }
        };
        let vpns = networks.vpns.iter().filter(|vpn| vpn.link == Link::Connected);
        tooltip.extend(vpns.map(|vpn| format!("VPN {} on", vpn.name)));
        item(WIFI)
            .takes(Inputs::PRIMARY_CLICK)
            .maybe(self.prefix.shows_icon().then(|| Piece::Icon(glyph.into())))
            .maybe((self.prefix != LabelPrefix::Icon).then(|| Piece::Text(self.prefix.label("Wi-Fi", &state))))
            .tooltip(tooltip.join("\n"))
            .selected(self.open)
    }
}

impl Widget for Wifi {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let wifi = Wifi { prefix: config.label_prefix.unwrap_or(LabelPrefix::Icon), networks: None, open: false };
        // The host wakes the widget at each of NetworkManager's changes.
        Ok((wifi, Schedule { interval_ms: 0, align_to_wall_clock: false }))
    }

    fn refresh(&mut self) -> View {
        self.networks = match wifi::status() {
            WifiStatus::Present(networks) if networks.has_wifi_device || !networks.vpns.is_empty() => Some(networks),
            WifiStatus::Present(_) => None,
            WifiStatus::Absent(why) => {
                log::log(Level::Debug, &why);
                None
            }
        };
        let Some(networks) = &self.networks else { return View::empty() };
        View::of([self.shown(networks)])
    }

    fn on_input(&mut self, _key: &str, input: Input) {
        if input == Input::PrimaryClick {
            self.open = !self.open;
        }
    }

    fn popup(&mut self) -> Option<Popup> {
        let networks = self.networks.as_ref().filter(|_| self.open)?;
        let mut popup = Popup::beside(WIFI);
        if networks.has_wifi_device {
            popup = popup.line(match networks.hardware_enabled {
                true => button(SWITCH)
                    .icon(if networks.enabled { icons::WIFI } else { icons::WIFI_OFF })
                    .text(if networks.enabled { "Turn Wi-Fi off" } else { "Turn Wi-Fi on" })
                    .selected(networks.enabled),
                false => cell("").icon(icons::WIFI_OFF).text("Wi-Fi is held off by a radio switch"),
            });
        }
        if networks.enabled && networks.hardware_enabled && !networks.wifi.is_empty() {
            let lines = networks.wifi.iter().map(|network| {
                let glyph = match (network.link, network.security) {
                    (Link::Connected, _) => icons::CHECK,
                    (_, Security::Open) => fan(network.strength),
                    _ => icons::LOCK,
                };
                let state = match network.link {
                    Link::Connecting => " · connecting",
                    _ if needs_the_settings(network) => " · join in Settings",
                    _ => "",
                };
                let text = format!("{} · {}%{state}", network.ssid, network.strength);
                match needs_the_settings(network) && network.link == Link::Disconnected {
                    true => cell("").icon(glyph).text(text).emphasis(Emphasis::Muted),
                    false => button(format!("{NETWORK}{}", network.ssid))
                        .icon(glyph)
                        .text(text)
                        .selected(network.link == Link::Connected),
                }
            });
            popup = lines.fold(popup.separator(), Popup::line);
        }
        if !networks.vpns.is_empty() {
            let lines = networks.vpns.iter().map(|vpn| {
                let state = if vpn.link == Link::Connecting { " · connecting" } else { "" };
                button(format!("{VPN}{}", vpn.uuid))
                    .icon(if vpn.link == Link::Disconnected { icons::SHIELD } else { icons::SHIELD_CHECK })
                    .text(format!("VPN {}{state}", vpn.name))
                    .selected(vpn.link == Link::Connected)
            });
            popup = lines.fold(popup.separator(), Popup::line);
        }
        Some(popup)
    }

    fn on_popup_input(&mut self, _item_key: &str, cell_key: &str, input: PopupInput) {
        if input != PopupInput::Input(Input::PrimaryClick) {
            return;
        }
        let Some(networks) = &self.networks else { return };
        if cell_key == SWITCH {
            ask("switch Wi-Fi", wifi::set_enabled(!networks.enabled));
        } else if let Some(ssid) = cell_key.strip_prefix(NETWORK)
            && let Some(network) = networks.wifi.iter().find(|network| network.ssid == ssid)
        {
            ask("join or leave the network", wifi::set_connected(ssid, network.link == Link::Disconnected));
        } else if let Some(uuid) = cell_key.strip_prefix(VPN)
            && let Some(vpn) = networks.vpns.iter().find(|vpn| vpn.uuid == uuid)
        {
            ask("switch the VPN", wifi::set_vpn_on(uuid, vpn.link == Link::Disconnected));
        }
    }

    fn on_popup_closed(&mut self, _item_key: &str) {
        self.open = false;
    }
}

obi_sdk::export!(Wifi);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fan_shows_the_strength() {
        assert_eq!(fan(90), icons::WIFI);
        assert_eq!(fan(50), icons::WIFI_MEDIUM);
        assert_eq!(fan(10), icons::WIFI_LOW);
    }
}

//! # Bluetooth
//!
//! BlueZ's adapter, as Waybar's `bluetooth` shows it: a Bluetooth icon,
//! crossed out while the radio is off, with dots while a device is
//! connected, and how many are (an Obi extension of the format). The
//! tooltip names the connected devices with their batteries. A click opens
//! a popup with the radio's switch and the paired devices, each with its
//! battery where it says, where choosing one connects it, or disconnects a
//! connected one. Without an adapter (or BlueZ) the widget shows nothing.
//!
//! | key            | values                                  | default |
//! |----------------|-----------------------------------------|---------|
//! | `enable`       | `true` / `false`                        | required |
//! | `label_prefix` | `None`, `Icon`, `Text`, `IconAndText`   | `Icon` |
//!
//! ```json
//! { "Bluetooth": { "enable": true, "label_prefix": "IconAndText" } }
//! ```

use obi_sdk::bluetooth::{self, Adapter, BluetoothStatus, Device};
use obi_sdk::config::BluetoothConfig as Config;
use obi_sdk::log::{self, Level};
use obi_sdk::{Input, Inputs, LabelPrefix, Piece, Popup, PopupInput, Schedule, View, Widget, ask, button, icons, item};

/// The item's key on the bar, and the popup's cells.
const BLUETOOTH: &str = "bluetooth";
const POWER: &str = "power";
/// A device's button is this and its address.
const DEVICE: &str = "device:";

pub struct Bluetooth {
    prefix: LabelPrefix,
    /// The adapter as last read; none without one.
    adapter: Option<Adapter>,
    open: bool,
}

/// A device as its line and tooltip name it: with its battery, when it says.
fn described(device: &Device) -> String {
    match device.battery_percent {
        Some(percent) => format!("{} · {percent}%", device.name),
        None => device.name.clone(),
    }
}

impl Widget for Bluetooth {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let bluetooth =
            Bluetooth { prefix: config.label_prefix.unwrap_or(LabelPrefix::Icon), adapter: None, open: false };
        // The host wakes the widget at each of BlueZ's changes.
        Ok((bluetooth, Schedule { interval_ms: 0, align_to_wall_clock: false }))
    }

    fn refresh(&mut self) -> View {
        self.adapter = match bluetooth::status() {
            BluetoothStatus::Present(adapter) => Some(adapter),
            BluetoothStatus::Absent(why) => {
                log::log(Level::Debug, &why);
                None
            }
        };
        let Some(adapter) = &self.adapter else { return View::empty() };
        let connected: Vec<&Device> = adapter.devices.iter().filter(|device| device.connected).collect();
        let (glyph, state, tooltip) = match (adapter.powered, connected.len()) {
            (false, _) => (icons::BLUETOOTH_SLASH, "off".to_owned(), "Bluetooth off".to_owned()),
            (true, 0) => (icons::BLUETOOTH, "on".to_owned(), "Bluetooth on, nothing connected".to_owned()),
            (true, count) => {
                let names: Vec<String> = connected.iter().map(|device| described(device)).collect();
                (icons::BLUETOOTH_CONNECTED, count.to_string(), format!("Connected: {}", names.join(", ")))
            }
        };
        let shown = item(BLUETOOTH)
            .takes(Inputs::PRIMARY_CLICK)
            .maybe(self.prefix.shows_icon().then(|| Piece::Icon(glyph.into())))
            .maybe(self.prefix.shows_text().then(|| Piece::Text(self.prefix.label("BT", &state))))
            .tooltip(tooltip)
            .selected(self.open);
        View::of([shown])
    }

    fn on_input(&mut self, _key: &str, input: Input) {
        if input == Input::PrimaryClick {
            self.open = !self.open;
        }
    }

    fn popup(&mut self) -> Option<Popup> {
        let adapter = self.adapter.as_ref().filter(|_| self.open)?;
        let power = button(POWER)
            .icon(if adapter.powered { icons::BLUETOOTH } else { icons::BLUETOOTH_SLASH })
            .text(if adapter.powered { "Turn Bluetooth off" } else { "Turn Bluetooth on" })
            .selected(adapter.powered);
        let popup = Popup::beside(BLUETOOTH).line(power);
        if !adapter.powered || adapter.devices.is_empty() {
            return Some(popup);
        }
        let devices = adapter.devices.iter().map(|device| {
            button(format!("{DEVICE}{}", device.address))
                .maybe(device.connected.then(|| Piece::Icon(icons::CHECK.into())))
                .text(described(device))
                .selected(device.connected)
        });
        Some(devices.fold(popup.separator(), Popup::line))
    }

    fn on_popup_input(&mut self, _item_key: &str, cell_key: &str, input: PopupInput) {
        if input != PopupInput::Input(Input::PrimaryClick) {
            return;
        }
        let Some(adapter) = &self.adapter else { return };
        if cell_key == POWER {
            ask("switch Bluetooth", bluetooth::set_powered(!adapter.powered));
        } else if let Some(address) = cell_key.strip_prefix(DEVICE)
            && let Some(device) = adapter.devices.iter().find(|device| device.address == address)
        {
            ask("connect or disconnect the device", bluetooth::set_connected(address, !device.connected));
        }
    }

    fn on_popup_closed(&mut self, _item_key: &str) {
        self.open = false;
    }
}

obi_sdk::export!(Bluetooth);

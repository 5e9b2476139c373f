//! Bluetooth, as BlueZ has it on the D-Bus system bus: the adapter's
//! radio, the paired devices, which are connected and their batteries;
//! followed by a thread of its own from BlueZ's signals, and changed from
//! another, so a device slow to connect keeps no widget waiting
//! ([`bluez`]). The thread starts at the first reading. Elsewhere than on
//! Linux and the BSDs there is no BlueZ to follow.

#[cfg(free_unix)]
mod bluez;

use crate::wake::{Follower, Waker};

/// A device paired with the adapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BluetoothDevice {
    pub address: String,
    pub name: String,
    pub connected: bool,
    pub battery_percent: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BluetoothStatus {
    /// The adapter: whether its radio is on, and its paired devices by name.
    Present { powered: bool, devices: Vec<BluetoothDevice> },
    /// No adapter to show, and why.
    Absent(String),
}

/// A change asked of BlueZ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BluetoothRequest {
    SetPowered(bool),
    SetConnected { address: String, connected: bool },
}

pub trait Bluetooth: Send + Sync {
    /// The adapter as last read; `waker`'s widget is woken at each change
    /// from now on.
    fn status(&self, waker: &Waker) -> BluetoothStatus;

    /// Asks BlueZ for `request`, which comes back through
    /// [`Bluetooth::status`]. Fails, saying why, without an adapter or such
    /// a device.
    fn request(&self, request: BluetoothRequest) -> Result<(), String>;
}

/// Refuses a request BlueZ could not take: no adapter, no such device.
pub fn check(status: &BluetoothStatus, request: &BluetoothRequest) -> Result<(), String> {
    let devices = match status {
        BluetoothStatus::Present { devices, .. } => devices,
        BluetoothStatus::Absent(why) => return Err(format!("no Bluetooth adapter: {why}")),
    };
    match request {
        BluetoothRequest::SetPowered(_) => Ok(()),
        BluetoothRequest::SetConnected { address, .. } if devices.iter().any(|device| device.address == *address) => {
            Ok(())
        }
        BluetoothRequest::SetConnected { address, .. } => Err(format!("no paired Bluetooth device at {address}")),
    }
}

pub struct SystemBluetooth(Follower<BluetoothStatus, BluetoothRequest>);

impl SystemBluetooth {
    pub fn new() -> SystemBluetooth {
        #[cfg(free_unix)]
        let (waiting, follow) = ("looking for BlueZ", bluez::follow);
        #[cfg(not(free_unix))]
        let (waiting, follow) = ("Bluetooth is read from BlueZ, on Linux", |_: &_, _| {});
        SystemBluetooth(Follower::new("Bluetooth", "obi-bluetooth", BluetoothStatus::Absent(waiting.into()), follow))
    }
}

impl Default for SystemBluetooth {
    fn default() -> Self {
        SystemBluetooth::new()
    }
}

impl Bluetooth for SystemBluetooth {
    fn status(&self, waker: &Waker) -> BluetoothStatus {
        self.0.read(waker)
    }

    fn request(&self, request: BluetoothRequest) -> Result<(), String> {
        check(&self.0.current(), &request)?;
        match self.0.request(request) {
            true => Ok(()),
            false => Err("Bluetooth is not followed".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_names_a_paired_device_of_an_adapter_there_is() {
        let headset = BluetoothDevice {
            address: "00:11".into(),
            name: "Headset".into(),
            connected: false,
            battery_percent: None,
        };
        let present = BluetoothStatus::Present { powered: true, devices: vec![headset] };
        let connect = |address: &str| BluetoothRequest::SetConnected { address: address.into(), connected: true };
        assert_eq!(check(&present, &connect("00:11")), Ok(()));
        assert_eq!(check(&present, &connect("00:22")), Err("no paired Bluetooth device at 00:22".into()));
        let absent = BluetoothStatus::Absent("BlueZ is not running".into());
        assert_eq!(
            check(&absent, &BluetoothRequest::SetPowered(true)),
            Err("no Bluetooth adapter: BlueZ is not running".into())
        );
    }
}

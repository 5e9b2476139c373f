//! The system's services as Debian's python3-dbusmock simulates them
//! (logind, NetworkManager, BlueZ, power-profiles-daemon: its templates),
//! on a private bus of the test's own that the bar takes for the system
//! bus (`DBUS_SYSTEM_BUS_ADDRESS`); and Python code run against that bus,
//! with dbus-python, to set the simulators up and read back the calls they
//! took (dbusmock's `GetCalls`). Everything stops when dropped.

use crate::session_bus::SessionBus;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// Debian's Python, which has dbus-python and dbusmock (the one first on
/// the PATH may be another build without them).
const PYTHON: &str = "/usr/bin/python3";

/// What every piece of code starts with: `bus`, the test's bus, and
/// `mock(name, path)`, the dbusmock control interface of an object.
const PRELUDE: &str = r#"
import sys, time, dbus
bus = dbus.bus.BusConnection(sys.argv[1])
def mock(name, path):
    return dbus.Interface(bus.get_object(name, path), "org.freedesktop.DBus.Mock")
"#;

pub struct SystemServices {
    bus: SessionBus,
    simulators: Vec<Child>,
}

impl SystemServices {
    /// A private bus for `tests`, or a loud skip (a failure under CI)
    /// without dbus-daemon or python3-dbusmock.
    pub fn for_tests(tests: &str) -> Option<SystemServices> {
        let bus = SessionBus::for_tests(tests, None)?;
        let has_dbusmock = Command::new(PYTHON)
            .args(["-c", "import dbus, dbusmock"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        if !has_dbusmock {
            crate::skip::unavailable(&format!("{tests}: no python3-dbusmock for {PYTHON} (.ci/run installs it)"));
            return None;
        }
        Some(SystemServices { bus, simulators: Vec::new() })
    }

    /// The bus's address, for the bar's `DBUS_SYSTEM_BUS_ADDRESS`.
    pub fn address(&self) -> &str {
        &self.bus.address
    }

    /// Starts dbusmock's `template` on the bus, and waits until it owns
    /// `name` (its service's well-known name).
    pub fn simulate(&mut self, template: &str, name: &str) {
        let simulator = Command::new(PYTHON)
            .args(["-m", "dbusmock", "--system", "--template", template])
            .env("DBUS_SYSTEM_BUS_ADDRESS", &self.bus.address)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|error| panic!("starting dbusmock's {template}: {error}"));
        self.simulators.push(simulator);
        let waited = self.python(&format!(
            "for _ in range(200):\n    if bus.name_has_owner({name:?}): break\n    time.sleep(0.05)\nprint(bus.name_has_owner({name:?}))"
        ));
        assert_eq!(waited.trim(), "True", "dbusmock's {template} took no {name} within 10 s");
    }

    /// logind with the caller's session (`session/auto`), whose
    /// `SetBrightness` sets a panel of the backlight folder `class` at once
    /// and whole (a rename), as the kernel would; one asked for
    /// `never_answered` steps is set and never answered.
    pub fn logind_setting_backlight(&mut self, class: &Path, never_answered: Option<u32>) {
        self.simulate("logind", "org.freedesktop.login1");
        let hang = never_answered.map_or_else(String::new, |steps| format!("\nif args[2] == {steps}: time.sleep(20)"));
        let set = format!(
            "import os, time\n\
             device = os.path.join({class:?}, args[1])\n\
             with open(os.path.join(device, 'level.new'), 'w') as new: new.write(f'{{args[2]}}\\n')\n\
             os.rename(os.path.join(device, 'level.new'), os.path.join(device, 'actual_brightness')){hang}",
            class = class.display().to_string(),
        );
        self.python(&format!(
            "manager = mock('org.freedesktop.login1', '/org/freedesktop/login1')\n\
             path = manager.AddSession('auto', 'seat0', dbus.UInt32(1000), 'user', True)\n\
             mock('org.freedesktop.login1', path).AddMethod('org.freedesktop.login1.Session', 'SetBrightness', 'ssu', '', {set:?})"
        ));
    }

    /// Stops every simulator started: their services vanish from the bus.
    /// NetworkManager with a Wi-Fi device (`wlan0`) in range of Home (two
    /// access points, at 40 % and 75 %, WPA, known: a saved connection at
    /// `Settings/home`), Café (55 %, open) and Neighbours (20 %, WPA,
    /// unknown), and a VPN connection, Office (`vpn-office`); none joined.
    pub fn network_manager_at_home(&mut self) {
        self.simulate("networkmanager", "org.freedesktop.NetworkManager");
        self.python(
            "nm = mock('org.freedesktop.NetworkManager', '/org/freedesktop')\n\
             device = nm.AddWiFiDevice('wlan0', 'wlan0', dbus.UInt32(30))\n\
             psk = dbus.UInt32(0x100)\n\
             for name, ssid, mac, strength, security in (('home1', 'Home', '00:11:22:33:44:01', 40, psk),\n\
                                                         ('home2', 'Home', '00:11:22:33:44:02', 75, psk),\n\
                                                         ('cafe', 'Café', '00:11:22:33:44:03', 55, dbus.UInt32(0)),\n\
                                                         ('next', 'Neighbours', '00:11:22:33:44:04', 20, psk)):\n    \
                 nm.AddAccessPoint(device, name, ssid, mac, dbus.UInt32(2), dbus.UInt32(2437), dbus.UInt32(54000), \
                 dbus.Byte(strength), security)\n\
             nm.AddWiFiConnection(device, 'home', 'Home', 'wpa-psk')\n\
             settings = dbus.Interface(bus.get_object('org.freedesktop.NetworkManager', \
             '/org/freedesktop/NetworkManager/Settings'), 'org.freedesktop.NetworkManager.Settings')\n\
             settings.AddConnection({'connection': {'type': 'vpn', 'id': 'Office', 'uuid': 'vpn-office'}, \
             'vpn': {'service-type': 'org.freedesktop.NetworkManager.openvpn'}})",
        );
    }

    /// The methods NetworkManager's manager object was called with, a
    /// line each: the method and its object paths.
    pub fn network_manager_calls(&self) -> String {
        self.python(
            "for _, method, args in mock('org.freedesktop.NetworkManager', '/org/freedesktop/NetworkManager').GetCalls():\n    \
             print(method, *[str(arg) for arg in args if not isinstance(arg, dbus.Dictionary)])",
        )
    }

    pub fn stop_simulators(&mut self) {
        for mut simulator in self.simulators.drain(..) {
            let _ = simulator.kill();
            let _ = simulator.wait();
        }
    }

    /// Runs `code` after the prelude (`bus`, `mock(name, path)`): what it
    /// prints. Panics with Python's error when it fails.
    pub fn python(&self, code: &str) -> String {
        let output = Command::new(PYTHON)
            .args(["-c", &format!("{PRELUDE}\n{code}"), &self.bus.address])
            .output()
            .unwrap_or_else(|error| panic!("running {PYTHON}: {error}"));
        let said = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(output.status.success(), "{code}\nfailed: {}", String::from_utf8_lossy(&output.stderr));
        said
    }
}

impl Drop for SystemServices {
    fn drop(&mut self) {
        self.stop_simulators();
    }
}

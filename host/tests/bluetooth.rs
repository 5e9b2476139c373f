//! Bluetooth from BlueZ as python3-dbusmock simulates it on a private bus
//! the capability takes for the system bus: the adapter and a paired
//! device with its battery, connecting it and switching the radio off
//! through the capability (read back from the simulator), BlueZ going, and
//! one that takes its name and never answers.

#![cfg(target_os = "linux")]

use obi::capabilities::{Bluetooth, BluetoothDevice, BluetoothRequest, BluetoothStatus, SystemBluetooth};
use obi::wake::Waker;
use obi_test_support::system_services::SystemServices;
use std::time::{Duration, Instant};

const HEADPHONES: &str = "11:22:33:44:55:66";

/// The template's Connect and Disconnect say a device changed without
/// changing it, where BlueZ's own change what they say: these do both.
const CONNECTING: &str = "for method, on in (('Connect', True), ('Disconnect', False)):\n    \
     device.AddMethod('org.bluez.Device1', method, '', '', \
     f\"self.UpdateProperties('org.bluez.Device1', {{'Connected': dbus.Boolean({on})}})\")";

fn read_until(bluetooth: &SystemBluetooth, wanted: &BluetoothStatus) -> BluetoothStatus {
    let waker = Waker::new(|| {});
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let status = bluetooth.status(&waker);
        if status == *wanted || Instant::now() > deadline {
            return status;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn present(powered: bool, connected: bool) -> BluetoothStatus {
    let headphones =
        BluetoothDevice { address: HEADPHONES.into(), name: "Headphones".into(), connected, battery_percent: Some(80) };
    BluetoothStatus::Present { powered, devices: vec![headphones] }
}

#[test]
fn a_paired_device_is_listed_connected_and_the_radio_switched_off() {
    let Some(mut services) = SystemServices::for_tests("Bluetooth") else { return };
    services.simulate("bluez5", "org.bluez");
    services.python(&format!(
        "bluez = dbus.Interface(bus.get_object('org.bluez', '/'), 'org.bluez.Mock')\n\
         bluez.AddAdapter('hci0', 'obi-test')\n\
         path = bluez.AddDevice('hci0', '{HEADPHONES}', 'Headphones')\n\
         bluez.AddDevice('hci0', 'AA:BB:CC:DD:EE:FF', 'Not paired')\n\
         bluez.PairDevice('hci0', '{HEADPHONES}', 2360324)\n\
         device = mock('org.bluez', path)\n\
         device.AddProperties('org.bluez.Battery1', {{'Percentage': dbus.Byte(80)}})\n\
         {CONNECTING}"
    ));
    // SAFETY: this file's only test, before the thread that reads it starts.
    unsafe { std::env::set_var("DBUS_SYSTEM_BUS_ADDRESS", services.address()) };

    let bluetooth = SystemBluetooth::new();
    assert_eq!(read_until(&bluetooth, &present(true, false)), present(true, false), "the unpaired one is left out");
    let connect = BluetoothRequest::SetConnected { address: HEADPHONES.into(), connected: true };
    bluetooth.request(connect).unwrap();
    assert_eq!(read_until(&bluetooth, &present(true, true)), present(true, true));
    let calls = services.python(
        "for _, method, _ in mock('org.bluez', '/org/bluez/hci0/dev_11_22_33_44_55_66').GetCalls(): print(method)",
    );
    assert!(calls.lines().any(|method| method == "Connect"), "BlueZ was asked to connect: {calls}");
    let unknown = BluetoothRequest::SetConnected { address: "00:00:00:00:00:01".into(), connected: true };
    assert!(bluetooth.request(unknown).unwrap_err().contains("no paired Bluetooth device"));

    bluetooth.request(BluetoothRequest::SetPowered(false)).unwrap();
    assert_eq!(read_until(&bluetooth, &present(false, true)), present(false, true), "the radio switched off");

    services.stop_simulators();
    let gone = BluetoothStatus::Absent("BlueZ is not running".into());
    assert_eq!(read_until(&bluetooth, &gone), gone);

    // A BlueZ that takes the name and never answers: said, and no reading waits.
    let _silent = zbus::blocking::connection::Builder::address(services.address())
        .unwrap()
        .name("org.bluez")
        .unwrap()
        .build()
        .unwrap();
    let waker = Waker::new(|| {});
    let deadline = Instant::now() + Duration::from_secs(10);
    let unanswered = loop {
        let asked = Instant::now();
        let status = bluetooth.status(&waker);
        assert!(asked.elapsed() < Duration::from_millis(200), "a reading waited on the bus");
        if status != gone || Instant::now() > deadline {
            break status;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let BluetoothStatus::Absent(why) = &unanswered else { panic!("{unanswered:?}") };
    assert!(why.contains("cannot be read") && why.contains("timed out"), "{why}");
}

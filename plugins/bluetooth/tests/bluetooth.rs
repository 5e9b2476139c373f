//! The Bluetooth widget against a scripted adapter, which carries out its
//! requests as BlueZ would (the bar's own tests drive BlueZ's simulator).

use obi_harness::{
    BluetoothDevice, BluetoothRequest, BluetoothStatus, Emphasis, Harness, Input, Piece, PopupInput, Script, View,
    popup_rows, texts,
};

fn device(address: &str, name: &str, connected: bool, battery_percent: Option<u8>) -> BluetoothDevice {
    BluetoothDevice { address: address.into(), name: name.into(), connected, battery_percent }
}

fn adapter(powered: bool) -> Script {
    let script = Script::at("2026-12-04T08:00:00Z".parse().unwrap());
    let devices = vec![device("00:11", "Headphones", true, Some(80)), device("00:22", "Mouse", false, None)];
    script.set_bluetooth(BluetoothStatus::Present { powered, devices });
    script
}

fn widget(script: &Script) -> Harness {
    Harness::stock("Bluetooth", r#"{ "enable": true, "label_prefix": "IconAndText" }"#, script).unwrap()
}

fn icon(view: &View) -> Option<&str> {
    view.items[0].pieces.iter().find_map(|piece| match piece {
        Piece::Icon(glyph) => Some(glyph.as_str()),
        _ => None,
    })
}

#[test]
fn the_icon_shows_the_radio_and_the_connected_devices() {
    let script = adapter(true);
    let mut bluetooth = widget(&script);
    assert_eq!(bluetooth.schedule().interval_ms, 0, "pushed, never polled");
    let shown = bluetooth.refresh().unwrap();
    assert_eq!((texts(&shown), icon(&shown)), (vec!["BT: 1".to_owned()], Some("\u{e0dc}")), "connected: dots");
    assert_eq!(shown.items[0].tooltip.as_deref(), Some("Connected: Headphones · 80%"));

    script.set_bluetooth(BluetoothStatus::Present { powered: false, devices: vec![] });
    assert!(bluetooth.wait_for_wake(std::time::Duration::from_secs(5)), "a change wakes the widget");
    let shown = bluetooth.refresh().unwrap();
    assert_eq!((texts(&shown), icon(&shown)), (vec!["BT: off".to_owned()], Some("\u{e0de}")), "off: crossed out");

    script.set_bluetooth(BluetoothStatus::Absent("no Bluetooth adapter".into()));
    assert!(bluetooth.refresh().unwrap().items.is_empty(), "no adapter: nothing shown");
}

#[test]
fn the_popup_connects_a_device_and_switches_the_radio() {
    let script = adapter(true);
    let mut bluetooth = widget(&script);
    bluetooth.refresh().unwrap();
    let shown = bluetooth.input("bluetooth", Input::PrimaryClick).unwrap();
    assert_eq!(popup_rows(&shown), [["Turn Bluetooth off"], ["-"], ["Headphones · 80%"], ["Mouse"]]);
    assert_eq!(shown.items[0].emphasis, Emphasis::Selected, "lit while its popup is open");

    let shown = bluetooth.popup_input("bluetooth", "device:00:22", PopupInput::Input(Input::PrimaryClick)).unwrap();
    assert_eq!(texts(&shown), ["BT: 2"], "the mouse connected");
    bluetooth.popup_input("bluetooth", "device:00:11", PopupInput::Input(Input::PrimaryClick)).unwrap();
    let shown = bluetooth.popup_input("bluetooth", "power", PopupInput::Input(Input::PrimaryClick)).unwrap();
    assert_eq!(popup_rows(&shown), [["Turn Bluetooth on"]], "off: no devices to choose");
    let connect = |address: &str, connected| BluetoothRequest::SetConnected { address: address.into(), connected };
    assert_eq!(
        script.bluetooth_requests(),
        [connect("00:22", true), connect("00:11", false), BluetoothRequest::SetPowered(false)]
    );
    assert_eq!(bluetooth.close_popup().unwrap().popup, None);
}

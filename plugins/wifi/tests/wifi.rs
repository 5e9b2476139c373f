//! The Wifi widget against a scripted NetworkManager, which carries out
//! its requests at once (the bar's own tests ask dbusmock's).

use obi_harness::{
    Block, Content, Emphasis, Harness, Input, Link, Networks, Piece, PopupInput, Script, Security, Vpn, WifiNetwork,
    WifiRequest, WifiStatus, popup_rows, texts,
};

fn network(ssid: &str, strength: u8, security: Security, known: bool, link: Link) -> WifiNetwork {
    WifiNetwork { ssid: ssid.into(), strength, security, known, link }
}

fn at_home() -> Networks {
    Networks {
        has_wifi_device: true,
        enabled: true,
        hardware_enabled: true,
        wifi: vec![
            network("Home", 80, Security::Personal, true, Link::Connected),
            network("Café", 55, Security::Open, false, Link::Disconnected),
            network("Neighbours", 20, Security::Personal, false, Link::Disconnected),
        ],
        vpns: vec![Vpn { name: "Office".into(), uuid: "vpn-office".into(), link: Link::Disconnected }],
    }
}

fn script(networks: Networks) -> Script {
    let script = Script::at("2026-12-05T08:00:00Z".parse().unwrap());
    script.set_wifi(WifiStatus::Present(networks));
    script
}

fn wifi(options: &str, script: &Script) -> Harness {
    Harness::stock("Wifi", &format!(r#"{{ "enable": true {options} }}"#), script).unwrap()
}

fn fan(view: &obi_harness::View) -> Option<&str> {
    view.items[0].pieces.iter().find_map(|piece| match piece {
        Piece::Icon(glyph) => Some(glyph.as_str()),
        _ => None,
    })
}

#[test]
fn the_joined_networks_strength_and_name_show() {
    let script = script(at_home());
    let mut wifi = wifi(r#", "label_prefix": "IconAndText""#, &script);
    assert_eq!(wifi.schedule().interval_ms, 0, "pushed, never polled");
    let shown = wifi.refresh().unwrap();
    assert_eq!((texts(&shown), fan(&shown)), (vec!["Wi-Fi: Home".to_owned()], Some("\u{e4ea}")), "a full fan");
    assert_eq!(shown.items[0].tooltip.as_deref(), Some("Connected to Home (80 %)"));

    let mut weaker = at_home();
    weaker.wifi[0].strength = 30;
    weaker.vpns[0].link = Link::Connected;
    script.set_wifi(WifiStatus::Present(weaker));
    assert!(wifi.wait_for_wake(std::time::Duration::from_secs(5)), "a change wakes the widget");
    let shown = wifi.refresh().unwrap();
    assert_eq!(fan(&shown), Some("\u{e4ec}"), "a weak one");
    assert_eq!(shown.items[0].tooltip.as_deref(), Some("Connected to Home (30 %)\nVPN Office on"));

    let mut off = at_home();
    off.enabled = false;
    script.set_wifi(WifiStatus::Present(off));
    let shown = wifi.refresh().unwrap();
    assert_eq!((texts(&shown), fan(&shown)), (vec!["Wi-Fi: off".to_owned()], Some("\u{e4f2}")));

    script.set_wifi(WifiStatus::Absent("NetworkManager is not running".into()));
    assert!(wifi.refresh().unwrap().items.is_empty(), "no NetworkManager: nothing shown");
    let mut wired = at_home();
    (wired.has_wifi_device, wired.wifi, wired.vpns) = (false, Vec::new(), Vec::new());
    script.set_wifi(WifiStatus::Present(wired));
    assert!(wifi.refresh().unwrap().items.is_empty(), "no Wi-Fi and no VPN: nothing shown");
}

#[test]
fn the_popup_joins_leaves_switches_and_marks_what_needs_the_settings() {
    let script = script(at_home());
    let mut wifi = wifi("", &script);
    wifi.refresh().unwrap();
    let shown = wifi.input("wifi", Input::PrimaryClick).unwrap();
    assert_eq!(
        popup_rows(&shown),
        [
            ["Turn Wi-Fi off"],
            ["-"],
            ["Home · 80%"],
            ["Café · 55%"],
            ["Neighbours · 20% · join in Settings"],
            ["-"],
            ["VPN Office"]
        ]
    );
    let neighbours = shown.popup.as_ref().unwrap().blocks.iter().find_map(|block| match block {
        Block::Line(cell) if matches!(&cell.content, Content::Label(pieces) if pieces.len() == 2) => Some(cell),
        _ => None,
    });
    assert!(
        neighbours.is_some_and(|cell| cell.emphasis == Emphasis::Muted && cell.key.is_empty()),
        "the secured unknown network is a faded label, not a button: {neighbours:?}"
    );

    let shown = wifi.popup_input("wifi", "network:Café", PopupInput::Input(Input::PrimaryClick)).unwrap();
    assert_eq!(shown.items[0].tooltip.as_deref(), Some("Connected to Café (55 %)"), "joined");
    wifi.popup_input("wifi", "network:Café", PopupInput::Input(Input::PrimaryClick)).unwrap();
    wifi.popup_input("wifi", "vpn:vpn-office", PopupInput::Input(Input::PrimaryClick)).unwrap();
    let shown = wifi.popup_input("wifi", "switch", PopupInput::Input(Input::PrimaryClick)).unwrap();
    assert_eq!(popup_rows(&shown)[..2], [["Turn Wi-Fi on"], ["-"]], "off: no networks, the VPN still");
    // A click on the faded network asks nothing.
    wifi.popup_input("wifi", "network:Neighbours", PopupInput::Input(Input::PrimaryClick)).unwrap();
    let join = |ssid: &str, connected| WifiRequest::SetConnected { ssid: ssid.into(), connected };
    assert_eq!(
        script.wifi_requests(),
        [
            join("Café", true),
            join("Café", false),
            WifiRequest::SetVpnOn { uuid: "vpn-office".into(), on: true },
            WifiRequest::SetEnabled(false)
        ]
    );
}

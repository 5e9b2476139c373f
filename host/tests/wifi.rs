//! Wi-Fi and VPN connections from NetworkManager as python3-dbusmock
//! simulates it on a private bus the capability takes for the system bus:
//! the networks in range with their strength and security, a known one
//! joined through its saved connection and an open one anew (read back
//! from the simulator's calls), a secured unknown one refused, Wi-Fi
//! switched off, a VPN switched on and off, NetworkManager going, and one
//! that takes its name and never answers.

#![cfg(target_os = "linux")]

use obi::capabilities::wifi::{Link, Networks, Security, Vpn, WifiNetwork};
use obi::capabilities::{SystemWifi, Wifi, WifiRequest, WifiStatus};
use obi::wake::Waker;
use obi_test_support::system_services::SystemServices;
use std::time::{Duration, Instant};

/// Reads until `wanted` says yes of a reading (10 s at most); the last one.
/// No reading waits on the bus.
fn read_status_until(wifi: &SystemWifi, wanted: impl Fn(&WifiStatus) -> bool) -> WifiStatus {
    let waker = Waker::new(|| {});
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let asked = Instant::now();
        let status = wifi.status(&waker);
        assert!(asked.elapsed() < Duration::from_millis(200), "a reading waited on the bus");
        if wanted(&status) || Instant::now() > deadline {
            return status;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Reads until `wanted` says yes of the networks (10 s at most); the last reading.
fn read_until(wifi: &SystemWifi, wanted: impl Fn(&Networks) -> bool) -> WifiStatus {
    read_status_until(wifi, |status| matches!(status, WifiStatus::Present(networks) if wanted(networks)))
}

fn network(ssid: &str, strength: u8, security: Security, known: bool, link: Link) -> WifiNetwork {
    WifiNetwork { ssid: ssid.into(), strength, security, known, link }
}

/// The networks' links, by SSID.
fn links(networks: &Networks) -> Vec<(&str, Link)> {
    networks.wifi.iter().map(|network| (network.ssid.as_str(), network.link)).collect()
}

#[test]
fn networks_in_range_are_listed_joined_and_left_and_vpns_switched() {
    let Some(mut services) = SystemServices::for_tests("Wi-Fi") else { return };
    services.network_manager_at_home();
    // SAFETY: this file's only test, before the thread that reads it starts.
    unsafe { std::env::set_var("DBUS_SYSTEM_BUS_ADDRESS", services.address()) };

    let wifi = SystemWifi::new();
    let status = read_until(&wifi, |networks| networks.wifi.len() == 3 && !networks.vpns.is_empty());
    let office = Vpn { name: "Office".into(), uuid: "vpn-office".into(), link: Link::Disconnected };
    let expected = Networks {
        has_wifi_device: true,
        enabled: true,
        hardware_enabled: true,
        wifi: vec![
            network("Home", 75, Security::Personal, true, Link::Disconnected),
            network("Café", 55, Security::Open, false, Link::Disconnected),
            network("Neighbours", 20, Security::Personal, false, Link::Disconnected),
        ],
        vpns: vec![office],
    };
    assert_eq!(status, WifiStatus::Present(expected), "one network a SSID, at its strongest, by strength");

    let join = |ssid: &str, connected| WifiRequest::SetConnected { ssid: ssid.into(), connected };
    wifi.request(join("Home", true)).unwrap();
    let status = read_until(&wifi, |networks| links(networks)[0] == ("Home", Link::Connected));
    let WifiStatus::Present(networks) = &status else { panic!("{status:?}") };
    assert_eq!(links(networks)[0], ("Home", Link::Connected), "{status:?}");
    let calls = services.network_manager_calls();
    assert!(
        calls.contains(
            "ActivateConnection /org/freedesktop/NetworkManager/Settings/home /org/freedesktop/NetworkManager/Devices/wlan0 /org/freedesktop/NetworkManager/AccessPoint/home2"
        ),
        "the saved connection, through the strongest access point: {calls}"
    );
    let refused = wifi.request(join("Neighbours", true)).unwrap_err();
    assert!(refused.contains("system's network settings"), "{refused}");

    wifi.request(join("Home", false)).unwrap();
    read_until(&wifi, |networks| links(networks).iter().all(|(_, link)| *link == Link::Disconnected));
    wifi.request(join("Café", true)).unwrap();
    let status = read_until(&wifi, |networks| {
        networks.wifi.iter().any(|network| network.ssid == "Café" && network.known && network.link == Link::Connected)
    });
    let WifiStatus::Present(networks) = &status else { panic!("{status:?}") };
    assert!(links(networks).contains(&("Café", Link::Connected)), "an open network joined anew: {status:?}");

    wifi.request(WifiRequest::SetVpnOn { uuid: "vpn-office".into(), on: true }).unwrap();
    read_until(&wifi, |networks| networks.vpns[0].link == Link::Connected);
    wifi.request(WifiRequest::SetVpnOn { uuid: "vpn-office".into(), on: false }).unwrap();
    let status = read_until(&wifi, |networks| networks.vpns[0].link == Link::Disconnected);
    let WifiStatus::Present(networks) = &status else { panic!("{status:?}") };
    assert_eq!(networks.vpns[0].link, Link::Disconnected, "{status:?}");

    wifi.request(WifiRequest::SetEnabled(false)).unwrap();
    let status = read_until(&wifi, |networks| !networks.enabled);
    assert!(matches!(&status, WifiStatus::Present(networks) if !networks.enabled), "{status:?}");

    services.stop_simulators();
    let gone = WifiStatus::Absent("NetworkManager is not running".into());
    assert_eq!(read_status_until(&wifi, |status| *status == gone), gone);
    assert!(wifi.request(WifiRequest::SetEnabled(true)).is_err(), "nothing to switch without NetworkManager");

    // A NetworkManager that takes the name and never answers: said, and no reading waits.
    let silent = zbus::blocking::connection::Builder::address(services.address())
        .unwrap()
        .name("org.freedesktop.NetworkManager")
        .unwrap()
        .build()
        .unwrap();
    let unanswered = read_status_until(&wifi, |status| *status != gone);
    let WifiStatus::Absent(why) = &unanswered else { panic!("{unanswered:?}") };
    assert!(why.contains("cannot be read") && why.contains("timed out"), "{why}");
    drop(silent);
}

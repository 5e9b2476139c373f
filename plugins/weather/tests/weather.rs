//! The Weather widget against an Open-Meteo stand-in on a local port, which
//! answers with `berlin.json` (in the shape of Open-Meteo's forecast
//! answer) and can be taken down.

use obi_harness::{Emphasis, Harness, Piece, Script, View, texts};
use obi_test_support::web_server::WebServer;
use std::time::Duration;

const BERLIN: &str = include_str!("berlin.json");

fn open_meteo() -> WebServer {
    WebServer::serving(BERLIN)
}

fn script() -> Script {
    Script::at("2026-11-25T05:00:00Z".parse().unwrap())
}

fn weather(server: &WebServer, options: &str, script: &Script) -> Harness {
    let config = format!(
        r#"{{ "enable": true, "latitude": 52.52, "longitude": 13.41, "open_meteo_url": "{}" {options} }}"#,
        server.url
    );
    Harness::stock("Weather", &config, script).unwrap()
}

/// The view once the reading has come back, as the bar shows it after the wake.
fn read(weather: &mut Harness) -> View {
    let answered = weather.refresh_when_answered(Duration::from_secs(20)).unwrap();
    answered.expect("the widget is woken when the reading has ended")
}

#[test]
fn the_temperature_with_its_weathers_icon_and_the_days_forecast() {
    let server = open_meteo();
    let script = script();
    let mut weather = weather(&server, "", &script);
    assert!(weather.refresh().unwrap().items.is_empty(), "nothing while the first reading is under way");
    assert!(weather.wait_for_wake(Duration::from_secs(20)));
    let shown = weather.refresh().unwrap();
    assert_eq!(texts(&shown), ["3°C"]);
    // Overcast (WMO 3).
    assert_eq!(shown.items[0].pieces[0], Piece::Icon("\u{e1aa}".into()));
    assert_eq!(
        shown.items[0].tooltip.as_deref(),
        Some("Overcast, 3.4 °C at 06:00\nToday: Rain, 1°C to 5°C, 80 % chance of rain")
    );
    let asked = server.requests();
    assert_eq!(asked.len(), 1);
    assert!(asked[0].starts_with("GET /v1/forecast?latitude=52.52&longitude=13.41&current="), "{asked:?}");
    assert!(!asked[0].contains("fahrenheit"), "{asked:?}");
}

#[test]
fn offline_the_last_reading_stays_muted_and_says_since_when() {
    let server = open_meteo();
    let script = script();
    let mut weather = weather(&server, r#", "data_refresh_interval": 600, "label_prefix": "Text""#, &script);
    assert_eq!(weather.schedule().interval_ms, 300_000, "looked at every five minutes");
    assert_eq!(texts(&read(&mut weather)), ["Weather: 3°C"]);

    server.set_up(false);
    script.advance(Duration::from_secs(300));
    weather.refresh().unwrap();
    assert!(!weather.wait_for_wake(Duration::from_millis(300)), "not asked before its interval");
    script.advance(Duration::from_secs(300));
    let stale = read(&mut weather);
    assert_eq!(texts(&stale), ["Weather: 3°C"], "the last reading stays");
    assert_eq!(stale.items[0].emphasis, Emphasis::Muted);
    let tooltip = stale.items[0].tooltip.clone().unwrap();
    assert!(tooltip.starts_with("Open-Meteo cannot be reached: ") && tooltip.contains("the last reading, from 06:00"));

    // Asked again within five minutes, not the full interval.
    server.set_up(true);
    script.advance(Duration::from_secs(300));
    let back = read(&mut weather);
    assert_eq!(back.items[0].emphasis, Emphasis::Normal);
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn imperial_units_are_asked_for_and_a_place_off_the_globe_is_refused() {
    let server = open_meteo();
    let script = script();
    read(&mut weather(&server, r#", "units": "Imperial""#, &script));
    assert!(server.requests()[0].contains("&temperature_unit=fahrenheit"), "{:?}", server.requests());
    let config = r#"{ "enable": true, "latitude": 95, "longitude": 13.41 }"#;
    let refused = Harness::stock("Weather", config, &script).err().expect("latitude 95 is refused");
    assert!(refused.contains("latitude 95"), "{refused}");
}

#[test]
fn a_requested_refresh_reads_at_once() {
    let server = open_meteo();
    let script = script();
    let mut weather = weather(&server, "", &script);
    read(&mut weather);
    weather.request_refresh().unwrap();
    assert!(weather.wait_for_wake(Duration::from_secs(20)), "read again well within its half hour");
    weather.refresh().unwrap();
    assert_eq!(server.requests().len(), 2);
}

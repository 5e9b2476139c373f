//! The Update widget against a release feed served on a local port.

use obi_harness::{Harness, Input, Script, View, texts};
use obi_test_support::web_server::WebServer;
use std::net::TcpListener;
use std::time::Duration;

/// The version every stock widget is built with: the workspace's.
const RUNNING: &str = env!("CARGO_PKG_VERSION");

/// Serves `body` as JSON to every request, on a port of its own: the feed's URL.
fn serve(body: String) -> String {
    format!("{}/releases", WebServer::serving(body).url)
}

fn script() -> Script {
    Script::at("2024-03-09T15:04:05Z".parse().unwrap())
}

fn update(feed: &str, script: &Script) -> Harness {
    let config = format!(r#"{{ "enable": true, "release_feed": "{feed}" }}"#);
    Harness::stock("Update", &config, script).unwrap()
}

/// The view once the check has come back, as the bar shows it after the wake.
fn checked(update: &mut Harness) -> View {
    assert!(update.refresh().unwrap().items.is_empty(), "nothing is shown while the check is under way");
    assert!(update.wait_for_wake(Duration::from_secs(20)), "the widget is woken when the check has ended");
    update.refresh().unwrap()
}

fn bumped_minor() -> String {
    let mut parts: Vec<u64> = RUNNING.split('.').map(|part| part.parse().unwrap()).collect();
    parts[1] += 1;
    format!("{}.{}.0", parts[0], parts[1])
}

#[test]
fn a_newer_release_is_selected_and_a_click_opens_its_page() {
    let newer = bumped_minor();
    let feed = serve(format!(
        r#"[ {{ "tag_name": "v{newer}", "html_url": "https://example.org/obi/v{newer}" }},
             {{ "tag_name": "v99.0.0-rc.1", "prerelease": true, "html_url": "https://example.org/rc" }},
             {{ "tag_name": "v{RUNNING}", "html_url": "https://example.org/obi/v{RUNNING}" }} ]"#
    ));
    let script = script();
    let mut update = update(&feed, &script);
    let shown = checked(&mut update);
    assert_eq!(texts(&shown), [format!("UPDATE: v{newer}")]);
    assert!(shown.items[0].is_selected());
    assert!(shown.items[0].tooltip.as_deref().unwrap().contains(RUNNING));
    update.input("update", Input::PrimaryClick).unwrap();
    assert_eq!(script.opened(), [format!("https://example.org/obi/v{newer}")]);
}

#[test]
fn up_to_date_shows_nothing() {
    let feed = serve(format!(r#"{{ "tag_name": "v{RUNNING}", "html_url": "https://example.org/now" }}"#));
    let script = script();
    assert!(checked(&mut update(&feed, &script)).items.is_empty());
}

#[test]
fn offline_is_quiet_and_checked_again_later() {
    let closed = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let script = script();
    let mut update = update(&format!("http://{closed}/releases"), &script);
    assert!(checked(&mut update).items.is_empty(), "no error shown");
    // Not asked again within the hour ...
    script.advance(Duration::from_secs(1800));
    update.refresh().unwrap();
    assert!(!update.wait_for_wake(Duration::from_millis(500)), "checked again too soon");
    // ... but after it.
    script.advance(Duration::from_secs(1800));
    assert!(checked(&mut update).items.is_empty());
}

#[test]
fn the_check_follows_its_interval_in_hours() {
    let server = WebServer::serving(format!(r#"{{ "tag_name": "v{RUNNING}" }}"#));
    let feed = format!("{}/releases", server.url);
    let script = script();
    let config = format!(r#"{{ "enable": true, "data_refresh_interval": 2, "release_feed": "{feed}" }}"#);
    let mut update = Harness::stock("Update", &config, &script).unwrap();
    assert_eq!(update.schedule().interval_ms, 3_600_000, "refreshed hourly to see whether a check is due");
    checked(&mut update);
    script.advance(Duration::from_secs(3600));
    update.refresh().unwrap();
    assert!(!update.wait_for_wake(Duration::from_millis(500)), "not due after one hour of two");
    script.advance(Duration::from_secs(3600));
    checked(&mut update);
    // The feed answers at once: a check started too soon would have been a third request.
    assert_eq!(server.requests().len(), 2, "the feed was asked at the start and after two hours");
}

#[test]
fn without_a_feed_it_shows_nothing() {
    let script = script();
    let mut update = Harness::stock("Update", r#"{ "enable": true }"#, &script).unwrap();
    assert!(update.refresh().unwrap().items.is_empty());
    assert!(!update.wait_for_wake(Duration::from_millis(200)));
}

#[test]
fn a_requested_refresh_checks_at_once() {
    let server = WebServer::serving(format!(r#"{{ "tag_name": "v{RUNNING}" }}"#));
    let script = script();
    let config = format!(r#"{{ "enable": true, "release_feed": "{}/releases" }}"#, server.url);
    let mut update = Harness::stock("Update", &config, &script).unwrap();
    checked(&mut update);
    update.request_refresh().unwrap();
    assert!(update.wait_for_wake(Duration::from_secs(20)), "checked again well within its twelve hours");
    assert_eq!(server.requests().len(), 2);
}

//! Waiting on a tiler connection in tests.
#![allow(dead_code)]

use obi::tiler::{Connection, State, Status};
use obi_test_support::wait;
use std::time::Duration;

/// The connection's state once it satisfies `test`, within `timeout`.
pub fn wait_for_state(connection: &Connection, timeout: Duration, test: impl Fn(&State) -> bool) -> Option<State> {
    let mut found = None;
    wait::until(timeout, || match connection.current() {
        Status::Connected(state) if test(&state) => {
            found = Some(state);
            true
        }
        _ => false,
    });
    found
}

/// Whether the connection heard its tiler go within `timeout`.
pub fn wait_for_disconnection(connection: &Connection, timeout: Duration) -> bool {
    wait::until(timeout, || matches!(connection.current(), Status::Disconnected(_)))
}

/// What the stock Komorebi widget shows over `connection` (its workspaces
/// and its focused container, as text), refreshed once.
pub fn komorebi_widget_over(connection: &Connection) -> obi::view::WidgetState {
    use obi::capabilities::Capabilities;
    use obi::scheduler::Scheduler;
    use obi::spec::WidgetSpec;
    let capabilities = Capabilities::system(std::sync::Arc::new(connection.clone()), Default::default()).unwrap();
    let mut engine = super::engine_with(capabilities);
    let config = r#"{ "workspaces": { "enable": true }, "focused_container": { "enable": true, "display": "Text" } }"#;
    let spec = WidgetSpec::stock("Komorebi", config.into()).unwrap();
    Scheduler::first_states(&mut engine, vec![spec], Duration::from_secs(5)).remove(0)
}

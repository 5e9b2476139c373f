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

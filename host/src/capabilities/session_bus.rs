//! The D-Bus session bus, for the capabilities that follow what is on it
//! (media players, tray icons): staying connected, and looking for the bus
//! again every few seconds after it goes away or when there is none.

use std::time::Duration;
use zbus::blocking::Connection;

/// How long a capability waits before looking for a bus that went away again.
const RETRY: Duration = Duration::from_secs(5);

/// Runs `follow` on a connection to the bus at `address` (a test's own
/// bus), or the session's, until it fails; then `lost`, a wait, and again,
/// for ever. `lost` also runs while there is no bus. `shown` names what is
/// not shown without one, for the log.
pub fn stay_connected(
    address: Option<&str>,
    shown: &str,
    mut follow: impl FnMut(&Connection) -> zbus::Result<()>,
    mut lost: impl FnMut(),
) -> ! {
    let mut said_why = false;
    loop {
        match connect(address) {
            Ok(connection) => {
                said_why = false;
                if let Err(error) = follow(&connection) {
                    tracing::warn!("lost the D-Bus session bus: {error}; looking for it again");
                }
            }
            Err(error) if !said_why => {
                tracing::info!("no D-Bus session bus ({error}): no {shown} are shown");
                said_why = true;
            }
            Err(_) => {}
        }
        lost();
        std::thread::sleep(RETRY);
    }
}

fn connect(address: Option<&str>) -> zbus::Result<Connection> {
    match address {
        Some(address) => zbus::blocking::connection::Builder::address(address)?.build(),
        None => Connection::session(),
    }
}

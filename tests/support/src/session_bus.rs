//! A D-Bus session bus of a test's own (`dbus-daemon --session`), stopped
//! when dropped, and a wait for the calls a test's service on it records.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub struct SessionBus {
    daemon: Child,
    pub address: String,
}

impl SessionBus {
    /// A bus at an address of its choosing.
    pub fn start() -> std::io::Result<SessionBus> {
        SessionBus::start_at(None)
    }

    /// A bus at `address` (a `unix:path=` one, to start again at the same
    /// place), else at one of its choosing.
    pub fn start_at(address: Option<&str>) -> std::io::Result<SessionBus> {
        let mut command = Command::new("dbus-daemon");
        command.args(["--session", "--nofork", "--print-address=1"]);
        if let Some(address) = address {
            command.arg(format!("--address={address}"));
        }
        let mut daemon = command.stdout(Stdio::piped()).stderr(Stdio::null()).spawn()?;
        let mut address = String::new();
        BufReader::new(daemon.stdout.take().unwrap()).read_line(&mut address)?;
        Ok(SessionBus { daemon, address: address.trim().to_owned() })
    }

    /// [`SessionBus::start_at`] for `tests`, or a loud skip (a failure under CI).
    pub fn for_tests(tests: &str, address: Option<&str>) -> Option<SessionBus> {
        match SessionBus::start_at(address) {
            Ok(bus) => Some(bus),
            Err(error) => {
                super::skip::unavailable(&format!("{tests}: no dbus-daemon ({error}; .ci/run installs dbus)"));
                None
            }
        }
    }
}

/// The calls a test's service recorded, once there are `count` of them
/// (or five seconds have passed).
pub fn wait_for_calls(calls: &Mutex<Vec<String>>, count: usize) -> Vec<String> {
    let until = Instant::now() + Duration::from_secs(5);
    while calls.lock().unwrap().len() < count && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
    }
    calls.lock().unwrap().clone()
}

impl Drop for SessionBus {
    fn drop(&mut self) {
        let _ = self.daemon.kill();
        let _ = self.daemon.wait();
    }
}

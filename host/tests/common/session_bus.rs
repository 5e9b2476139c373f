//! A D-Bus session bus of a test's own (`dbus-daemon --session`), stopped
//! when dropped.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

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
}

impl Drop for SessionBus {
    fn drop(&mut self) {
        let _ = self.daemon.kill();
        let _ = self.daemon.wait();
    }
}

//! AT-SPI's own bus (at-spi2-core's launcher, which starts the bus and its
//! registry) beside a session bus a test or a benchmark owns: what a
//! screen reader talks to the bar through.

use std::process::{Child, Command, Stdio};

/// at-spi2-core's launcher, as Debian installs it.
pub const LAUNCHER: &str = "/usr/libexec/at-spi-bus-launcher";

/// AT-SPI's bus, stopped when dropped.
pub struct AtspiBus {
    launcher: Child,
    /// Where the bus has its socket: at one path within the launcher's
    /// runtime folder, so two launchers in one folder take each other's place.
    _runtime: tempfile::TempDir,
}

impl AtspiBus {
    /// AT-SPI's bus for the session bus at `address`, in a runtime folder
    /// of its own. Assistive technology is off until a client turns it on
    /// (`org.a11y.Status.IsEnabled`), as a screen reader does.
    pub fn start(address: &str) -> std::io::Result<AtspiBus> {
        let runtime = tempfile::tempdir()?;
        let launcher = Command::new(LAUNCHER)
            .arg("--launch-immediately")
            .env("DBUS_SESSION_BUS_ADDRESS", address)
            .env("XDG_RUNTIME_DIR", runtime.path())
            .env_remove("DISPLAY")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        Ok(AtspiBus { launcher, _runtime: runtime })
    }
}

impl Drop for AtspiBus {
    fn drop(&mut self) {
        let _ = self.launcher.kill();
        let _ = self.launcher.wait();
    }
}

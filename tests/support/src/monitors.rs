//! Splitting an X screen into RandR monitors side by side, as a graphics
//! card's outputs are: Xvfb has one output, and `xrandr --setmonitor`
//! makes monitors of parts of it. The server must run with `-noreset`, or
//! it resets, monitors and all, when `xrandr`, its only client, leaves.

use std::process::{Command, Stdio};

/// `monitors` monitors of `width` × `height` side by side on `display`,
/// named `M0`, `M1` …
pub fn side_by_side(display: &str, monitors: u32, width: u32, height: u32) {
    for monitor in 0..monitors {
        // The first takes the screen's output, so RandR lists no other.
        let output = if monitor == 0 { "screen" } else { "none" };
        let geometry = format!("{width}/300x{height}/200+{}+0", width * monitor);
        let set = Command::new("xrandr")
            .args(["--setmonitor", &format!("M{monitor}"), &geometry, output])
            .env("DISPLAY", display)
            .stdout(Stdio::null())
            .output()
            .expect("running xrandr (apt install x11-xserver-utils)");
        assert!(set.status.success(), "xrandr --setmonitor M{monitor}: {}", String::from_utf8_lossy(&set.stderr));
    }
}

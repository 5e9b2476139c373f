//! What the tests of every crate of the workspace share, in one place
//! instead of source files included by path: simulators that speak the
//! tilers' real protocols (komorebi, Hyprland, niri), a web server and a
//! release feed for the widgets that fetch, a session bus (and AT-SPI's
//! beside it), a flood of notifications, and a sound server of a test's own, an Xvfb screen split into RandR monitors, running a
//! program as `nobody`, the bar built for Windows and macOS, font
//! collections, waiting for a condition with a deadline, free X display
//! numbers, and the one rule for skipping.

pub mod atspi_bus;
pub mod cross;
pub mod font_collection;
pub mod hyprland_simulator;
pub mod image_bombs;
pub mod komorebi_simulator;
pub mod monitors;
pub mod niri_simulator;
pub mod nobody;
pub mod notification_flood;
pub mod release_feed;
pub mod session_bus;
pub mod skip;
pub mod sound_server;
pub mod system_services;
pub mod wait;
pub mod web_server;
pub mod x_display;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The root of the Obi workspace these tests run in.
pub fn workspace() -> PathBuf {
    obi_build_support::workspace_root(Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// Whether the standard library for the Rust `target` is in the toolchain
/// (`rustup target add` puts it there).
pub fn rust_target_installed(target: &str) -> bool {
    let sysroot = Command::new("rustc").args(["--print", "sysroot"]).output().expect("running rustc");
    let sysroot = PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim());
    sysroot.join("lib/rustlib").join(target).join("lib").is_dir()
}

//! End-to-end tests: the real `obi` binary, offscreen and on a real X server
//! (Xvfb) managed by a real window manager (i3).
//!
//! Tests that need a program this machine lacks say so loudly and skip, or
//! fail when `CI` is set (`.ci/run` installs everything they need).

mod all_widgets;
mod citizen;
mod cli;
mod desktop;
mod examples;
mod golden;
mod hostile_environment;
mod i3;
mod keyboard;
#[path = "../../host/tests/common/komorebi_simulator.rs"]
mod komorebi_simulator;
mod komorebi_widget;
mod kwin;
mod media;
#[path = "../../host/tests/common/monitors.rs"]
mod monitor_split;
mod monitors;
mod mouse;
#[path = "../../host/tests/common/nobody.rs"]
mod nobody;
mod ocr;
#[path = "../../host/tests/common/release_feed.rs"]
mod release_feed;
mod screenshot;
// The e2e tests start their bus only after checking for dbus-daemon.
#[allow(dead_code)]
#[path = "../../host/tests/common/session_bus.rs"]
mod session_bus;
#[path = "../../host/tests/common/skip.rs"]
mod skip;
mod support;
mod sway;
mod tooltip;
#[path = "../../host/tests/common/wait.rs"]
mod wait;
mod weston;
mod widget_tool;
mod window;

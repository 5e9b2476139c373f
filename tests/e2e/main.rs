//! End-to-end tests: the real `obi` binary, offscreen and on a real X server
//! (Xvfb) managed by a real window manager (i3).
//!
//! Tests that need a program this machine lacks say so loudly and skip, or
//! fail when `CI` is set (`.ci/run` installs everything they need).

mod accessibility;
mod all_widgets;
mod bluetooth;
mod brightness;
mod citizen;
mod cli;
mod custom;
mod desktop;
mod every_script;
mod examples;
mod golden;
mod hostile_environment;
mod hostile_peers;
mod i3;
mod idle_inhibitor;
mod in_bars_place;
mod install;
mod js_widgets;
mod keyboard;
mod komorebi_widget;
mod kwin;
mod media;
mod monitors;
mod mouse;
mod notifications;
mod ocr;
mod osd;
mod popup;
mod power_profiles;
mod screenshot;
mod status_command;
mod styled_text;
mod support;
mod sway;
mod tooltip;
mod volume;
mod weather;
mod weston;
mod widget_tool;
mod wifi;
mod window;
mod wine;

use obi_test_support::{komorebi_simulator, monitors as monitor_split, nobody, release_feed, session_bus, skip};

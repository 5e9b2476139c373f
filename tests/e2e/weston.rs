//! The bar on a Wayland compositor without wlr-layer-shell: weston, whose
//! shells (like GNOME's) place no panels for other programs. The bar cannot
//! be one there, and says so in one line rather than opening as a window.

use crate::support::{Reaped, have_tools, obi, wait_for};
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};
use std::time::Duration;

#[test]
fn on_a_compositor_without_layer_shell_the_bar_says_what_is_missing() {
    if !have_tools("weston test", &["weston"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let runtime = dir.path().join("runtime");
    std::fs::create_dir(&runtime).unwrap();
    std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
    let socket = "wayland-obi-test";
    let _weston = Reaped(
        Command::new("weston")
            .args(["--backend=headless-backend.so", "--no-config", "--idle-time=0"])
            .arg(format!("--socket={socket}"))
            .env("XDG_RUNTIME_DIR", &runtime)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.path().join("weston.log")).unwrap())
            .spawn()
            .expect("starting weston"),
    );
    let weston_log = || std::fs::read_to_string(dir.path().join("weston.log")).unwrap_or_default();
    assert!(wait_for(Duration::from_secs(10), || runtime.join(socket).exists()), "weston started: {}", weston_log());

    let config = dir.path().join("bar.json");
    std::fs::write(
        &config,
        r#"{ "left_widgets": [], "right_widgets": [ { "Time": { "enable": true, "format": "TwentyFourHour" } } ] }"#,
    )
    .unwrap();
    // WAYLAND_DISPLAY chooses Wayland without being told.
    let mut bar = Reaped(
        obi()
            .arg("--config")
            .arg(&config)
            .env_remove("DISPLAY")
            .env("XDG_RUNTIME_DIR", &runtime)
            .env("WAYLAND_DISPLAY", socket)
            .env("OBI_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.path().join("obi.log")).unwrap())
            .spawn()
            .expect("starting obi"),
    );
    let ended = wait_for(Duration::from_secs(20), || bar.0.try_wait().unwrap().is_some());
    let said = std::fs::read_to_string(dir.path().join("obi.log")).unwrap();
    assert!(ended, "the bar ends rather than waiting: {said}");
    assert_eq!(bar.0.wait().unwrap().code(), Some(1), "{said}");
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 1, "one line: {said}");
    assert!(
        lines[0].starts_with("obi: ") && lines[0].contains("no wlr-layer-shell (zwlr_layer_shell_v1)"),
        "names what is missing: {said}"
    );
    assert!(lines[0].contains("--backend x11"), "and what to do instead: {said}");
}

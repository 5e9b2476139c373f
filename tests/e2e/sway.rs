//! The bar with a real sway: headless (`WLR_BACKENDS=headless`, pixman),
//! run as an unprivileged user because sway refuses root, with a runtime
//! folder of that user's. The bar (run as the test's user, which reaches
//! sway's sockets as root does) is told where sway is through the same
//! variables sway gives its own clients.

use crate::ocr::words_in;
use crate::support::{Reaped, have_tools, obi, run, wait_for, workspace};
use std::ffi::OsString;
use std::os::unix::fs::{PermissionsExt, chown};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const TOOLS: &[&str] = &["sway", "swaymsg", "grim", "foot", "setpriv", "convert", "tesseract"];

/// The unprivileged user sway runs as when the tests run as root: `nobody`.
const SWAY_USER: u32 = 65534;

pub struct SwaySession {
    dir: tempfile::TempDir,
    runtime: PathBuf,
    ipc: PathBuf,
    wayland: PathBuf,
    _sway: Reaped,
}

impl SwaySession {
    /// A headless sway with one 1280×720 output, `HEADLESS-1`; `None`, said
    /// loudly (a failure under CI), when this machine cannot run one.
    pub fn start(test: &str) -> Option<SwaySession> {
        if !have_tools(test, TOOLS) {
            return None;
        }
        // SAFETY: geteuid has no preconditions.
        let as_root = unsafe { libc::geteuid() } == 0;
        let dir = tempfile::tempdir().unwrap();
        let runtime = dir.path().join("runtime");
        std::fs::create_dir(&runtime).unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
        let config = dir.path().join("sway.conf");
        std::fs::write(&config, "output HEADLESS-1 resolution 1280x720\n").unwrap();
        let mut command = if as_root {
            chown(&runtime, Some(SWAY_USER), Some(SWAY_USER)).unwrap();
            let mut command = Command::new("setpriv");
            let (user, group) = (format!("--reuid={SWAY_USER}"), format!("--regid={SWAY_USER}"));
            command.args([user.as_str(), group.as_str(), "--clear-groups", "sway"]);
            command
        } else {
            Command::new("sway")
        };
        let log = std::fs::File::create(dir.path().join("sway.log")).unwrap();
        let sway = command
            .arg("-c")
            .arg(&config)
            .env_clear()
            .env("HOME", dir.path())
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("XDG_RUNTIME_DIR", &runtime)
            .env("WLR_BACKENDS", "headless")
            .env("WLR_RENDERER", "pixman")
            .env("WLR_LIBINPUT_NO_DEVICES", "1")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("starting sway");
        let sway = Reaped(sway);
        let socket = |prefix: &str| {
            std::fs::read_dir(&runtime).ok()?.filter_map(Result::ok).map(|entry| entry.path()).find(|path| {
                path.file_name()
                    .and_then(|name| name.to_str())
                    .is_some_and(|name| name.starts_with(prefix) && !name.ends_with(".lock"))
            })
        };
        let started =
            wait_for(Duration::from_secs(10), || socket("sway-ipc.").is_some() && socket("wayland-").is_some());
        let log = || std::fs::read_to_string(dir.path().join("sway.log")).unwrap_or_default();
        assert!(started, "sway started: {}", log());
        let (ipc, wayland) = (socket("sway-ipc.").unwrap(), socket("wayland-").unwrap());
        let session = SwaySession { dir, runtime, ipc, wayland, _sway: sway };
        assert!(wait_for(Duration::from_secs(10), || session.swaymsg(&["-t", "get_outputs"]).status.success()));
        Some(session)
    }

    /// What a client of this sway is given: its sockets and runtime folder.
    pub fn env(&self) -> Vec<(&'static str, OsString)> {
        vec![
            ("SWAYSOCK", self.ipc.clone().into()),
            ("I3SOCK", self.ipc.clone().into()),
            ("WAYLAND_DISPLAY", self.wayland.clone().into()),
            ("XDG_RUNTIME_DIR", self.runtime.clone().into()),
        ]
    }

    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    pub fn swaymsg(&self, args: &[&str]) -> Output {
        run(Command::new("swaymsg").args(args).envs(self.env()))
    }

    /// sway's layout tree.
    pub fn tree(&self) -> serde_json::Value {
        serde_json::from_slice(&self.swaymsg(&["-t", "get_tree"]).stdout).unwrap_or_default()
    }

    /// The words in the `width`×`height` rectangle at (`x`, `y`) of the output.
    pub fn words_at(&self, x: i64, y: i64, width: i64, height: i64) -> Vec<(String, u32)> {
        let png = self.dir().join("grab.png");
        let grab =
            run(Command::new("grim").args(["-g", &format!("{x},{y} {width}x{height}")]).arg(&png).envs(self.env()));
        assert!(grab.status.success(), "grim: {}", String::from_utf8_lossy(&grab.stderr));
        words_in(&png)
    }
}

/// The first node of `tree` named `name`.
fn find_node<'a>(tree: &'a serde_json::Value, name: &str) -> Option<&'a serde_json::Value> {
    if tree["name"] == name {
        return Some(tree);
    }
    ["nodes", "floating_nodes"]
        .iter()
        .filter_map(|key| tree[key].as_array())
        .flatten()
        .find_map(|child| find_node(child, name))
}

/// On sway 1.7, which refuses the `output` event, the bar subscribes to the
/// rest and follows sway's workspaces: when sway moves from alpha to beta,
/// the Komorebi widget shows both, beta focused.
#[test]
fn the_bar_follows_sways_workspaces() {
    let Some(sway) = SwaySession::start("sway workspaces test") else { return };
    // sway ends a workspace that has nothing on it once it is left: a
    // terminal keeps alpha.
    sway.swaymsg(&["workspace", "alpha"]);
    sway.swaymsg(&["exec", "foot sleep 600"]);
    assert!(
        wait_for(Duration::from_secs(20), || sway.tree().to_string().contains(r#""app_id":"foot""#)),
        "foot opened on alpha: {}",
        sway.tree()
    );
    let config = sway.dir().join("bar.json");
    std::fs::write(
        &config,
        r#"{ "height": 40, "font_size": 20, "font_family": "DejaVu Sans",
             "left_widgets": [ { "Komorebi": { "workspaces": { "enable": true, "hide_empty_workspaces": false, "display": "Text" } } } ],
             "right_widgets": [] }"#,
    )
    .unwrap();
    let log_path = sway.dir().join("obi.log");
    let bar = obi()
        .args(["--tiler", "sway", "--config"])
        .arg(&config)
        .env_remove("DISPLAY")
        .envs(sway.env())
        .env("OBI_LOG", "info")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log_path).unwrap())
        .spawn()
        .expect("starting obi");
    let _bar = Reaped(bar);
    let log = || std::fs::read_to_string(&log_path).unwrap_or_default();
    assert!(wait_for(Duration::from_secs(20), || log().contains("connected to sway")), "{}", log());
    assert!(!log().contains("refused"), "{}", log());

    // Until the bar is a layer surface, sway shows it as a window of its own.
    let mut rect = serde_json::Value::Null;
    assert!(
        wait_for(Duration::from_secs(20), || {
            rect = find_node(&sway.tree(), "obi").map(|node| node["rect"].clone()).unwrap_or_default();
            rect["height"].as_i64().is_some_and(|height| height > 0)
        }),
        "the bar's window is in sway's tree: {}",
        sway.tree()
    );
    let (x, y, width, height) = ["x", "y", "width", "height"].map(|key| rect[key].as_i64().unwrap()).into();
    // A window stays on its workspace; this one is to be seen on the next too.
    assert!(sway.swaymsg(&["[title=\"^obi$\"]", "sticky", "enable"]).status.success());
    let shows = |name: &str| {
        let mut words = Vec::new();
        let shown = wait_for(Duration::from_secs(20), || {
            words = sway.words_at(x, y, width.min(600), height);
            words.iter().any(|(word, _)| word == name)
        });
        if !shown {
            let artifacts = workspace().join("target/e2e-artifacts");
            std::fs::create_dir_all(&artifacts).unwrap();
            let _ = std::fs::copy(sway.dir().join("grab.png"), artifacts.join("sway-bar.png"));
        }
        assert!(shown, "the bar shows {name}; it reads {words:?} (target/e2e-artifacts/sway-bar.png)");
    };
    // The focused workspace is drawn selected, which OCR cannot read: once
    // sway moves to beta, alpha is drawn plain, and read.
    sway.swaymsg(&["workspace", "beta"]);
    shows("alpha");
}

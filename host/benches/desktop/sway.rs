//! A headless sway of a benchmark's own (one 1920×1080 output, pixman), run
//! as `nobody` when the benchmark runs as root because sway refuses root,
//! and the strip of its output a bar draws in, grabbed with grim.

use super::nobody::as_nobody_when_root;
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A headless sway, killed when dropped.
pub struct HeadlessSway {
    sway: Child,
    /// Its own runtime folder, where its IPC socket is.
    runtime: PathBuf,
    wayland: PathBuf,
    /// The runtime folder of its clients (the benchmark's user's own).
    clients: PathBuf,
    _dir: tempfile::TempDir,
}

impl HeadlessSway {
    pub fn start() -> HeadlessSway {
        let dir = tempfile::tempdir().unwrap();
        let runtime = dir.path().join("runtime");
        let clients = dir.path().join("clients");
        for folder in [&runtime, &clients] {
            std::fs::create_dir(folder).unwrap();
            std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o700)).unwrap();
        }
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let config = dir.path().join("sway.conf");
        // The floor of the bars' stack (`empty_window`) is a toplevel: floating,
        // it keeps the bars' size instead of being tiled to the whole output.
        let sway_config =
            "output HEADLESS-1 resolution 1920x1080\nfor_window [title=\"empty-window\"] floating enable\n";
        std::fs::write(&config, sway_config).unwrap();
        let sway = as_nobody_when_root("sway", &[&runtime])
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
            .stderr(Stdio::null())
            .spawn()
            .expect("starting sway (apt install sway)");
        let wayland = runtime.join("wayland-1");
        let until = Instant::now() + Duration::from_secs(10);
        while !wayland.exists() {
            assert!(Instant::now() < until, "sway made no socket in 10 s");
            std::thread::sleep(Duration::from_millis(20));
        }
        let sway = HeadlessSway { sway, runtime, wayland, clients, _dir: dir };
        // The output is there once grim can take it.
        let until = Instant::now() + Duration::from_secs(10);
        while sway.grab(1).is_none() {
            assert!(Instant::now() < until, "sway showed no output in 10 s");
            std::thread::sleep(Duration::from_millis(50));
        }
        sway
    }

    /// What a client of this sway is given.
    pub fn env(&self) -> [(&'static str, OsString); 2] {
        [("WAYLAND_DISPLAY", self.wayland.clone().into()), ("XDG_RUNTIME_DIR", self.clients.clone().into())]
    }

    pub fn pid(&self) -> u32 {
        self.sway.id()
    }

    /// Its IPC socket (`sway-ipc.UID.PID.sock` in its runtime folder), for
    /// `SWAYSOCK`.
    pub fn ipc_socket(&self) -> PathBuf {
        let until = Instant::now() + Duration::from_secs(10);
        loop {
            let found = std::fs::read_dir(&self.runtime).ok().and_then(|entries| {
                entries.flatten().map(|entry| entry.path()).find(|path| {
                    path.file_name().and_then(|name| name.to_str()).is_some_and(|name| name.starts_with("sway-ipc."))
                })
            });
            if let Some(socket) = found {
                return socket;
            }
            assert!(Instant::now() < until, "sway made no IPC socket in 10 s");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Runs `swaymsg` with `arguments` on this sway; whether sway took it.
    pub fn swaymsg(&self, arguments: &[&str]) -> bool {
        Command::new("swaymsg")
            .args(arguments)
            .env("SWAYSOCK", self.ipc_socket())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    }

    /// The top `height` rows of the output as 0xRRGGBB pixels, 1920 to a
    /// row; `None` when grim could not take them.
    pub fn grab(&self, height: u16) -> Option<Vec<u32>> {
        let output = Command::new("grim")
            .args(["-t", "ppm", "-g", &format!("0,0 1920x{height}"), "-"])
            .envs(self.env())
            .stderr(Stdio::null())
            .output()
            .ok()?;
        if !output.status.success() {
            return None;
        }
        pixels_of_ppm(&output.stdout, 1920 * usize::from(height))
    }
}

impl Drop for HeadlessSway {
    fn drop(&mut self) {
        let _ = self.sway.kill();
        let _ = self.sway.wait();
    }
}

/// The pixels of a binary PPM (P6, maximum 255), when it has `count`.
fn pixels_of_ppm(ppm: &[u8], count: usize) -> Option<Vec<u32>> {
    // The header is four blank-separated fields: P6, width, height, maximum.
    let mut fields = 0;
    let mut in_field = false;
    let mut start = None;
    for (at, byte) in ppm.iter().enumerate() {
        if byte.is_ascii_whitespace() {
            if in_field {
                fields += 1;
                in_field = false;
                if fields == 4 {
                    start = Some(at + 1);
                    break;
                }
            }
        } else {
            in_field = true;
        }
    }
    let body = ppm.get(start?..)?;
    (body.len() == count * 3).then(|| {
        body.chunks_exact(3).map(|rgb| u32::from(rgb[0]) << 16 | u32::from(rgb[1]) << 8 | u32::from(rgb[2])).collect()
    })
}

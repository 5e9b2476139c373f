//! The screen's backlight, from `/sys/class/backlight` (the kernel's
//! backlight class): the panel the kernel's documentation says userspace
//! should prefer (firmware, then platform, then raw), its level in percent
//! of its maximum. A thread of its own follows it with inotify, which the
//! kernel tells of each change of a device's `actual_brightness` (and a
//! test's folder of plain files of each write), so nothing is polled; the
//! class's folder is watched too, for a panel that comes later. The
//! thread starts at the first reading and lives as long as the process.
//!
//! Setting the level goes through logind's `SetBrightness` on the caller's
//! session, which lets the user at the seat change it without root; a
//! thread of its own makes the calls, so a widget never waits on the
//! system bus, and of levels asked faster than logind answers only the
//! newest is asked.

use super::session_bus::{Bus, connect};
use crate::files::read_regular;
use crate::wake::{Follower, Pushed, Waker};
use notify::{RecursiveMode, Watcher};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BacklightStatus {
    /// The panel's level, and the kernel's name for it (`intel_backlight`).
    Level { device: String, percent: u32 },
    /// No panel to show, and why.
    Absent(String),
}

pub trait Backlight: Send + Sync {
    /// The level as last read; `waker`'s widget is woken at each change
    /// from now on.
    fn status(&self, waker: &Waker) -> BacklightStatus;

    /// Asks for the panel at `percent` of its most; the new level comes
    /// back through [`Backlight::status`]. Fails, saying why, without a
    /// panel or for more than 100 percent.
    fn set_percent(&self, percent: u32) -> Result<(), String>;
}

/// A level asked of a panel, by the kernel's name for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelAsked {
    pub device: String,
    pub percent: u32,
}

/// Refuses a level the panel could not take: no panel, more than its most.
pub fn check(status: &BacklightStatus, percent: u32) -> Result<LevelAsked, String> {
    match status {
        _ if percent > 100 => Err(format!("a backlight goes up to 100 percent, not {percent}")),
        BacklightStatus::Level { device, .. } => Ok(LevelAsked { device: device.clone(), percent }),
        BacklightStatus::Absent(why) => Err(format!("no backlight: {why}")),
    }
}

/// Where the kernel's backlight class is.
const CLASS: &str = "/sys/class/backlight";

/// Read where `OBI_BACKLIGHT_DIR` says instead of the kernel's class: a
/// test's folder of devices, each with the kernel's files.
const CLASS_VARIABLE: &str = "OBI_BACKLIGHT_DIR";

/// The most a backlight's file may hold: a page, the size sysfs gives
/// every attribute whatever it holds (a number and a newline).
const FILE_LIMIT: u64 = 4096;

pub struct SystemBacklight(Follower<BacklightStatus, LevelAsked>);

impl SystemBacklight {
    /// The kernel's backlight class, or the folder `OBI_BACKLIGHT_DIR` names.
    pub fn new() -> SystemBacklight {
        let class = std::env::var_os(CLASS_VARIABLE).map_or_else(|| PathBuf::from(CLASS), PathBuf::from);
        SystemBacklight::at(class)
    }

    /// The backlights in `class`, a folder of devices.
    pub fn at(class: PathBuf) -> SystemBacklight {
        let waiting = BacklightStatus::Absent("looking for a backlight".into());
        SystemBacklight(Follower::new("the backlight", "obi-backlight", waiting, move |shown, asked| {
            let setting = class.clone();
            let spawned =
                std::thread::Builder::new().name("obi-backlight-set".into()).spawn(move || set(&setting, asked));
            if let Err(error) = spawned {
                tracing::warn!("backlight: no thread to set it: {error}");
            }
            follow(&class, shown);
        }))
    }
}

impl Default for SystemBacklight {
    fn default() -> Self {
        SystemBacklight::new()
    }
}

impl Backlight for SystemBacklight {
    fn status(&self, waker: &Waker) -> BacklightStatus {
        self.0.read(waker)
    }

    fn set_percent(&self, percent: u32) -> Result<(), String> {
        let asked = check(&self.0.current(), percent)?;
        match self.0.request(asked) {
            true => Ok(()),
            false => Err("the backlight is not followed".into()),
        }
    }
}

/// Publishes the backlight in `class` at each change there, for as long as
/// its folder can be watched.
fn follow(class: &Path, shown: &Pushed<BacklightStatus>) {
    let (changed, changes) = mpsc::channel();
    let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if event.is_ok_and(|event| !event.kind.is_access()) {
            let _ = changed.send(());
        }
    });
    let watched_class =
        watcher.and_then(|mut watcher| watcher.watch(class, RecursiveMode::NonRecursive).map(|()| watcher));
    let mut watcher = match watched_class {
        Ok(watcher) => watcher,
        Err(error) => {
            shown.publish(BacklightStatus::Absent(format!("no backlight class at {}: {error}", class.display())));
            return;
        }
    };
    let mut watched: Option<PathBuf> = None;
    loop {
        let device = preferred_device(class);
        if device != watched {
            if let Some(gone) = watched.take() {
                let _ = watcher.unwatch(&gone);
            }
            if let Some(device) = &device
                && let Err(error) = watcher.watch(device, RecursiveMode::NonRecursive)
            {
                tracing::warn!(
                    "backlight: cannot follow {}: {error}; its changes are read as others come",
                    device.display()
                );
            }
            watched = device.clone();
        }
        let status = match &device {
            Some(device) => level(device),
            None => BacklightStatus::Absent(format!("no backlight in {}", class.display())),
        };
        shown.publish(status);
        if changes.recv().is_err() {
            return;
        }
        // A burst of writes (a key held) is read once.
        while changes.try_recv().is_ok() {}
    }
}

/// Asks logind for each level asked, the newest of those waiting, until
/// the follower is gone.
fn set(class: &Path, asked: Receiver<LevelAsked>) {
    let mut bus = None;
    while let Ok(first) = asked.recv() {
        let newest = asked.try_iter().last().unwrap_or(first);
        if let Err(error) = ask_logind(&mut bus, class, &newest) {
            tracing::warn!("backlight: cannot set {} to {} %: {error}", newest.device, newest.percent);
            // Connected afresh at the next: the bus may have restarted.
            bus = None;
        }
    }
}

/// Where logind answers for the session of whoever calls.
const LOGIND: &str = "org.freedesktop.login1";
const CALLERS_SESSION: &str = "/org/freedesktop/login1/session/auto";
const SESSION: &str = "org.freedesktop.login1.Session";

/// Sets `asked`'s panel through logind's `SetBrightness`, in the device's
/// own steps, on `bus` (connected to the system bus first when it is not).
fn ask_logind(bus: &mut Option<zbus::blocking::Connection>, class: &Path, asked: &LevelAsked) -> anyhow::Result<()> {
    use anyhow::Context;
    let device = class.join(&asked.device);
    let most = read_trimmed(&device, "max_brightness")
        .and_then(|most| most.parse::<u64>().ok())
        .with_context(|| format!("{} gives no max_brightness", device.display()))?;
    let steps = u32::try_from(raw_level(asked.percent, most)).unwrap_or(u32::MAX);
    let bus = match bus {
        Some(bus) => bus,
        None => bus.insert(connect(Bus::System).context("no D-Bus system bus")?),
    };
    bus.call_method(
        Some(LOGIND),
        CALLERS_SESSION,
        Some(SESSION),
        "SetBrightness",
        &("backlight", &asked.device, steps),
    )
    .context("logind's SetBrightness")?;
    Ok(())
}

/// `percent` of `most`, in the device's steps, rounded to the nearest.
fn raw_level(percent: u32, most: u64) -> u128 {
    (u128::from(percent.min(100)) * u128::from(most) + 50) / 100
}

/// The device in `class` userspace should prefer: firmware, then platform,
/// then raw (the kernel's ABI documentation), each kind by name.
fn preferred_device(class: &Path) -> Option<PathBuf> {
    let rank = |device: &Path| match read_trimmed(device, "type").as_deref() {
        Some("firmware") => 0,
        Some("platform") => 1,
        Some("raw") => 2,
        _ => 3,
    };
    let entries = std::fs::read_dir(class).ok()?;
    let devices = entries.flatten().map(|entry| entry.path()).filter(|device| device.join("max_brightness").exists());
    devices.min_by_key(|device| (rank(device), device.file_name().map(ToOwned::to_owned)))
}

/// The level of the device at `device`: what the hardware has
/// (`actual_brightness`), else what was asked (`brightness`), over its most.
fn level(device: &Path) -> BacklightStatus {
    let name = device.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let number = |file: &str| read_trimmed(device, file)?.parse::<u64>().ok();
    let now = number("actual_brightness").or_else(|| number("brightness"));
    match (now, number("max_brightness")) {
        (Some(now), Some(most)) if most > 0 => {
            // Wide enough that no kernel's number overflows it.
            let (now, most) = (u128::from(now.min(most)), u128::from(most));
            let percent = (now * 100 + most / 2) / most;
            BacklightStatus::Level { device: name, percent: percent as u32 }
        }
        _ => BacklightStatus::Absent(format!("the backlight {name} gives no level")),
    }
}

/// The text of `device`'s `file`, when it is a small regular file.
fn read_trimmed(device: &Path, file: &str) -> Option<String> {
    let bytes = read_regular(&device.join(file), FILE_LIMIT).ok()?;
    Some(String::from_utf8_lossy(&bytes).trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn device(class: &Path, name: &str, kind: &str, now: u64, most: u64) -> PathBuf {
        let device = class.join(name);
        std::fs::create_dir_all(&device).unwrap();
        std::fs::write(device.join("type"), format!("{kind}\n")).unwrap();
        std::fs::write(device.join("actual_brightness"), format!("{now}\n")).unwrap();
        std::fs::write(device.join("brightness"), format!("{now}\n")).unwrap();
        std::fs::write(device.join("max_brightness"), format!("{most}\n")).unwrap();
        device
    }

    #[test]
    fn the_firmware_panel_is_preferred_and_read_in_percent_of_its_most() {
        let class = tempfile::tempdir().unwrap();
        device(class.path(), "acpi_video0", "raw", 3, 10);
        device(class.path(), "intel_backlight", "firmware", 19200, 96000);
        let chosen = preferred_device(class.path()).unwrap();
        assert_eq!(chosen.file_name().unwrap(), "intel_backlight");
        assert_eq!(level(&chosen), BacklightStatus::Level { device: "intel_backlight".into(), percent: 20 });
        std::fs::remove_file(chosen.join("actual_brightness")).unwrap();
        std::fs::write(chosen.join("brightness"), "96001").unwrap();
        assert_eq!(level(&chosen), BacklightStatus::Level { device: "intel_backlight".into(), percent: 100 });
        std::fs::write(chosen.join("brightness"), u64::MAX.to_string()).unwrap();
        std::fs::write(chosen.join("max_brightness"), u64::MAX.to_string()).unwrap();
        assert_eq!(level(&chosen), BacklightStatus::Level { device: "intel_backlight".into(), percent: 100 });
        std::fs::write(chosen.join("max_brightness"), "0").unwrap();
        assert!(matches!(level(&chosen), BacklightStatus::Absent(_)), "no level without a most");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_in_place_of_a_level_is_not_read() {
        let class = tempfile::tempdir().unwrap();
        let device = device(class.path(), "panel", "raw", 5, 10);
        std::fs::remove_file(device.join("actual_brightness")).unwrap();
        std::fs::remove_file(device.join("brightness")).unwrap();
        let made = std::process::Command::new("mkfifo").arg(device.join("actual_brightness")).status().unwrap();
        assert!(made.success());
        assert!(matches!(level(&device), BacklightStatus::Absent(_)), "read without blocking, and refused");
    }

    #[test]
    fn a_level_asked_is_of_the_panel_shown_and_in_its_own_steps() {
        let panel = BacklightStatus::Level { device: "intel_backlight".into(), percent: 40 };
        assert_eq!(check(&panel, 64), Ok(LevelAsked { device: "intel_backlight".into(), percent: 64 }));
        assert!(check(&panel, 101).unwrap_err().contains("up to 100 percent, not 101"));
        let absent = BacklightStatus::Absent("no backlight in /sys/class/backlight".into());
        assert_eq!(check(&absent, 50), Err("no backlight: no backlight in /sys/class/backlight".into()));
        assert_eq!(raw_level(64, 96000), 61440);
        assert_eq!(raw_level(1, 7), 0, "rounded to the nearest step");
        assert_eq!(raw_level(100, u64::MAX), u128::from(u64::MAX), "no overflow");
    }

    #[test]
    fn each_change_is_followed_and_wakes_the_reader() {
        let class = tempfile::tempdir().unwrap();
        let backlight = SystemBacklight::at(class.path().to_owned());
        let (waker, woken) = Waker::counting();
        let read_until = |wanted: &BacklightStatus| {
            let deadline = Instant::now() + Duration::from_secs(5);
            while &backlight.status(&waker) != wanted && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
            backlight.status(&waker)
        };
        let absent = BacklightStatus::Absent(format!("no backlight in {}", class.path().display()));
        assert_eq!(read_until(&absent), absent);
        // Made aside and moved in whole, as the kernel adds a device.
        let aside = tempfile::tempdir().unwrap();
        device(aside.path(), "panel", "raw", 5, 10);
        let panel = class.path().join("panel");
        std::fs::rename(aside.path().join("panel"), &panel).unwrap();
        let half = BacklightStatus::Level { device: "panel".into(), percent: 50 };
        assert_eq!(read_until(&half), half, "a panel that comes later is found");
        let before = woken.load(std::sync::atomic::Ordering::SeqCst);
        waker.take();
        std::fs::write(panel.join("actual_brightness"), "7\n").unwrap();
        let brighter = BacklightStatus::Level { device: "panel".into(), percent: 70 };
        assert_eq!(read_until(&brighter), brighter);
        assert!(woken.load(std::sync::atomic::Ordering::SeqCst) > before, "the change woke the reader");
    }
}

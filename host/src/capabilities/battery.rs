//! The `battery` capability: each battery's charge and state, from
//! `/sys/class/power_supply` (the kernel's power-supply class, where every
//! Linux battery driver reports), and on Windows from its power status (the
//! system's batteries as one). A machine without one has none: an empty
//! list. Either is quick to read, so it is read on the caller's thread;
//! a class file is read only when it is a small regular one (sysfs's are),
//! so a FIFO in a folder `OBI_POWER_SUPPLY_DIR` names cannot hold it up.

use std::path::PathBuf;
#[cfg(not(windows))]
use std::{fs, path::Path};

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
pub enum ChargeState {
    Charging,
    Discharging,
    Full,
    NotCharging,
    Unknown,
}

#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
pub struct Battery {
    pub name: String,
    /// 0..=100
    pub percent: f32,
    pub state: ChargeState,
}

pub trait Batteries: Send + Sync {
    fn batteries(&self) -> Vec<Battery>;
}

/// The batteries under a power-supply class directory.
pub struct SystemBatteries {
    /// Where the power-supply class is (Linux's; Windows has none).
    #[cfg_attr(windows, allow(dead_code))]
    class: PathBuf,
}

impl SystemBatteries {
    /// The kernel's power-supply class, or the folder `OBI_POWER_SUPPLY_DIR`
    /// names: a test's folder of supplies, each with the kernel's files.
    pub fn new() -> SystemBatteries {
        let class = std::env::var_os("OBI_POWER_SUPPLY_DIR");
        SystemBatteries::at(class.map_or_else(|| PathBuf::from("/sys/class/power_supply"), PathBuf::from))
    }

    pub fn at(class: impl Into<PathBuf>) -> SystemBatteries {
        SystemBatteries { class: class.into() }
    }
}

impl Default for SystemBatteries {
    fn default() -> Self {
        SystemBatteries::new()
    }
}

#[cfg(windows)]
impl Batteries for SystemBatteries {
    fn batteries(&self) -> Vec<Battery> {
        use windows::Win32::System::Power::{GetSystemPowerStatus, SYSTEM_POWER_STATUS};
        let mut status = SYSTEM_POWER_STATUS::default();
        // SAFETY: `status` is a whole SYSTEM_POWER_STATUS for the call to fill.
        if unsafe { GetSystemPowerStatus(&mut status) }.is_err() {
            return Vec::new();
        }
        from_power_status(status.ACLineStatus, status.BatteryFlag, status.BatteryLifePercent).into_iter().collect()
    }
}

/// The battery Windows' power status tells of: `ac_line` 1 on mains, 0
/// not, 255 unknown; `flag` bits 8 charging and 128 no battery (255:
/// unknown); `percent` 255 when unknown.
#[cfg(any(windows, test))]
fn from_power_status(ac_line: u8, flag: u8, percent: u8) -> Option<Battery> {
    const CHARGING: u8 = 8;
    const NO_BATTERY: u8 = 128;
    if flag == 255 || flag & NO_BATTERY != 0 || percent > 100 {
        return None;
    }
    let state = match ac_line {
        _ if flag & CHARGING != 0 => ChargeState::Charging,
        1 if percent == 100 => ChargeState::Full,
        1 => ChargeState::NotCharging,
        0 => ChargeState::Discharging,
        _ => ChargeState::Unknown,
    };
    Some(Battery { name: "Battery".into(), percent: f32::from(percent), state })
}

#[cfg(not(windows))]
impl Batteries for SystemBatteries {
    fn batteries(&self) -> Vec<Battery> {
        // No power-supply class at all (not Linux, a container) is no battery.
        let Ok(entries) = fs::read_dir(&self.class) else { return Vec::new() };
        let mut batteries: Vec<Battery> = entries.flatten().filter_map(|entry| battery(&entry.path())).collect();
        batteries.sort_by(|a, b| a.name.cmp(&b.name));
        batteries
    }
}

/// The most a supply's file may hold: a page, the size sysfs gives every
/// attribute.
#[cfg(not(windows))]
const FILE_LIMIT: u64 = 4096;

#[cfg(not(windows))]
fn read(supply: &Path, file: &str) -> Option<String> {
    let bytes = crate::files::read_regular(&supply.join(file), FILE_LIMIT).ok()?;
    Some(String::from_utf8_lossy(&bytes).trim().to_owned())
}

#[cfg(not(windows))]
fn number(supply: &Path, file: &str) -> Option<f64> {
    read(supply, file)?.parse().ok()
}

/// The battery at `supply`, if it is one that is present. Its charge is
/// `capacity` where the driver gives it, else energy (or charge) now over full.
#[cfg(not(windows))]
fn battery(supply: &Path) -> Option<Battery> {
    if read(supply, "type")? != "Battery" || read(supply, "present").is_some_and(|present| present == "0") {
        return None;
    }
    let ratio = |now: &str, full: &str| Some(number(supply, now)? / number(supply, full)?.max(1.0) * 100.0);
    let percent = number(supply, "capacity")
        .or_else(|| ratio("energy_now", "energy_full"))
        .or_else(|| ratio("charge_now", "charge_full"))?;
    let state = match read(supply, "status").as_deref() {
        Some("Charging") => ChargeState::Charging,
        Some("Discharging") => ChargeState::Discharging,
        Some("Full") => ChargeState::Full,
        Some("Not charging") => ChargeState::NotCharging,
        _ => ChargeState::Unknown,
    };
    let name = supply.file_name()?.to_string_lossy().into_owned();
    Some(Battery { name, percent: percent.clamp(0.0, 100.0) as f32, state })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_power_status_is_one_battery_or_none() {
        let battery = |percent, state| Some(Battery { name: "Battery".into(), percent, state });
        assert_eq!(from_power_status(0, 2, 9), battery(9.0, ChargeState::Discharging));
        assert_eq!(from_power_status(1, 8 | 1, 80), battery(80.0, ChargeState::Charging));
        assert_eq!(from_power_status(1, 1, 100), battery(100.0, ChargeState::Full));
        assert_eq!(from_power_status(1, 1, 95), battery(95.0, ChargeState::NotCharging));
        assert_eq!(from_power_status(255, 1, 50), battery(50.0, ChargeState::Unknown));
        assert_eq!(from_power_status(1, 128, 255), None, "a desktop without a battery");
        assert_eq!(from_power_status(255, 255, 255), None, "nothing known");
    }

    fn supply(class: &Path, name: &str, files: &[(&str, &str)]) {
        let dir = class.join(name);
        fs::create_dir_all(&dir).unwrap();
        for (file, content) in files {
            fs::write(dir.join(file), format!("{content}\n")).unwrap();
        }
    }

    #[test]
    fn batteries_are_read_from_the_power_supply_class() {
        let class = tempfile::tempdir().unwrap();
        supply(class.path(), "AC", &[("type", "Mains"), ("online", "1")]);
        supply(class.path(), "BAT1", &[("type", "Battery"), ("capacity", "15"), ("status", "Discharging")]);
        // A driver without `capacity`: energy now over full.
        supply(
            class.path(),
            "BAT0",
            &[("type", "Battery"), ("energy_now", "30000000"), ("energy_full", "40000000"), ("status", "Not charging")],
        );
        supply(class.path(), "BAT2", &[("type", "Battery"), ("present", "0"), ("capacity", "0")]);
        let batteries = SystemBatteries::at(class.path()).batteries();
        assert_eq!(
            batteries,
            [
                Battery { name: "BAT0".into(), percent: 75.0, state: ChargeState::NotCharging },
                Battery { name: "BAT1".into(), percent: 15.0, state: ChargeState::Discharging },
            ]
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_in_place_of_a_charge_is_not_read() {
        let class = tempfile::tempdir().unwrap();
        supply(class.path(), "BAT0", &[("type", "Battery"), ("status", "Discharging")]);
        let made = std::process::Command::new("mkfifo").arg(class.path().join("BAT0/capacity")).status().unwrap();
        assert!(made.success());
        assert!(SystemBatteries::at(class.path()).batteries().is_empty(), "read without blocking, and refused");
    }

    #[test]
    fn no_power_supply_class_is_no_battery() {
        assert!(SystemBatteries::at("/nonexistent/power_supply").batteries().is_empty());
    }
}

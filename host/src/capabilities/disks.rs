//! The `disks` capability: mounted file systems on a device, with their
//! size and free space, read with sysinfo off the widgets' thread (see
//! [`Sampled`]) so that a hanging mount cannot stall the bar.

use super::sampled::{Sampled, WIDGET_WAIT};
use crate::sync::lock;
use crate::wake::Waker;
use std::sync::Mutex;
use std::time::Duration;
use sysinfo::{DiskRefreshKind, Disks as SysinfoDisks};

#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct Disk {
    pub mount_point: String,
    pub name: String,
    pub total_bytes: u64,
    pub available_bytes: u64,
    pub read_only: bool,
    pub removable: bool,
}

pub trait Disks: Send + Sync {
    /// The disks as last read; `waker` is woken when a newer reading comes in late.
    fn disks(&self, waker: &Waker) -> Vec<Disk>;
}

/// Disks change slowly: widgets reading within this share a reading. Under
/// a second, so that a widget refreshing every second (on the second, a
/// little less than a second after the last reading came in) reads anew.
const FRESH_FOR: Duration = Duration::from_millis(900);

pub struct SystemDisks {
    sampled: Sampled<Vec<Disk>>,
}

impl SystemDisks {
    pub fn new() -> SystemDisks {
        let listed = Mutex::new(None);
        SystemDisks { sampled: Sampled::new("obi-disks", FRESH_FOR, WIDGET_WAIT, move || read(&mut lock(&listed))) }
    }
}

impl Default for SystemDisks {
    fn default() -> Self {
        SystemDisks::new()
    }
}

impl Disks for SystemDisks {
    fn disks(&self, waker: &Waker) -> Vec<Disk> {
        self.sampled.get(waker).unwrap_or_default()
    }
}

/// The mounts listed again (a disk may have come or gone since `listed`
/// was) with their space; what else sysinfo can tell of a disk (its kind,
/// its I/O) is not read, as no widget asks for it.
fn read(listed: &mut Option<SysinfoDisks>) -> Vec<Disk> {
    let space = DiskRefreshKind::nothing().with_storage();
    let disks = match listed {
        Some(disks) => {
            disks.refresh_specifics(true, space);
            disks
        }
        None => match SysinfoDisks::new_with_refreshed_list_specifics(space) {
            Ok(disks) => listed.insert(disks),
            Err(error) => {
                tracing::warn!("reading the mounted disks: {error}");
                return Vec::new();
            }
        },
    };
    disks
        .iter()
        .map(|disk| Disk {
            mount_point: disk.mount_point().to_string_lossy().into_owned(),
            name: disk.name().to_string_lossy().into_owned(),
            total_bytes: disk.total_space(),
            available_bytes: disk.available_space(),
            read_only: disk.is_read_only(),
            removable: disk.is_removable(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use std::process::Command;

    /// The same mounts as `df` shows for file systems on a device.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_disks_are_dfs_device_mounts() {
        let output = Command::new("df").args(["--output=source,target"]).output().expect("running df");
        let listing = String::from_utf8_lossy(&output.stdout);
        let df: BTreeSet<String> = listing
            .lines()
            .skip(1)
            .filter_map(|line| line.split_once(char::is_whitespace))
            .filter(|(source, _)| source.starts_with("/dev/"))
            .map(|(_, target)| target.trim().to_owned())
            .collect();
        let disks = SystemDisks::new();
        let (woken, wakes) = std::sync::mpsc::channel();
        let waker = Waker::new(move || {
            let _ = woken.send(());
        });
        let mut read = disks.disks(&waker);
        if read.is_empty() {
            wakes.recv_timeout(std::time::Duration::from_secs(10)).expect("the first reading of the disks");
            read = disks.disks(&waker);
        }
        let ours: BTreeSet<String> = read.into_iter().map(|disk| disk.mount_point).collect();
        assert!(!df.is_empty(), "df lists no device mounts:\n{listing}");
        assert_eq!(ours, df);
    }
}

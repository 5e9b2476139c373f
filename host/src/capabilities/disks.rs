//! The `disks` capability: mounted file systems on a device, with their
//! size and free space, read with sysinfo off the widgets' thread (see
//! [`Sampled`]) so that a hanging mount cannot stall the bar. The mounts
//! are listed again only when the mount table changed (on Linux the kernel
//! says so); a reading in between asks each listed mount for its space.

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

/// A reading younger than this is answered at once, and the new one it
/// starts shown at the widget's next refresh: free space a refresh late
/// spares the widgets' thread a wait each time.
const ANSWERED_BEHIND_FOR: Duration = Duration::from_secs(60);

pub struct SystemDisks {
    sampled: Sampled<Vec<Disk>>,
}

impl SystemDisks {
    pub fn new() -> SystemDisks {
        let listing = Mutex::new(Listing { disks: None, mounts: MountTable::watch() });
        let sampled = Sampled::new("obi-disks", FRESH_FOR, WIDGET_WAIT, move || read(&mut lock(&listing)))
            .answered_behind_for(ANSWERED_BEHIND_FOR);
        SystemDisks { sampled }
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

/// The disks as last listed, and what tells when to list them again.
struct Listing {
    disks: Option<SysinfoDisks>,
    mounts: MountTable,
}

/// The disks with their space, listed anew when a disk may have come or
/// gone (or been mounted again read-only) since the last reading; what else
/// sysinfo can tell of a disk (its kind, its I/O) is not read, as no widget
/// asks for it.
fn read(listing: &mut Listing) -> Vec<Disk> {
    let space = DiskRefreshKind::nothing().with_storage();
    let changed = listing.mounts.changed();
    let disks = match &mut listing.disks {
        Some(disks) if !changed => {
            disks.iter_mut().for_each(|disk| {
                disk.refresh_specifics(space);
            });
            disks
        }
        // Listed afresh rather than refreshed: sysinfo reads a disk's
        // flags only when it first lists it.
        _ => match SysinfoDisks::new_with_refreshed_list_specifics(space) {
            Ok(disks) => listing.disks.insert(disks),
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

/// Whether anything was mounted or unmounted since it was last asked.
/// Linux marks `/proc/self/mounts` with `POLLPRI` at each change of the
/// mount table, which spares a bar reading the whole table every second
/// (the kernel's work of writing it out was most of a disk reading).
/// Elsewhere, or when the table cannot be watched, it says yes each time.
struct MountTable {
    #[cfg(target_os = "linux")]
    watched: Option<std::os::fd::OwnedFd>,
}

impl MountTable {
    #[cfg(target_os = "linux")]
    fn watch() -> MountTable {
        use rustix::fs::{Mode, OFlags, open};
        let watched = open("/proc/self/mounts", OFlags::RDONLY | OFlags::CLOEXEC, Mode::empty())
            .inspect_err(|error| {
                tracing::warn!("cannot watch /proc/self/mounts ({error}): the disks are listed at every reading")
            })
            .ok();
        MountTable { watched }
    }

    #[cfg(not(target_os = "linux"))]
    fn watch() -> MountTable {
        MountTable {}
    }

    #[cfg(target_os = "linux")]
    fn changed(&mut self) -> bool {
        use rustix::event::{PollFd, PollFlags, poll};
        let Some(watched) = &self.watched else { return true };
        let mut asked = [PollFd::new(watched, PollFlags::PRI)];
        let immediately = rustix::event::Timespec { tv_sec: 0, tv_nsec: 0 };
        match poll(&mut asked, Some(&immediately)) {
            Ok(_) => asked[0].revents().intersects(PollFlags::PRI | PollFlags::ERR),
            Err(_) => true,
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn changed(&mut self) -> bool {
        true
    }
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

    /// A mount and an unmount are each seen once; nothing in between.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_mount_table_says_when_it_changed() {
        if !rustix::process::geteuid().is_root() {
            return obi_test_support::skip::unavailable("mounting a tmpfs needs root (which CI has)");
        }
        let mut mounts = MountTable::watch();
        let target = tempfile::tempdir().unwrap();
        let run = |command: &mut Command| assert!(command.status().unwrap().success(), "{command:?}");
        assert!(!mounts.changed(), "nothing mounted yet");
        run(Command::new("mount").args(["-t", "tmpfs", "obi-test", target.path().to_str().unwrap()]));
        assert!(mounts.changed(), "a mount is seen");
        assert!(!mounts.changed(), "and seen once");
        run(Command::new("umount").arg(target.path()));
        assert!(mounts.changed(), "an unmount is seen");
    }
}

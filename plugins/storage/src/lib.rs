//! # Storage
//!
//! One item per mounted disk: the share of it in use, in percent.
//!
//! | key                     | values                                                  | default       |
//! |-------------------------|---------------------------------------------------------|---------------|
//! | `enable`                | `true` / `false`                                        | required      |
//! | `data_refresh_interval` | seconds between two readings                            | `10`          |
//! | `label_prefix`          | `None`, `Icon`, `Text`, `IconAndText`                   | `IconAndText` |
//! | `auto_select_over`      | percent; a disk is selected while its use is above      | none          |
//! | `auto_hide_under`       | percent; a disk is hidden while its use is below        | none          |
//! | `show_read_only_disks`  | `true` / `false`                                        | `false`       |
//! | `show_removable_disks`  | `true` / `false`                                        | `true`        |
//! | `storage_display_name`  | `Mount` (`/home`), `Name` (`/dev/sda2`), `MountAndName` (`/home (/dev/sda2)`), `NameAndMount` | `Mount` |
//!
//! The text prefix is the disk's display name: `/home 63%`. Its tooltip
//! gives the free and total space.
//!
//! ```json
//! { "Storage": { "enable": true, "auto_hide_under": 10, "auto_select_over": 90, "show_removable_disks": false } }
//! ```

use obi_sdk::config::{StorageConfig as Config, StorageDisplayName};
use obi_sdk::disks::{self, Disk};
use obi_sdk::{LabelPrefix, Piece, Schedule, View, Widget, icons, item};

pub struct Storage {
    label_prefix: LabelPrefix,
    auto_select_over: Option<u8>,
    auto_hide_under: Option<u8>,
    show_read_only_disks: bool,
    show_removable_disks: bool,
    display_name: StorageDisplayName,
}

/// What `display` names `disk` by.
fn name_of(disk: &Disk, display: StorageDisplayName) -> String {
    let (mount, name) = (&disk.mount_point, &disk.name);
    match display {
        StorageDisplayName::Mount => mount.clone(),
        StorageDisplayName::Name => name.clone(),
        StorageDisplayName::MountAndName => format!("{mount} ({name})"),
        StorageDisplayName::NameAndMount => format!("{name} ({mount})"),
    }
}

/// The share of `disk` in use, in whole percent.
fn percent_used(disk: &Disk) -> u8 {
    if disk.total_bytes == 0 {
        return 0;
    }
    let used = disk.total_bytes.saturating_sub(disk.available_bytes);
    (used as f64 / disk.total_bytes as f64 * 100.0).round() as u8
}

fn gibibytes(bytes: u64) -> String {
    format!("{:.1} GiB", bytes as f64 / (1u64 << 30) as f64)
}

impl Storage {
    fn shows(&self, disk: &Disk) -> bool {
        (self.show_read_only_disks || !disk.read_only)
            && (self.show_removable_disks || !disk.removable)
            && self.auto_hide_under.is_none_or(|under| percent_used(disk) >= under)
    }
}

impl Widget for Storage {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let storage = Storage {
            label_prefix: config.label_prefix.unwrap_or(LabelPrefix::IconAndText),
            auto_select_over: config.auto_select_over,
            auto_hide_under: config.auto_hide_under,
            show_read_only_disks: config.show_read_only_disks.unwrap_or(false),
            show_removable_disks: config.show_removable_disks.unwrap_or(true),
            display_name: config.storage_display_name.unwrap_or(StorageDisplayName::Mount),
        };
        Ok((storage, Schedule::data_refresh_interval(config.data_refresh_interval)))
    }

    fn refresh(&mut self) -> View {
        let items = disks::disks().into_iter().filter(|disk| self.shows(disk)).map(|disk| {
            let percent = percent_used(&disk);
            let name = name_of(&disk, self.display_name);
            let label =
                if self.label_prefix.shows_text() { format!("{name} {percent}%") } else { format!("{percent}%") };
            item(disk.mount_point.clone())
                .maybe(self.label_prefix.shows_icon().then(|| Piece::Icon(icons::HARD_DRIVES.into())))
                .text(label)
                .selected(self.auto_select_over.is_some_and(|over| percent > over))
                .tooltip(format!("{name}: {} free of {}", gibibytes(disk.available_bytes), gibibytes(disk.total_bytes)))
        });
        View::of(items)
    }
}

obi_sdk::export!(Storage);

//! The Storage widget: one item per disk, its use as a percentage.

use obi_harness::{Disk, Harness, Script, has_icon, texts};

/// 2024-03-09 15:04:05 UTC, a Saturday.
fn script() -> Script {
    Script::at("2024-03-09T15:04:05Z".parse().unwrap())
}

fn disk(mount: &str, name: &str, used_percent: u64, read_only: bool, removable: bool) -> Disk {
    let total = 100 << 30;
    Disk {
        mount_point: mount.into(),
        name: name.into(),
        total_bytes: total,
        available_bytes: total / 100 * (100 - used_percent),
        read_only,
        removable,
    }
}

fn disks() -> Vec<Disk> {
    vec![
        disk("/", "/dev/nvme0n1p2", 63, false, false),
        disk("/home", "/dev/nvme0n1p3", 5, false, false),
        disk("/media/usb", "/dev/sdb1", 95, false, true),
        disk("/snap/core", "/dev/loop0", 100, true, false),
    ]
}

#[test]
fn storage_shows_one_item_per_disk_it_is_asked_to() {
    let script = script();
    script.set_disks(disks());
    let show = |config: &str| {
        let view = Harness::first_view("Storage", config, &script);
        let selected: Vec<bool> = view.items.iter().map(|item| item.is_selected()).collect();
        (texts(&view), selected)
    };
    // Read-only disks are hidden by default, removable ones shown.
    assert_eq!(show(r#"{ "enable": true }"#).0, ["/ 63%", "/home 5%", "/media/usb 95%"]);
    assert_eq!(
        show(r#"{ "enable": true, "show_read_only_disks": true, "show_removable_disks": false }"#).0,
        ["/ 63%", "/home 5%", "/snap/core 100%"]
    );
    assert_eq!(show(r#"{ "enable": true, "auto_hide_under": 10 }"#).0, ["/ 63%", "/media/usb 95%"]);
    assert_eq!(show(r#"{ "enable": true, "auto_select_over": 90 }"#).1, [false, false, true]);
}

#[test]
fn storage_display_names_and_prefixes() {
    let script = script();
    script.set_disks(vec![disk("/home", "/dev/sda3", 42, false, false)]);
    let label = |config: &str| texts(&Harness::first_view("Storage", config, &script)).concat();
    assert_eq!(label(r#"{ "enable": true, "storage_display_name": "Mount" }"#), "/home 42%");
    assert_eq!(label(r#"{ "enable": true, "storage_display_name": "Name" }"#), "/dev/sda3 42%");
    assert_eq!(label(r#"{ "enable": true, "storage_display_name": "MountAndName" }"#), "/home (/dev/sda3) 42%");
    assert_eq!(label(r#"{ "enable": true, "storage_display_name": "NameAndMount" }"#), "/dev/sda3 (/home) 42%");
    assert_eq!(label(r#"{ "enable": true, "label_prefix": "Icon" }"#), "42%");
    let view = Harness::first_view("Storage", r#"{ "enable": true, "label_prefix": "IconAndText" }"#, &script);
    assert!(has_icon(&view));
    assert_eq!(view.items[0].key, "/home");
    assert_eq!(view.items[0].tooltip.as_deref(), Some("/home: 58.0 GiB free of 100.0 GiB"));
}

#[test]
fn storage_follows_its_readings() {
    let script = script();
    let mut storage = Harness::stock("Storage", r#"{ "enable": true }"#, &script).unwrap();
    assert!(storage.refresh().unwrap().items.is_empty(), "no disks, no items");
    script.set_disks(vec![disk("/", "/dev/vda", 40, false, false)]);
    assert_eq!(texts(&storage.refresh().unwrap()), ["/ 40%"]);
    script.set_disks(vec![disk("/", "/dev/vda", 41, false, false)]);
    assert_eq!(texts(&storage.refresh().unwrap()), ["/ 41%"]);
}

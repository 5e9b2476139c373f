//! The Memory widget: the memory in use as a percentage, selected over its threshold.

use obi_harness::{Harness, MemoryUsage, Script, texts};

/// 2024-03-09 15:04:05 UTC, a Saturday.
fn script() -> Script {
    Script::at("2024-03-09T15:04:05Z".parse().unwrap())
}

#[test]
fn memory_follows_its_readings_and_threshold() {
    let script = script();
    let gib = 1u64 << 30;
    let mut memory = Harness::stock("Memory", r#"{ "enable": true, "auto_select_over": 80 }"#, &script).unwrap();
    let mut read = |used: u64| {
        script.set_memory(MemoryUsage { total_bytes: 16 * gib, used_bytes: used, available_bytes: 16 * gib - used });
        let view = memory.refresh().unwrap();
        (texts(&view).concat(), view.items[0].is_selected())
    };
    assert_eq!(read(4 * gib), ("RAM: 25%".into(), false));
    assert_eq!(read(12 * gib + gib / 2), ("RAM: 78%".into(), false));
    assert_eq!(read(14 * gib), ("RAM: 88%".into(), true));
}

//! The Cpu widget: the processor's use as a percentage, selected over its threshold.

use obi_harness::{Harness, Script, texts};

/// 2024-03-09 15:04:05 UTC, a Saturday.
fn script() -> Script {
    Script::at("2024-03-09T15:04:05Z".parse().unwrap())
}

#[test]
fn cpu_over_its_threshold_is_selected() {
    let script = script();
    let mut cpu = Harness::stock("Cpu", r#"{ "enable": true, "auto_select_over": 90 }"#, &script).unwrap();
    script.set_cpu(91.0);
    let hot = cpu.refresh().unwrap();
    assert_eq!((texts(&hot), hot.items[0].is_selected()), (vec!["CPU: 91%".to_string()], true));
    script.set_cpu(90.0);
    let calm = cpu.refresh().unwrap();
    assert_eq!((texts(&calm), calm.items[0].is_selected()), (vec!["CPU: 90%".to_string()], false));
}

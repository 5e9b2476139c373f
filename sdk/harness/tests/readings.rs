//! What the widgets that show a reading (Cpu, Memory, Storage, Battery) share: their
//! label prefixes and their `data_refresh_interval`.

use obi_harness::{Harness, MemoryUsage, Script, has_icon, texts};

/// 2024-03-09 15:04:05 UTC, a Saturday.
fn script() -> Script {
    Script::at("2024-03-09T15:04:05Z".parse().unwrap())
}

#[test]
fn cpu_and_memory_label_prefixes() {
    let script = script();
    script.set_cpu(7.4);
    script.set_memory(MemoryUsage { total_bytes: 1000, used_bytes: 415, available_bytes: 585 });
    for (kind, name, value) in [("Cpu", "CPU", "7%"), ("Memory", "RAM", "42%")] {
        let show = |prefix: &str| {
            let view =
                Harness::first_view(kind, &format!(r#"{{ "enable": true, "label_prefix": "{prefix}" }}"#), &script);
            (has_icon(&view), texts(&view).concat())
        };
        assert_eq!(show("None"), (false, value.into()), "{kind}");
        assert_eq!(show("Icon"), (true, value.into()), "{kind}");
        assert_eq!(show("Text"), (false, format!("{name}: {value}")), "{kind}");
        assert_eq!(show("IconAndText"), (true, format!("{name}: {value}")), "{kind}");
    }
}

#[test]
fn readings_refresh_on_their_data_refresh_interval() {
    let script = script();
    for kind in ["Cpu", "Memory", "Storage", "Battery"] {
        let every = |config: &str| Harness::stock(kind, config, &script).unwrap().schedule().interval_ms;
        assert_eq!(every(r#"{ "enable": true }"#), 10_000, "{kind}");
        assert_eq!(every(r#"{ "enable": true, "data_refresh_interval": 3 }"#), 3_000, "{kind}");
        // komorebi-bar's 0 ("every frame") reads once a second here.
        assert_eq!(every(r#"{ "enable": true, "data_refresh_interval": 0 }"#), 1_000, "{kind}");
    }
}

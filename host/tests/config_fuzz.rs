//! Arbitrary bytes and arbitrary JSON values never panic the config reader:
//! every input either loads or is refused with located diagnostics.

use obi::config::BarConfig;
use proptest::prelude::*;
use serde_json::{Map, Value};

/// Property names the reader knows, mixed with random ones, so that
/// generated objects reach deep into the model.
const NAMES: &[&str] = &[
    "left_widgets",
    "center_widgets",
    "right_widgets",
    "height",
    "padding",
    "margin",
    "theme",
    "palette",
    "name",
    "grouping",
    "kind",
    "style",
    "rounding",
    "mouse",
    "message",
    "monitor",
    "index",
    "position",
    "start",
    "end",
    "viewport",
    "Cpu",
    "Time",
    "Date",
    "Komorebi",
    "Network",
    "Systray",
    "Plugin",
    "enable",
    "format",
    "Custom",
    "timezone",
    "label_prefix",
    "workspaces",
    "layout",
    "options",
    "hidden_icons",
    "colours",
    "base_00",
    "transparency_alpha",
];

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |n| n.is_finite()).prop_map(Value::from),
        prop_oneof![proptest::sample::select(NAMES).prop_map(str::to_owned), ".{0,12}"].prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 96, 8, |inner| {
        let key = prop_oneof![proptest::sample::select(NAMES).prop_map(str::to_owned), "[a-z_]{1,10}"];
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((key, inner), 0..6)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Either outcome is fine; a panic, or a refusal that says nothing, is not.
fn reads_without_panicking(text: &str) {
    match BarConfig::parse(text, "fuzz.json") {
        Ok(_) => {}
        Err(diagnostics) => assert!(!diagnostics.is_empty(), "a refusal names at least one problem"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        reads_without_panicking(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn arbitrary_json_values(value in json_value()) {
        reads_without_panicking(&value.to_string());
    }

    #[test]
    fn arbitrary_configs_with_both_widget_lists(extra in proptest::collection::vec((proptest::sample::select(NAMES), json_value()), 0..6)) {
        let mut config = serde_json::json!({ "left_widgets": [], "right_widgets": [] });
        for (key, value) in extra {
            config[key] = value;
        }
        reads_without_panicking(&serde_json::to_string_pretty(&config).unwrap());
    }
}

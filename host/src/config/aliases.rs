//! The older and neutral names komorebi-bar (and Obi) still accept, and the
//! names the model writes for them. serde's `alias` attributes on the model
//! do the reading; this table lets Obi compare what a file says with what
//! the model kept (to find unknown properties) and list renamed options.

/// Keys that were renamed: (old, current).
pub const KEY_ALIASES: &[(&str, &str)] = &[
    ("viewport", "position"),
    ("inner_size", "end"),
    ("show_total_data_transmitted", "show_total_activity"),
    ("show_network_activity", "show_activity"),
    ("network_activity_fill_characters", "activity_left_padding"),
    ("Tiler", "Komorebi"),
    ("custom", "Custom"),
];

/// Waybar's spellings of a Custom's keys, which the model reads as well as
/// its own (`return-type` for `return_type`), so that a module copied from
/// Waybar is read whole: another spelling, not an older name.
pub const WAYBAR_SPELLINGS: &[&str] = &[
    "exec-if",
    "exec-on-event",
    "format-icons",
    "hide-empty-text",
    "max-length",
    "min-length",
    "on-click",
    "on-click-middle",
    "on-click-right",
    "on-scroll-down",
    "on-scroll-up",
    "restart-interval",
    "return-type",
    "tooltip-format",
];

/// String values that were renamed: (old, current).
pub const VALUE_ALIASES: &[(&str, &str)] = &[
    ("Pastel", "Catppuccin"),
    ("CtByte", "Default"),
    ("CtByteWithShadow", "DefaultWithShadowB4O1S3"),
    ("DefaultWithShadow", "DefaultWithShadowB4O1S3"),
    ("Base0a", "Base0A"),
    ("Base0b", "Base0B"),
    ("Base0c", "Base0C"),
    ("Base0d", "Base0D"),
    ("Base0e", "Base0E"),
    ("Base0f", "Base0F"),
];

/// The current name of `key` in the object at `parent` (a JSON path).
pub fn canonical_key<'a>(parent: &str, key: &'a str) -> &'a str {
    // Inside `position` (or its old name `viewport`), `position` is the old name of `start`.
    if key == "position" && matches!(parent, "position" | "viewport") {
        return "start";
    }
    KEY_ALIASES.iter().find(|(old, _)| *old == key).map_or(key, |(_, current)| current)
}

/// The current spelling of a string value.
pub fn canonical_value(value: &str) -> &str {
    VALUE_ALIASES.iter().find(|(old, _)| *old == value).map_or(value, |(_, current)| current)
}

/// Where `value` (a file as read) uses an old name: (path, old, current).
pub fn renamed(value: &serde_json::Value) -> Vec<(String, String, String)> {
    let mut found = Vec::new();
    collect_renamed(value, "", &mut found);
    found
}

fn collect_renamed(value: &serde_json::Value, path: &str, found: &mut Vec<(String, String, String)>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, child) in map {
                let child_path = join(path, key);
                let current = canonical_key(path, key);
                if current != key {
                    found.push((child_path.clone(), key.clone(), current.to_owned()));
                }
                collect_renamed(child, &child_path, found);
            }
        }
        serde_json::Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                collect_renamed(item, &format!("{path}[{index}]"), found);
            }
        }
        serde_json::Value::String(text) if canonical_value(text) != text => {
            found.push((path.to_owned(), text.clone(), canonical_value(text).to_owned()));
        }
        _ => {}
    }
}

/// `parent.key`, or `key` at the root.
pub fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() { key.to_owned() } else { format!("{parent}.{key}") }
}

/// The properties of `read` (a file as read) that `kept` (what the model
/// wrote back) does not have: the ones the model does not know. A `null`
/// counts as absent, as it does for the model.
pub fn dropped(read: &serde_json::Value, kept: &serde_json::Value) -> Vec<String> {
    let mut found = Vec::new();
    collect_dropped(read, kept, "", &mut found);
    found
}

fn collect_dropped(read: &serde_json::Value, kept: &serde_json::Value, path: &str, found: &mut Vec<String>) {
    use serde_json::Value;
    match (read, kept) {
        (Value::Object(read), Value::Object(kept)) => {
            let in_custom = path.rsplit(['.', ']']).next() == Some("Custom");
            for (key, child) in read.iter().filter(|(_, child)| !child.is_null()) {
                let child_path = join(path, key);
                let name = match in_custom && WAYBAR_SPELLINGS.contains(&key.as_str()) {
                    true => key.replace('-', "_"),
                    false => canonical_key(path, key).to_owned(),
                };
                match kept.get(&name) {
                    Some(kept_child) => collect_dropped(child, kept_child, &child_path, found),
                    None => found.push(child_path),
                }
            }
        }
        (Value::Array(read), Value::Array(kept)) if read.len() == kept.len() => {
            for (index, (child, kept_child)) in read.iter().zip(kept).enumerate() {
                collect_dropped(child, kept_child, &format!("{path}[{index}]"), found);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn old_names_are_listed_with_their_paths() {
        let file = json!({ "viewport": { "position": { "x": 1, "y": 2 } }, "theme": { "palette": "Pastel" } });
        let found = renamed(&file);
        assert!(found.contains(&("viewport".into(), "viewport".into(), "position".into())));
        assert!(found.contains(&("viewport.position".into(), "position".into(), "start".into())));
        assert!(found.contains(&("theme.palette".into(), "Pastel".into(), "Catppuccin".into())));
    }

    #[test]
    fn waybars_spellings_of_a_customs_keys_are_read_not_dropped() {
        let read = json!({ "Custom": { "return-type": "json", "max-length": 3, "tooltip-colour": "red" } });
        let kept = json!({ "Custom": { "return_type": "json", "max_length": 3 } });
        assert_eq!(dropped(&read, &kept), ["Custom.tooltip-colour"]);
        let elsewhere = json!({ "Cpu": { "max-length": 3 } });
        assert_eq!(dropped(&elsewhere, &json!({ "Cpu": { "max_length": 3 } })), ["Cpu.max-length"], "Custom's alone");
    }

    /// Each spelling listed is one the model reads: a value given under it
    /// is kept under the model's own name.
    #[test]
    fn every_waybar_spelling_is_read_by_the_model() {
        use crate::config::model::CustomConfig;
        for spelling in WAYBAR_SPELLINGS {
            let value = match *spelling {
                "exec-on-event" | "hide-empty-text" => json!(true),
                "max-length" | "min-length" | "restart-interval" => json!(4),
                "format-icons" => json!(["a", "b"]),
                "return-type" => json!("json"),
                _ => json!("a command"),
            };
            let mut read = json!({ "enable": true, "exec": "x" });
            read[*spelling] = value.clone();
            let custom: CustomConfig =
                serde_json::from_value(read).unwrap_or_else(|error| panic!("{spelling}: {error}"));
            let kept = serde_json::to_value(custom).unwrap();
            assert_eq!(kept[spelling.replace('-', "_")], value, "{spelling}");
        }
    }

    #[test]
    fn dropped_properties_are_found_under_their_written_names() {
        let read = json!({ "viewport": { "position": { "x": 1 } }, "nonsense": 1, "empty": null, "list": [ { "a": 1, "b": 2 } ] });
        let kept = json!({ "position": { "start": { "x": 1 } }, "list": [ { "a": 1 } ] });
        assert_eq!(dropped(&read, &kept), ["list[0].b", "nonsense"]);
    }
}

//! Obi's JSON schema of the config file, with the schemas third-party
//! widgets give of their own `config`: a Plugin entry whose `path` names
//! such a widget has its `config` checked against that widget's schema
//! (JSON Schema's `if`/`then`), the widget's definitions moved beside the
//! bar's under a prefix of their own so that their references still hold.

use serde_json::{Map, Value, json};

/// `schema` (Obi's) extended with `plugins`: each the `path` of a Plugin
/// entry as the config writes it, and the schema its widget gave.
pub fn with_plugin_schemas(mut schema: Value, plugins: &[(String, Value)]) -> Value {
    let mut conditions = Vec::new();
    for (index, (path, plugin_schema)) in plugins.iter().enumerate() {
        let prefix = format!("plugin{index}_");
        let mut plugin_schema = plugin_schema.clone();
        let definitions = take_definitions(&mut plugin_schema);
        for (name, mut definition) in definitions {
            rename_references(&mut definition, &prefix);
            schema["$defs"][format!("{prefix}{name}")] = definition;
        }
        rename_references(&mut plugin_schema, &prefix);
        if let Some(object) = plugin_schema.as_object_mut() {
            object.remove("$schema");
        }
        conditions.push(json!({
            "if": { "properties": { "path": { "const": path } }, "required": ["path"] },
            "then": { "properties": { "config": plugin_schema } }
        }));
    }
    if !conditions.is_empty() {
        schema["$defs"]["PluginConfig"]["allOf"] = Value::Array(conditions);
    }
    schema
}

fn take_definitions(schema: &mut Value) -> Map<String, Value> {
    let Some(object) = schema.as_object_mut() else { return Map::new() };
    let mut definitions = Map::new();
    for key in ["$defs", "definitions"] {
        if let Some(Value::Object(found)) = object.remove(key) {
            definitions.extend(found);
        }
    }
    definitions
}

/// `#/$defs/Name` (or `#/definitions/Name`) becomes `#/$defs/{prefix}Name`.
fn rename_references(value: &mut Value, prefix: &str) {
    match value {
        Value::Object(object) => {
            for (key, inner) in object.iter_mut() {
                if key == "$ref"
                    && let Value::String(reference) = inner
                    && let Some(name) =
                        reference.strip_prefix("#/$defs/").or_else(|| reference.strip_prefix("#/definitions/"))
                {
                    *reference = format!("#/$defs/{prefix}{name}");
                } else {
                    rename_references(inner, prefix);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| rename_references(item, prefix)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plugins_schema_applies_to_the_entry_with_its_path_and_keeps_its_references() {
        let bar: Value = serde_json::from_str(&super::super::schema()).unwrap();
        let timer = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": { "phase": { "$ref": "#/$defs/Phase" } },
            "$defs": { "Phase": { "enum": ["Work", "Break"] } }
        });
        let schema = with_plugin_schemas(bar, &[("timer.wasm".into(), timer)]);
        let condition = &schema["$defs"]["PluginConfig"]["allOf"][0];
        assert_eq!(condition["if"]["properties"]["path"]["const"], "timer.wasm");
        let config = &condition["then"]["properties"]["config"];
        assert_eq!(config["properties"]["phase"]["$ref"], "#/$defs/plugin0_Phase");
        assert_eq!(schema["$defs"]["plugin0_Phase"]["enum"], json!(["Work", "Break"]));
        assert!(config.get("$schema").is_none() && config.get("$defs").is_none());
        assert!(schema["$defs"]["KomobarTheme"].is_object(), "the bar's own definitions stay");
    }

    #[test]
    fn without_plugin_schemas_the_schema_is_obis() {
        let bar: Value = serde_json::from_str(&super::super::schema()).unwrap();
        assert_eq!(with_plugin_schemas(bar.clone(), &[]), bar);
    }
}

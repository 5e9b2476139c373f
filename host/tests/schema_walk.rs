//! Every property name and enum value of komorebi-bar's JSON schemas
//! (Windows and macOS) is accepted by Obi's model. The schemas are walked,
//! not hand-listed: from a minimal config, one node at a time is varied
//! through each property and each alternative the schema allows, and every
//! such config must load without an "unknown property" warning. And every
//! widget the schemas name is built into Obi.

mod common;

use common::{KOMOREBI_BAR_SCHEMAS, schema_widget_kinds, shared};
use obi::config::BarConfig;
use serde_json::{Map, Value, json};
use std::path::Path;

/// Beyond this depth the walk stops varying and only fills in minimal values.
const MAX_DEPTH: usize = 12;

struct Walker<'a> {
    defs: &'a Map<String, Value>,
}

impl Walker<'_> {
    fn resolve<'s>(&'s self, schema: &'s Value) -> (&'s Value, Option<&'s str>) {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(reference) => {
                let name = reference.rsplit('/').next().unwrap();
                let target = &self.defs[name];
                // A node may both name a ref and add properties (the tagged themes, grouping).
                (target, Some(name))
            }
            None => (schema, None),
        }
    }

    /// The smallest instance the schema accepts.
    fn minimal(&self, schema: &Value, name_hint: &str, depth: usize) -> Value {
        self.instances(schema, name_hint, depth, false).into_iter().next().unwrap_or(Value::Null)
    }

    /// Instances of `schema` that between them use every property and every
    /// alternative (when `vary`), or just the minimal one.
    fn instances(&self, schema: &Value, name_hint: &str, depth: usize, vary: bool) -> Vec<Value> {
        let vary = vary && depth < MAX_DEPTH;
        let (target, def_name) = self.resolve(schema);
        if def_name == Some("Hex") {
            return vec![json!("#102030")];
        }
        if let Some(constant) = target.get("const") {
            return vec![constant.clone()];
        }
        if let Some(values) = target.get("enum").and_then(Value::as_array) {
            return if vary { values.clone() } else { values[..1].to_vec() };
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(alternatives) = target.get(key).and_then(Value::as_array) {
                let concrete: Vec<&Value> =
                    alternatives.iter().filter(|alternative| alternative.get("type") != Some(&json!("null"))).collect();
                let chosen = if vary { concrete } else { concrete.into_iter().take(1).collect() };
                let mut out: Vec<Value> = chosen
                    .into_iter()
                    .flat_map(|alternative| self.instances(alternative, name_hint, depth + 1, vary))
                    .collect();
                // Properties written beside a oneOf (rare) apply to every alternative.
                if out.is_empty() {
                    out.push(Value::Null);
                }
                return out;
            }
        }
        let object = self.object_parts(schema, target);
        if let Some((properties, required)) = object {
            let mut base = Map::new();
            for name in &required {
                base.insert(name.clone(), self.minimal(&properties[name], name, depth + 1));
            }
            let mut out = vec![Value::Object(base.clone())];
            if vary {
                for (name, property) in &properties {
                    for value in self.instances(property, name, depth + 1, true) {
                        if value.is_null() {
                            continue;
                        }
                        let mut variant = base.clone();
                        variant.insert(name.clone(), value);
                        out.push(Value::Object(variant));
                    }
                }
            }
            return out;
        }
        match primary_type(target) {
            Some("array") if target.get("prefixItems").is_some() => {
                let tuple = target["prefixItems"].as_array().unwrap();
                vec![Value::Array(tuple.iter().map(|item| self.minimal(item, name_hint, depth + 1)).collect())]
            }
            Some("array") => {
                let items = target.get("items").cloned().unwrap_or(json!({}));
                let length = target.get("minItems").and_then(Value::as_u64).unwrap_or(1) as usize;
                let elements = if vary {
                    self.instances(&items, name_hint, depth + 1, true)
                } else {
                    vec![self.minimal(&items, name_hint, depth + 1)]
                };
                elements.into_iter().map(|element| Value::Array(vec![element; length.max(1)])).collect()
            }
            Some("string") if name_hint == "timezone" => vec![json!("UTC")],
            Some("string") => vec![json!("x")],
            Some("integer") => vec![json!(1)],
            Some("number") => vec![json!(1.5)],
            Some("boolean") => vec![json!(true)],
            Some("object") => vec![json!({})],
            _ => vec![Value::Null],
        }
    }

    /// The properties and required names of an object schema, merging a
    /// node's own properties with those of the definition it refers to.
    fn object_parts(&self, schema: &Value, target: &Value) -> Option<(Map<String, Value>, Vec<String>)> {
        let mut properties = Map::new();
        let mut required = Vec::new();
        for part in [target, schema] {
            if let Some(own) = part.get("properties").and_then(Value::as_object) {
                properties.extend(own.clone());
            }
            if let Some(own) = part.get("required").and_then(Value::as_array) {
                required.extend(own.iter().filter_map(Value::as_str).map(str::to_owned));
            }
        }
        required.dedup();
        (!properties.is_empty()).then_some((properties, required))
    }
}

fn primary_type(schema: &Value) -> Option<&str> {
    match schema.get("type") {
        Some(Value::String(kind)) => Some(kind),
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).find(|kind| *kind != "null"),
        _ => None,
    }
}

fn walk(schema_file: &Path) -> usize {
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(schema_file).unwrap()).unwrap();
    let walker = Walker { defs: schema["$defs"].as_object().unwrap() };
    let documents = walker.instances(&schema, "", 0, true);
    let mut failures = Vec::new();
    for document in &documents {
        let text = serde_json::to_string_pretty(document).unwrap();
        match BarConfig::parse(&text, "generated.json") {
            Ok(loaded) => failures.extend(
                loaded
                    .warnings
                    .iter()
                    .filter(|warning| warning.message.contains("unknown property"))
                    .map(|warning| format!("{warning}\n{text}")),
            ),
            Err(diagnostics) => failures.extend(diagnostics.iter().map(|diagnostic| format!("{diagnostic}\n{text}"))),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} generated configs were refused:\n{}",
        failures.len(),
        documents.len(),
        failures.iter().take(8).cloned().collect::<Vec<_>>().join("\n\n")
    );
    documents.len()
}

#[test]
fn every_property_and_value_of_the_windows_schema_is_accepted() {
    let Some(shared) = shared() else { return };
    let count = walk(&shared.join("reference/komorebi-bar.schema.json"));
    assert!(count > 500, "the walk covered the schema: {count} configs");
}

#[test]
fn every_property_and_value_of_the_macos_schema_is_accepted() {
    let Some(shared) = shared() else { return };
    let count = walk(&shared.join("reference/komorebi-bar.macos.schema.json"));
    assert!(count > 300, "the walk covered the schema: {count} configs");
}

/// Every widget komorebi-bar has (on Windows and macOS) is one Obi shows.
#[test]
fn every_widget_of_the_schemas_is_built_in() {
    let Some(shared) = shared() else { return };
    for file in KOMOREBI_BAR_SCHEMAS {
        let kinds = schema_widget_kinds(&shared, file);
        assert!(kinds.len() >= 10, "{file}: {kinds:?}");
        for kind in kinds {
            assert!(obi::spec::WidgetSpec::stock(&kind, "{}".into()).is_ok(), "{file}: {kind} is not built in");
        }
    }
}

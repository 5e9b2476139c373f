//! One entry of `left_widgets` / `center_widgets` / `right_widgets`: an
//! object with a single key naming the widget kind, as in
//! `{ "Cpu": { "enable": true } }`, and the runtime spec made from it.

use super::BarConfig;
use crate::capabilities::Capability;
use crate::runtime::{Limits, WidgetSource, WidgetSpec};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use std::collections::BTreeSet;
use std::fmt;
use std::time::Duration;

/// The kinds of widget the config can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WidgetKind {
    Cpu,
    Time,
    /// A third-party component (an Obi extension of the format):
    /// `{ "Plugin": { "enable": true, "path": "w.wasm", "grants": ["metrics"], "config": {} } }`.
    Plugin,
}

impl WidgetKind {
    const NAMES: [(&'static str, WidgetKind); 3] =
        [("Cpu", WidgetKind::Cpu), ("Time", WidgetKind::Time), ("Plugin", WidgetKind::Plugin)];

    /// The capabilities a stock widget of this kind is granted.
    fn stock_grants(self) -> &'static [Capability] {
        match self {
            WidgetKind::Cpu => &[Capability::Log, Capability::Clock, Capability::Metrics],
            WidgetKind::Time => &[Capability::Log, Capability::Clock],
            WidgetKind::Plugin => &[Capability::Log, Capability::Clock],
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct WidgetEntry {
    pub kind: WidgetKind,
    pub name: &'static str,
    pub options: serde_json::Value,
}

impl WidgetEntry {
    /// `enable` is required by komorebi-bar's schema; a missing one counts as enabled.
    pub fn enabled(&self) -> bool {
        self.options.get("enable").and_then(serde_json::Value::as_bool).unwrap_or(true)
    }

    /// The runtime spec of this widget.
    pub fn spec(&self, config: &BarConfig) -> Result<WidgetSpec, String> {
        if self.kind != WidgetKind::Plugin {
            return stock_spec(self.name, self.options.to_string());
        }
        let plugin: PluginOptions = serde_json::from_value(self.options.clone())
            .map_err(|error| format!("Plugin widget: {error}"))?;
        let path = config.directory.join(&plugin.path);
        let name = plugin.name.unwrap_or_else(|| {
            path.file_stem().map(|stem| stem.to_string_lossy().into_owned()).unwrap_or_else(|| "plugin".into())
        });
        let mut grants: BTreeSet<Capability> = self.kind.stock_grants().iter().copied().collect();
        for grant in &plugin.grants {
            grants.insert(Capability::from_interface(grant).ok_or_else(|| {
                let known: Vec<&str> = Capability::ALL.iter().map(|capability| capability.interface()).collect();
                format!("Plugin `{name}`: unknown capability {grant:?} in grants (known: {})", known.join(", "))
            })?);
        }
        let defaults = Limits::default();
        Ok(WidgetSpec {
            name,
            source: WidgetSource::File(path),
            config_json: plugin.config.to_string(),
            grants,
            limits: Limits {
                memory_bytes: plugin.memory_limit_mb.map_or(defaults.memory_bytes, |mb| mb << 20),
                call_deadline: plugin.call_deadline_ms.map_or(defaults.call_deadline, Duration::from_millis),
            },
        })
    }
}

/// The spec of the stock widget named `name` as in the config (`"Cpu"`),
/// granted what its kind needs.
pub fn stock_spec(name: &str, config_json: String) -> Result<WidgetSpec, String> {
    let kind = WidgetKind::NAMES
        .iter()
        .find(|(known, kind)| *known == name && *kind != WidgetKind::Plugin)
        .map(|(_, kind)| *kind)
        .ok_or_else(|| format!("{name:?} is not a stock widget"))?;
    let (name, wasm) = *crate::stock::STOCK_WIDGETS
        .iter()
        .find(|(kind, _)| *kind == name)
        .ok_or_else(|| format!("the {name} widget is not built into this obi"))?;
    Ok(WidgetSpec {
        name: name.into(),
        source: WidgetSource::Embedded { kind: name, wasm },
        config_json,
        grants: kind.stock_grants().iter().copied().collect(),
        limits: Limits::default(),
    })
}

#[derive(Deserialize)]
struct PluginOptions {
    path: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    grants: Vec<String>,
    #[serde(default)]
    memory_limit_mb: Option<usize>,
    #[serde(default)]
    call_deadline_ms: Option<u64>,
    #[serde(default)]
    config: serde_json::Value,
}

impl<'de> Deserialize<'de> for WidgetEntry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntryVisitor;

        impl<'de> Visitor<'de> for EntryVisitor {
            type Value = WidgetEntry;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object with one key naming the widget, like { \"Cpu\": { \"enable\": true } }")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<WidgetEntry, A::Error> {
                let key: String = map.next_key()?.ok_or_else(|| de::Error::custom("empty widget object"))?;
                let known: Vec<&str> = WidgetKind::NAMES.iter().map(|(name, _)| *name).collect();
                let (name, kind) = WidgetKind::NAMES
                    .iter()
                    .find(|(name, _)| *name == key)
                    .copied()
                    .ok_or_else(|| de::Error::custom(format!("unknown widget {key:?} (this obi knows {})", known.join(", "))))?;
                let options: serde_json::Value = map.next_value()?;
                if !options.is_object() {
                    return Err(de::Error::custom(format!("the value of {key:?} must be an object")));
                }
                if let Some(extra) = map.next_key::<String>()? {
                    return Err(de::Error::custom(format!("a widget entry names one widget; found {extra:?} after {key:?}")));
                }
                Ok(WidgetEntry { kind, name, options })
            }
        }

        deserializer.deserialize_map(EntryVisitor)
    }
}

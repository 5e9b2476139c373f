//! The widget entries of `left_widgets` / `center_widgets` / `right_widgets`:
//! one object with a single key naming the kind, holding that kind's config.
//! The host checks each config against these types; the widget component
//! then receives it as JSON and reads it into the same type (the stock
//! kinds' configs live in `obi-widget-config`, shared with the widgets).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;
use std::collections::BTreeMap;

pub use obi_widget_config::*;

macro_rules! widget_config {
    ($($(#[$attribute:meta])* $kind:ident($config:ty) grants [$($grant:literal),*]),* $(,)?) => {
        // A widget entry: one of the stock kinds, or a third-party component.
        // (Not a doc comment: it would become the schema's description.)
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
        pub enum WidgetConfig {
            $($(#[$attribute])* $kind($config),)*
            /// A third-party widget component (an Obi extension of the format).
            Plugin(PluginConfig),
        }

        impl WidgetConfig {
            /// The key that names its kind in the config file: `"Cpu"`.
            pub fn kind(&self) -> &'static str {
                match self {
                    $(WidgetConfig::$kind(_) => stringify!($kind),)*
                    WidgetConfig::Plugin(_) => "Plugin",
                }
            }

            pub fn enabled(&self) -> bool {
                match self {
                    $(WidgetConfig::$kind(config) => config.enabled(),)*
                    WidgetConfig::Plugin(plugin) => plugin.enable,
                }
            }
        }
    };
}
obi_widget_config::with_stock_kinds!(widget_config);

/// `{ "Plugin": { "enable": true, "path": "w.wasm", "grants": ["metrics"], "config": {} } }`
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PluginConfig {
    pub enable: bool,
    /// The component, relative to the config file.
    pub path: String,
    /// Shown in errors and logs; the file name by default.
    pub name: Option<String>,
    /// Capabilities beyond `log` and `clock`, by interface name.
    #[serde(default)]
    pub grants: Vec<String>,
    /// Memory cap in MiB (default 16).
    pub memory_limit_mb: Option<usize>,
    /// Deadline of every call in milliseconds (default 50).
    pub call_deadline_ms: Option<u64>,
    /// Handed to the widget's `init` as JSON.
    #[serde(default)]
    pub config: serde_json::Value,
    /// Command lines the widget may run, by the id it names them with
    /// (`{"uptime": "uptime -p"}`); declaring them grants `commands`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub commands: BTreeMap<String, String>,
}

//! The bar's configuration: `komorebi.bar.json` read into [`BarConfig`], and
//! the widget specs the runtime runs, derived from it.
//!
//! This first cut reads the properties the bar draws with today (widget
//! lists, `height`, `font_family`, `font_size`, `icon_scale`,
//! `widget_spacing`, `padding` as a number, `max_label_width`,
//! `transparency_alpha`, `monitor` as an index) and tolerates every other
//! property of the format, so real files load.

mod jsonc;
mod widgets;

pub use widgets::{WidgetEntry, WidgetKind, stock_spec};

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The config compiled into the binary, used when no `--config` is given.
pub const DEFAULT_CONFIG: &str = include_str!("../../../examples/default.json");

#[derive(Debug, Clone, Deserialize)]
pub struct BarConfig {
    #[serde(default)]
    pub left_widgets: Vec<WidgetEntry>,
    #[serde(default)]
    pub center_widgets: Vec<WidgetEntry>,
    #[serde(default)]
    pub right_widgets: Vec<WidgetEntry>,
    #[serde(default = "defaults::height")]
    pub height: f32,
    #[serde(default)]
    pub font_family: Option<String>,
    #[serde(default = "defaults::font_size")]
    pub font_size: f32,
    #[serde(default = "defaults::icon_scale")]
    pub icon_scale: f32,
    #[serde(default = "defaults::widget_spacing")]
    pub widget_spacing: f32,
    #[serde(default = "defaults::max_label_width")]
    pub max_label_width: f32,
    #[serde(default = "defaults::transparency_alpha")]
    pub transparency_alpha: u8,
    #[serde(default, deserialize_with = "number_or_default")]
    pub padding: Option<f32>,
    #[serde(default, deserialize_with = "index_or_default")]
    pub monitor: Option<usize>,
    /// Where the file was read from: relative plugin paths resolve against it.
    #[serde(skip)]
    pub directory: PathBuf,
}

mod defaults {
    pub fn height() -> f32 {
        50.0
    }
    pub fn font_size() -> f32 {
        12.5
    }
    pub fn icon_scale() -> f32 {
        1.4
    }
    pub fn widget_spacing() -> f32 {
        10.0
    }
    pub fn max_label_width() -> f32 {
        400.0
    }
    pub fn transparency_alpha() -> u8 {
        200
    }
}

/// `padding` may also be per-side or grouped; until those forms are drawn,
/// they fall back to the default padding rather than fail the file.
fn number_or_default<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<f32>, D::Error> {
    let value = serde_json::Value::deserialize(deserializer)?;
    Ok(value.as_f64().map(|number| number as f32))
}

/// `monitor` is an index or an object with an `index`.
fn index_or_default<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<usize>, D::Error> {
    let value = serde_json::Value::deserialize(deserializer)?;
    let index = value.as_u64().or_else(|| value.get("index").and_then(serde_json::Value::as_u64));
    Ok(index.map(|index| index as usize))
}

/// Which part of the bar a widget sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Left,
    Center,
    Right,
}

impl BarConfig {
    pub fn parse(text: &str, origin: &str) -> Result<BarConfig, String> {
        serde_json::from_str(text).map_err(|error| format!("{origin}:{}:{}: {error}", error.line(), error.column()))
    }

    pub fn load(path: &Path) -> Result<BarConfig, String> {
        let text = std::fs::read_to_string(path).map_err(|error| format!("reading {}: {error}", path.display()))?;
        let mut config = BarConfig::parse(&text, &path.display().to_string())?;
        config.directory = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Ok(config)
    }

    pub fn embedded_default() -> BarConfig {
        BarConfig::parse(DEFAULT_CONFIG, "<embedded default config>").expect("the embedded default config parses")
    }

    pub fn padding(&self) -> f32 {
        self.padding.unwrap_or(10.0)
    }

    /// The enabled widgets, in drawing order, with the side each sits in.
    pub fn widgets(&self) -> impl Iterator<Item = (Side, &WidgetEntry)> {
        [(Side::Left, &self.left_widgets), (Side::Center, &self.center_widgets), (Side::Right, &self.right_widgets)]
            .into_iter()
            .flat_map(|(side, entries)| entries.iter().map(move |entry| (side, entry)))
            .filter(|(_, entry)| entry.enabled())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_komorebi_bars() {
        let config = BarConfig::parse("{}", "test").unwrap();
        assert_eq!((config.height, config.font_size, config.icon_scale), (50.0, 12.5, 1.4));
        assert_eq!((config.widget_spacing, config.transparency_alpha, config.padding()), (10.0, 200, 10.0));
    }

    #[test]
    fn errors_carry_line_and_column() {
        let error = BarConfig::parse("{\n  \"height\": \"tall\"\n}", "bar.json").unwrap_err();
        assert!(error.starts_with("bar.json:2:"), "{error}");
    }

    #[test]
    fn the_embedded_default_loads() {
        assert!(BarConfig::embedded_default().widgets().count() >= 2);
    }
}

//! The bar's configuration: `komorebi.bar.json` read leniently (comments,
//! trailing commas), checked against the typed [`model`], with every problem
//! reported as a located [`Diagnostic`], and the accessors that apply
//! komorebi-bar's defaults and clamps.

pub mod aliases;
mod beneath;
mod diagnostics;
mod jsonc;
pub mod komorebi_json;
pub mod model;
mod plugin_schemas;
mod read;

pub use diagnostics::{Diagnostic, Severity};
pub use jsonc::{Document, LineColumn, Locations, SyntaxError, parse as parse_jsonc};
pub use model::BarModel;
pub use plugin_schemas::with_plugin_schemas;

use model::{GroupedSpacingConfig, GroupedSpacingOptions, MonitorConfigOrIndex, SpacingKind, WidgetConfig};
use std::path::{Path, PathBuf};

/// A config file larger than this is refused: real ones hold a few KiB, and
/// reading one costs about a hundred bytes of memory for each of its values.
pub const CONFIG_FILE_BYTES: u64 = 1 << 20;

/// The config compiled into the binary, used when no `--config` is given.
pub const DEFAULT_CONFIG: &str = include_str!("../../../examples/default.json");

#[derive(Debug, Clone, PartialEq)]
pub struct BarConfig {
    pub model: BarModel,
    /// Where the file was read from: relative plugin paths resolve against it.
    pub directory: PathBuf,
}

/// A config that loaded, and what was worth saying about it.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub config: BarConfig,
    pub warnings: Vec<Diagnostic>,
}

/// Which part of the bar a widget sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Left,
    Center,
    Right,
}

/// An enabled widget and where it sits. What the runtime makes of it is
/// [`crate::spec`]'s business.
#[derive(Debug, Clone, Copy)]
pub struct WidgetEntry<'a> {
    pub side: Side,
    pub config: &'a WidgetConfig,
}

/// Where the user's programs keep their configs: `$XDG_CONFIG_HOME`, else
/// `~/.config` (Obi's in `obi/`, Waybar's in `waybar/`).
pub fn config_home() -> anyhow::Result<PathBuf> {
    use anyhow::Context;
    std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")))
        .context("neither XDG_CONFIG_HOME nor HOME is set")
}

/// A `--config` path as typed: `~` and `$VAR` / `${VAR}` are resolved, and
/// an unset variable is an error naming it.
pub fn resolve_path(raw: &str) -> Result<PathBuf, UnsetVariable> {
    shellexpand::full(raw)
        .map(|expanded| PathBuf::from(expanded.as_ref()))
        .map_err(|error| UnsetVariable { path: raw.to_owned(), variable: error.var_name })
}

/// A config path that names a variable the environment does not set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsetVariable {
    pub path: String,
    pub variable: String,
}

impl std::fmt::Display for UnsetVariable {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "config path {:?}: ${} is not set", self.path, self.variable)
    }
}

impl std::error::Error for UnsetVariable {}

/// Obi's JSON schema of `komorebi.bar.json` (with its extensions).
pub fn schema() -> String {
    serde_json::to_string_pretty(&schemars::schema_for!(BarModel)).expect("the schema serializes")
}

/// Reads config text as komorebi-bar does (comments and trailing commas
/// allowed) into a plain JSON value, without checking it against the model.
pub fn parse_lenient(text: &str) -> Result<serde_json::Value, SyntaxError> {
    jsonc::parse(text).map(|document| document.value)
}

impl BarConfig {
    /// Parses config text; `origin` names it in messages. Fails with every
    /// error found (and the warnings), sorted by position.
    pub fn parse(text: &str, origin: &str) -> Result<Loaded, Vec<Diagnostic>> {
        let (model, warnings) = read::read(text, origin)?;
        Ok(Loaded { config: BarConfig { model, directory: PathBuf::new() }, warnings })
    }

    /// Reads the file at `path`: a regular file of at most
    /// [`CONFIG_FILE_BYTES`], so that a FIFO, a device or a huge file is
    /// refused at once, and the user's or the system's that nobody else may
    /// write to, since it runs commands.
    pub fn load(path: &Path) -> Result<Loaded, Vec<Diagnostic>> {
        let origin = path.display().to_string();
        let unreadable = |message: String| {
            vec![Diagnostic {
                severity: Severity::Error,
                origin: origin.clone(),
                at: LineColumn { line: 1, column: 1 },
                path: String::new(),
                message,
            }]
        };
        let bytes = crate::files::read_config(path, CONFIG_FILE_BYTES)
            .map_err(|why| unreadable(format!("cannot read the file: {why}")))?;
        let text =
            String::from_utf8(bytes).map_err(|error| unreadable(format!("the file is not UTF-8 text: {error}")))?;
        let mut loaded = BarConfig::parse(&text, &origin)?;
        loaded.config.directory = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Ok(loaded)
    }

    pub fn embedded_default() -> BarConfig {
        BarConfig::parse(DEFAULT_CONFIG, "<embedded default config>").expect("the embedded default config loads").config
    }

    /// The window's height: `height`, else `position.end.y`, else 50 (as
    /// komorebi-bar, where `height` wins over the end position).
    pub fn height(&self) -> f32 {
        let end = self.model.position.as_ref().and_then(|position| position.end);
        self.model.height.or(end.map(|end| end.y)).unwrap_or(50.0)
    }

    pub fn font_size(&self) -> f32 {
        self.model.font_size.unwrap_or(12.5)
    }

    /// komorebi-bar clamps the icon scale to 1.0..=2.0 (reading warns about it).
    pub fn icon_scale(&self) -> f32 {
        self.model.icon_scale.unwrap_or(1.4).clamp(1.0, 2.0)
    }

    pub fn widget_spacing(&self) -> f32 {
        self.model.widget_spacing.unwrap_or(10.0)
    }

    pub fn max_label_width(&self) -> f32 {
        self.model.max_label_width.unwrap_or(400.0)
    }

    pub fn transparency_alpha(&self) -> u8 {
        self.model.transparency_alpha.unwrap_or(200)
    }

    /// `padding`, or else the older `frame.inner_margin` (x horizontal, y
    /// vertical), or else 10 on every side, as komorebi-bar reads them.
    pub fn padding(&self) -> SpacingKind {
        if let Some(padding) = &self.model.padding {
            return padding.clone();
        }
        match &self.model.frame {
            Some(frame) => SpacingKind::Grouped(GroupedSpacingConfig {
                horizontal: Some(GroupedSpacingOptions::Symmetrical(frame.inner_margin.x)),
                vertical: Some(GroupedSpacingOptions::Symmetrical(frame.inner_margin.y)),
            }),
            None => SpacingKind::All(10.0),
        }
    }

    pub fn margin(&self) -> SpacingKind {
        self.model.margin.clone().unwrap_or(SpacingKind::All(0.0))
    }

    pub fn monitor(&self) -> Option<usize> {
        self.model.monitor.as_ref().map(MonitorConfigOrIndex::index)
    }

    /// `monitor.work_area_offset`: what komorebi should keep free for the bar.
    pub fn work_area_offset(&self) -> Option<model::Sides> {
        match &self.model.monitor {
            Some(MonitorConfigOrIndex::Config(monitor)) => monitor.work_area_offset,
            _ => None,
        }
    }

    /// The edge of its monitor the bar runs along: the top unless `edge` says.
    pub fn edge(&self) -> model::Edge {
        self.model.edge.unwrap_or_default()
    }

    /// How the bar shows the desktop's notifications, when it serves them.
    pub fn notifications(&self) -> Option<&model::NotificationServerConfig> {
        self.model.notifications.as_ref().filter(|notifications| notifications.enable)
    }

    /// How the bar shows the volume and the brightness as they change, when it does.
    pub fn osd(&self) -> Option<&model::OsdConfig> {
        self.model.osd.as_ref().filter(|osd| osd.enable)
    }

    pub fn font_family(&self) -> Option<&str> {
        self.model.font_family.as_deref()
    }

    /// What komorebi-bar would not read, by where the file has it
    /// (`right_widgets[2].PowerMenu`, `edge`): plugins and Obi's own kinds,
    /// enabled or not (komorebi-bar refuses the whole file for one), and
    /// Obi's own keys.
    pub fn obi_own_entries(&self) -> Vec<String> {
        let own = |kind: &str| kind == "Plugin" || model::OBI_OWN_KINDS.contains(&kind);
        let keys = [
            self.model.edge.map(|_| "edge"),
            self.model.notifications.as_ref().map(|_| "notifications"),
            self.model.osd.as_ref().map(|_| "osd"),
        ];
        let keys = keys.into_iter().flatten().map(str::to_owned);
        let entries = self.model.entries().filter(|(_, widget)| own(widget.kind()));
        entries.map(|(at, widget)| format!("{at}.{}", widget.kind())).chain(keys).collect()
    }

    /// The enabled widgets, in drawing order, with the side each sits in.
    pub fn widgets(&self) -> impl Iterator<Item = WidgetEntry<'_>> {
        let center = self.model.center_widgets.as_deref().unwrap_or_default();
        [
            (Side::Left, self.model.left_widgets.as_slice()),
            (Side::Center, center),
            (Side::Right, self.model.right_widgets.as_slice()),
        ]
        .into_iter()
        .flat_map(|(side, configs)| configs.iter().map(move |config| WidgetEntry { side, config }))
        .filter(|entry| entry.config.enabled())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Loaded, Vec<Diagnostic>> {
        BarConfig::parse(text, "bar.json")
    }

    #[test]
    fn defaults_are_komorebi_bars() {
        let config = parse(r#"{ "left_widgets": [], "right_widgets": [] }"#).unwrap().config;
        assert_eq!((config.height(), config.font_size(), config.icon_scale()), (50.0, 12.5, 1.4));
        assert_eq!((config.widget_spacing(), config.transparency_alpha()), (10.0, 200));
        assert_eq!((config.padding(), config.margin()), (SpacingKind::All(10.0), SpacingKind::All(0.0)));
        assert_eq!(config.max_label_width(), 400.0);
    }

    #[test]
    fn height_wins_over_the_end_position() {
        let both = r#"{ "height": 30, "position": { "end": { "x": 800, "y": 60 } }, "left_widgets": [], "right_widgets": [] }"#;
        assert_eq!(parse(both).unwrap().config.height(), 30.0);
        let end = r#"{ "position": { "end": { "x": 800, "y": 60 } }, "left_widgets": [], "right_widgets": [] }"#;
        assert_eq!(parse(end).unwrap().config.height(), 60.0);
    }

    #[test]
    fn config_paths_resolve_environment_variables() {
        // SAFETY: no other test reads or writes this variable.
        unsafe { std::env::set_var("OBI_TEST_CONFIG_HOME", "/somewhere") };
        assert_eq!(resolve_path("$OBI_TEST_CONFIG_HOME/bar.json").unwrap(), PathBuf::from("/somewhere/bar.json"));
        assert_eq!(resolve_path("${OBI_TEST_CONFIG_HOME}/x.json").unwrap(), PathBuf::from("/somewhere/x.json"));
        let error = resolve_path("$OBI_TEST_UNSET_VARIABLE/bar.json").unwrap_err();
        assert_eq!(error.variable, "OBI_TEST_UNSET_VARIABLE");
        assert!(error.to_string().contains("$OBI_TEST_UNSET_VARIABLE is not set"), "{error}");
    }

    #[test]
    fn the_schema_names_every_root_property() {
        let schema: serde_json::Value = serde_json::from_str(&schema()).unwrap();
        for property in
            ["left_widgets", "right_widgets", "theme", "grouping", "mouse", "position", "transparency_alpha"]
        {
            assert!(schema["properties"].get(property).is_some(), "{property}");
        }
    }

    #[test]
    fn notifications_is_obis_own_key_read_with_its_ranges() {
        let text = r#"{ "left_widgets": [], "right_widgets": [],
            "notifications": { "enable": true, "position": "bottom-left", "history": 0 } }"#;
        let config = parse(text).unwrap().config;
        let notifications = config.notifications().unwrap();
        assert_eq!(notifications.position, Some(model::ScreenPlace::BottomLeft));
        assert_eq!(config.obi_own_entries(), ["notifications"], "`obi check` notes komorebi-bar has no such key");

        let wrong = r#"{ "left_widgets": [], "right_widgets": [],
            "notifications": { "enable": true, "max_visible": 40, "history": 5000, "width": 20 } }"#;
        let messages: Vec<String> = parse(wrong).unwrap_err().iter().map(|error| error.to_string()).collect();
        let said = messages.join("\n");
        assert!(
            said.contains("notifications.max_visible: 40 is more than a screen can stack; expected 1..=16"),
            "{said}"
        );
        assert!(
            said.contains("notifications.history: 5000 is more than the history keeps; expected 0..=1000"),
            "{said}"
        );
        assert!(said.contains("notifications.width: 20 is no width a notification can have"), "{said}");
        let unknown =
            r#"{ "left_widgets": [], "right_widgets": [], "notifications": { "enable": true, "position": "middle" } }"#;
        assert!(parse(unknown).is_err(), "a place that is none of the six");
    }

    #[test]
    fn osd_is_obis_own_key_read_with_its_ranges() {
        let json = r#"{ "left_widgets": [], "right_widgets": [],
            "osd": { "enable": true, "position": "top-center", "timeout_ms": 800 } }"#;
        let config = parse(json).unwrap().config;
        let osd = config.osd().unwrap();
        assert_eq!((osd.position, osd.timeout_ms), (Some(model::ScreenPlace::TopCenter), Some(800)));
        assert_eq!(config.obi_own_entries(), ["osd"], "`obi check` notes komorebi-bar has no such key");
        let off = parse(r#"{ "left_widgets": [], "right_widgets": [], "osd": { "enable": false } }"#).unwrap();
        assert_eq!(off.config.osd(), None);
        let wrong = r#"{ "left_widgets": [], "right_widgets": [],
            "osd": { "enable": true, "timeout_ms": 5, "width": 5000 } }"#;
        let messages: Vec<String> = parse(wrong).unwrap_err().iter().map(|error| error.to_string()).collect();
        let said = messages.join("\n");
        assert!(
            said.contains("osd.timeout_ms: 5 is no time an on-screen display stays; expected 100..=60000"),
            "{said}"
        );
        assert!(said.contains("osd.width: 5000 is no width an on-screen display can have"), "{said}");
    }

    #[test]
    fn the_embedded_default_loads() {
        assert!(BarConfig::embedded_default().widgets().count() >= 2);
    }
}

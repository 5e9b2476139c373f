//! What the runtime runs for one widget ([`WidgetSpec`]: which component,
//! its config as JSON, its grants, the commands it may run and its sandbox
//! limits) and how an entry of the config becomes one.

use crate::capabilities::Capability;
use crate::config::model::{
    ApplicationsConfig, CustomConfig, PluginConfig, PowerMenuConfig, StatusCommandConfig, WidgetConfig,
};
use crate::config::{BarConfig, WidgetEntry};
use crate::stock::StockWidget;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where a widget's component comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WidgetSource {
    /// A stock widget compiled into the `obi` binary.
    Embedded(&'static StockWidget),
    /// A third-party component on disk.
    File(PathBuf),
}

/// What identifies a source without hashing its bytes: the stock kind's
/// name, or the plugin's path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum SourceId {
    Embedded(&'static str),
    File(PathBuf),
}

impl WidgetSource {
    pub(crate) fn id(&self) -> SourceId {
        match self {
            WidgetSource::Embedded(stock) => SourceId::Embedded(stock.kind),
            WidgetSource::File(path) => SourceId::File(path.clone()),
        }
    }
}

/// The sandbox of one widget instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub memory_bytes: usize,
    pub call_deadline: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { memory_bytes: 16 << 20, call_deadline: Duration::from_millis(50) }
    }
}

impl Limits {
    /// The deadline of each step of a start (instantiation, `init`, the
    /// first refresh), at least a second: it maps the widget's code and
    /// runs its one-time setup, often while the bar's own thread loads the
    /// GL driver, holding the dynamic loader's lock through Mesa's
    /// relocations (a stock widget's start waited 90–160 ms for it on 2
    /// cores; its calls take 1–3 ms).
    pub fn start_deadline(&self) -> Duration {
        self.call_deadline.max(Duration::from_secs(1))
    }
}

/// Everything the runtime needs to run one widget of the bar.
#[derive(Debug, Clone, PartialEq)]
pub struct WidgetSpec {
    /// Shown to the user in errors and logs: `Cpu`, or a plugin's name.
    pub name: String,
    pub source: WidgetSource,
    /// The widget's own object from the config file.
    pub config_json: String,
    /// The bar's monitor as the config gives it (none: the primary one),
    /// told to the widget's `init`.
    pub monitor: Option<u32>,
    pub grants: BTreeSet<Capability>,
    /// The command lines the user declared for it, by id: all it may run.
    pub commands: BTreeMap<String, String>,
    /// How long each of those kept running (by id) waits before it starts
    /// again when it ends, where the user said (a Custom's
    /// `restart_interval`); the others wait a growing while.
    pub restart_waits: BTreeMap<String, Duration>,
    /// The real-time signal (`SIGRTMIN+N`, or `obi msg signal N`) that has
    /// it read afresh, as Waybar's `signal` does.
    pub refresh_signal: Option<u8>,
    pub limits: Limits,
}

/// For each of `new`, the index of the spec of `old` it continues: an equal
/// one not continued already (two identical widgets pair in order), or none
/// when it starts anew. A reload is paired once, here; the bar carries the
/// widgets' states and the scheduler their instances by the same pairs.
pub fn continued(old: &[WidgetSpec], new: &[WidgetSpec]) -> Vec<Option<usize>> {
    let mut taken = vec![false; old.len()];
    new.iter()
        .map(|spec| {
            let index = (0..old.len()).find(|&index| !taken[index] && old[index] == *spec)?;
            taken[index] = true;
            Some(index)
        })
        .collect()
}

/// What every widget may use: its log and the clock.
const BASE_GRANTS: [Capability; 2] = [Capability::Log, Capability::Clock];

/// The capabilities a stock widget of this kind is granted.
fn stock_grants(kind: &str) -> BTreeSet<Capability> {
    let extra = obi_widget_config::STOCK_KINDS.iter().filter(|stock| stock.key == kind).flat_map(|stock| stock.grants);
    let extra = extra.map(|interface| {
        Capability::from_interface(interface)
            .unwrap_or_else(|| panic!("{kind} is granted {interface:?}, not a capability"))
    });
    BASE_GRANTS.into_iter().chain(extra).collect()
}

impl WidgetSpec {
    /// The spec of the widget `entry` of `config`.
    pub fn from_entry(entry: &WidgetEntry, config: &BarConfig) -> Result<WidgetSpec, NoSpec> {
        let mut spec = match entry.config {
            WidgetConfig::Plugin(plugin) => plugin_spec(plugin, config),
            stock => {
                let mut options = serde_json::to_value(stock).expect("a widget's config model serializes");
                let own = &mut options[stock.kind()];
                if let WidgetConfig::Applications(_) = stock {
                    resolve_icon_paths(own, &config.directory);
                }
                // A local server with recorded answers in tests; a mirror elsewhere.
                if let (WidgetConfig::Weather(_), Some(url)) = (stock, std::env::var_os("OBI_OPEN_METEO_URL")) {
                    own["open_meteo_url"] = url.to_string_lossy().into_owned().into();
                }
                let mut spec = WidgetSpec::stock(stock.kind(), own.to_string());
                if let (WidgetConfig::Custom(custom), Ok(spec)) = (stock, &mut spec) {
                    spec.name = custom.name.clone().unwrap_or(spec.name.clone());
                }
                spec
            }
        }?;
        spec.monitor = config.monitor().map(|index| index as u32);
        Ok(spec)
    }

    /// The spec of the stock widget named `kind` as in the config (`"Cpu"`).
    pub fn stock(kind: &str, config_json: String) -> Result<WidgetSpec, NoSpec> {
        let stock = crate::stock::STOCK_WIDGETS
            .iter()
            .find(|stock| stock.kind == kind)
            .ok_or_else(|| NoSpec::UnknownKind(kind.into()))?;
        let kind = stock.kind;
        let custom = (kind == "Custom").then(|| serde_json::from_str::<CustomConfig>(&config_json).ok()).flatten();
        Ok(WidgetSpec {
            name: kind.into(),
            source: WidgetSource::Embedded(stock),
            commands: declared_commands(kind, &config_json),
            restart_waits: custom.as_ref().map(restart_waits).unwrap_or_default(),
            refresh_signal: custom.as_ref().and_then(CustomConfig::refresh_signal),
            config_json,
            monitor: None,
            grants: stock_grants(kind),
            limits: Limits::default(),
        })
    }

    /// This spec, also granted the capabilities `grants` names by their
    /// interface (as a Plugin entry's `"grants"` does), and the `commands`
    /// declared (id, command line).
    pub fn granted(mut self, grants: &[String], commands: &BTreeMap<String, String>) -> Result<WidgetSpec, NoSpec> {
        for grant in grants {
            let capability = Capability::from_interface(grant)
                .ok_or_else(|| NoSpec::UnknownGrant { widget: self.name.clone(), grant: grant.clone() })?;
            self.grants.insert(capability);
        }
        self.commands = commands.clone();
        if !self.commands.is_empty() {
            // Declaring commands for a widget is granting it those, and only those.
            self.grants.insert(Capability::Commands);
        }
        Ok(self)
    }

    /// The spec of a component on disk: named after its file, granted what
    /// every widget may use and `grants`, with the default limits.
    pub fn file(path: PathBuf, config_json: String, grants: impl IntoIterator<Item = Capability>) -> WidgetSpec {
        let name = path.file_stem().map_or_else(|| "plugin".into(), |stem| stem.to_string_lossy().into_owned());
        WidgetSpec {
            name,
            source: WidgetSource::File(path),
            config_json,
            monitor: None,
            grants: BASE_GRANTS.into_iter().chain(grants).collect(),
            commands: BTreeMap::new(),
            restart_waits: BTreeMap::new(),
            refresh_signal: None,
            limits: Limits::default(),
        }
    }
}

/// Why a config entry gives no widget to run.
#[derive(Debug, PartialEq, Eq)]
pub enum NoSpec {
    /// No stock widget of this kind is built into this obi.
    UnknownKind(String),
    /// A Plugin's `grants` names a capability there is not.
    UnknownGrant { widget: String, grant: String },
}

impl std::fmt::Display for NoSpec {
    fn fmt(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            NoSpec::UnknownKind(kind) => {
                write!(formatter, "the {kind} widget is not built into this version of obi yet")
            }
            NoSpec::UnknownGrant { widget, grant } => {
                let known: Vec<&str> = Capability::ALL.iter().map(|capability| capability.interface()).collect();
                write!(
                    formatter,
                    "Plugin `{widget}`: unknown capability {grant:?} in grants (known: {})",
                    known.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for NoSpec {}

/// The commands a stock widget may run: those of Applications' items, by
/// position; a custom command's, and its clicks', by their keys; the power
/// menu's actions, by name, with this platform's commands where the config
/// gives none; a status program's, as `status`. A config the model refused
/// has none.
fn declared_commands(kind: &str, config_json: &str) -> BTreeMap<String, String> {
    match kind {
        "Applications" => serde_json::from_str::<ApplicationsConfig>(config_json)
            .map(|applications| applications.commands())
            .unwrap_or_default(),
        "Custom" => {
            serde_json::from_str::<CustomConfig>(config_json).map(|custom| custom.commands()).unwrap_or_default()
        }
        "PowerMenu" => {
            serde_json::from_str::<PowerMenuConfig>(config_json).map(|menu| menu.commands()).unwrap_or_default()
        }
        "StatusCommand" => {
            serde_json::from_str::<StatusCommandConfig>(config_json).map(|status| status.commands()).unwrap_or_default()
        }
        _ => BTreeMap::new(),
    }
}

/// A Custom's `restart_interval`, for its `exec` kept running.
fn restart_waits(custom: &CustomConfig) -> BTreeMap<String, Duration> {
    let wait = custom.restart_interval.map(Duration::from_secs);
    wait.map(|wait| ("exec".to_owned(), wait)).into_iter().collect()
}

/// Applications icons that are image paths (they hold a `/` or `\`, as the
/// widget tells them from glyphs) get `~` and `$VAR` expanded, as `--config`
/// does, and are taken relative to the config file, as a plugin's path is;
/// on Windows an item without one is given its program's.
/// The widget cannot do this: it sees neither the environment nor the files.
fn resolve_icon_paths(applications: &mut serde_json::Value, directory: &Path) {
    let Some(items) = applications.get_mut("items").and_then(|items| items.as_array_mut()) else { return };
    // On Windows an item without an icon shows its program's, as komorebi-bar does.
    #[cfg(windows)]
    for item in items.iter_mut().filter(|item| item.get("icon").is_none_or(|icon| icon.is_null())) {
        let program =
            item.get("command").and_then(|command| command.as_str()).and_then(crate::view::program_icons::program_of);
        if let Some(program) = program {
            item["icon"] = program.to_string_lossy().into_owned().into();
        }
    }
    for icon in items.iter_mut().filter_map(|item| item.get_mut("icon")) {
        if let Some(path) = icon.as_str().filter(|path| path.contains(['/', '\\'])) {
            let expanded = shellexpand::full(path).map_or_else(|_| path.into(), |expanded| expanded.into_owned());
            *icon = directory.join(expanded).to_string_lossy().into_owned().into();
        }
    }
}

fn plugin_spec(plugin: &PluginConfig, config: &BarConfig) -> Result<WidgetSpec, NoSpec> {
    let mut spec = WidgetSpec::file(config.directory.join(&plugin.path), plugin.config.to_string(), []);
    if let Some(name) = &plugin.name {
        spec.name = name.clone();
    }
    let mut spec = spec.granted(&plugin.grants, &plugin.commands)?;
    let defaults = spec.limits;
    spec.limits = Limits {
        memory_bytes: plugin.memory_limit_mb.map_or(defaults.memory_bytes, |mb| mb.saturating_mul(1 << 20)),
        call_deadline: plugin.call_deadline_ms.map_or(defaults.call_deadline, Duration::from_millis),
    };
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_command_may_run_its_program_alone() {
        let spec =
            WidgetSpec::stock("StatusCommand", r#"{ "enable": true, "command": "i3status -c ~/.i3status" }"#.into());
        let commands = spec.unwrap().commands;
        assert_eq!(commands, BTreeMap::from([("status".to_owned(), "i3status -c ~/.i3status".to_owned())]));
    }

    #[test]
    fn the_power_menu_may_run_its_actions_commands_alone() {
        let spec = WidgetSpec::stock("PowerMenu", r#"{ "enable": true, "lock": "swaylock", "suspend": false }"#.into());
        let commands = spec.unwrap().commands;
        let ids: Vec<&str> = commands.keys().map(String::as_str).collect();
        assert_eq!(ids, ["lock", "log_out", "reboot", "shut_down"]);
        assert_eq!(commands["lock"], "swaylock");
        assert_eq!(commands["shut_down"], if cfg!(windows) { "shutdown.exe /s /t 0" } else { "systemctl poweroff" });
    }

    /// A Custom's `restart_interval` is its kept-running `exec`'s wait, and
    /// its `signal` the one the bar refreshes it on; other kinds have
    /// neither, and a signal past SIGRTMAX is none.
    #[test]
    fn a_customs_restart_wait_and_signal_reach_its_spec() {
        let json = r#"{ "enable": true, "exec": "watch", "restart-interval": 5, "signal": 8 }"#;
        let custom = WidgetSpec::stock("Custom", json.into()).unwrap();
        assert_eq!(custom.restart_waits, BTreeMap::from([("exec".to_owned(), Duration::from_secs(5))]));
        assert_eq!(custom.refresh_signal, Some(8));
        let beyond = WidgetSpec::stock("Custom", r#"{ "enable": true, "exec": "x", "signal": 200 }"#.into()).unwrap();
        assert_eq!((beyond.refresh_signal, beyond.restart_waits.len()), (None, 0));
        let cpu = WidgetSpec::stock("Cpu", r#"{ "enable": true, "signal": 8 }"#.into()).unwrap();
        assert_eq!((cpu.refresh_signal, cpu.restart_waits.len()), (None, 0));
    }

    /// Starting programs, reaching the web, driving the tiler, the sound
    /// server, the notifications, the backlight and the power profiles are
    /// powers only the widgets that need them have; every kind gets its log
    /// and the clock.
    #[test]
    fn commands_web_tiler_audio_notifications_and_backlight_are_granted_to_their_widget_alone() {
        for StockWidget { kind, .. } in crate::stock::STOCK_WIDGETS {
            let grants = stock_grants(kind);
            assert!(grants.contains(&Capability::Log) && grants.contains(&Capability::Clock), "{kind}");
            assert!(!grants.contains(&Capability::Process), "{kind}");
            let runs_commands = ["Applications", "Custom", "PowerMenu", "StatusCommand"].contains(kind);
            assert_eq!(grants.contains(&Capability::Commands), runs_commands, "{kind}");
            assert_eq!(grants.contains(&Capability::Web), ["Update", "Weather"].contains(kind), "{kind}");
            assert_eq!(grants.contains(&Capability::Tiler), *kind == "Komorebi", "{kind}");
            assert_eq!(grants.contains(&Capability::Audio), *kind == "Volume", "{kind}");
            assert_eq!(grants.contains(&Capability::Notifications), *kind == "Notifications", "{kind}");
            assert_eq!(grants.contains(&Capability::Backlight), *kind == "Brightness", "{kind}");
            assert_eq!(grants.contains(&Capability::PowerProfiles), *kind == "Battery", "{kind}");
            assert_eq!(grants.contains(&Capability::IdleInhibit), *kind == "IdleInhibitor", "{kind}");
            assert_eq!(grants.contains(&Capability::Bluetooth), *kind == "Bluetooth", "{kind}");
            let hears_streams = ["Volume", "Privacy"].contains(kind);
            assert_eq!(grants.contains(&Capability::AudioStreams), hears_streams, "{kind}");
            assert_eq!(grants.contains(&Capability::ScreenCasts), *kind == "Privacy", "{kind}");
            assert_eq!(grants.contains(&Capability::Wifi), *kind == "Wifi", "{kind}");
        }
        assert_eq!(stock_grants("Network"), [Capability::Log, Capability::Clock, Capability::Network].into());
    }

    #[test]
    fn a_grant_is_a_capability_by_its_interface_and_declared_commands_grant_commands() {
        let spec = WidgetSpec::file("/w/clock.wasm".into(), "{}".into(), []);
        let commands = BTreeMap::from([("editor".to_string(), "vim".to_string())]);
        let granted = spec.clone().granted(&["web".into()], &commands).unwrap();
        assert_eq!(granted.grants, [Capability::Log, Capability::Clock, Capability::Web, Capability::Commands].into());
        assert_eq!(granted.commands, commands);
        let refused = spec.granted(&["web".into(), "root".into()], &BTreeMap::new()).unwrap_err();
        assert_eq!(refused, NoSpec::UnknownGrant { widget: "clock".into(), grant: "root".into() });
        let said = refused.to_string();
        assert!(said.starts_with("Plugin `clock`: unknown capability \"root\" in grants (known: "), "{said}");
        assert!(said.contains("web") && said.contains("tiler"), "{said}");
    }

    #[test]
    fn application_icon_paths_are_found_from_the_config_file() {
        let home = std::env::var("HOME").unwrap();
        let mut applications = serde_json::json!({ "items": [
            { "name": "a", "command": "a", "icon": "icons/a.png" },
            { "name": "b", "command": "b", "icon": "/usr/share/b.png" },
            { "name": "c", "command": "c", "icon": "~/c.png" },
            { "name": "d", "command": "d", "icon": "D" },
            { "name": "e", "command": "e" }
        ] });
        resolve_icon_paths(&mut applications, Path::new("/etc/obi"));
        let icons: Vec<&serde_json::Value> =
            applications["items"].as_array().unwrap().iter().map(|item| &item["icon"]).collect();
        assert_eq!(icons[0], "/etc/obi/icons/a.png");
        assert_eq!(icons[1], "/usr/share/b.png");
        assert_eq!(icons[2], &serde_json::Value::from(format!("{home}/c.png")));
        assert_eq!(icons[3], "D", "a glyph is left alone");
        assert!(icons[4].is_null());
    }
}

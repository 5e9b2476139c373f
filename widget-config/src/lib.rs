//! The config of each stock widget kind, as `komorebi.bar.json` spells it:
//! the one home of these types. The bar checks a config file against them
//! and hands each widget its own object as JSON; the widget reads that
//! JSON back into the same type. Plain serde, so the widgets, built for
//! wasm32-wasip2, carry no more than they read; the bar's JSON schema comes
//! from the `schema` feature.

mod bluetooth;
mod brightness;
mod custom;
mod idle_inhibitor;
mod komorebi;
mod label;
mod notifications;
mod power_menu;
mod privacy;
mod status_command;
mod volume;
mod weather;
mod wifi;

pub use bluetooth::BluetoothConfig;
pub use brightness::BrightnessConfig;
pub use custom::{AltIcons, CustomConfig, CustomInterval, CustomReturnType, FormatIcons, Once, REAL_TIME_SIGNALS};
pub use idle_inhibitor::IdleInhibitorConfig;
pub use komorebi::*;
pub use label::LabelPrefix;
pub use notifications::NotificationsConfig;
pub use power_menu::{PowerAction, PowerCommand, PowerMenuConfig};
pub use privacy::PrivacyConfig;
pub use status_command::StatusCommandConfig;
pub use volume::VolumeConfig;
pub use weather::{WeatherConfig, WeatherUnits};
pub use wifi::WifiConfig;

use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;
use std::collections::BTreeMap;

/// Calls `$then!` with every stock widget kind, each once: the key that
/// names it in the config file (its crate is `obi-widget-<key in
/// lowercase>`), its config type, and the capabilities it is granted beyond
/// its log and the clock, by WIT interface. The bar's widget entries
/// (`WidgetConfig`), the list of components it builds and each kind's grants
/// are all made from this one list.
#[macro_export]
macro_rules! with_stock_kinds {
    ($then:ident) => {
        $then! {
            Applications(ApplicationsConfig) grants ["commands"],
            Battery(BatteryConfig) grants ["battery", "power-profiles"],
            Bluetooth(BluetoothConfig) grants ["bluetooth"],
            Brightness(BrightnessConfig) grants ["backlight"],
            Cpu(CpuConfig) grants ["metrics"],
            Custom(CustomConfig) grants ["commands"],
            Date(DateConfig) grants [],
            IdleInhibitor(IdleInhibitorConfig) grants ["idle-inhibit"],
            Keyboard(KeyboardConfig) grants ["keyboard"],
            #[serde(alias = "Tiler")]
            Komorebi(KomorebiConfig) grants ["tiler"],
            Media(MediaConfig) grants ["media"],
            Memory(MemoryConfig) grants ["metrics"],
            Network(NetworkConfig) grants ["network"],
            Notifications(NotificationsConfig) grants ["notifications"],
            PowerMenu(PowerMenuConfig) grants ["commands"],
            Privacy(PrivacyConfig) grants ["audio-streams", "screen-casts"],
            StatusCommand(StatusCommandConfig) grants ["commands"],
            Storage(StorageConfig) grants ["disks"],
            Systray(SystrayConfig) grants ["tray"],
            Time(TimeConfig) grants [],
            Update(UpdateConfig) grants ["web"],
            Volume(VolumeConfig) grants ["audio", "audio-streams"],
            Weather(WeatherConfig) grants ["web"],
            Wifi(WifiConfig) grants ["wifi"],
        }
    };
}

/// The stock kinds that are Obi's own, not komorebi-bar's: komorebi-bar
/// refuses a file that has one (as it does a `Plugin` entry).
pub const OBI_OWN_KINDS: &[&str] = &[
    "Bluetooth",
    "Brightness",
    "Custom",
    "IdleInhibitor",
    "Notifications",
    "PowerMenu",
    "Privacy",
    "StatusCommand",
    "Volume",
    "Weather",
    "Wifi",
];

/// A stock widget kind: the key that names it in the config file, and the
/// capabilities it is granted beyond its log and the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StockKind {
    pub key: &'static str,
    pub grants: &'static [&'static str],
}

macro_rules! stock_kinds_table {
    ($($(#[$attribute:meta])* $kind:ident($config:ty) grants [$($grant:literal),*]),* $(,)?) => {
        /// Every stock widget kind, in the order of [`with_stock_kinds`].
        pub const STOCK_KINDS: &[StockKind] = &[$(StockKind { key: stringify!($kind), grants: &[$($grant),*] }),*];
    };
}
with_stock_kinds!(stock_kinds_table);

/// Whether a widget entry is switched on: its `enable`, or, for a widget
/// made of parts, whether any part is.
pub trait Enabled {
    fn enabled(&self) -> bool;
}

macro_rules! enabled_by_its_switch {
    ($($config:ty),*) => {
        $(impl Enabled for $config {
            fn enabled(&self) -> bool {
                self.enable
            }
        })*
    };
}
enabled_by_its_switch!(
    ApplicationsConfig,
    BatteryConfig,
    BluetoothConfig,
    BrightnessConfig,
    UsageConfig,
    CustomConfig,
    DateConfig,
    IdleInhibitorConfig,
    KeyboardConfig,
    MediaConfig,
    NetworkConfig,
    NotificationsConfig,
    PowerMenuConfig,
    PrivacyConfig,
    StatusCommandConfig,
    StorageConfig,
    SystrayConfig,
    TimeConfig,
    UpdateConfig,
    VolumeConfig,
    WeatherConfig,
    WifiConfig
);

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ApplicationsConfig {
    pub enable: bool,
    pub items: Vec<AppConfig>,
    pub display: Option<ApplicationsDisplayFormat>,
    pub show_command_on_hover: Option<bool>,
    pub spacing: Option<f32>,
}

impl ApplicationsConfig {
    /// The commands of its items, by position: the ids the widget launches.
    pub fn commands(&self) -> BTreeMap<String, String> {
        self.items.iter().enumerate().map(|(index, app)| (index.to_string(), app.command.clone())).collect()
    }
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AppConfig {
    pub name: String,
    pub command: String,
    pub icon: Option<String>,
    pub display: Option<ApplicationsDisplayFormat>,
    pub enable: Option<bool>,
    pub show_command_on_hover: Option<bool>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ApplicationsDisplayFormat {
    Icon,
    Text,
    IconAndText,
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BatteryConfig {
    pub enable: bool,
    pub hide_on_full_charge: Option<bool>,
    pub data_refresh_interval: Option<u64>,
    pub label_prefix: Option<LabelPrefix>,
    pub auto_select_under: Option<u8>,
}

/// The Cpu and Memory widgets: a percentage, selected over a threshold.
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct UsageConfig {
    pub enable: bool,
    /// Seconds between two readings (default 10).
    pub data_refresh_interval: Option<u64>,
    pub label_prefix: Option<LabelPrefix>,
    /// Selected while the percentage is above this.
    pub auto_select_over: Option<u8>,
}

pub type CpuConfig = UsageConfig;
pub type MemoryConfig = UsageConfig;

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DateConfig {
    pub enable: bool,
    pub format: DateFormat,
    pub label_prefix: Option<LabelPrefix>,
    pub timezone: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum DateFormat {
    MonthDateYear,
    YearMonthDate,
    DateMonthYear,
    DayDateMonthYear,
    /// A strftime pattern.
    #[serde(alias = "custom")]
    Custom(String),
    /// A strftime pattern whose numeric specifiers are shifted by the
    /// modifiers: `{ "%U": 1 }` adds one to the week number.
    CustomModifiers(CustomModifiers),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CustomModifiers {
    pub format: String,
    pub modifiers: BTreeMap<String, i32>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TimeConfig {
    pub enable: bool,
    pub format: TimeFormat,
    pub label_prefix: Option<LabelPrefix>,
    pub timezone: Option<String>,
    pub changing_icon: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum TimeFormat {
    TwelveHour,
    TwelveHourWithoutSeconds,
    TwentyFourHour,
    TwentyFourHourWithoutSeconds,
    BinaryCircle,
    BinaryRectangle,
    #[serde(alias = "custom")]
    Custom(String),
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct KeyboardConfig {
    pub enable: bool,
    pub data_refresh_interval: Option<u64>,
    pub label_prefix: Option<LabelPrefix>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MediaConfig {
    pub enable: bool,
    pub display: Option<MediaDisplayFormat>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum MediaDisplayFormat {
    Icon,
    Text,
    IconAndText,
    ControlsOnly,
    IconAndControls,
    TextAndControls,
    Full,
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NetworkConfig {
    pub enable: bool,
    #[serde(alias = "show_total_data_transmitted")]
    pub show_total_activity: bool,
    #[serde(alias = "show_network_activity")]
    pub show_activity: bool,
    pub show_default_interface: Option<bool>,
    /// Characters reserved for the activity label, so that it does not jitter.
    #[serde(alias = "network_activity_fill_characters")]
    pub activity_left_padding: Option<usize>,
    pub auto_select: Option<NetworkSelectConfig>,
    pub data_refresh_interval: Option<u64>,
    pub label_prefix: Option<LabelPrefix>,
}

/// Byte thresholds over which the Network widget is selected.
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NetworkSelectConfig {
    pub received_over: Option<u64>,
    pub transmitted_over: Option<u64>,
    pub total_received_over: Option<u64>,
    pub total_transmitted_over: Option<u64>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StorageConfig {
    pub enable: bool,
    pub data_refresh_interval: Option<u64>,
    pub label_prefix: Option<LabelPrefix>,
    pub auto_select_over: Option<u8>,
    pub auto_hide_under: Option<u8>,
    pub show_read_only_disks: Option<bool>,
    pub show_removable_disks: Option<bool>,
    pub storage_display_name: Option<StorageDisplayName>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum StorageDisplayName {
    Mount,
    Name,
    MountAndName,
    NameAndMount,
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SystrayConfig {
    pub enable: bool,
    pub hidden_icons: Option<Vec<HiddenIconRule>>,
    pub info_button: Option<ButtonPosition>,
    pub refresh_button: Option<ButtonPosition>,
    pub shortcuts_button: Option<ButtonPosition>,
    pub overflow_toggle_position: Option<OverflowTogglePosition>,
    /// Seconds between checks for icons of exited programs (default 60,
    /// clamped to 30..=600; 0 disables the check).
    pub stale_icons_check_interval: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged, expecting = "an executable name, or an object with `exe`, `tooltip` and/or `guid`")]
pub enum HiddenIconRule {
    Exe(String),
    Fields(HiddenIconFields),
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HiddenIconFields {
    pub exe: Option<FieldMatch>,
    pub tooltip: Option<FieldMatch>,
    pub guid: Option<FieldMatch>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged, expecting = "a string to match exactly, or an object with `value` and `matching_strategy`")]
pub enum FieldMatch {
    Exact(String),
    Strategy { value: String, matching_strategy: MatchingStrategy },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum MatchingStrategy {
    Legacy,
    Equals,
    StartsWith,
    EndsWith,
    Contains,
    Regex,
    DoesNotEndWith,
    DoesNotStartWith,
    DoesNotEqual,
    DoesNotContain,
}

impl SystrayConfig {
    /// Seconds between stale-icon checks: 60 by default, clamped to
    /// 30..=600; `None` when 0 turns the check off.
    pub fn stale_icons_check_interval(&self) -> Option<u64> {
        match self.stale_icons_check_interval.unwrap_or(60) {
            0 => None,
            seconds => Some(seconds.clamp(30, 600)),
        }
    }
}

impl UsageConfig {
    /// Seconds between two readings (default 10).
    pub fn data_refresh_interval(&self) -> u64 {
        self.data_refresh_interval.unwrap_or(10)
    }
}

impl UpdateConfig {
    /// Hours between two checks (default 12).
    pub fn data_refresh_interval(&self) -> u64 {
        self.data_refresh_interval.unwrap_or(12)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ButtonPosition {
    Visible,
    Overflow,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum OverflowTogglePosition {
    Left,
    Right,
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct UpdateConfig {
    pub enable: bool,
    /// Hours between two checks (default 12).
    pub data_refresh_interval: Option<u64>,
    pub label_prefix: Option<LabelPrefix>,
    /// Where Obi's releases are listed, in the shape of GitHub's releases
    /// API (an Obi extension of the format).
    pub release_feed: Option<String>,
}

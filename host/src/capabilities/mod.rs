//! The host side of each capability a widget can import, as plain Rust:
//! no wasmtime types here (the runtime adapts these to the WIT imports).
//!
//! Sources sit behind small traits so that one real sampler serves every
//! widget, and tests can script the values a widget sees.

pub mod audio;
pub mod backlight;
pub mod battery;
pub mod bluetooth;
mod bus_properties;
pub mod clock;
pub mod disks;
pub mod errands;
pub mod followed;
pub mod idle_inhibit;
pub mod keyboard;
pub mod locale;
#[cfg(free_unix)]
mod managed_objects;
pub mod media;
pub mod metrics;
pub mod network;
pub mod notifications;
pub mod power_profiles;
pub mod process;
mod sampled;
pub(crate) mod session_bus;
mod shell;
pub mod status_program;
pub mod tiler;
pub mod tray;
pub mod web;
pub mod wifi;

use crate::view::images::HeldImages;
use std::fmt;
use std::sync::Arc;

pub use audio::{Audio, AudioRequest, AudioStatus, StreamsStatus, SystemAudio};
pub use backlight::{Backlight, BacklightStatus, LevelAsked, SystemBacklight};
pub use battery::{Batteries, Battery, ChargeState, SystemBatteries};
pub use bluetooth::{Bluetooth, BluetoothDevice, BluetoothRequest, BluetoothStatus, SystemBluetooth};
pub use clock::{Clock, SystemClock};
pub use disks::{Disk, Disks, SystemDisks};
pub use idle_inhibit::{IdleInhibition, IdleStatus, IdleUser};
pub use keyboard::{Keyboard, SystemKeyboard};
pub use media::{Control, Media, NowPlaying, Playback, SystemMedia};
pub use metrics::{MemoryUsage, Metrics, SystemMetrics};
pub use network::{Interface, Network, SystemNetwork};
pub use notifications::{KeptNotification, Notifications, Overview};
pub use power_profiles::{PowerProfiles, ProfilesStatus, SystemPowerProfiles};
pub use process::{CommandOutput, Processes, SystemProcesses};
pub use status_program::{Click, Hiding, StatusRead, StatusSource};
pub use tiler::Tiler;
pub use tray::{ItemStatus, MenuEntry, SystemTray, Tray, TrayAction, TrayItem};
pub use web::{SystemWeb, Web};
pub use wifi::{SystemWifi, Wifi, WifiRequest, WifiStatus};

/// A capability a widget can be granted: one WIT interface of `obi:widget`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Capability {
    Log,
    Clock,
    Metrics,
    Disks,
    Battery,
    Network,
    Process,
    Web,
    Tiler,
    Keyboard,
    Media,
    Tray,
    Commands,
    Audio,
    Notifications,
    Backlight,
    PowerProfiles,
    IdleInhibit,
    Bluetooth,
    AudioStreams,
    ScreenCasts,
    Wifi,
}

impl Capability {
    pub const ALL: [Capability; 22] = [
        Capability::Log,
        Capability::Clock,
        Capability::Metrics,
        Capability::Disks,
        Capability::Battery,
        Capability::Network,
        Capability::Process,
        Capability::Web,
        Capability::Tiler,
        Capability::Keyboard,
        Capability::Media,
        Capability::Tray,
        Capability::Commands,
        Capability::Audio,
        Capability::Notifications,
        Capability::Backlight,
        Capability::PowerProfiles,
        Capability::IdleInhibit,
        Capability::Bluetooth,
        Capability::AudioStreams,
        Capability::ScreenCasts,
        Capability::Wifi,
    ];

    /// The interface name in the WIT package, e.g. `metrics`.
    pub fn interface(self) -> &'static str {
        match self {
            Capability::Log => "log",
            Capability::Clock => "clock",
            Capability::Metrics => "metrics",
            Capability::Disks => "disks",
            Capability::Battery => "battery",
            Capability::Network => "network",
            Capability::Process => "process",
            Capability::Web => "web",
            Capability::Tiler => "tiler",
            Capability::Keyboard => "keyboard",
            Capability::Media => "media",
            Capability::Tray => "tray",
            Capability::Commands => "commands",
            Capability::Audio => "audio",
            Capability::Notifications => "notifications",
            Capability::Backlight => "backlight",
            Capability::PowerProfiles => "power-profiles",
            Capability::IdleInhibit => "idle-inhibit",
            Capability::Bluetooth => "bluetooth",
            Capability::AudioStreams => "audio-streams",
            Capability::ScreenCasts => "screen-casts",
            Capability::Wifi => "wifi",
        }
    }

    /// The capability that grants interface `name`: its own, or `clock`'s
    /// for `calendar`, `commands`' for `command-lines` and `status-programs`,
    /// `media`'s for `media-cover` and `tiler`'s for `tiler-mode`, which
    /// came with them.
    pub fn from_interface(name: &str) -> Option<Capability> {
        match name {
            "calendar" => return Some(Capability::Clock),
            "command-lines" | "status-programs" => return Some(Capability::Commands),
            "media-cover" => return Some(Capability::Media),
            "tiler-mode" => return Some(Capability::Tiler),
            _ => {}
        }
        Capability::ALL.into_iter().find(|capability| capability.interface() == name)
    }
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.interface())
    }
}

/// The sources behind every capability, shared by all widgets of a bar.
#[derive(Clone)]
pub struct Capabilities {
    pub clock: Arc<dyn Clock>,
    pub metrics: Arc<dyn Metrics>,
    pub disks: Arc<dyn Disks>,
    pub batteries: Arc<dyn Batteries>,
    pub network: Arc<dyn Network>,
    pub processes: Arc<dyn Processes>,
    pub web: Arc<dyn Web>,
    pub tiler: Arc<dyn Tiler>,
    pub keyboard: Arc<dyn Keyboard>,
    pub media: Arc<dyn Media>,
    pub tray: Arc<dyn Tray>,
    pub audio: Arc<dyn Audio>,
    pub backlight: Arc<dyn Backlight>,
    pub power_profiles: Arc<dyn PowerProfiles>,
    /// The process's hold on idling; a Wayland bar hands it its way.
    pub idle_inhibit: Arc<IdleInhibition>,
    pub bluetooth: Arc<dyn Bluetooth>,
    pub wifi: Arc<dyn Wifi>,
    /// The desktop's notifications, once a bar serves them.
    pub notifications: Arc<Notifications>,
    /// Where images are held for the painter: window and tray icons, and
    /// the images widgets name by path.
    pub held: HeldImages,
    /// Whether the bar is hidden, for the status programs its widgets run.
    pub hiding: Arc<Hiding>,
}

impl Capabilities {
    /// The real system: wall clock, one shared sysinfo sampler, the mounted
    /// disks, the batteries, the network interfaces, the platform's shell,
    /// HTTP and the browser, `tiler`'s connection, the keyboard layout, the
    /// media players and tray icons on the session bus, the sound server, the
    /// backlight, the power profiles, the hold on idling and Bluetooth.
    /// Window and tray icons are held in `held`.
    pub fn system(tiler: Arc<dyn Tiler>, held: HeldImages) -> anyhow::Result<Capabilities> {
        Ok(Capabilities {
            clock: Arc::new(SystemClock),
            metrics: Arc::new(SystemMetrics::new()?),
            disks: Arc::new(SystemDisks::new()),
            batteries: Arc::new(SystemBatteries::new()),
            network: Arc::new(SystemNetwork::new()),
            processes: Arc::new(SystemProcesses),
            web: Arc::new(SystemWeb::new()),
            keyboard: Arc::new(SystemKeyboard::new(Some(tiler.clone()))),
            tiler,
            media: Arc::new(SystemMedia::new(held.clone())),
            tray: Arc::new(SystemTray::new(held.clone())),
            audio: Arc::new(SystemAudio::new(held.clone())),
            backlight: Arc::new(SystemBacklight::new()),
            power_profiles: Arc::new(SystemPowerProfiles::new()),
            idle_inhibit: Arc::default(),
            bluetooth: Arc::new(SystemBluetooth::new()),
            wifi: Arc::new(SystemWifi::new()),
            notifications: Arc::default(),
            held,
            hiding: Arc::default(),
        })
    }
}

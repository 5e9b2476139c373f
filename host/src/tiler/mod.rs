//! The tiling window manager the bar serves: komorebi over its socket
//! protocol, i3 and sway over their IPC, Hyprland and niri over theirs, behind
//! one [`Client`] trait and one [`State`] model. One client per tiler, and a
//! [`Connection`] for each bar on it: the client's threads publish each new
//! state, each bar sees it with its own monitor found in it, and its
//! widgets that read it (reading subscribes) are woken; a connection sends
//! its widgets' messages, and its bar's `mouse` messages, as batches.
//!
//! Every tiler is a row of [`TILERS`]: its name for `--tiler`, how to tell
//! it runs, and how to connect; `--tiler auto` takes the first row found
//! running (komorebi's socket, Hyprland's `$HYPRLAND_INSTANCE_SIGNATURE`,
//! niri's `$NIRI_SOCKET`, sway's `$SWAYSOCK`, i3's `$I3SOCK` or the X
//! server's `I3_SOCKET_PATH`). Without one, widgets see a quiet
//! "disconnected" and the rest of the bar works.

mod connection;
#[cfg(unix)]
mod deadline;
#[cfg(unix)]
mod hyprland;
#[cfg(unix)]
pub mod i3;
pub mod komorebi;
pub mod meaning;
#[cfg(unix)]
mod niri;
mod state;

pub use crate::komorebi_messages::Message;
pub use connection::{Connection, Publisher};
pub use state::{
    Container, KeyboardLayout, Kind, Layer, Monitor, ScreenCast, SharedList, State, Status, Window, Workspace,
};

use std::path::PathBuf;
use std::str::FromStr;

/// A tiler Obi talks to.
pub struct Tiler {
    /// Its name for `--tiler`.
    pub name: &'static str,
    /// Its name in what the bar says.
    pub title: &'static str,
    /// Whether it runs in this session, as far as the environment says.
    pub running: fn(&Options) -> bool,
    /// Connects in the background; the client's threads publish what they hear.
    pub start: fn(&Options, Publisher) -> anyhow::Result<Box<dyn Client>>,
    /// It tells the keyboard layout in use (on Wayland no X server knows it).
    pub tells_keyboard_layout: bool,
}

/// Every tiler, in the order `--tiler auto` looks for them.
pub const TILERS: &[Tiler] = &[
    Tiler {
        name: "komorebi",
        title: "komorebi",
        running: komorebi::running,
        start: komorebi::start,
        tells_keyboard_layout: false,
    },
    #[cfg(unix)]
    Tiler {
        name: "hyprland",
        title: "Hyprland",
        running: |_| hyprland::instance_dir().is_some(),
        start: hyprland::start,
        tells_keyboard_layout: true,
    },
    #[cfg(unix)]
    Tiler {
        name: "niri",
        title: "niri",
        running: |_| niri::socket_path().is_some(),
        start: niri::start,
        tells_keyboard_layout: true,
    },
    #[cfg(unix)]
    Tiler {
        name: "sway",
        title: "sway",
        running: |_| i3::socket_path(i3::Flavour::Sway).is_some(),
        start: |options, publisher| i3::start(i3::Flavour::Sway, options, publisher),
        tells_keyboard_layout: true,
    },
    #[cfg(unix)]
    Tiler {
        name: "i3",
        title: "i3",
        running: |_| i3::socket_path(i3::Flavour::I3).is_some(),
        start: |options, publisher| i3::start(i3::Flavour::I3, options, publisher),
        tells_keyboard_layout: false,
    },
];

/// `--tiler`: which tiler to talk to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Choice {
    /// The first of [`TILERS`] found running.
    #[default]
    Auto,
    /// The row of [`TILERS`] of this name.
    Named(&'static str),
    None,
}

impl Choice {
    /// The tiler of `name` among [`TILERS`].
    pub fn named(name: &str) -> Option<Choice> {
        TILERS.iter().find(|tiler| tiler.name == name).map(|tiler| Choice::Named(tiler.name))
    }
}

impl FromStr for Choice {
    type Err = String;

    fn from_str(text: &str) -> Result<Choice, String> {
        match text {
            "auto" => Ok(Choice::Auto),
            "none" => Ok(Choice::None),
            name => Choice::named(name).ok_or_else(|| {
                let names: Vec<&str> = TILERS.iter().map(|tiler| tiler.name).collect();
                format!("unknown tiler {name:?}; known: auto, {}, none", names.join(", "))
            }),
        }
    }
}

/// The tiler `choice` names, or the first found running for `Auto`; why
/// none when there is none.
fn chosen(choice: Choice, options: &Options) -> Result<&'static Tiler, String> {
    match choice {
        Choice::Auto => TILERS.iter().find(|tiler| (tiler.running)(options)).ok_or_else(|| {
            let titles: Vec<&str> = TILERS.iter().map(|tiler| tiler.title).collect();
            match titles.split_last() {
                Some((last, [])) => format!("no tiler found: {last} is not running"),
                Some((last, others)) => format!("no tiler found: {} and {last} are not running", others.join(", ")),
                None => "no tiler found".to_owned(),
            }
        }),
        Choice::Named(name) => {
            TILERS.iter().find(|tiler| tiler.name == name).ok_or_else(|| format!("no tiler is named {name:?}"))
        }
        Choice::None => Err("no tiler was chosen (--tiler none)".to_owned()),
    }
}

/// What the connection needs to know of the bar.
#[derive(Clone, Default)]
pub struct Options {
    pub choice: Choice,
    /// Where komorebi's sockets are (`--komorebi-dir`, `OBI_KOMOREBI_DIR`);
    /// komorebi's own rule when none.
    pub komorebi_dir: Option<PathBuf>,
    /// The bar's monitor as the config gives it (`monitor`); none: the primary.
    pub monitor: Option<usize>,
    /// Each bar's `monitor` with its `monitor.work_area_offset`: what
    /// komorebi is asked to keep free there when the bars connect.
    pub work_area_offsets: Vec<(Option<usize>, crate::config::model::Sides)>,
    /// Where window icons are held for the widgets.
    pub held: crate::view::images::HeldImages,
}

/// Talks to one tiler: sends batches of messages. Its threads publish what
/// they hear into the [`Connection`].
pub trait Client: Send + Sync {
    /// Sends `batch` in order; `state` is the tiler's last (to translate
    /// indices into names, for tilers that speak names).
    fn send(&self, batch: &[Message], state: Option<&State>) -> anyhow::Result<()>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tiler_is_chosen_by_its_name_and_no_other() {
        for tiler in TILERS {
            assert_eq!(tiler.name.parse::<Choice>(), Ok(Choice::Named(tiler.name)));
            let options = Options { choice: Choice::Named(tiler.name), ..Options::default() };
            assert_eq!(chosen(options.choice, &options).map(|found| found.title), Ok(tiler.title));
        }
        let names: std::collections::BTreeSet<&str> = TILERS.iter().map(|tiler| tiler.name).collect();
        assert_eq!(names.len(), TILERS.len(), "two tilers share a name");
        assert_eq!("auto".parse::<Choice>(), Ok(Choice::Auto));
        let unknown = "bspwm".parse::<Choice>().unwrap_err();
        assert!(unknown.starts_with(r#"unknown tiler "bspwm"; known: auto, komorebi"#), "{unknown}");
    }
}

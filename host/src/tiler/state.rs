//! The one model of a tiler's state, whichever tiler it comes from:
//! monitors holding workspaces holding containers of windows, with what has
//! focus. komorebi's state maps onto it almost field for field; i3's and
//! sway's trees are folded into it (see `i3::tree`).
//!
//! A workspace's windows are [`SharedList`], not owned: the state is handed
//! to every bar and compared with the last at each change, and a tiler
//! with thousands of windows on one workspace costs an event what
//! changed, not a copy and a comparison of them all.

use crate::screen::ScreenRect;
use std::collections::HashMap;
use std::sync::Arc;

/// Which tiler the state comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Komorebi,
    I3,
    Sway,
    Hyprland,
    Niri,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Komorebi => "komorebi",
            Kind::I3 => "i3",
            Kind::Sway => "sway",
            Kind::Hyprland => "Hyprland",
            Kind::Niri => "niri",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    pub kind: Kind,
    pub monitors: Vec<Monitor>,
    pub focused_monitor: usize,
    /// The bar's monitor, as an index into `monitors`.
    pub bar_monitor: Option<usize>,
    /// Which of `monitors` a config's `monitor` number names, where the
    /// tiler numbers them otherwise (komorebi's `monitor_usr_idx_map`); a
    /// number not here is the index itself.
    pub monitor_numbers: HashMap<usize, usize>,
    pub paused: bool,
    /// The binding mode other than the default (i3, sway; Hyprland's
    /// submap), as Pango markup: i3 and sway name a mode declared
    /// `--pango_markup` in it; other names are escaped.
    pub mode: Option<String>,
    /// Whether komorebi moves the cursor to what gets focus: a message sent
    /// from the bar turns it off for its own length, then restores this.
    pub mouse_follows_focus: bool,
    /// The keyboard layout in use, when the tiler says (sway; on X11 the
    /// X server says).
    pub keyboard: Option<KeyboardLayout>,
    /// What is being captured (shared, recorded) now, where the compositor
    /// says (Hyprland, niri); empty elsewhere.
    pub screen_casts: Vec<ScreenCast>,
}

/// A capture of the screen the compositor carries out for an application
/// (through the desktop portal, or a screencopy protocol).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScreenCast {
    /// A whole output, by name where the compositor says.
    Output(Option<String>),
    /// A window, by title where the compositor says.
    Window(Option<String>),
}

impl State {
    pub fn empty(kind: Kind) -> State {
        State {
            kind,
            monitors: Vec::new(),
            focused_monitor: 0,
            bar_monitor: None,
            monitor_numbers: HashMap::new(),
            paused: false,
            mode: None,
            mouse_follows_focus: true,
            keyboard: None,
            screen_casts: Vec::new(),
        }
    }

    pub fn focused_workspace(&self) -> Option<&Workspace> {
        let monitor = self.monitors.get(self.focused_monitor)?;
        monitor.workspaces.get(monitor.focused_workspace)
    }

    /// The monitor a config's `monitor` number names (none: the first), as
    /// an index into `monitors`, when there is one.
    pub fn numbered_monitor(&self, number: Option<usize>) -> Option<usize> {
        let number = number.unwrap_or(0);
        let index = self.monitor_numbers.get(&number).copied().unwrap_or(number);
        (index < self.monitors.len()).then_some(index)
    }

    /// Where on the screen the monitor a config's `monitor` number names
    /// is, where the tiler numbers monitors its own way and says where
    /// they are (komorebi).
    pub fn numbered_area(&self, number: Option<usize>) -> Option<ScreenRect> {
        if self.kind != Kind::Komorebi {
            return None;
        }
        self.monitors.get(self.numbered_monitor(number)?)?.area
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Monitor {
    pub name: String,
    /// Where it is on the screen, where the tiler says (komorebi).
    pub area: Option<ScreenRect>,
    pub workspaces: Vec<Workspace>,
    pub focused_workspace: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layer {
    #[default]
    Tiling,
    Floating,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Workspace {
    pub name: String,
    pub containers: SharedList<Container>,
    pub focused_container: Option<usize>,
    /// Shown over the whole workspace: komorebi's monocle, a fullscreen window on i3.
    pub monocle: Option<Container>,
    pub floating_windows: SharedList<Window>,
    /// The floating window that has focus, while the floating layer has it.
    pub focused_floating_window: Option<usize>,
    /// The tiler's own name for it: komorebi's `BSP` ... `Custom`, i3's `splith` ...
    pub layout: String,
    /// False when tiling is off on this workspace.
    pub tiling: bool,
    pub layer: Layer,
    pub urgent: bool,
}

impl Workspace {
    /// No windows at all: no container, no monocle, nothing floating.
    pub fn is_empty(&self) -> bool {
        self.containers.is_empty() && self.monocle.is_none() && self.floating_windows.is_empty()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Container {
    pub windows: Vec<Window>,
    pub focused_window: usize,
    pub locked: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Window {
    pub title: String,
    pub exe: String,
    pub class: String,
    /// The handle of its icon among the held images.
    pub icon: Option<u64>,
}

/// A list shared by the states that have it: a state handed on is not
/// copied item by item, and two lists that are one are equal without their
/// items being compared (which `Arc<[T]>` does not spare).
#[derive(Debug)]
pub struct SharedList<T>(Arc<[T]>);

impl<T> Clone for SharedList<T> {
    fn clone(&self) -> SharedList<T> {
        SharedList(self.0.clone())
    }
}

impl<T> Default for SharedList<T> {
    fn default() -> SharedList<T> {
        SharedList(Arc::from([]))
    }
}

impl<T> std::ops::Deref for SharedList<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.0
    }
}

impl<T: PartialEq> PartialEq for SharedList<T> {
    fn eq(&self, other: &SharedList<T>) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}

impl<T: Eq> Eq for SharedList<T> {}

impl<T> FromIterator<T> for SharedList<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> SharedList<T> {
        SharedList(items.into_iter().collect())
    }
}

impl<T> From<Vec<T>> for SharedList<T> {
    fn from(items: Vec<T>) -> SharedList<T> {
        SharedList(items.into())
    }
}

impl<T, const N: usize> From<[T; N]> for SharedList<T> {
    fn from(items: [T; N]) -> SharedList<T> {
        SharedList(Arc::from(items))
    }
}

impl<T> SharedList<T> {
    /// Whether `self` and `other` are the one list.
    pub fn is(&self, other: &SharedList<T>) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// What a widget reading the tiler gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    Connected(State),
    /// Why there is no state to show.
    Disconnected(String),
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct KeyboardLayout {
    /// XKB's name for it: "English (US)", "German".
    pub name: String,
    /// Its symbols' name: "us", "de(nodeadkeys)".
    pub short_name: String,
    /// Every layout one can switch between, by name, in order.
    pub all: Vec<String>,
}

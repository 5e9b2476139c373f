//! Hyprland's replies (`j/monitors`, `j/workspaces`, `j/clients`,
//! `j/activewindow`, `j/devices`) folded into the tiler model.
//!
//! - A monitor is one of `monitors`, in Hyprland's order (by id); its
//!   workspaces are those `workspaces` puts on it, numbered ones by number,
//!   then named ones in the order they were made (special workspaces, the
//!   scratchpads, left out); the visible one is its `activeWorkspace`.
//! - A workspace's windows are the `clients` on it: a group (Hyprland's
//!   tabs) is one container of its windows, another tiled window a
//!   container of one, a floating window floats, a fullscreen one is the
//!   monocle. The active window has focus.
//! - Urgency is not in any reply: the client keeps the windows `urgent`
//!   events named until they have focus or close.
//! - The keyboard layout is the `main` keyboard's `active_keymap`.

use crate::tiler::KeyboardLayout;
use crate::tiler::{Container, Kind, Layer, Monitor, State, Window, Workspace};
use serde::Deserialize;
use std::collections::HashSet;

#[derive(Debug, Deserialize)]
pub struct HyprMonitor {
    pub id: i64,
    pub name: String,
    #[serde(rename = "activeWorkspace")]
    pub active_workspace: WorkspaceRef,
    #[serde(default)]
    pub focused: bool,
}

#[derive(Debug, Deserialize)]
pub struct WorkspaceRef {
    pub id: i64,
}

#[derive(Debug, Deserialize)]
pub struct HyprWorkspace {
    pub id: i64,
    pub name: String,
    #[serde(default)]
    pub monitor: String,
    #[serde(rename = "tiledLayout", default)]
    pub tiled_layout: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct Client {
    pub address: String,
    pub workspace: WorkspaceRef,
    #[serde(default)]
    pub floating: bool,
    #[serde(default)]
    pub class: String,
    #[serde(default)]
    pub title: String,
    /// A bit set since 0.42 (2: fullscreen); a boolean before.
    #[serde(default)]
    pub fullscreen: serde_json::Value,
    /// The addresses of the group it is in, itself included.
    #[serde(default)]
    pub grouped: Vec<String>,
}

impl Client {
    fn is_fullscreen(&self) -> bool {
        match &self.fullscreen {
            serde_json::Value::Bool(fullscreen) => *fullscreen,
            value => value.as_u64().is_some_and(|mode| mode & 2 != 0),
        }
    }

    fn window(&self) -> Window {
        Window { title: self.title.clone(), exe: self.class.clone(), class: self.class.clone(), icon: None }
    }
}

/// What the replies said, read.
pub struct Replies {
    pub monitors: Vec<HyprMonitor>,
    pub workspaces: Vec<HyprWorkspace>,
    pub clients: Vec<Client>,
    /// The active window's address, when one has focus.
    pub active: Option<String>,
    pub keyboard: Option<KeyboardLayout>,
}

/// Hyprland's workspaces in the order a bar shows them: numbered ones by
/// number, then named ones as they were made (their ids count down).
fn order(workspace: &HyprWorkspace) -> (bool, i64) {
    (workspace.id < 0, if workspace.id < 0 { -workspace.id } else { workspace.id })
}

/// Folds the replies into the model; `monitor` is the bar's as the config
/// numbers it, `urgent` the windows that asked for attention.
pub fn fold(replies: &Replies, monitor: Option<usize>, urgent: &HashSet<String>) -> State {
    let mut monitors: Vec<&HyprMonitor> = replies.monitors.iter().collect();
    monitors.sort_by_key(|monitor| monitor.id);
    let folded: Vec<Monitor> = monitors
        .iter()
        .map(|monitor| {
            let mut workspaces: Vec<&HyprWorkspace> = replies
                .workspaces
                .iter()
                .filter(|workspace| workspace.monitor == monitor.name && !workspace.name.starts_with("special:"))
                .collect();
            workspaces.sort_by_key(|workspace| order(workspace));
            Monitor {
                name: monitor.name.clone(),
                area: None,
                focused_workspace: workspaces
                    .iter()
                    .position(|workspace| workspace.id == monitor.active_workspace.id)
                    .unwrap_or(0),
                workspaces: workspaces.iter().map(|workspace| fold_workspace(workspace, replies, urgent)).collect(),
            }
        })
        .collect();
    let focused_monitor = monitors.iter().position(|monitor| monitor.focused).unwrap_or(0);
    let bar_monitor = match monitor {
        Some(index) => (index < folded.len()).then_some(index),
        None => (!folded.is_empty()).then_some(0),
    };
    State {
        monitors: folded,
        focused_monitor,
        bar_monitor,
        keyboard: replies.keyboard.clone(),
        ..State::empty(Kind::Hyprland)
    }
}

fn fold_workspace(workspace: &HyprWorkspace, replies: &Replies, urgent: &HashSet<String>) -> Workspace {
    let on_it: Vec<&Client> = replies.clients.iter().filter(|client| client.workspace.id == workspace.id).collect();
    let active = replies.active.as_deref();
    let mut containers: Vec<Container> = Vec::new();
    let mut focused_container = None;
    let mut grouped: HashSet<&str> = HashSet::new();
    for client in on_it.iter().filter(|client| !client.floating && !client.is_fullscreen()) {
        if grouped.contains(client.address.as_str()) {
            continue;
        }
        let members: Vec<&Client> = match client.grouped.len() {
            0 | 1 => vec![*client],
            _ => client
                .grouped
                .iter()
                .filter_map(|address| on_it.iter().copied().find(|other| other.address == *address))
                .collect(),
        };
        grouped.extend(members.iter().map(|member| member.address.as_str()));
        if let Some(shown) = members.iter().position(|member| Some(member.address.as_str()) == active) {
            focused_container = Some(containers.len());
            containers.push(Container {
                windows: members.iter().map(|member| member.window()).collect(),
                focused_window: shown,
                locked: false,
            });
        } else {
            containers.push(Container {
                windows: members.iter().map(|member| member.window()).collect(),
                ..Container::default()
            });
        }
    }
    let floating: Vec<&Client> = on_it.iter().copied().filter(|client| client.floating).collect();
    let focused_floating = floating.iter().position(|client| Some(client.address.as_str()) == active);
    let monocle = on_it
        .iter()
        .find(|client| client.is_fullscreen())
        .map(|client| Container { windows: vec![client.window()], ..Container::default() });
    Workspace {
        name: workspace.name.clone(),
        containers: containers.into(),
        focused_container,
        monocle,
        floating_windows: floating.iter().map(|client| client.window()).collect(),
        focused_floating_window: focused_floating,
        layout: workspace.tiled_layout.clone().unwrap_or_default(),
        tiling: true,
        layer: if focused_floating.is_some() { Layer::Floating } else { Layer::Tiling },
        urgent: on_it.iter().any(|client| urgent.contains(&normalised(&client.address))),
    }
}

/// A window's address as events give it: lowercase hex without `0x`.
pub fn normalised(address: &str) -> String {
    address.trim_start_matches("0x").to_lowercase()
}

/// The main keyboard's layout, from `j/devices` (where Hyprland may write
/// the bare word `none` for a layout index it cannot tell).
pub fn keyboard_layout(devices: &str) -> Option<KeyboardLayout> {
    #[derive(Deserialize)]
    struct Devices {
        #[serde(default)]
        keyboards: Vec<Keyboard>,
    }
    #[derive(Deserialize)]
    struct Keyboard {
        #[serde(default)]
        layout: String,
        #[serde(default)]
        active_keymap: String,
        #[serde(default)]
        active_layout_index: Option<usize>,
        #[serde(default)]
        main: bool,
    }
    let devices: Devices = serde_json::from_str(&devices.replace(": none", ": null")).ok()?;
    let keyboard = devices.keyboards.iter().find(|keyboard| keyboard.main).or(devices.keyboards.first())?;
    let all: Vec<String> =
        keyboard.layout.split(',').map(str::trim).filter(|code| !code.is_empty()).map(str::to_owned).collect();
    Some(KeyboardLayout {
        name: keyboard.active_keymap.clone(),
        short_name: keyboard.active_layout_index.and_then(|index| all.get(index).cloned()).unwrap_or_default(),
        all,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn replies() -> Replies {
        let monitors = json!([
            { "id": 1, "name": "HDMI-A-1", "activeWorkspace": { "id": 4, "name": "4" }, "focused": false },
            { "id": 0, "name": "DP-1", "activeWorkspace": { "id": 2, "name": "2" }, "focused": true }
        ]);
        let workspaces = json!([
            { "id": 2, "name": "2", "monitor": "DP-1", "windows": 3, "tiledLayout": "dwindle" },
            { "id": -1337, "name": "web", "monitor": "DP-1", "windows": 1 },
            { "id": 1, "name": "1", "monitor": "DP-1", "windows": 1 },
            { "id": -98, "name": "special:scratch", "monitor": "DP-1", "windows": 1 },
            { "id": 4, "name": "4", "monitor": "HDMI-A-1", "windows": 0 }
        ]);
        let clients = json!([
            { "address": "0xA1", "workspace": { "id": 2, "name": "2" }, "class": "foot", "title": "nvim", "fullscreen": 0, "grouped": ["0xA1", "0xA2"] },
            { "address": "0xA2", "workspace": { "id": 2, "name": "2" }, "class": "foot", "title": "htop", "fullscreen": 0, "grouped": ["0xA1", "0xA2"] },
            { "address": "0xA3", "workspace": { "id": 2, "name": "2" }, "class": "pavucontrol", "title": "Volume", "floating": true, "fullscreen": 0 },
            { "address": "0xB1", "workspace": { "id": 1, "name": "1" }, "class": "firefox", "title": "News", "fullscreen": 2 },
            { "address": "0xC1", "workspace": { "id": -1337, "name": "web" }, "class": "chromium", "title": "Mail", "fullscreen": false }
        ]);
        Replies {
            monitors: serde_json::from_value(monitors).unwrap(),
            workspaces: serde_json::from_value(workspaces).unwrap(),
            clients: serde_json::from_value(clients).unwrap(),
            active: Some("0xA2".into()),
            keyboard: None,
        }
    }

    #[test]
    fn monitors_in_id_order_hold_their_workspaces_numbered_then_named() {
        let state = fold(&replies(), None, &HashSet::new());
        assert_eq!(state.kind, Kind::Hyprland);
        let names: Vec<&str> = state.monitors.iter().map(|monitor| monitor.name.as_str()).collect();
        assert_eq!(names, ["DP-1", "HDMI-A-1"]);
        let workspaces: Vec<&str> = state.monitors[0].workspaces.iter().map(|w| w.name.as_str()).collect();
        assert_eq!(workspaces, ["1", "2", "web"], "the special workspace is left out");
        assert_eq!((state.focused_monitor, state.monitors[0].focused_workspace), (0, 1));
        assert!(state.monitors[1].workspaces[0].is_empty());
    }

    #[test]
    fn groups_floating_fullscreen_and_urgency_are_read() {
        let urgent = HashSet::from(["c1".to_owned()]);
        let state = fold(&replies(), Some(0), &urgent);
        let two = &state.monitors[0].workspaces[1];
        assert_eq!(two.containers.len(), 1, "a group is one container");
        let titles: Vec<&str> = two.containers[0].windows.iter().map(|window| window.title.as_str()).collect();
        assert_eq!(titles, ["nvim", "htop"]);
        assert_eq!((two.focused_container, two.containers[0].focused_window), (Some(0), 1));
        assert_eq!((two.floating_windows.len(), two.layer, two.layout.as_str()), (1, Layer::Tiling, "dwindle"));
        let one = &state.monitors[0].workspaces[0];
        assert_eq!(one.monocle.as_ref().unwrap().windows[0].title, "News", "fullscreen since 0.42 is bit 2");
        let web = &state.monitors[0].workspaces[2];
        assert!(web.urgent && web.monocle.is_none(), "a boolean fullscreen of false, before 0.42");
    }

    #[test]
    fn the_main_keyboards_layout_even_with_a_bare_none() {
        let devices = r#"{ "mice": [], "keyboards": [
            { "name": "power-button", "layout": "us", "active_keymap": "English (US)", "active_layout_index": none, "main": false },
            { "name": "at-translated-set-2-keyboard", "layout": "us,ru", "active_keymap": "Russian", "active_layout_index": 1, "main": true } ] }"#;
        let layout = keyboard_layout(devices).unwrap();
        assert_eq!((layout.name.as_str(), layout.short_name.as_str()), ("Russian", "ru"));
        assert_eq!(layout.all, ["us", "ru"]);
        assert_eq!(keyboard_layout("garbage"), None);
    }
}

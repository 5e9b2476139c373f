//! komorebi's state as it sends it (the answer to a `State` query, and the
//! `state` of every notification) read into the tiler model. Reading is
//! lenient where komorebi's versions differ (fields added or renamed over
//! the years are optional) and strict where a guess would show something
//! wrong: a state without monitors is refused, not read as empty.

use crate::screen::ScreenRect;
use crate::tiler::{Container, Kind, Layer, Monitor, State, Window, Workspace};
use serde::Deserialize;
use std::collections::HashMap;

/// komorebi's `Ring<T>`: the elements and which one has focus.
#[derive(Deserialize)]
struct Ring<T> {
    #[serde(default = "Vec::new")]
    elements: Vec<T>,
    #[serde(default)]
    focused: usize,
}

#[derive(Deserialize)]
struct Notification {
    state: KomorebiState,
}

#[derive(Deserialize)]
struct KomorebiState {
    monitors: Ring<KomorebiMonitor>,
    #[serde(default)]
    monitor_usr_idx_map: HashMap<String, usize>,
    #[serde(default)]
    is_paused: bool,
    #[serde(default = "yes")]
    mouse_follows_focus: bool,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
struct KomorebiMonitor {
    #[serde(default)]
    name: Option<String>,
    /// Where the monitor is on the screen.
    #[serde(default)]
    size: Option<KomorebiRect>,
    workspaces: Ring<KomorebiWorkspace>,
}

/// komorebi's `Rect`: its `right` and `bottom` are the width and height.
#[derive(Deserialize)]
struct KomorebiRect {
    left: i32,
    top: i32,
    right: i32,
    bottom: i32,
}

impl KomorebiRect {
    /// None for a rectangle with nothing in it.
    fn on_screen(&self) -> Option<ScreenRect> {
        let (width, height) = (u32::try_from(self.right).ok()?, u32::try_from(self.bottom).ok()?);
        (width > 0 && height > 0).then_some(ScreenRect { x: self.left, y: self.top, width, height })
    }
}

#[derive(Deserialize)]
struct KomorebiWorkspace {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    containers: Option<Ring<KomorebiContainer>>,
    #[serde(default)]
    monocle_container: Option<KomorebiContainer>,
    #[serde(default)]
    maximized_window: Option<KomorebiWindow>,
    #[serde(default)]
    floating_windows: Option<Floating>,
    #[serde(default)]
    layout: Option<serde_json::Value>,
    #[serde(default)]
    tile: Option<bool>,
    #[serde(default)]
    layer: Option<String>,
}

/// A ring of floating windows today, a plain list in older komorebis.
#[derive(Deserialize)]
#[serde(untagged)]
enum Floating {
    Ring(Ring<KomorebiWindow>),
    List(Vec<KomorebiWindow>),
}

#[derive(Deserialize)]
struct KomorebiContainer {
    windows: Ring<KomorebiWindow>,
    #[serde(default)]
    locked: bool,
}

#[derive(Deserialize)]
struct KomorebiWindow {
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    exe: Option<String>,
    #[serde(default)]
    class: Option<String>,
}

/// Reads the answer to a `State` query. `bar_monitor` is the bar's monitor
/// as its config numbers it: komorebi's `monitor_usr_idx_map` says which of
/// its monitors that is.
pub fn read_state(json: &str, bar_monitor: Option<usize>) -> serde_json::Result<State> {
    let state: KomorebiState = serde_json::from_str(json)?;
    Ok(state.into_model(bar_monitor))
}

/// Reads a notification, `{"event": ..., "state": ...}`, for its state.
pub fn read_notification(json: &str, bar_monitor: Option<usize>) -> serde_json::Result<State> {
    let notification: Notification = serde_json::from_str(json)?;
    Ok(notification.state.into_model(bar_monitor))
}

impl KomorebiState {
    fn into_model(self, bar_monitor: Option<usize>) -> State {
        let monitors: Vec<Monitor> =
            self.monitors.elements.into_iter().enumerate().map(|(index, monitor)| monitor.into_model(index)).collect();
        let monitor_numbers = self
            .monitor_usr_idx_map
            .iter()
            .filter_map(|(number, index)| Some((number.parse().ok()?, *index)))
            .collect();
        let mut state = State {
            focused_monitor: within(self.monitors.focused, monitors.len()),
            monitors,
            monitor_numbers,
            paused: self.is_paused,
            mouse_follows_focus: self.mouse_follows_focus,
            ..State::empty(Kind::Komorebi)
        };
        state.bar_monitor = state.numbered_monitor(bar_monitor);
        state
    }
}

impl KomorebiMonitor {
    fn into_model(self, index: usize) -> Monitor {
        Monitor {
            name: self.name.unwrap_or_else(|| format!("monitor {}", index + 1)),
            area: self.size.as_ref().and_then(KomorebiRect::on_screen),
            focused_workspace: within(self.workspaces.focused, self.workspaces.elements.len()),
            workspaces: self
                .workspaces
                .elements
                .into_iter()
                .enumerate()
                .map(|(index, workspace)| workspace.into_model(index))
                .collect(),
        }
    }
}

impl KomorebiWorkspace {
    fn into_model(self, index: usize) -> Workspace {
        let containers = self.containers.unwrap_or(Ring { elements: Vec::new(), focused: 0 });
        // A maximized window fills the workspace alone, as a monocle does.
        let monocle = self.monocle_container.map(KomorebiContainer::into_model).or_else(|| {
            self.maximized_window.map(|window| Container { windows: vec![window.into_model()], ..Container::default() })
        });
        let (floating_windows, focused_floating) = match self.floating_windows {
            Some(Floating::Ring(ring)) => (ring.elements, ring.focused),
            Some(Floating::List(list)) => (list, 0),
            None => (Vec::new(), 0),
        };
        let layer = match self.layer.as_deref() {
            Some("Floating") => Layer::Floating,
            _ => Layer::Tiling,
        };
        let has_containers = !containers.elements.is_empty();
        Workspace {
            name: self.name.filter(|name| !name.is_empty()).unwrap_or_else(|| (index + 1).to_string()),
            focused_container: has_containers.then(|| within(containers.focused, containers.elements.len())),
            containers: containers.elements.into_iter().map(KomorebiContainer::into_model).collect(),
            monocle,
            focused_floating_window: (layer == Layer::Floating && focused_floating < floating_windows.len())
                .then_some(focused_floating),
            floating_windows: floating_windows.into_iter().map(KomorebiWindow::into_model).collect(),
            layout: layout_name(self.layout.as_ref()),
            tiling: self.tile.unwrap_or(true),
            layer,
            urgent: false,
        }
    }
}

/// A ring's focus, kept inside the ring (komorebi's own never points out of
/// it, but what the bar reads from a socket is not trusted to).
fn within(focused: usize, length: usize) -> usize {
    focused.min(length.saturating_sub(1))
}

/// `{"Default": "BSP"}` is `BSP`; any custom layout is `Custom`.
fn layout_name(layout: Option<&serde_json::Value>) -> String {
    match layout {
        Some(serde_json::Value::Object(layout)) => match layout.get("Default").and_then(|name| name.as_str()) {
            Some(name) => name.to_owned(),
            None => "Custom".into(),
        },
        Some(serde_json::Value::String(name)) => name.clone(),
        _ => "BSP".into(),
    }
}

impl KomorebiContainer {
    fn into_model(self) -> Container {
        let windows: Vec<Window> = self.windows.elements.into_iter().map(KomorebiWindow::into_model).collect();
        Container { focused_window: within(self.windows.focused, windows.len()), windows, locked: self.locked }
    }
}

impl KomorebiWindow {
    fn into_model(self) -> Window {
        Window {
            title: self.title.unwrap_or_default(),
            exe: self.exe.unwrap_or_default(),
            class: self.class.unwrap_or_default(),
            icon: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn window(title: &str, exe: &str) -> serde_json::Value {
        json!({ "hwnd": 1, "title": title, "exe": exe, "class": "C", "rect": { "left": 0, "top": 0, "right": 1, "bottom": 1 } })
    }

    fn sample() -> serde_json::Value {
        json!({
            "monitors": { "elements": [
                { "name": "DISPLAY1", "size": { "left": 0, "top": 0, "right": 2560, "bottom": 1440 }, "workspaces": { "elements": [
                    { "name": "code", "containers": { "elements": [
                        { "id": "a", "windows": { "elements": [window("main.rs", "code.exe")], "focused": 0 } },
                        { "id": "b", "locked": true, "windows": { "elements": [window("one", "wt.exe"), window("two", "wt.exe")], "focused": 1 } }
                      ], "focused": 1 },
                      "monocle_container": null, "maximized_window": null,
                      "floating_windows": { "elements": [], "focused": 0 },
                      "layout": { "Default": "VerticalStack" }, "tile": true, "layer": "Tiling" },
                    { "name": null, "containers": { "elements": [], "focused": 0 },
                      "floating_windows": { "elements": [window("calc", "calc.exe")], "focused": 0 },
                      "layout": { "Custom": { "columns": [] } }, "tile": false, "layer": "Floating" }
                  ], "focused": 0 } },
                { "name": "DISPLAY2", "size": { "left": -1920, "top": 200, "right": 1920, "bottom": 1080 }, "workspaces": { "elements": [
                    { "name": "web", "containers": { "elements": [], "focused": 0 }, "monocle_container":
                        { "id": "m", "windows": { "elements": [window("page", "firefox.exe")], "focused": 0 } },
                      "layout": { "Default": "BSP" } }
                  ], "focused": 0 } }
              ], "focused": 1 },
            "monitor_usr_idx_map": { "0": 1, "1": 0 },
            "is_paused": true,
            "mouse_follows_focus": false
        })
    }

    #[test]
    fn komorebis_state_maps_onto_the_model() {
        let state = read_state(&sample().to_string(), None).unwrap();
        assert_eq!((state.focused_monitor, state.paused, state.mouse_follows_focus), (1, true, false));
        let code = &state.monitors[0].workspaces[0];
        assert_eq!(
            (code.name.as_str(), code.layout.as_str(), code.focused_container),
            ("code", "VerticalStack", Some(1))
        );
        assert!(code.containers[1].locked && !code.containers[0].locked);
        assert_eq!(code.containers[1].windows[code.containers[1].focused_window].title, "two");
        let unnamed = &state.monitors[0].workspaces[1];
        assert_eq!(unnamed.name, "2", "an unnamed workspace is called by its number");
        assert_eq!((unnamed.layout.as_str(), unnamed.tiling, unnamed.layer), ("Custom", false, Layer::Floating));
        assert_eq!(unnamed.focused_floating_window, Some(0));
        assert_eq!(code.focused_floating_window, None, "the tiling layer has focus there");
        assert!(!unnamed.is_empty(), "a floating window is something");
        let web = &state.monitors[1].workspaces[0];
        assert_eq!(web.monocle.as_ref().unwrap().windows[0].exe, "firefox.exe");
    }

    #[test]
    fn the_bar_monitor_goes_through_the_user_index_map() {
        assert_eq!(read_state(&sample().to_string(), None).unwrap().bar_monitor, Some(1), "0 is komorebi's 1");
        assert_eq!(read_state(&sample().to_string(), Some(1)).unwrap().bar_monitor, Some(0));
        assert_eq!(read_state(&sample().to_string(), Some(5)).unwrap().bar_monitor, None);
    }

    /// A monitor's `size` is where it is (its `right` and `bottom` a width
    /// and a height); a config's number finds it through the user index map.
    #[test]
    fn where_a_numbered_monitor_is_comes_from_its_size() {
        let mut state = read_state(&sample().to_string(), None).unwrap();
        assert_eq!(state.numbered_area(Some(0)), Some(ScreenRect { x: -1920, y: 200, width: 1920, height: 1080 }));
        assert_eq!(
            state.numbered_area(None),
            state.numbered_area(Some(0)),
            "no number is komorebi's 0, as komorebi-bar reads it"
        );
        assert_eq!(state.numbered_area(Some(1)), Some(ScreenRect { x: 0, y: 0, width: 2560, height: 1440 }));
        assert_eq!(state.numbered_area(Some(2)), None);
        let mut sizeless = sample();
        sizeless["monitors"]["elements"][0]["size"] = json!({ "left": 0, "top": 0, "right": 0, "bottom": -5 });
        sizeless["monitors"]["elements"][1].as_object_mut().unwrap().remove("size");
        let sizeless = read_state(&sizeless.to_string(), None).unwrap();
        assert_eq!(
            (sizeless.numbered_area(Some(0)), sizeless.numbered_area(Some(1))),
            (None, None),
            "no size, or an empty one, is nowhere"
        );
        state.kind = Kind::I3;
        assert_eq!(state.numbered_area(Some(0)), None, "only komorebi numbers its monitors for the bar");
    }

    #[test]
    fn a_notification_carries_the_state_and_a_stateless_one_is_refused() {
        let notification = json!({ "event": { "type": "FocusChange", "content": ["SystemForeground", window("x", "x.exe")] }, "state": sample() });
        assert_eq!(read_notification(&notification.to_string(), None).unwrap().monitors.len(), 2);
        // The shape of komorebi's README example, with its state left out.
        let empty = r#"{"event":{"type":"FocusWindow","content":"Left"},"state":{}}"#;
        assert!(read_notification(empty, None).unwrap_err().to_string().contains("monitors"));
        assert!(read_notification("{\"event\":", None).is_err());
    }
}

//! niri's state as its event stream tells it, and as the tiler model shows
//! it. The types are lenient, as niri's own advice for bars goes: fields
//! niri added over its releases default when absent, unknown fields are
//! ignored, and an event is read by its one key, unknown keys skipped.
//!
//! - A monitor is an output, in the layout's order (left to right, then
//!   top to bottom); its workspaces are those on it, by their index; a
//!   workspace is named by its `name`, else its index; the shown one is the
//!   active one.
//! - A workspace's tiled windows are a container each, its floating ones
//!   float; the focused window has focus. niri tells no fullscreen.
//! - A workspace is urgent when niri says so (25.05 on) or a window on it is.
//! - The keyboard layout is `names[current_idx]`.
//! - The screen casts are the active ones of `Cast…` events (26.04 on):
//!   of an output by its name, of a window by its title.
//!
//! Each workspace's windows are folded once and kept until a window on it
//! comes, goes or changes; the focus is found in them when the state is
//! folded. A focus moved among 70,000 windows costs the bar a lookup, not
//! a fold of them all.

use crate::tiler::KeyboardLayout;
use crate::tiler::{Container, Kind, Layer, Monitor, ScreenCast, SharedList, State, Window, Workspace};
use anyhow::{Context, anyhow};
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};

#[derive(Debug, Clone, Deserialize)]
pub struct NiriWorkspace {
    pub id: u64,
    pub idx: u32,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub output: Option<String>,
    #[serde(default)]
    pub is_urgent: bool,
    #[serde(default)]
    pub is_active: bool,
    #[serde(default)]
    pub is_focused: bool,
}

#[derive(Debug, Clone, Deserialize)]
pub struct NiriWindow {
    pub id: u64,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub app_id: Option<String>,
    #[serde(default)]
    pub workspace_id: Option<u64>,
    #[serde(default)]
    pub is_focused: bool,
    #[serde(default)]
    pub is_floating: bool,
    #[serde(default)]
    pub is_urgent: bool,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Layouts {
    #[serde(default)]
    pub names: Vec<String>,
    #[serde(default)]
    pub current_idx: usize,
}

/// A screen cast, as niri tells it (26.04 on).
#[derive(Debug, Clone, Deserialize)]
pub struct Cast {
    pub stream_id: u64,
    /// `{"Output":{"name":…}}`, `{"Window":{"id":…}}` or `{"Nothing":{}}`
    /// (none chosen yet).
    #[serde(default)]
    pub target: Value,
    /// Whether it is capturing now, not paused.
    #[serde(default)]
    pub is_active: bool,
}

/// An output's place in the layout, from `Outputs`.
#[derive(Debug, Clone, Deserialize)]
pub struct Logical {
    pub x: i32,
    pub y: i32,
}

/// What the event stream has told so far. Each event changes what it
/// tells of, not the rest, so a niri of 70,000 windows costs each event
/// little.
#[derive(Debug, Default)]
pub struct Model {
    pub workspaces: Vec<NiriWorkspace>,
    windows: BTreeMap<u64, NiriWindow>,
    /// The ids of the windows on each workspace, by the workspace's id.
    on_workspace: HashMap<u64, BTreeSet<u64>>,
    /// Each workspace's windows as last folded, by its id; one whose
    /// windows changed since is not here.
    folded: HashMap<u64, Folded>,
    /// The window niri last said has the focus, if any.
    focused_window: Option<u64>,
    pub layouts: Option<Layouts>,
    /// The outputs, by name, with their place (none when off).
    pub outputs: BTreeMap<String, Option<Logical>>,
    /// The screen casts, by stream.
    casts: BTreeMap<u64, Cast>,
}

/// A workspace's windows, folded: tiled and floating apart, by id.
#[derive(Debug)]
struct Folded {
    tiled: Vec<u64>,
    containers: SharedList<Container>,
    floating: Vec<u64>,
    floating_windows: SharedList<Window>,
    /// Whether a window on it is urgent.
    urgent: bool,
}

/// What applying an event asks of the client.
#[derive(Debug, PartialEq, Eq)]
pub enum Applied {
    /// The model changed.
    Changed,
    /// The workspaces moved: the outputs are worth asking for again.
    OutputsMayHaveChanged,
    /// Nothing a bar shows.
    Nothing,
}

impl Model {
    /// Applies one event line; an error names what could not be read.
    pub fn apply(&mut self, line: &str) -> anyhow::Result<Applied> {
        let value: Value = serde_json::from_str(line).context("not JSON")?;
        let Some((event, body)) = value.as_object().and_then(|object| object.iter().next()) else {
            anyhow::bail!("not an event");
        };
        let field = |name: &str| body.get(name).cloned().unwrap_or(Value::Null);
        let id = || field("id").as_u64();
        match event.as_str() {
            "WorkspacesChanged" => {
                self.workspaces = read(event, body, "workspaces")?;
                return Ok(Applied::OutputsMayHaveChanged);
            }
            "WorkspaceActivated" => {
                let id = id().context("WorkspaceActivated without an id")?;
                let focused = field("focused").as_bool().unwrap_or(false);
                let output = self.workspaces.iter().find(|workspace| workspace.id == id).and_then(|w| w.output.clone());
                for workspace in &mut self.workspaces {
                    if workspace.output == output {
                        workspace.is_active = workspace.id == id;
                    }
                    if focused {
                        workspace.is_focused = workspace.id == id;
                    }
                }
            }
            "WorkspaceUrgencyChanged" => {
                let urgent = field("urgent").as_bool().unwrap_or(false);
                if let Some(workspace) = self.workspaces.iter_mut().find(|workspace| Some(workspace.id) == id()) {
                    workspace.is_urgent = urgent;
                }
            }
            "WindowsChanged" => {
                let windows: Vec<NiriWindow> = read(event, body, "windows")?;
                self.windows.clear();
                self.on_workspace.clear();
                self.folded.clear();
                self.focused_window = windows.iter().find(|window| window.is_focused).map(|window| window.id);
                for window in windows {
                    self.insert(window);
                }
            }
            "WindowOpenedOrChanged" => {
                let window: NiriWindow = read(event, body, "window")?;
                let (id, focused) = (window.id, window.is_focused);
                self.remove(id);
                self.insert(window);
                if focused {
                    self.focused_window = Some(id);
                } else if self.focused_window == Some(id) {
                    self.focused_window = None;
                }
            }
            "WindowClosed" => {
                let id = id().context("WindowClosed without an id")?;
                self.remove(id);
                if self.focused_window == Some(id) {
                    self.focused_window = None;
                }
            }
            "WindowFocusChanged" => self.focused_window = id().filter(|id| self.windows.contains_key(id)),
            "WindowUrgencyChanged" => {
                let urgent = field("urgent").as_bool().unwrap_or(false);
                if let Some(window) = id().and_then(|id| self.windows.get_mut(&id)) {
                    window.is_urgent = urgent;
                    if let Some(workspace) = window.workspace_id {
                        self.folded.remove(&workspace);
                    }
                }
            }
            "KeyboardLayoutsChanged" => self.layouts = Some(read(event, body, "keyboard_layouts")?),
            "CastsChanged" => {
                let casts: Vec<Cast> = read(event, body, "casts")?;
                self.casts = casts.into_iter().map(|cast| (cast.stream_id, cast)).collect();
            }
            "CastStartedOrChanged" => {
                let cast: Cast = read(event, body, "cast")?;
                self.casts.insert(cast.stream_id, cast);
            }
            "CastStopped" => {
                let stream = field("stream_id").as_u64().context("CastStopped without a stream_id")?;
                self.casts.remove(&stream);
            }
            "KeyboardLayoutSwitched" => {
                let index = field("idx").as_u64().context("KeyboardLayoutSwitched without an idx")?;
                if let Some(layouts) = &mut self.layouts {
                    layouts.current_idx = index as usize;
                }
            }
            _ => return Ok(Applied::Nothing),
        }
        Ok(Applied::Changed)
    }

    /// Takes `window` in, its workspace to be folded again.
    fn insert(&mut self, window: NiriWindow) {
        if let Some(workspace) = window.workspace_id {
            self.on_workspace.entry(workspace).or_default().insert(window.id);
            self.folded.remove(&workspace);
        }
        self.windows.insert(window.id, window);
    }

    /// Lets the window `id` go, its workspace to be folded again.
    fn remove(&mut self, id: u64) {
        let Some(workspace) = self.windows.remove(&id).and_then(|window| window.workspace_id) else { return };
        self.folded.remove(&workspace);
        if let Some(ids) = self.on_workspace.get_mut(&workspace) {
            ids.remove(&id);
            if ids.is_empty() {
                self.on_workspace.remove(&workspace);
            }
        }
    }

    /// The outputs in the layout's order, each with its workspaces by index.
    fn ordered(&self) -> Vec<(&String, Vec<&NiriWorkspace>)> {
        let mut outputs: Vec<(&String, Option<&Logical>)> =
            self.outputs.iter().map(|(name, logical)| (name, logical.as_ref())).collect();
        // Outputs the workspaces name but `Outputs` did not (yet) list come last.
        for name in self.workspaces.iter().filter_map(|workspace| workspace.output.as_ref()) {
            if !outputs.iter().any(|(known, _)| *known == name) {
                outputs.push((name, None));
            }
        }
        outputs.sort_by_key(|(name, logical)| (logical.is_none(), logical.map(|at| (at.x, at.y)), (*name).clone()));
        outputs
            .into_iter()
            .map(|(name, _)| {
                let mut workspaces: Vec<&NiriWorkspace> =
                    self.workspaces.iter().filter(|workspace| workspace.output.as_ref() == Some(name)).collect();
                workspaces.sort_by_key(|workspace| workspace.idx);
                (name, workspaces)
            })
            .collect()
    }

    /// The niri id of the `workspace`-th workspace of the `monitor`-th
    /// monitor, as [`Model::fold`] lists them.
    pub fn workspace_id(&self, monitor: usize, workspace: usize) -> Option<u64> {
        Some(self.ordered().get(monitor)?.1.get(workspace)?.id)
    }

    /// The model as the bar shows it; `monitor` is the bar's as the config
    /// numbers it. Only the workspaces whose windows changed are folded anew.
    pub fn fold(&mut self, monitor: Option<usize>) -> State {
        for workspace in &self.workspaces {
            if !self.folded.contains_key(&workspace.id) {
                let ids = self.on_workspace.get(&workspace.id);
                let on_it = ids.into_iter().flatten().filter_map(|id| self.windows.get(id));
                self.folded.insert(workspace.id, Folded::of(on_it));
            }
        }
        // What is folded of workspaces gone goes.
        if self.folded.len() > self.workspaces.len() {
            let present: BTreeSet<u64> = self.workspaces.iter().map(|workspace| workspace.id).collect();
            self.folded.retain(|id, _| present.contains(id));
        }
        let focused = self.focused_window.and_then(|id| self.windows.get(&id));
        let monitors: Vec<Monitor> = self
            .ordered()
            .into_iter()
            .map(|(name, workspaces)| Monitor {
                name: name.clone(),
                area: None,
                focused_workspace: workspaces.iter().position(|workspace| workspace.is_active).unwrap_or(0),
                workspaces: workspaces
                    .iter()
                    .map(|workspace| {
                        let focused = focused.filter(|window| window.workspace_id == Some(workspace.id));
                        fold_workspace(workspace, &self.folded[&workspace.id], focused)
                    })
                    .collect(),
            })
            .collect();
        let focused_output =
            self.workspaces.iter().find(|workspace| workspace.is_focused).and_then(|w| w.output.as_ref());
        let focused_monitor = monitors.iter().position(|monitor| Some(&monitor.name) == focused_output).unwrap_or(0);
        let bar_monitor = match monitor {
            Some(index) => (index < monitors.len()).then_some(index),
            None => (!monitors.is_empty()).then_some(0),
        };
        let keyboard = self.layouts.as_ref().and_then(|layouts| {
            Some(KeyboardLayout {
                name: layouts.names.get(layouts.current_idx)?.clone(),
                short_name: String::new(),
                all: layouts.names.clone(),
            })
        });
        let screen_casts =
            self.casts.values().filter(|cast| cast.is_active).filter_map(|cast| self.cast(cast)).collect();
        State { monitors, focused_monitor, bar_monitor, keyboard, screen_casts, ..State::empty(Kind::Niri) }
    }

    /// What `cast` captures, when it captures something.
    fn cast(&self, cast: &Cast) -> Option<ScreenCast> {
        let named = |name: &Value| name.as_str().map(str::to_owned);
        if let Some(output) = cast.target.get("Output") {
            return Some(ScreenCast::Output(named(&output["name"])));
        }
        let window = cast.target.get("Window")?;
        let title = window["id"].as_u64().and_then(|id| self.windows.get(&id)?.title.clone());
        Some(ScreenCast::Window(title))
    }
}

impl Folded {
    /// The windows `on_it`, in the order of their ids.
    fn of<'a>(on_it: impl Iterator<Item = &'a NiriWindow>) -> Folded {
        let window = |window: &NiriWindow| {
            let app = window.app_id.clone().unwrap_or_default();
            Window { title: window.title.clone().unwrap_or_default(), exe: app.clone(), class: app, icon: None }
        };
        let (mut tiled, mut containers, mut floating, mut floating_windows) = (vec![], vec![], vec![], vec![]);
        let mut urgent = false;
        for on_it in on_it {
            urgent |= on_it.is_urgent;
            if on_it.is_floating {
                floating.push(on_it.id);
                floating_windows.push(window(on_it));
            } else {
                tiled.push(on_it.id);
                containers.push(Container { windows: vec![window(on_it)], ..Container::default() });
            }
        }
        Folded { tiled, containers: containers.into(), floating, floating_windows: floating_windows.into(), urgent }
    }
}

/// `workspace`, with its windows `folded` and the `focused` window when it
/// is on it, as the tiler model shows it.
fn fold_workspace(workspace: &NiriWorkspace, folded: &Folded, focused: Option<&NiriWindow>) -> Workspace {
    let place = |ids: &[u64], floating: bool| {
        focused.filter(|window| window.is_floating == floating).and_then(|window| ids.binary_search(&window.id).ok())
    };
    let focused_floating = place(&folded.floating, true);
    Workspace {
        name: workspace.name.clone().unwrap_or_else(|| workspace.idx.to_string()),
        containers: folded.containers.clone(),
        focused_container: place(&folded.tiled, false),
        floating_windows: folded.floating_windows.clone(),
        focused_floating_window: focused_floating,
        tiling: true,
        layer: if focused_floating.is_some() { Layer::Floating } else { Layer::Tiling },
        urgent: workspace.is_urgent || folded.urgent,
        ..Workspace::default()
    }
}

/// The field `name` of `event`'s `body`, read as a `T`.
fn read<T: serde::de::DeserializeOwned>(event: &str, body: &Value, name: &str) -> anyhow::Result<T> {
    let value = body.get(name).cloned().ok_or_else(|| anyhow!("{event} without `{name}`"))?;
    serde_json::from_value(value).with_context(|| format!("{event}'s `{name}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: [&str; 3] = [
        r#"{"WorkspacesChanged":{"workspaces":[
            {"id":5,"idx":2,"name":"web","output":"DP-1","is_urgent":false,"is_active":false,"is_focused":false,"active_window_id":null},
            {"id":3,"idx":1,"name":null,"output":"DP-1","is_urgent":false,"is_active":true,"is_focused":true,"active_window_id":12},
            {"id":9,"idx":1,"name":null,"output":"HDMI-A-1","is_active":true,"is_focused":false}]}}"#,
        r#"{"WindowsChanged":{"windows":[
            {"id":12,"title":"nvim","app_id":"foot","pid":1,"workspace_id":3,"is_focused":true,"is_floating":false,"is_urgent":false},
            {"id":13,"title":"mixer","app_id":"pavucontrol","workspace_id":3,"is_focused":false,"is_floating":true},
            {"id":14,"title":"mail","app_id":"thunderbird","workspace_id":5,"is_focused":false,"is_floating":false}]}}"#,
        r#"{"KeyboardLayoutsChanged":{"keyboard_layouts":{"names":["English (US)","Russian"],"current_idx":0}}}"#,
    ];

    fn started() -> Model {
        let mut model = Model::default();
        for line in START {
            model.apply(&line.replace('\n', "")).unwrap();
        }
        model.outputs = BTreeMap::from([
            ("HDMI-A-1".to_owned(), Some(Logical { x: 2560, y: 0 })),
            ("DP-1".to_owned(), Some(Logical { x: 0, y: 0 })),
        ]);
        model
    }

    #[test]
    fn the_full_state_folds_into_monitors_workspaces_and_windows() {
        let state = started().fold(None);
        assert_eq!(state.kind, Kind::Niri);
        let names: Vec<&str> = state.monitors.iter().map(|monitor| monitor.name.as_str()).collect();
        assert_eq!(names, ["DP-1", "HDMI-A-1"], "left to right");
        let workspaces: Vec<&str> = state.monitors[0].workspaces.iter().map(|w| w.name.as_str()).collect();
        assert_eq!(workspaces, ["1", "web"], "by index, named by name when they have one");
        let first = &state.monitors[0].workspaces[0];
        assert_eq!((first.containers.len(), first.focused_container, first.floating_windows.len()), (1, Some(0), 1));
        assert_eq!(first.containers[0].windows[0].exe, "foot");
        assert!(state.monitors[1].workspaces[0].is_empty());
        assert_eq!(state.keyboard.as_ref().unwrap().name, "English (US)");
        let model = started();
        assert_eq!(
            (model.workspace_id(0, 1), model.workspace_id(1, 0), model.workspace_id(1, 1)),
            (Some(5), Some(9), None)
        );
    }

    #[test]
    fn events_move_focus_urgency_and_layouts() {
        let mut model = started();
        assert_eq!(model.apply(r#"{"WorkspaceActivated":{"id":5,"focused":true}}"#).unwrap(), Applied::Changed);
        model.apply(r#"{"WindowUrgencyChanged":{"id":12,"urgent":true}}"#).unwrap();
        model.apply(r#"{"WindowFocusChanged":{"id":14}}"#).unwrap();
        model.apply(r#"{"KeyboardLayoutSwitched":{"idx":1}}"#).unwrap();
        model.apply(r#"{"WindowClosed":{"id":13}}"#).unwrap();
        let state = model.fold(Some(0));
        let dp = &state.monitors[0];
        assert_eq!(dp.focused_workspace, 1);
        assert!(dp.workspaces[0].urgent && dp.workspaces[0].floating_windows.is_empty());
        assert_eq!(dp.workspaces[1].focused_container, Some(0));
        assert_eq!(state.keyboard.unwrap().name, "Russian");
        assert_eq!(model.apply(r#"{"OverviewOpenedOrClosed":{"is_open":true}}"#).unwrap(), Applied::Nothing);
        assert_eq!(model.apply(r#"{"CastsChanged":{}}"#).unwrap_err().to_string(), "CastsChanged without `casts`");
        assert!(model.apply("not json").is_err());
        assert!(model.apply(r#"{"WindowsChanged":{}}"#).unwrap_err().to_string().contains("without `windows`"));
    }

    #[test]
    fn active_casts_are_the_screen_casts_by_output_name_and_window_title() {
        let mut model = started();
        let cast = |stream: u64, target: &str, active: bool| {
            format!(
                r#"{{"stream_id":{stream},"session_id":1,"kind":"PipeWire","target":{target},"is_dynamic_target":false,"is_active":{active},"pid":77,"pw_node_id":50}}"#
            )
        };
        let output = cast(1, r#"{"Output":{"name":"DP-1"}}"#, true);
        let paused = cast(2, r#"{"Window":{"id":12}}"#, false);
        model.apply(&format!(r#"{{"CastsChanged":{{"casts":[{output},{paused}]}}}}"#)).unwrap();
        assert_eq!(model.fold(None).screen_casts, [ScreenCast::Output(Some("DP-1".into()))], "the paused one is not");
        let started = |cast: String| format!(r#"{{"CastStartedOrChanged":{{"cast":{cast}}}}}"#);
        model.apply(&started(cast(2, r#"{"Window":{"id":12}}"#, true))).unwrap();
        model.apply(&started(cast(3, r#"{"Nothing":{}}"#, true))).unwrap();
        assert_eq!(
            model.fold(None).screen_casts,
            [ScreenCast::Output(Some("DP-1".into())), ScreenCast::Window(Some("nvim".into()))],
            "a cast of nothing yet captures nothing"
        );
        model.apply(r#"{"CastStopped":{"stream_id":1}}"#).unwrap();
        assert_eq!(model.fold(None).screen_casts, [ScreenCast::Window(Some("nvim".into()))]);
    }

    /// The focus is where niri last said it is: a window opened with it
    /// takes it, the focused one saying it lost it or closing takes it
    /// away; the folded state shows it in its workspace's containers or
    /// floating windows.
    #[test]
    fn the_focus_is_where_niri_last_put_it() {
        let mut model = started();
        let focused = |model: &mut Model| -> Option<String> {
            let state = model.fold(None);
            let workspace = state.monitors.iter().flat_map(|monitor| &monitor.workspaces).find(|workspace| {
                workspace.focused_container.is_some() || workspace.focused_floating_window.is_some()
            })?;
            let window = match workspace.focused_floating_window {
                Some(index) => &workspace.floating_windows[index],
                None => &workspace.containers[workspace.focused_container?].windows[0],
            };
            Some(window.title.clone())
        };
        assert_eq!(focused(&mut model).as_deref(), Some("nvim"));
        let opened = |id: u64, is_focused: bool| {
            format!(
                r#"{{"WindowOpenedOrChanged":{{"window":{{"id":{id},"title":"t{id}","workspace_id":3,"is_focused":{is_focused}}}}}}}"#
            )
        };
        model.apply(&opened(15, true)).unwrap();
        assert_eq!(focused(&mut model).as_deref(), Some("t15"), "a window opened with the focus takes it");
        model.apply(&opened(14, false)).unwrap();
        assert_eq!(focused(&mut model).as_deref(), Some("t15"), "a change to another leaves it");
        model.apply(r#"{"WindowFocusChanged":{"id":13}}"#).unwrap();
        assert_eq!(focused(&mut model).as_deref(), Some("mixer"), "a floating window");
        model.apply(&opened(13, false)).unwrap();
        assert_eq!(focused(&mut model), None, "the focused one says it lost it");
        model.apply(r#"{"WindowFocusChanged":{"id":12}}"#).unwrap();
        model.apply(r#"{"WindowClosed":{"id":12}}"#).unwrap();
        model.apply(&opened(16, false)).unwrap();
        assert_eq!(focused(&mut model), None, "the focused one closed");
        model.apply(r#"{"WindowFocusChanged":{"id":16}}"#).unwrap();
        assert_eq!(focused(&mut model).as_deref(), Some("t16"));
        model.apply(r#"{"WindowFocusChanged":{"id":99}}"#).unwrap();
        assert_eq!(focused(&mut model), None, "a window niri never told of");
    }

    /// A workspace is folded again when a window on it comes, goes, moves
    /// or changes, and shared as it was otherwise: the focus moving, or a
    /// window changing elsewhere, leaves its windows as they were folded.
    #[test]
    fn a_workspace_is_folded_again_only_when_its_windows_change() {
        let mut model = started();
        let containers =
            |model: &mut Model, workspace: usize| model.fold(None).monitors[0].workspaces[workspace].containers.clone();
        let (first, web) = (containers(&mut model, 0), containers(&mut model, 1));
        model.apply(r#"{"WindowFocusChanged":{"id":14}}"#).unwrap();
        model.apply(r#"{"WorkspaceActivated":{"id":5,"focused":true}}"#).unwrap();
        assert!(first.is(&containers(&mut model, 0)), "the focus moved");
        model.apply(r#"{"WindowOpenedOrChanged":{"window":{"id":14,"title":"inbox","workspace_id":5}}}"#).unwrap();
        assert!(first.is(&containers(&mut model, 0)), "a window changed elsewhere");
        let changed = containers(&mut model, 1);
        assert!(!web.is(&changed));
        assert_eq!(changed[0].windows[0].title, "inbox");
        model.apply(r#"{"WindowOpenedOrChanged":{"window":{"id":14,"title":"inbox","workspace_id":3}}}"#).unwrap();
        let state = model.fold(None);
        let titles = |workspace: usize| -> Vec<&str> {
            state.monitors[0].workspaces[workspace].containers.iter().map(|c| c.windows[0].title.as_str()).collect()
        };
        assert_eq!((titles(0), titles(1)), (vec!["nvim", "inbox"], vec![]), "a window moved");
        model.apply(r#"{"WindowUrgencyChanged":{"id":13,"urgent":true}}"#).unwrap();
        assert!(model.fold(None).monitors[0].workspaces[0].urgent);
    }
}

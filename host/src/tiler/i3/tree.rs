//! i3's (and sway's) layout tree folded into the tiler model.
//!
//! - A monitor is an output of the tree (the `__i3` pseudo-output, which
//!   holds the scratchpad, left out), its workspaces those of its `content`
//!   (i3) or its own (sway), the visible one first in that node's focus
//!   order.
//! - A container is a tabbed or stacked con (its windows shown one at a
//!   time, as komorebi's stack) or a single tiled window; the focused one
//!   is where the workspace's focus order leads.
//! - The layout is that of the focused window's parent (`splith`,
//!   `splitv`, `tabbed`, `stacked`), or the workspace's own when it is empty.
//! - A fullscreen window is the workspace's monocle; the layer is floating
//!   when focus is on a floating window; urgency is the workspace's.

use crate::tiler::{Container, Kind, Layer, Monitor, State, Window, Workspace};
use serde::Deserialize;

#[derive(Debug, Deserialize)]
pub struct Node {
    pub id: u64,
    #[serde(rename = "type", default)]
    pub kind: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub layout: String,
    #[serde(default)]
    pub nodes: Vec<Node>,
    #[serde(default)]
    pub floating_nodes: Vec<Node>,
    #[serde(default)]
    pub focus: Vec<u64>,
    /// The X11 window id; none for containers (and for sway's Wayland windows).
    #[serde(default)]
    pub window: Option<u64>,
    #[serde(default)]
    pub window_properties: Option<WindowProperties>,
    /// Sway's Wayland windows name their program here.
    #[serde(default)]
    pub app_id: Option<String>,
    #[serde(default)]
    pub fullscreen_mode: u8,
    #[serde(default)]
    pub urgent: bool,
}

#[derive(Debug, Deserialize, Default)]
pub struct WindowProperties {
    #[serde(default)]
    pub class: Option<String>,
    #[serde(default)]
    pub instance: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
}

/// An entry of `GET_OUTPUTS`.
#[derive(Debug, Deserialize)]
pub struct Output {
    pub name: String,
    #[serde(default)]
    pub active: bool,
    #[serde(default)]
    pub primary: bool,
}

impl Node {
    fn is_window(&self) -> bool {
        self.window.is_some() || self.app_id.is_some() || (self.kind == "con" && self.nodes.is_empty())
    }

    /// The child that has focus here, among tiled and floating children.
    fn focused_child(&self) -> Option<&Node> {
        let id = *self.focus.first()?;
        self.nodes.iter().chain(&self.floating_nodes).find(|child| child.id == id)
    }

    /// The windows under this node, in order.
    fn windows(&self) -> Vec<&Node> {
        if self.is_window() {
            return vec![self];
        }
        self.nodes.iter().chain(&self.floating_nodes).flat_map(Node::windows).collect()
    }

    /// The window focus leads to under this node, and its parent.
    fn focused_window(&self) -> Option<(&Node, &Node)> {
        let mut parent = self;
        let mut node = self.focused_child()?;
        while !node.is_window() {
            parent = node;
            node = node.focused_child().or_else(|| node.nodes.first())?;
        }
        Some((node, parent))
    }
}

/// Folds `tree` (`GET_TREE`) into the model. `outputs` (`GET_OUTPUTS`)
/// say which is primary; `monitor` is the bar's as the config numbers it
/// (none: the primary output); `icon` gives a window's icon handle.
pub fn fold(
    kind: Kind,
    tree: &Node,
    outputs: &[Output],
    monitor: Option<usize>,
    mode: Option<String>,
    icon: &mut dyn FnMut(&Node) -> Option<u64>,
) -> State {
    let output_nodes: Vec<&Node> = tree
        .nodes
        .iter()
        .filter(|node| node.kind == "output" && !node.name.as_deref().unwrap_or("").starts_with("__"))
        .collect();
    let monitors: Vec<Monitor> = output_nodes.iter().map(|output| fold_output(output, icon)).collect();
    let focused_output = tree.focus.first().and_then(|id| output_nodes.iter().position(|output| output.id == *id));
    let primary = outputs
        .iter()
        .find(|output| output.primary)
        .or_else(|| outputs.iter().find(|output| output.active))
        .and_then(|output| monitors.iter().position(|monitor| monitor.name == output.name));
    let bar_monitor = match monitor {
        Some(index) => (index < monitors.len()).then_some(index),
        None => primary.or((!monitors.is_empty()).then_some(0)),
    };
    State { focused_monitor: focused_output.unwrap_or(0), bar_monitor, mode, monitors, ..State::empty(kind) }
}

fn fold_output(output: &Node, icon: &mut dyn FnMut(&Node) -> Option<u64>) -> Monitor {
    // i3 keeps an output's workspaces in its `content` con (beside the
    // docks); sway, which has no docks, right under the output.
    let content = output
        .nodes
        .iter()
        .find(|node| node.kind == "con" && node.name.as_deref() == Some("content"))
        .unwrap_or(output);
    let workspaces: Vec<&Node> = content.nodes.iter().filter(|node| node.kind == "workspace").collect();
    let visible = content.focus.first().and_then(|id| workspaces.iter().position(|workspace| workspace.id == *id));
    Monitor {
        name: output.name.clone().unwrap_or_default(),
        area: None,
        focused_workspace: visible.unwrap_or(0),
        workspaces: workspaces.into_iter().map(|workspace| fold_workspace(workspace, icon)).collect(),
    }
}

fn fold_workspace(workspace: &Node, icon: &mut dyn FnMut(&Node) -> Option<u64>) -> Workspace {
    let focused = workspace.focused_window();
    let focused_id = focused.map(|(window, _)| window.id);
    let mut containers = Vec::new();
    let mut focused_container = None;
    for node in &workspace.nodes {
        collect_containers(node, focused_id, &mut containers, &mut focused_container, icon);
    }
    let floating: Vec<&Node> = workspace.floating_nodes.iter().flat_map(Node::windows).collect();
    let fullscreen = workspace.nodes.iter().flat_map(Node::windows).find(|window| window.fullscreen_mode != 0);
    let focused_floating = focused_id.and_then(|id| floating.iter().position(|window| window.id == id));
    let on_floating = focused_floating.is_some();
    Workspace {
        name: workspace.name.clone().unwrap_or_default(),
        containers: containers.into(),
        focused_container,
        monocle: fullscreen
            .map(|window| Container { windows: vec![fold_window(window, icon)], ..Container::default() }),
        floating_windows: floating.into_iter().map(|window| fold_window(window, icon)).collect(),
        focused_floating_window: focused_floating,
        layout: match focused {
            Some((_, parent)) if !on_floating => parent.layout.clone(),
            _ => workspace.layout.clone(),
        },
        tiling: true,
        layer: if on_floating { Layer::Floating } else { Layer::Tiling },
        urgent: workspace.urgent,
    }
}

/// A tabbed or stacked con is one container of its windows; a split con
/// holds containers; a window alone is a container of one.
fn collect_containers(
    node: &Node,
    focused: Option<u64>,
    containers: &mut Vec<Container>,
    focused_container: &mut Option<usize>,
    icon: &mut dyn FnMut(&Node) -> Option<u64>,
) {
    let stacked = matches!(node.layout.as_str(), "tabbed" | "stacked") && !node.is_window();
    if !node.is_window() && !stacked {
        for child in &node.nodes {
            collect_containers(child, focused, containers, focused_container, icon);
        }
        return;
    }
    let windows = node.windows();
    // The window shown in a stack is the one last focused in it.
    let shown = node.focused_window().map(|(window, _)| window.id);
    let focused_window = windows.iter().position(|window| Some(window.id) == shown).unwrap_or(0);
    if focused.is_some_and(|id| windows.iter().any(|window| window.id == id)) {
        *focused_container = Some(containers.len());
    }
    containers.push(Container {
        windows: windows.into_iter().map(|window| fold_window(window, icon)).collect(),
        focused_window,
        locked: false,
    });
}

fn fold_window(node: &Node, icon: &mut dyn FnMut(&Node) -> Option<u64>) -> Window {
    let properties = node.window_properties.as_ref();
    Window {
        title: properties.and_then(|p| p.title.clone()).or_else(|| node.name.clone()).unwrap_or_default(),
        exe: properties.and_then(|p| p.instance.clone()).or_else(|| node.app_id.clone()).unwrap_or_default(),
        class: properties.and_then(|p| p.class.clone()).unwrap_or_default(),
        icon: icon(node),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn window(id: u64, title: &str) -> serde_json::Value {
        json!({ "id": id, "type": "con", "name": title, "layout": "splith", "window": id * 10,
                "window_properties": { "class": "Xmessage", "instance": title, "title": title },
                "nodes": [], "floating_nodes": [], "focus": [], "fullscreen_mode": 0 })
    }

    /// The shape i3 4.22 gave for: workspace 1 with a tabbed con of a, b, c
    /// (c focused) and d beside it, split vertically; workspace 3, focused,
    /// with e floating and f fullscreen; the scratchpad's pseudo-output.
    fn tree() -> Node {
        let mut f = window(8, "f");
        f["fullscreen_mode"] = json!(1);
        let tree = json!({ "id": 1, "type": "root", "name": "root", "layout": "splith", "focus": [3, 2], "nodes": [
            { "id": 2, "type": "output", "name": "__i3", "layout": "output", "nodes": [] },
            { "id": 3, "type": "output", "name": "screen", "layout": "output", "focus": [4], "nodes": [
                { "id": 30, "type": "dockarea", "name": "topdock", "layout": "dockarea", "nodes": [] },
                { "id": 4, "type": "con", "name": "content", "layout": "splith", "focus": [6, 5], "nodes": [
                    { "id": 5, "type": "workspace", "name": "1", "layout": "splitv", "focus": [10], "nodes": [
                        { "id": 10, "type": "con", "name": null, "layout": "tabbed", "focus": [13, 12, 11],
                          "nodes": [window(11, "a"), window(12, "b"), window(13, "c")] },
                        window(14, "d")
                    ] },
                    { "id": 6, "type": "workspace", "name": "3", "layout": "splith", "focus": [20, 8], "urgent": true,
                      "nodes": [f],
                      "floating_nodes": [ { "id": 20, "type": "floating_con", "layout": "splith", "focus": [7], "nodes": [window(7, "e")] } ] }
                ] }
            ] }
        ] });
        serde_json::from_value(tree).unwrap()
    }

    fn fold_tree(monitor: Option<usize>) -> State {
        let outputs = [
            Output { name: "xroot-0".into(), active: false, primary: false },
            Output { name: "screen".into(), active: true, primary: false },
        ];
        fold(Kind::I3, &tree(), &outputs, monitor, None, &mut |node| node.window.map(|id| id + 1))
    }

    #[test]
    fn outputs_are_monitors_and_the_scratchpad_is_not() {
        let state = fold_tree(None);
        assert_eq!(state.monitors.len(), 1);
        assert_eq!(state.monitors[0].name, "screen");
        let names: Vec<&str> = state.monitors[0].workspaces.iter().map(|w| w.name.as_str()).collect();
        assert_eq!(names, ["1", "3"]);
        assert_eq!((state.focused_monitor, state.monitors[0].focused_workspace), (0, 1));
        assert_eq!(state.bar_monitor, Some(0), "the first active output stands for the primary one");
        assert_eq!(fold_tree(Some(3)).bar_monitor, None);
    }

    #[test]
    fn a_tabbed_con_is_one_container_and_a_lone_window_another() {
        let state = fold_tree(None);
        let one = &state.monitors[0].workspaces[0];
        assert_eq!(one.containers.len(), 2);
        let titles: Vec<&str> = one.containers[0].windows.iter().map(|w| w.title.as_str()).collect();
        assert_eq!(titles, ["a", "b", "c"]);
        assert_eq!(one.containers[0].focused_window, 2, "c was focused last");
        assert_eq!(one.focused_container, Some(0));
        assert_eq!(one.layout, "tabbed", "the focused window's parent");
        assert_eq!(one.containers[1].windows[0].icon, Some(141));
        assert_eq!((one.layer, one.urgent, one.monocle.is_some()), (Layer::Tiling, false, false));
    }

    /// The shape sway 1.7 gives: workspaces right under their output, a
    /// Wayland window known by its `app_id`.
    #[test]
    fn sways_workspaces_sit_right_under_their_output() {
        let foot = json!({ "id": 9, "type": "con", "name": "nvim", "app_id": "foot", "window": null, "layout": "none",
                           "nodes": [], "floating_nodes": [], "focus": [], "fullscreen_mode": 0 });
        let tree = json!({ "id": 1, "type": "root", "name": "root", "layout": "splith", "focus": [3], "nodes": [
            { "id": 2, "type": "output", "name": "__i3", "layout": "output", "nodes": [
                { "id": 2147483646, "type": "workspace", "name": "__i3_scratch", "nodes": [] } ] },
            { "id": 3, "type": "output", "name": "HEADLESS-1", "layout": "output", "focus": [5, 4], "nodes": [
                { "id": 4, "type": "workspace", "name": "alpha", "layout": "splith", "focus": [], "nodes": [] },
                { "id": 5, "type": "workspace", "name": "beta", "layout": "splith", "focus": [9], "nodes": [foot] }
            ] }
        ] });
        let outputs = [Output { name: "HEADLESS-1".into(), active: true, primary: false }];
        let state = fold(Kind::Sway, &serde_json::from_value(tree).unwrap(), &outputs, None, None, &mut |_| None);
        assert_eq!(state.monitors.len(), 1);
        let names: Vec<&str> = state.monitors[0].workspaces.iter().map(|w| w.name.as_str()).collect();
        assert_eq!(names, ["alpha", "beta"]);
        assert_eq!(state.monitors[0].focused_workspace, 1);
        let beta = &state.monitors[0].workspaces[1];
        assert_eq!(
            (beta.containers[0].windows[0].title.as_str(), beta.containers[0].windows[0].exe.as_str()),
            ("nvim", "foot")
        );
        assert_eq!(beta.focused_container, Some(0));
    }

    #[test]
    fn floating_fullscreen_and_urgent_are_read() {
        let state = fold_tree(None);
        let three = &state.monitors[0].workspaces[1];
        assert_eq!(three.floating_windows.len(), 1);
        assert_eq!(three.layer, Layer::Floating, "focus is on the floating window");
        assert_eq!(three.focused_floating_window, Some(0));
        assert_eq!(three.monocle.as_ref().unwrap().windows[0].title, "f");
        assert!(three.urgent);
        assert_eq!(three.containers.len(), 1);
        assert_eq!(three.focused_container, None);
    }
}

//! A bar's accessibility tree, made from what it shows: the bar a window
//! named after it; its items in reading order, each a button when it takes
//! a click and a label otherwise; a run of one widget's items whose keys
//! share a prefix (`workspace:0`, `workspace:1` …) a list, its selected
//! item selected; the open popup a dialog of its lines and grids, its
//! sliders with their value; and, while something asks for attention, a
//! live line that names it, which screen readers read out as it changes.
//!
//! Each node keeps its id while what it stands for is shown (the id is
//! the item's widget and key), so a change updates the nodes it touched;
//! only those are sent, unless the adapter asks for the whole tree.

use super::names;
use crate::render::{Layout, PlacedCell, PlacedItem, PopupLayout, Rect, Scene};
use crate::view::popup::{Block, Content, Popup, PopupInput};
use crate::view::{Emphasis, Input};
use accesskit::{Action, Live, Node, NodeId, Role, TreeId, TreeInfo, TreeUpdate};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The bar's window.
pub const ROOT: NodeId = NodeId(1);
/// The open popup.
const POPUP: NodeId = NodeId(2);
/// The live line naming what asks for attention.
const ATTENTION: NodeId = NodeId(3);

/// What a node stands for, for the actions asked of it.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// An item of the bar: its widget's index in the scene, and its key.
    Item { widget: usize, key: String },
    /// A cell of the open popup, by its key.
    Cell { key: String },
}

/// What the bar shows, as the tree is made from it.
pub struct Shown<'a> {
    /// The bar's name: `Obi — bar on HDMI-1`.
    pub title: &'a str,
    pub scene: &'a Scene,
    pub layout: &'a Layout,
    /// The open popup: its widget's index in the scene, and the popup as laid out.
    pub popup: Option<(usize, &'a Popup, &'a PopupLayout)>,
    /// What the keyboard (or assistive technology) is on.
    pub focus: Option<&'a Target>,
    /// Device pixels per logical pixel: the platform places nodes in device pixels.
    pub scale: f32,
}

impl Shown<'_> {
    /// The name of the scene's widget `index`. A layout made before a
    /// reload may name a widget the new scene has not, until the next frame.
    fn widget_name(&self, index: usize) -> &str {
        self.scene.widgets.get(index).map_or("", |widget| widget.name.as_str())
    }
}

/// The tree as last sent, and what its nodes stand for.
#[derive(Debug, Default)]
pub struct AccessTree {
    sent: HashMap<NodeId, Node>,
    targets: HashMap<NodeId, Target>,
    /// Set by the adapter (on its thread) when it asks for the whole tree:
    /// assistive technology started listening, again or for the first time.
    whole_wanted: Arc<AtomicBool>,
}

impl AccessTree {
    /// Where the adapter says that it wants the whole tree next.
    pub fn whole_wanted(&self) -> Arc<AtomicBool> {
        self.whole_wanted.clone()
    }

    /// What node `id` stands for, as last sent.
    pub fn target(&self, id: NodeId) -> Option<&Target> {
        self.targets.get(&id)
    }

    /// The id of the node standing for `target`, when one was sent.
    pub fn node_of(&self, target: &Target) -> Option<NodeId> {
        self.targets.iter().find(|(_, standing)| *standing == target).map(|(id, _)| *id)
    }

    /// The update that brings the platform's tree to `shown`: the nodes
    /// that changed since the last, or all of them when the adapter asked
    /// for the whole tree.
    pub fn update(&mut self, shown: &Shown) -> TreeUpdate {
        let mut made = Made { nodes: Vec::new(), targets: HashMap::new(), scale: shown.scale };
        let root = made.root(shown);
        made.nodes.push((ROOT, root));
        let whole = self.whole_wanted.swap(false, Ordering::SeqCst) || self.sent.is_empty();
        let nodes: Vec<(NodeId, Node)> = match whole {
            true => made.nodes.clone(),
            false => made.nodes.iter().filter(|(id, node)| self.sent.get(id) != Some(node)).cloned().collect(),
        };
        self.sent = made.nodes.into_iter().collect();
        self.targets = made.targets;
        let focus = shown.focus.and_then(|focus| self.node_of(focus));
        let toolkit = || TreeInfo {
            root: ROOT,
            toolkit_name: Some("Obi".into()),
            toolkit_version: Some(env!("CARGO_PKG_VERSION").into()),
        };
        TreeUpdate { nodes, tree: whole.then(toolkit), tree_id: TreeId::ROOT, focus: focus.unwrap_or(ROOT) }
    }
}

/// The nodes of one update, as they are made.
struct Made {
    nodes: Vec<(NodeId, Node)>,
    targets: HashMap<NodeId, Target>,
    scale: f32,
}

impl Made {
    fn root(&mut self, shown: &Shown) -> Node {
        let mut root = Node::new(Role::Window);
        root.set_label(shown.title);
        root.set_bounds(self.bounds(shown.layout.window));
        let items = &shown.layout.items;
        let mut children = Vec::new();
        let mut start = 0;
        while start < items.len() {
            let first = &items[start];
            let name = shown.widget_name(first.widget);
            let Some(prefix) = list_prefix(&first.item.key) else {
                children.push(self.item(name, first, false));
                start += 1;
                continue;
            };
            let same_list =
                |placed: &&PlacedItem| placed.widget == first.widget && list_prefix(&placed.item.key) == Some(prefix);
            let end = start + items[start..].iter().take_while(same_list).count();
            children.push(self.list(name, prefix, &items[start..end]));
            start = end;
        }
        if let Some((widget, popup, layout)) = shown.popup {
            children.push(self.popup(shown.widget_name(widget), popup, layout));
        }
        if let Some(attention) = attention(shown) {
            let mut line = Node::new(Role::Status);
            line.set_label(attention);
            line.set_live(Live::Polite);
            self.nodes.push((ATTENTION, line));
            children.push(ATTENTION);
        }
        root.set_children(children);
        root
    }

    /// The list of `items` of widget `widget`, whose keys begin with
    /// `prefix:`; named after its first item, as one widget may have two
    /// runs of one prefix.
    fn list(&mut self, widget: &str, prefix: &str, items: &[PlacedItem]) -> NodeId {
        let id = id_of(&("list", items[0].widget, &items[0].item.key));
        let mut list = Node::new(Role::List);
        list.set_label(names::list_name(prefix));
        let children: Vec<NodeId> = items.iter().map(|placed| self.item(widget, placed, true)).collect();
        list.set_children(children);
        let around = items.iter().map(|placed| placed.rect).reduce(|all, rect| all.union(&rect));
        if let Some(around) = around {
            list.set_bounds(self.bounds(around));
        }
        self.nodes.push((id, list));
        id
    }

    /// The node of an item of widget `widget`, alone or in a list.
    fn item(&mut self, widget: &str, placed: &PlacedItem, in_list: bool) -> NodeId {
        let item = &placed.item;
        let id = id_of(&("item", placed.widget, &item.key));
        let name = names::item_name(widget, item, in_list);
        let mut node = match item.takes.takes_a_click() {
            true => Node::new(Role::Button),
            false => Node::new(Role::Label),
        };
        match node.role() {
            // A label's name is its value, on every platform AccessKit serves.
            Role::Label => node.set_value(name),
            _ => node.set_label(name),
        }
        if let Some(description) = description(item.emphasis, item.tooltip.as_deref()) {
            node.set_description(description);
        }
        if in_list || item.emphasis == Emphasis::Selected {
            node.set_selected(item.emphasis == Emphasis::Selected);
        }
        // A button's click is its primary click, or the click it takes
        // (AT-SPI offers one action alone: a date that opens its calendar
        // on a secondary click is opened by it).
        if item.takes.takes_a_click() {
            node.add_action(Action::Click);
            node.add_action(Action::Focus);
        }
        if item.takes.takes(Input::SecondaryClick) {
            node.add_action(Action::ShowContextMenu);
        }
        node.set_bounds(self.bounds(placed.rect));
        self.nodes.push((id, node));
        self.targets.insert(id, Target::Item { widget: placed.widget, key: item.key.clone() });
        id
    }

    /// The open popup of widget `widget`: a dialog of its lines, and of its
    /// grids' rows. It is a window of its own on the screen, so its nodes
    /// have no place within the bar's.
    fn popup(&mut self, widget: &str, popup: &Popup, layout: &PopupLayout) -> NodeId {
        let mut dialog = Node::new(Role::Dialog);
        dialog.set_label(widget);
        let mut cells = layout.cells.iter().enumerate();
        let mut children = Vec::new();
        for (index, block) in popup.blocks.iter().enumerate() {
            match block {
                Block::Line(_) => children.extend(cells.next().map(|(at, placed)| self.cell(widget, at, placed))),
                Block::Grid(rows) => {
                    let mut grid = Node::new(Role::Group);
                    let mut grid_rows = Vec::new();
                    for (row_index, row) in rows.iter().enumerate() {
                        let mut row_node = Node::new(Role::Group);
                        let row_cells =
                            cells.by_ref().take(row.len()).map(|(at, placed)| self.cell(widget, at, placed));
                        row_node.set_children(row_cells.collect::<Vec<_>>());
                        let row_id = id_of(&("row", index, row_index));
                        self.nodes.push((row_id, row_node));
                        grid_rows.push(row_id);
                    }
                    grid.set_children(grid_rows);
                    let grid_id = id_of(&("grid", index));
                    self.nodes.push((grid_id, grid));
                    children.push(grid_id);
                }
                Block::Separator => {}
            }
        }
        dialog.set_children(children);
        self.nodes.push((POPUP, dialog));
        POPUP
    }

    /// The cell `at` of the popup: a slider with its value, a button when a
    /// click reaches it, else a label.
    fn cell(&mut self, widget: &str, at: usize, placed: &PlacedCell) -> NodeId {
        let cell = &placed.cell;
        let id = id_of(&("cell", at, &cell.key));
        let clickable = cell.answers(PopupInput::Input(Input::PrimaryClick));
        let mut node = match &cell.content {
            Content::Slider(value) => {
                let mut slider = Node::new(Role::Slider);
                slider.set_label(widget);
                slider.set_numeric_value(f64::from(*value));
                slider.set_min_numeric_value(0.0);
                slider.set_max_numeric_value(100.0);
                slider.set_numeric_value_step(1.0);
                if cell.answers(PopupInput::Slide(0)) {
                    slider.add_action(Action::SetValue);
                }
                slider
            }
            Content::Label(pieces) | Content::Button(pieces) if clickable => {
                let mut button = Node::new(Role::Button);
                button.set_label(names::cell_name(cell, pieces));
                button.add_action(Action::Click);
                button
            }
            Content::Label(pieces) | Content::Button(pieces) => {
                let mut label = Node::new(Role::Label);
                label.set_value(names::cell_name(cell, pieces));
                label
            }
        };
        if cell.emphasis == Emphasis::Selected {
            node.set_selected(true);
        }
        if !cell.key.is_empty() && (clickable || cell.answers(PopupInput::Slide(0))) {
            node.add_action(Action::Focus);
            self.targets.insert(id, Target::Cell { key: cell.key.clone() });
        }
        self.nodes.push((id, node));
        id
    }

    /// `rect`, in the logical pixels of the bar, in the device pixels the
    /// platform places nodes in.
    fn bounds(&self, rect: Rect) -> accesskit::Rect {
        let device = rect.scaled(self.scale);
        let (x0, y0, x1, y1) = (device.x, device.y, device.right(), device.bottom());
        accesskit::Rect::new(x0.into(), y0.into(), x1.into(), y1.into())
    }
}

/// The prefix of an item key that puts it in a list (`workspace` of
/// `workspace:3`).
fn list_prefix(key: &str) -> Option<&str> {
    key.split_once(':').map(|(prefix, _)| prefix).filter(|prefix| !prefix.is_empty())
}

/// What a screen reader says after an item's name: that it asks for
/// attention (no platform has a state for it), and its tooltip.
fn description(emphasis: Emphasis, tooltip: Option<&str>) -> Option<String> {
    let tooltip = tooltip.map(str::trim).filter(|tooltip| !tooltip.is_empty());
    match (emphasis == Emphasis::Urgent, tooltip) {
        (true, Some(tooltip)) => Some(format!("Urgent. {tooltip}")),
        (true, None) => Some("Urgent".to_owned()),
        (false, tooltip) => tooltip.map(str::to_owned),
    }
}

/// What asks for attention now, as one line (`Needs attention: 3,
/// Battery`); none while nothing does: an urgent item, and an item on its
/// own that is selected (a battery under `auto_select_under`, an update
/// found), unless its widget's popup is open (a selected item is then the
/// one that opened it). A list's item is named, and an item on its own by
/// its widget alone, so that the line changes, and is read out, when
/// something else comes to ask, not at each new reading.
fn attention(shown: &Shown) -> Option<String> {
    let open = shown.popup.map(|(widget, _, _)| widget);
    let mut asking: Vec<String> = Vec::new();
    for placed in &shown.layout.items {
        let in_list = list_prefix(&placed.item.key).is_some();
        let selected_alone = placed.item.emphasis == Emphasis::Selected && !in_list && open != Some(placed.widget);
        if placed.item.emphasis != Emphasis::Urgent && !selected_alone {
            continue;
        }
        let widget = shown.widget_name(placed.widget);
        let name = if in_list { names::item_name(widget, &placed.item, true) } else { widget.to_owned() };
        if !asking.contains(&name) {
            asking.push(name);
        }
    }
    (!asking.is_empty()).then(|| format!("Needs attention: {}", asking.join(", ")))
}

/// The id of what `what` names, kept while it is shown; past the three
/// fixed ones above.
fn id_of(what: &impl Hash) -> NodeId {
    let mut hasher = DefaultHasher::new();
    what.hash(&mut hasher);
    NodeId(hasher.finish() | 1 << 63)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{BarConfig, Side};
    use crate::render::{SceneWidget, Style, lay_out, lay_out_popup};
    use crate::view::popup::Cell;
    use crate::view::{Inputs, Item, Piece, View, WidgetState};

    fn item(key: &str, pieces: Vec<Piece>, emphasis: Emphasis, takes: Inputs) -> Item {
        Item { key: key.into(), pieces, emphasis, takes, tooltip: None, look: None }
    }

    fn text(text: &str) -> Vec<Piece> {
        vec![Piece::Text(text.into())]
    }

    fn widget(name: &str, items: Vec<Item>) -> SceneWidget {
        SceneWidget { side: Side::Left, name: name.into(), state: WidgetState::Ready(View::of(items)) }
    }

    /// Workspaces 1 (focused) and 2, an icon-only CPU reading, a clock.
    fn scene(second_urgent: bool) -> Scene {
        let second = if second_urgent { Emphasis::Urgent } else { Emphasis::Normal };
        let workspaces = widget(
            "Komorebi",
            vec![
                item("workspace:0", text("1"), Emphasis::Selected, Inputs::PRIMARY_CLICK),
                item("workspace:1", text("2"), second, Inputs::PRIMARY_CLICK),
                item("layout", text("BSP"), Emphasis::Normal, Inputs::PRIMARY_CLICK | Inputs::SECONDARY_CLICK),
            ],
        );
        let cpu =
            widget("Cpu", vec![item("cpu", vec![Piece::Icon("\u{e000}".into())], Emphasis::Normal, Inputs::NONE)]);
        let mut cpu = cpu;
        if let WidgetState::Ready(view) = &mut cpu.state {
            view.items[0].tooltip = Some("12%\nof 8 cores".into());
        }
        let clock = widget("Time", vec![item("time", text("12:00"), Emphasis::Normal, Inputs::NONE)]);
        Scene { style: Style::from_config(&BarConfig::embedded_default()), widgets: vec![workspaces, cpu, clock] }
    }

    fn laid_out(scene: &Scene) -> Layout {
        lay_out(scene, 1000.0, 30.0, &mut |piece, _| (piece.clone(), 20.0))
    }

    fn shown<'a>(scene: &'a Scene, layout: &'a Layout) -> Shown<'a> {
        Shown { title: "Obi — bar on M0", scene, layout, popup: None, focus: None, scale: 2.0 }
    }

    /// The nodes of `update` by id.
    fn by_id(update: &TreeUpdate) -> HashMap<NodeId, Node> {
        update.nodes.iter().cloned().collect()
    }

    /// A node's name, as the platforms read it (a label's is its value).
    fn name(node: &Node) -> String {
        node.label().or(node.value()).unwrap_or_default().to_owned()
    }

    #[test]
    fn the_bar_is_a_window_of_its_items_in_order_and_a_keyed_run_is_a_list() {
        let scene = scene(false);
        let layout = laid_out(&scene);
        let mut tree = AccessTree::default();
        let update = tree.update(&shown(&scene, &layout));
        assert_eq!(update.tree.as_ref().map(|tree| tree.root), Some(ROOT), "the first update is the whole tree");
        assert_eq!(update.focus, ROOT);
        let nodes = by_id(&update);
        let root = &nodes[&ROOT];
        assert_eq!((root.role(), name(root).as_str()), (Role::Window, "Obi — bar on M0"));
        let children: Vec<(Role, String)> =
            root.children().iter().map(|id| (nodes[id].role(), name(&nodes[id]))).collect();
        assert_eq!(
            children,
            [
                (Role::List, "workspace".to_owned()),
                (Role::Button, "BSP".to_owned()),
                (Role::Label, "Cpu 12%".to_owned()),
                (Role::Label, "12:00".to_owned()),
            ]
        );
        let list = &nodes[&root.children()[0]];
        let workspaces: Vec<(Role, String, Option<bool>)> =
            list.children().iter().map(|id| (nodes[id].role(), name(&nodes[id]), nodes[id].is_selected())).collect();
        assert_eq!(
            workspaces,
            [(Role::Button, "1".to_owned(), Some(true)), (Role::Button, "2".to_owned(), Some(false))],
            "the focused workspace is the selected one"
        );
        let cpu = &nodes[&root.children()[2]];
        assert_eq!(cpu.description(), Some("12%\nof 8 cores"), "the tooltip describes it");
        let layout_button = &nodes[&root.children()[1]];
        assert!(layout_button.supports_action(Action::Click) && layout_button.supports_action(Action::ShowContextMenu));
        assert!(!cpu.supports_action(Action::Click), "a label is not clicked");
        let bounds = layout_button.bounds().unwrap();
        assert_eq!(bounds.y1 - bounds.y0, 2.0 * f64::from(layout.items[2].rect.height), "placed in device pixels");

        let first = list.children()[0];
        assert_eq!(tree.target(first), Some(&Target::Item { widget: 0, key: "workspace:0".into() }));
        assert_eq!(tree.node_of(&Target::Item { widget: 0, key: "workspace:0".into() }), Some(first));
    }

    #[test]
    fn a_layout_made_before_a_reload_names_what_the_new_scene_lacks_by_nothing() {
        let before = scene(true);
        let layout = laid_out(&before);
        let mut after = scene(true);
        after.widgets.truncate(1);
        let nodes = by_id(&AccessTree::default().update(&shown(&after, &layout)));
        assert_eq!(nodes[&ROOT].children().len(), 5, "every item laid out is there until the next frame");
    }

    #[test]
    fn two_runs_of_one_prefix_are_two_lists() {
        let mut scene = scene(false);
        let WidgetState::Ready(view) = &mut scene.widgets[0].state else { unreachable!() };
        view.items.push(item("workspace:2", text("3"), Emphasis::Normal, Inputs::PRIMARY_CLICK));
        let layout = laid_out(&scene);
        let nodes = by_id(&AccessTree::default().update(&shown(&scene, &layout)));
        let lists: Vec<NodeId> =
            nodes[&ROOT].children().iter().copied().filter(|id| nodes[id].role() == Role::List).collect();
        assert_eq!(lists.len(), 2);
        assert_ne!(lists[0], lists[1], "each has its own id");
    }

    #[test]
    fn a_change_sends_the_nodes_it_touched_until_the_whole_tree_is_asked_for() {
        let mut scene = scene(false);
        let mut tree = AccessTree::default();
        let layout = laid_out(&scene);
        let all = tree.update(&shown(&scene, &layout)).nodes.len();
        assert!(tree.update(&shown(&scene, &layout)).nodes.is_empty(), "nothing changed, nothing is sent");

        if let WidgetState::Ready(view) = &mut scene.widgets[2].state {
            view.items[0].pieces = text("12:01");
        }
        let layout = laid_out(&scene);
        let update = tree.update(&shown(&scene, &layout));
        assert_eq!(update.tree, None);
        let names: Vec<String> = update.nodes.iter().map(|(_, node)| name(node)).collect();
        assert_eq!(names, ["12:01"], "the clock alone changed");

        tree.whole_wanted().store(true, Ordering::SeqCst);
        let update = tree.update(&shown(&scene, &layout));
        assert_eq!((update.nodes.len(), update.tree.is_some()), (all, true));
    }

    #[test]
    fn what_asks_for_attention_is_described_so_and_named_on_a_live_line() {
        let mut tree = AccessTree::default();
        let calm = scene(false);
        let layout = laid_out(&calm);
        assert!(!by_id(&tree.update(&shown(&calm, &layout))).contains_key(&ATTENTION));

        let urgent = scene(true);
        let layout = laid_out(&urgent);
        let nodes = by_id(&tree.update(&shown(&urgent, &layout)));
        let line = &nodes[&ATTENTION];
        assert_eq!((line.live(), name(line).as_str()), (Some(Live::Polite), "Needs attention: 2"));
        let second = tree.node_of(&Target::Item { widget: 0, key: "workspace:1".into() }).unwrap();
        assert_eq!(nodes[&second].description(), Some("Urgent"));

        // An item on its own that is selected (a low battery) is named by
        // its widget: its next reading changes nothing said.
        let mut low = scene(true);
        let reading = |scene: &mut Scene, text: &str| {
            let WidgetState::Ready(view) = &mut scene.widgets[1].state else { unreachable!() };
            view.items[0].emphasis = Emphasis::Selected;
            view.items[0].tooltip = Some(text.into());
        };
        reading(&mut low, "9%");
        let layout = laid_out(&low);
        let nodes = by_id(&tree.update(&shown(&low, &layout)));
        assert_eq!(name(&nodes[&ATTENTION]), "Needs attention: 2, Cpu");
        reading(&mut low, "8%");
        let layout = laid_out(&low);
        assert!(!by_id(&tree.update(&shown(&low, &layout))).contains_key(&ATTENTION), "the line is as it was");
        let popup = Popup { item_key: "cpu".into(), blocks: Vec::new() };
        let popup_layout = lay_out_popup(&popup, &low.style, &mut |piece| (piece.clone(), 40.0));
        let opened = Shown { popup: Some((1, &popup, &popup_layout)), ..shown(&low, &layout) };
        let nodes = by_id(&tree.update(&opened));
        assert_eq!(name(&nodes[&ATTENTION]), "Needs attention: 2", "selected as its popup is open");

        let layout = laid_out(&calm);
        let nodes = by_id(&tree.update(&shown(&calm, &layout)));
        assert!(!nodes[&ROOT].children().contains(&ATTENTION), "the line goes once nothing asks");
    }

    #[test]
    fn a_popup_is_a_dialog_of_its_cells_with_its_sliders_value() {
        let scene = scene(false);
        let layout = laid_out(&scene);
        let slider = Cell { key: "level".into(), content: Content::Slider(40), ..Cell::label(Vec::new()) };
        let mute = Cell { key: "mute".into(), content: Content::Button(text("Mute")), ..Cell::label(Vec::new()) };
        let days = vec![vec![Cell::label(text("Mo")), Cell::label(text("Tu"))]];
        let popup = Popup {
            item_key: "layout".into(),
            blocks: vec![
                Block::Line(Cell::label(text("November 2026"))),
                Block::Grid(days),
                Block::Line(slider),
                Block::Line(mute),
            ],
        };
        let popup_layout = lay_out_popup(&popup, &scene.style, &mut |piece| (piece.clone(), 40.0));
        let mut tree = AccessTree::default();
        let update = tree.update(&Shown { popup: Some((0, &popup, &popup_layout)), ..shown(&scene, &layout) });
        let nodes = by_id(&update);
        let dialog = &nodes[&POPUP];
        assert_eq!((dialog.role(), name(dialog).as_str()), (Role::Dialog, "Komorebi"));
        let children: Vec<(Role, String)> =
            dialog.children().iter().map(|id| (nodes[id].role(), name(&nodes[id]))).collect();
        assert_eq!(
            children,
            [
                (Role::Label, "November 2026".to_owned()),
                (Role::Group, String::new()),
                (Role::Slider, "Komorebi".to_owned()),
                (Role::Button, "Mute".to_owned()),
            ]
        );
        let level = &nodes[&dialog.children()[2]];
        assert_eq!((level.numeric_value(), level.max_numeric_value()), (Some(40.0), Some(100.0)));
        assert!(level.supports_action(Action::SetValue));
        assert_eq!(tree.target(dialog.children()[2]), Some(&Target::Cell { key: "level".into() }));
        assert_eq!(tree.target(dialog.children()[0]), None, "a label takes nothing");
        let mute = Target::Cell { key: "mute".into() };
        let focused = tree.update(&Shown {
            popup: Some((0, &popup, &popup_layout)),
            focus: Some(&mute),
            ..shown(&scene, &layout)
        });
        assert_eq!(focused.focus, dialog.children()[3], "the focus is on the cell named");
        assert!(focused.nodes.is_empty(), "and nothing else changed");
        let row = &nodes[&nodes[&dialog.children()[1]].children()[0]];
        let days: Vec<String> = row.children().iter().map(|id| name(&nodes[id])).collect();
        assert_eq!(days, ["Mo", "Tu"]);
    }
}

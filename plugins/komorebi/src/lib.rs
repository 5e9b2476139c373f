//! # Komorebi
//!
//! The tiling window manager on the bar's monitor (komorebi, or i3 and
//! sway): its workspaces, the binding mode, the focused workspace's
//! layout, the focused container's windows, whether it is locked, the
//! workspace layer, and a switcher between komorebi configurations. Seven
//! parts, each with its own `enable`; the widget shows nothing when none is
//! enabled. It reads the host's `tiler` capability, which wakes it on every
//! change: no interval.
//!
//! | part | key | values | default |
//! |---|---|---|---|
//! | `workspaces` | `enable`, `hide_empty_workspaces` | `true` / `false` | required |
//! | | `display` | `AllIcons`, `AllIconsAndText`, `AllIconsAndTextOnSelected`, or a display format | `Text` |
//! | | `strip` (Obi's own) | `Numbers` (`1:web` shows `web`), `Names` (it shows `1`), as i3bar's `strip_workspace_numbers` and `strip_workspace_name` | the whole name |
//! | | `colours` (Obi's own) | `focused`, `active` (shown on a monitor not focused), `inactive`, `urgent`: each `{ "border", "background", "text" }` (`#rrggbb` or `#rrggbbaa`), a button as i3bar draws it | the theme's |
//! | `layout` | `enable` | `true` / `false` | required |
//! | | `options` | the layouts to choose from: `BSP` ... `Scrolling`, `Monocle`, `Floating`, `Paused` | all of them (on i3 and sway: `Columns`, `Rows`, `Monocle`, which mean something there) |
//! | | `display` | a display format | `IconAndText` |
//! | `focused_container` (older: `focused_window`) | `enable` | `true` / `false` | required |
//! | | `display` | a display format | `IconAndText` (`Text` with `show_icon: false`) |
//! | `locked_container` | `enable`, `show_when_unlocked` | `true` / `false` | `show_when_unlocked`: `false` |
//! | | `display` | a display format | `IconAndText` |
//! | `workspace_layer` | `enable`, `show_when_tiling` | `true` / `false` | `show_when_tiling`: `false` |
//! | | `display` | a display format | `IconAndText` |
//! | `configuration_switcher` | `enable`, `configurations` | name → path of a komorebi configuration | required |
//! | `binding_mode` (Obi's own) | `enable` | `true` / `false` | as `workspaces` |
//! | | `display` | a display format | `Text` |
//! | | `colours` | `{ "border", "background", "text" }`, a button as i3bar draws it | the theme's urgent ones |
//!
//! The display formats: `Icon`, `Text`, `IconAndText`, `IconAndTextOnSelected`
//! (the selected one with its text, the others with their icon alone) and
//! `TextAndIconOnSelected` (the selected one with its icon, the others with
//! their text alone). A workspace's icon is its focused window's; `AllIcons`
//! shows one icon for each container (the window it shows), each floating
//! window and the monocle. An empty workspace shows its name.
//!
//! The focused workspace is selected, an urgent one drawn urgent, an empty
//! one muted. The binding mode (i3's and sway's `mode`, Hyprland's
//! submap) shows after the workspaces, drawn urgent as i3bar draws it,
//! while one other than the default is on.
//!
//! Clicks: a workspace is focused (by its real index, also while
//! empty ones are hidden); the layout opens a popup of the `options` to
//! choose from (the current one selected), and a second click closes it; a
//! right click or a scroll cycles the layouts; choosing `Monocle`,
//! `Floating` or `Paused` toggles the monocle, tiling or pausing, as
//! komorebi-bar does, and `Custom` does nothing; a window of a stack is
//! focused; the lock and the layer are toggled; a configuration is loaded
//! with `ReplaceConfiguration`. Each message is sent with
//! mouse-follows-focus off for its length, as komorebi-bar sends it.
//! Without a tiler the widget shows a muted plug, saying why on hover.
//!
//! What the tiler lists is shown within a view's limits: a workspace's
//! first 31 icons, a stack's first 32 windows, the workspaces the rest of
//! the view leaves room for; the focused one always among them.
//!
//! ```json
//! { "Komorebi": {
//!     "workspaces": { "enable": true, "hide_empty_workspaces": true, "display": "AllIconsAndTextOnSelected" },
//!     "layout": { "enable": true, "options": ["BSP", "Columns", "Monocle"] },
//!     "focused_container": { "enable": true, "display": "IconAndTextOnSelected" },
//!     "configuration_switcher": { "enable": true, "configurations": { "Work": "~/work.json" } } } }
//! ```

use obi_sdk::config::{
    ButtonColours, DefaultLayout, DisplayFormat as Display, KomorebiConfig as Config, SpecialLayout, WorkspaceColours,
    WorkspaceStrip, WorkspacesDisplayFormat as WorkspacesDisplay, WorkspacesOnlyFormat as AllFormat,
};
use obi_sdk::limits;
use obi_sdk::log::{self, Level};
use obi_sdk::tiler::{self, Container, Kind, Layer, Monitor, State, TilerStatus, Window, Workspace};
use obi_sdk::tiler_mode;
use obi_sdk::{
    Align, Border, Emphasis, Input, Inputs, Item, ItemBuilder, Look, Piece, Popup, PopupInput, Schedule,
    ScrollDirection, Sides, View, Widget, cell, icons, item,
};

/// Whether something `selected` or not shows its icon, and its text.
fn shows(display: Display, selected: bool) -> (bool, bool) {
    match display {
        Display::Icon => (true, false),
        Display::Text => (false, true),
        Display::IconAndText => (true, true),
        Display::IconAndTextOnSelected => (true, selected),
        Display::TextAndIconOnSelected => (selected, true),
    }
}

/// The layouts of komorebi's messages that i3 and sway carry out.
const I3_LAYOUTS: [&str; 3] = ["Columns", "Rows", "Monocle"];

/// komorebi's layouts, then the three states its layout widget toggles.
fn all_layouts() -> Vec<&'static str> {
    let toggled = [SpecialLayout::Monocle, SpecialLayout::Floating, SpecialLayout::Paused];
    DefaultLayout::ALL.iter().map(|layout| layout.name()).chain(toggled.iter().map(|layout| layout.name())).collect()
}

/// How the workspaces show.
struct WorkspacesPart {
    hide_empty: bool,
    display: WorkspacesDisplay,
    /// What of their names.
    strip: Option<WorkspaceStrip>,
    colours: WorkspaceColours,
}

pub struct Komorebi {
    workspaces: Option<WorkspacesPart>,
    /// The layouts to choose from (none: the tiler's own set), and how to show them.
    layout: Option<(Option<Vec<String>>, Display)>,
    focused_container: Option<Display>,
    locked_container: Option<(bool, Display)>,
    workspace_layer: Option<(bool, Display)>,
    configurations: Vec<(String, String)>,
    /// How the binding mode shows, when it does, and in what colours.
    binding_mode: Option<(Display, Option<Look>)>,
    /// The popup of layouts to choose from is open.
    choosing_layout: bool,
    /// The state as last read, for input.
    last: Option<State>,
}

impl Widget for Komorebi {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let enabled = |display: Option<Display>, enable: bool| enable.then(|| display.unwrap_or(Display::IconAndText));
        let focused = config.focused_container().cloned();
        let binding_mode = config.shows_binding_mode().then(|| {
            let part = config.binding_mode.as_ref();
            let look = part.and_then(|part| part.colours.as_ref()).map(button_look);
            (part.and_then(|part| part.display).unwrap_or(Display::Text), look)
        });
        let widget = Komorebi {
            workspaces: config.workspaces.filter(|part| part.enable).map(|part| WorkspacesPart {
                hide_empty: part.hide_empty_workspaces.unwrap_or(false),
                display: part.display.unwrap_or(WorkspacesDisplay::Existing(Display::Text)),
                strip: part.strip,
                colours: part.colours.unwrap_or_default(),
            }),
            layout: config.layout.filter(|part| part.enable).map(|part| {
                let options =
                    part.options.map(|options| options.iter().map(|option| option.name().to_owned()).collect());
                (options, part.display.unwrap_or(Display::IconAndText))
            }),
            focused_container: focused.filter(|part| part.enable).map(|part| {
                let fallback = if part.show_icon.unwrap_or(true) { Display::IconAndText } else { Display::Text };
                part.display.unwrap_or(fallback)
            }),
            locked_container: config
                .locked_container
                .and_then(|part| Some((part.show_when_unlocked.unwrap_or(false), enabled(part.display, part.enable)?))),
            workspace_layer: config
                .workspace_layer
                .and_then(|part| Some((part.show_when_tiling.unwrap_or(false), enabled(part.display, part.enable)?))),
            configurations: config
                .configuration_switcher
                .filter(|part| part.enable)
                .map(|part| part.configurations.into_iter().collect())
                .unwrap_or_default(),
            binding_mode,
            choosing_layout: false,
            last: None,
        };
        // The tiler wakes the widget when its state changes: no interval.
        Ok((widget, Schedule { interval_ms: 0, align_to_wall_clock: false }))
    }

    fn refresh(&mut self) -> View {
        if !self.any_part() {
            return View::empty();
        }
        let state = match tiler::status() {
            TilerStatus::Connected(state) => state,
            TilerStatus::Disconnected(why) => {
                self.last = None;
                return View::of([item("disconnected")
                    .icon(icons::PLUGS)
                    .emphasis(Emphasis::Muted)
                    .tooltip(format!("No tiler: {why}"))]);
            }
        };
        let mut items = Vec::new();
        if let Some(monitor) = bar_monitor(&state) {
            items.extend(self.binding_mode_item(&state));
            if let Some(workspace) = monitor.workspaces.get(monitor.focused_workspace as usize) {
                items.extend(self.layout_items(&state, workspace));
                items.extend(self.container_items(workspace));
                items.extend(self.lock_item(workspace));
                items.extend(self.layer_item(workspace));
            }
        }
        items.extend(self.configuration_items());
        // The workspaces come first, in the room the rest leaves them: a
        // tiler may have more than a view holds.
        if let Some(monitor) = bar_monitor(&state) {
            let room = limits::ITEMS.saturating_sub(items.len());
            let focused_here = state.bar_monitor.is_none_or(|bar| bar == state.focused_monitor);
            items.splice(0..0, self.workspace_items(monitor, focused_here, room));
        }
        self.last = Some(state);
        View::of(items)
    }

    fn on_input(&mut self, key: &str, input: Input) {
        if (key, input) == ("layout", Input::PrimaryClick) {
            self.choosing_layout = !self.choosing_layout;
            return;
        }
        let Some(state) = &self.last else { return };
        let (part, index) = key.split_once(':').unwrap_or((key, ""));
        let index = index.parse::<usize>().ok();
        let monitor = state.bar_monitor.unwrap_or(state.focused_monitor);
        let message = match (part, input) {
            ("workspace", Input::PrimaryClick) => index.map(|workspace| {
                format!(r#"{{"type":"FocusMonitorWorkspaceNumber","content":[{monitor},{workspace}]}}"#)
            }),
            ("layout", Input::SecondaryClick | Input::Scroll(ScrollDirection::Down)) => cycle("Next"),
            ("layout", Input::Scroll(ScrollDirection::Up)) => cycle("Previous"),
            ("window", Input::PrimaryClick) => {
                index.map(|window| format!(r#"{{"type":"FocusStackWindow","content":{window}}}"#))
            }
            ("lock", Input::PrimaryClick) => Some(r#"{"type":"ToggleLock"}"#.into()),
            ("layer", Input::PrimaryClick) => Some(r#"{"type":"ToggleWorkspaceLayer"}"#.into()),
            ("configuration", Input::PrimaryClick) => {
                index.and_then(|index| self.configurations.get(index)).map(|(_, path)| {
                    format!(r#"{{"type":"ReplaceConfiguration","content":{}}}"#, serde_json::Value::from(path.as_str()))
                })
            }
            _ => None,
        };
        if let Some(message) = message {
            send(message, state.mouse_follows_focus);
        }
    }

    /// The layouts to choose from, as komorebi-bar's picker lists them.
    fn popup(&mut self) -> Option<Popup> {
        let (_, display) = self.layout.as_ref().filter(|_| self.choosing_layout)?;
        let state = self.last.as_ref()?;
        let workspace = bar_monitor(state)?.workspaces.get(bar_monitor(state)?.focused_workspace as usize)?;
        let current = current_layout(state, workspace);
        let options = self.layout_options(state).into_iter().enumerate().map(|(index, option)| {
            let chosen = same_layout(option, &current);
            let (icon, text) = shows(*display, true);
            cell(format!("layout-option:{index}"))
                .maybe(icon.then(|| layout_icon(option)))
                .maybe((text || !icon).then(|| Piece::Text(option.into())))
                .selected(chosen)
                .takes(Inputs::PRIMARY_CLICK)
        });
        Some(options.fold(Popup::beside("layout"), Popup::line))
    }

    fn on_popup_input(&mut self, _item_key: &str, cell_key: &str, input: PopupInput) {
        let Some(state) = &self.last else { return };
        let index = cell_key.strip_prefix("layout-option:").and_then(|index| index.parse::<usize>().ok());
        if let (Some(index), PopupInput::Input(Input::PrimaryClick)) = (index, input) {
            self.choosing_layout = false;
            if let Some(message) = self.layout_options(state).get(index).copied().and_then(choose) {
                send(message, state.mouse_follows_focus);
            }
        }
    }

    fn on_popup_closed(&mut self, _item_key: &str) {
        self.choosing_layout = false;
    }
}

impl Komorebi {
    fn any_part(&self) -> bool {
        self.workspaces.is_some()
            || self.layout.is_some()
            || self.focused_container.is_some()
            || self.locked_container.is_some()
            || self.workspace_layer.is_some()
            || !self.configurations.is_empty()
            || self.binding_mode.is_some()
    }

    /// An item for each workspace shown, `room` at most (the focused one
    /// among them), on a monitor that is the focused one or not.
    fn workspace_items(&self, monitor: &Monitor, focused_here: bool, room: usize) -> Vec<Item> {
        let Some(WorkspacesPart { hide_empty, display, strip, colours }) = &self.workspaces else { return Vec::new() };
        let (hide_empty, display, strip) = (*hide_empty, *display, *strip);
        let focused = monitor.focused_workspace as usize;
        let shown: Vec<(usize, &Workspace)> = monitor
            .workspaces
            .iter()
            .enumerate()
            .filter(|(index, workspace)| !(hide_empty && is_empty(workspace) && *index != focused))
            .collect();
        within(shown, room, |(index, _)| *index == focused)
            .into_iter()
            .map(|(index, workspace)| {
                let selected = index == focused;
                let icons = match display {
                    WorkspacesDisplay::Workspaces(_) => all_icons(workspace),
                    _ => focused_icon(workspace).into_iter().collect(),
                };
                let (show_icons, show_text) = match display {
                    WorkspacesDisplay::Workspaces(AllFormat::AllIcons) => (true, false),
                    WorkspacesDisplay::Workspaces(AllFormat::AllIconsAndText) => (true, true),
                    WorkspacesDisplay::Workspaces(AllFormat::AllIconsAndTextOnSelected) => (true, selected),
                    WorkspacesDisplay::Existing(display) | WorkspacesDisplay::Wrapped { existing: display } => {
                        shows(display, selected)
                    }
                };
                // An item holds so many pieces; its text may take one.
                let shown_icons: Vec<Piece> = match show_icons {
                    true => icons.into_iter().take(limits::PIECES_PER_ITEM - 1).collect(),
                    false => Vec::new(),
                };
                // Something must show: a workspace without icons shows its name.
                let show_text = show_text || shown_icons.is_empty();
                let emphasis = if selected {
                    Emphasis::Selected
                } else if workspace.urgent {
                    Emphasis::Urgent
                } else if is_empty(workspace) {
                    Emphasis::Muted
                } else {
                    Emphasis::Normal
                };
                let mut workspace_item =
                    item(format!("workspace:{index}")).emphasis(emphasis).takes(Inputs::PRIMARY_CLICK);
                let state_colours = match (selected, focused_here) {
                    (true, true) => &colours.focused,
                    (true, false) => &colours.active,
                    _ if workspace.urgent => &colours.urgent,
                    _ => &colours.inactive,
                };
                if let Some(colours) = state_colours {
                    workspace_item = workspace_item.look(button_look(colours));
                }
                for icon in shown_icons {
                    workspace_item = workspace_item.maybe(Some(icon));
                }
                let name = strip.map_or(workspace.name.as_str(), |strip| strip.shown(&workspace.name));
                if show_text {
                    workspace_item = workspace_item.text(name);
                }
                if !show_text || name != workspace.name {
                    workspace_item = workspace_item.tooltip(&workspace.name);
                }
                workspace_item.build()
            })
            .collect()
    }

    /// The layouts to choose from: the configured ones, or those that mean
    /// something to this tiler.
    fn layout_options<'a>(&'a self, state: &State) -> Vec<&'a str> {
        match &self.layout {
            Some((Some(options), _)) => options.iter().map(String::as_str).collect(),
            Some((None, _)) if state.kind != Kind::Komorebi => I3_LAYOUTS.to_vec(),
            _ => all_layouts(),
        }
    }

    fn layout_items(&self, state: &State, workspace: &Workspace) -> Vec<Item> {
        let Some((_, display)) = &self.layout else { return Vec::new() };
        let current = current_layout(state, workspace);
        let (icon, text) = shows(*display, true);
        vec![
            labelled(item("layout"), layout_icon(&current), &current, icon, text)
                .takes(Inputs::PRIMARY_CLICK | Inputs::SECONDARY_CLICK | Inputs::SCROLL)
                .tooltip("Click to choose a layout; right-click or scroll to cycle through them")
                .build(),
        ]
    }

    fn container_items(&self, workspace: &Workspace) -> Vec<Item> {
        let Some(display) = self.focused_container else { return Vec::new() };
        let Some(container) = focused_windows(workspace) else { return Vec::new() };
        let stacked = container.windows.len() > 1;
        let focused = container.focused_window as usize;
        let windows: Vec<(usize, &Window)> = container.windows.iter().enumerate().collect();
        within(windows, STACK_SHOWN, |(index, _)| *index == focused)
            .into_iter()
            .map(|(index, window)| {
                let shown = index == container.focused_window as usize;
                let (icon, text) = shows(display, shown);
                let window_item = item(format!("window:{index}"))
                    .maybe(icon.then(|| window_icon(window)))
                    .maybe((text || !icon).then(|| Piece::Text(window.title.clone())))
                    .selected(stacked && shown)
                    .tooltip(&window.title);
                if stacked { window_item.takes(Inputs::PRIMARY_CLICK) } else { window_item }.build()
            })
            .collect()
    }

    /// The binding mode, drawn with the styles of its markup (i3's and
    /// sway's `--pango_markup` modes); the tooltip names it plain.
    fn binding_mode_item(&self, state: &State) -> Option<Item> {
        let ((display, look), mode) = (self.binding_mode.as_ref()?, state.mode.as_deref()?);
        let (icon, show_text) = shows(*display, true);
        let text = tiler_mode::mode_markup().map_or_else(|| Piece::Text(mode.into()), |mode| obi_sdk::markup(&mode));
        let item = item("mode")
            .maybe(icon.then(|| Piece::Icon(icons::KEYBOARD.into())))
            .maybe((show_text || !icon).then_some(text))
            .emphasis(Emphasis::Urgent)
            .tooltip(format!("Binding mode: {mode}"));
        Some(match look {
            Some(look) => item.look(look.clone()).build(),
            None => item.build(),
        })
    }

    fn lock_item(&self, workspace: &Workspace) -> Option<Item> {
        let (show_when_unlocked, display) = self.locked_container?;
        let locked = focused_container(workspace)?.locked;
        if !locked && !show_when_unlocked {
            return None;
        }
        let (glyph, text) = if locked { (icons::LOCK, "Locked") } else { (icons::LOCK_OPEN, "Unlocked") };
        let (icon, show_text) = shows(display, true);
        Some(
            labelled(item("lock"), Piece::Icon(glyph.into()), text, icon, show_text)
                .takes(Inputs::PRIMARY_CLICK)
                .build(),
        )
    }

    fn layer_item(&self, workspace: &Workspace) -> Option<Item> {
        let (show_when_tiling, display) = self.workspace_layer?;
        if workspace.layer == Layer::Tiling && !show_when_tiling {
            return None;
        }
        let (glyph, text) = match workspace.layer {
            Layer::Tiling => (icons::SQUARES_FOUR, "Tiling"),
            Layer::Floating => (icons::BROWSERS, "Floating"),
        };
        let (icon, show_text) = shows(display, true);
        Some(
            labelled(item("layer"), Piece::Icon(glyph.into()), text, icon, show_text)
                .takes(Inputs::PRIMARY_CLICK)
                .build(),
        )
    }

    fn configuration_items(&self) -> Vec<Item> {
        self.configurations
            .iter()
            .enumerate()
            .map(|(index, (name, path))| {
                item(format!("configuration:{index}"))
                    .icon(icons::FILE_CODE)
                    .text(name)
                    .takes(Inputs::PRIMARY_CLICK)
                    .tooltip(format!("Load {path}"))
                    .build()
            })
            .collect()
    }
}

/// The windows of a stack shown, at most (the focused one among them).
const STACK_SHOWN: usize = 32;

/// The first `room` of `all`, the last of them given up for the `chosen`
/// one when it comes later.
fn within<T>(mut all: Vec<T>, room: usize, chosen: impl Fn(&T) -> bool) -> Vec<T> {
    if all.len() <= room {
        return all;
    }
    match all.iter().position(chosen) {
        Some(at) if at >= room && room > 0 => {
            let kept = all.swap_remove(at);
            all.truncate(room - 1);
            all.push(kept);
        }
        _ => all.truncate(room),
    }
    all
}

/// An item showing `icon` and/or `text`; at least one of them.
fn labelled(builder: ItemBuilder, icon: Piece, text: &str, show_icon: bool, show_text: bool) -> ItemBuilder {
    builder.maybe(show_icon.then_some(icon)).maybe((show_text || !show_icon).then(|| Piece::Text(text.into())))
}

/// The monitor the bar is on, or the focused one when the tiler does not know.
/// A button in `colours`, as i3bar draws its workspaces and binding mode:
/// a one-pixel border, its fill, its text, a little room inside.
fn button_look(colours: &ButtonColours) -> Look {
    let colour = |hex: &Option<String>| hex.as_deref().and_then(obi_sdk::hex_colour);
    let widths = Sides { top: 1, right: 1, bottom: 1, left: 1 };
    Look {
        colour: colour(&colours.text),
        background: colour(&colours.background),
        border: colour(&colours.border).map(|colour| Border { colour, widths }),
        least_width: None,
        padding: BUTTON_PADDING,
        align: Align::Center,
        room_after: None,
        separator: false,
        short: None,
    }
}

/// The room inside a coloured button, left and right of its text.
const BUTTON_PADDING: u16 = 5;

fn bar_monitor(state: &State) -> Option<&Monitor> {
    state.monitors.get(state.bar_monitor.unwrap_or(state.focused_monitor) as usize)
}

fn is_empty(workspace: &Workspace) -> bool {
    workspace.containers.is_empty() && workspace.monocle.is_none() && workspace.floating_windows.is_empty()
}

/// The container that has focus: the monocle when there is one.
fn focused_container(workspace: &Workspace) -> Option<&Container> {
    workspace
        .monocle
        .as_ref()
        .or_else(|| workspace.focused_container.and_then(|index| workspace.containers.get(index as usize)))
}

/// The windows the focused container part shows: the focused container's,
/// or the floating window that has focus, alone.
fn focused_windows(workspace: &Workspace) -> Option<Container> {
    let floating = workspace.focused_floating_window.and_then(|index| workspace.floating_windows.get(index as usize));
    match floating {
        Some(window) if workspace.layer == Layer::Floating => {
            Some(Container { windows: vec![window.clone()], focused_window: 0, locked: false })
        }
        _ => focused_container(workspace).cloned(),
    }
}

fn shown_window(container: &Container) -> Option<&Window> {
    container.windows.get(container.focused_window as usize).or(container.windows.first())
}

/// The icon of the window a workspace shows focused.
fn focused_icon(workspace: &Workspace) -> Option<Piece> {
    focused_container(workspace).or(workspace.containers.first()).and_then(shown_window).map(window_icon)
}

/// One icon for each container (the window it shows), the monocle, and each floating window.
fn all_icons(workspace: &Workspace) -> Vec<Piece> {
    let containers = workspace.monocle.iter().chain(&workspace.containers).filter_map(shown_window);
    containers.chain(&workspace.floating_windows).map(window_icon).collect()
}

/// The window's own icon, or the app-window glyph when the host has none.
fn window_icon(window: &Window) -> Piece {
    match window.icon {
        Some(handle) => Piece::HeldImage(handle),
        None => Piece::Icon(icons::APP_WINDOW.into()),
    }
}

/// What the layout part shows, as komorebi-bar decides it: paused, then
/// tiling off, then monocle, then the layout's own name.
fn current_layout(state: &State, workspace: &Workspace) -> String {
    if state.paused {
        "Paused".into()
    } else if !workspace.tiling {
        "Floating".into()
    } else if workspace.monocle.is_some() {
        "Monocle".into()
    } else {
        workspace.layout.clone()
    }
}

/// Whether choosing `option` would give `current`: i3 names komorebi's
/// columns and rows its own way.
fn same_layout(option: &str, current: &str) -> bool {
    matches!((option, current), ("Columns", "splith") | ("Rows", "splitv")) || option == current
}

fn layout_icon(layout: &str) -> Piece {
    let glyph = match layout {
        "BSP" => icons::SQUARES_FOUR,
        "Columns" | "splith" => icons::COLUMNS,
        "Rows" | "splitv" => icons::ROWS,
        "VerticalStack" => icons::SQUARE_SPLIT_HORIZONTAL,
        "HorizontalStack" => icons::SQUARE_SPLIT_VERTICAL,
        "UltrawideVerticalStack" => icons::SPLIT_HORIZONTAL,
        "RightMainVerticalStack" => icons::SIDEBAR_SIMPLE,
        "Grid" => icons::GRID_NINE,
        "Scrolling" => icons::CARDS,
        "Monocle" => icons::SQUARE,
        "Floating" => icons::BROWSERS,
        "Paused" => icons::PAUSE,
        "tabbed" => icons::TABS,
        "stacked" => icons::STACK,
        _ => icons::LAYOUT,
    };
    Piece::Icon(glyph.into())
}

fn cycle(direction: &str) -> Option<String> {
    Some(format!(r#"{{"type":"CycleLayout","content":"{direction}"}}"#))
}

/// What choosing a layout does, as komorebi-bar's layout widget does it.
fn choose(layout: &str) -> Option<String> {
    match layout {
        "Monocle" => Some(r#"{"type":"ToggleMonocle"}"#.into()),
        "Floating" => Some(r#"{"type":"ToggleTiling"}"#.into()),
        "Paused" => Some(r#"{"type":"TogglePause"}"#.into()),
        "Custom" => None,
        layout => Some(format!(r#"{{"type":"ChangeLayout","content":"{layout}"}}"#)),
    }
}

/// Sends `message` with mouse-follows-focus off for its length.
fn send(message: String, mouse_follows_focus: bool) {
    let batch = [
        r#"{"type":"MouseFollowsFocus","content":false}"#.to_owned(),
        message,
        format!(r#"{{"type":"MouseFollowsFocus","content":{mouse_follows_focus}}}"#),
    ];
    if let Err(why) = tiler::send(&batch) {
        log::log(Level::Warn, &why);
    }
}

obi_sdk::export!(Komorebi);

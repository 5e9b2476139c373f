//! Between the host's models and the latest release's WIT types: the
//! tiler's state into what a widget reads, a widget's view into the
//! host's [`crate::view`] model, and inputs and schedules both ways.

use super::foreign;
use super::latest::obi::widget::{self as host, types as wit};
use crate::colour::Rgba;
use crate::runtime::Schedule;
use crate::tiler;
use crate::view::popup::{Block, Cell, Content, Popup, PopupInput};
use crate::view::{self, Input, Pointer, ScrollDirection, look};
use std::sync::Arc;

/// The tiler's state as a widget reads it, its windows cut to
/// [`view::limits::FOREIGN_WINDOWS`] (see [`Windows`]).
impl From<tiler::State> for host::tiler::State {
    fn from(state: tiler::State) -> host::tiler::State {
        use host::tiler::Kind;
        let index = |index: usize| index as u32;
        let mut room = Windows { left: view::limits::FOREIGN_WINDOWS };
        host::tiler::State {
            kind: match state.kind {
                tiler::Kind::Komorebi => Kind::Komorebi,
                tiler::Kind::I3 => Kind::I3,
                tiler::Kind::Sway => Kind::Sway,
                // The released WIT knows three kinds; Hyprland and niri are
                // told as the other Wayland tiler until a release names them.
                tiler::Kind::Hyprland | tiler::Kind::Niri => Kind::Sway,
            },
            monitors: state.monitors.into_iter().map(|monitor| room.monitor(monitor)).collect(),
            focused_monitor: index(state.focused_monitor),
            bar_monitor: state.bar_monitor.map(index),
            paused: state.paused,
            mouse_follows_focus: state.mouse_follows_focus,
            mode: state.mode.map(|markup| foreign(obi_markup::plain_text(&markup))),
        }
    }
}

/// Room for the windows a widget is handed. How many windows there are is
/// other programs' choice (one opening 70,000 took the workspaces widget
/// over its memory and its time at every change), and no view shows more
/// than [`view::limits::ITEMS`] of anything: a list of them keeps its first
/// ones and its focused one, and the state as many as the room holds in
/// all, each list that has windows keeping at least one, so no workspace
/// reads as empty that is not.
struct Windows {
    left: usize,
}

impl Windows {
    fn monitor(&mut self, monitor: tiler::Monitor) -> host::tiler::Monitor {
        host::tiler::Monitor {
            name: foreign(monitor.name),
            workspaces: monitor.workspaces.into_iter().map(|workspace| self.workspace(workspace)).collect(),
            focused_workspace: monitor.focused_workspace as u32,
        }
    }

    fn workspace(&mut self, workspace: tiler::Workspace) -> host::tiler::Workspace {
        let (containers, focused_container) = self.take(&workspace.containers, workspace.focused_container);
        let (floating, focused_floating) = self.take(&workspace.floating_windows, workspace.focused_floating_window);
        host::tiler::Workspace {
            name: foreign(workspace.name),
            containers: containers.into_iter().map(|container| self.container(container)).collect(),
            focused_container: focused_container.map(|index| index as u32),
            monocle: workspace.monocle.map(|monocle| self.container(monocle)),
            floating_windows: floating.into_iter().map(Into::into).collect(),
            focused_floating_window: focused_floating.map(|index| index as u32),
            layout: foreign(workspace.layout),
            tiling: workspace.tiling,
            layer: match workspace.layer {
                tiler::Layer::Tiling => host::tiler::Layer::Tiling,
                tiler::Layer::Floating => host::tiler::Layer::Floating,
            },
            urgent: workspace.urgent,
        }
    }

    fn container(&mut self, container: tiler::Container) -> host::tiler::Container {
        let (windows, focused) = self.take(&container.windows, Some(container.focused_window));
        host::tiler::Container {
            windows: windows.into_iter().map(Into::into).collect(),
            focused_window: focused.unwrap_or(0) as u32,
            locked: container.locked,
        }
    }

    /// What of `items` the room holds, with the `focused` one; its place
    /// among them.
    fn take<T: Clone>(&mut self, items: &[T], focused: Option<usize>) -> (Vec<T>, Option<usize>) {
        let room = self.left.clamp(1, view::limits::ITEMS);
        let (kept, focused) = first_and_focused(items, focused, room);
        self.left = self.left.saturating_sub(kept.len());
        (kept, focused)
    }
}

/// The first `room` of `items`, the last of them given up for the
/// `focused` one when it comes later; its place among them.
fn first_and_focused<T: Clone>(items: &[T], focused: Option<usize>, room: usize) -> (Vec<T>, Option<usize>) {
    match focused {
        _ if items.len() <= room => (items.to_vec(), focused),
        Some(index) if index >= room && index < items.len() && room > 0 => {
            let mut kept = items[..room - 1].to_vec();
            kept.push(items[index].clone());
            (kept, Some(room - 1))
        }
        _ => (items[..room].to_vec(), focused.filter(|index| *index < room)),
    }
}

impl From<tiler::Window> for host::tiler::Window {
    fn from(window: tiler::Window) -> host::tiler::Window {
        host::tiler::Window {
            title: foreign(window.title),
            exe: foreign(window.exe),
            class: foreign(window.class),
            icon: window.icon,
        }
    }
}

impl From<host::view::View> for view::View {
    fn from(view: host::view::View) -> view::View {
        view::View {
            items: view.items.into_iter().map(Into::into).collect(),
            item_spacing: view.item_spacing,
            popup: None,
        }
    }
}

impl From<host::view::Item> for view::Item {
    fn from(item: host::view::Item) -> view::Item {
        view::Item {
            key: item.key,
            pieces: item.pieces.into_iter().map(Into::into).collect(),
            emphasis: item.emphasis.into(),
            takes: item.takes.into(),
            tooltip: item.tooltip,
            look: item.look.map(|look| Box::new(look.into())),
        }
    }
}

impl From<host::view::Look> for look::Look {
    fn from(look: host::view::Look) -> look::Look {
        use host::view::{Align, LeastWidth};
        look::Look {
            colour: look.colour.map(rgba),
            background: look.background.map(rgba),
            border: look.border.map(|border| {
                let host::view::Sides { top, right, bottom, left } = border.widths;
                let [top, right, bottom, left] = [top, right, bottom, left].map(f32::from);
                look::Border { colour: rgba(border.colour), top, right, bottom, left }
            }),
            least_width: look.least_width.map(|least| match least {
                LeastWidth::Pixels(pixels) => look::LeastWidth::Pixels(pixels as f32),
                LeastWidth::TextOf(text) => look::LeastWidth::TextOf(text),
            }),
            padding: f32::from(look.padding),
            align: match look.align {
                Align::Left => look::Align::Left,
                Align::Center => look::Align::Center,
                Align::Right => look::Align::Right,
            },
            room_after: look.room_after.map(|room| room as f32),
            separator: look.separator,
            short: look.short.map(|pieces| pieces.into_iter().map(Into::into).collect()),
        }
    }
}

fn rgba(colour: host::view::Colour) -> Rgba {
    Rgba(colour.red, colour.green, colour.blue, colour.alpha)
}

impl From<host::view::Emphasis> for view::Emphasis {
    fn from(emphasis: host::view::Emphasis) -> view::Emphasis {
        use host::view::Emphasis;
        match emphasis {
            Emphasis::Normal => view::Emphasis::Normal,
            Emphasis::Selected => view::Emphasis::Selected,
            Emphasis::Muted => view::Emphasis::Muted,
            Emphasis::Urgent => view::Emphasis::Urgent,
        }
    }
}

impl From<host::view::Inputs> for view::Inputs {
    fn from(takes: host::view::Inputs) -> view::Inputs {
        use host::view::Inputs;
        [
            (Inputs::PRIMARY_CLICK, view::Inputs::PRIMARY_CLICK),
            (Inputs::DOUBLE_CLICK, view::Inputs::DOUBLE_CLICK),
            (Inputs::SECONDARY_CLICK, view::Inputs::SECONDARY_CLICK),
            (Inputs::MIDDLE_CLICK, view::Inputs::MIDDLE_CLICK),
            (Inputs::EXTRA1_CLICK, view::Inputs::EXTRA1_CLICK),
            (Inputs::EXTRA2_CLICK, view::Inputs::EXTRA2_CLICK),
            (Inputs::SCROLL, view::Inputs::SCROLL),
        ]
        .into_iter()
        .filter(|(wit, _)| takes.contains(*wit))
        .fold(view::Inputs::NONE, |takes, (_, input)| takes | input)
    }
}

impl From<host::popup::Popup> for Popup {
    fn from(popup: host::popup::Popup) -> Popup {
        Popup { item_key: popup.item_key, blocks: popup.blocks.into_iter().map(Into::into).collect() }
    }
}

impl From<host::popup::Block> for Block {
    fn from(block: host::popup::Block) -> Block {
        use host::popup::Block as Wit;
        match block {
            Wit::Line(cell) => Block::Line(cell.into()),
            Wit::Grid(rows) => {
                Block::Grid(rows.into_iter().map(|row| row.into_iter().map(Into::into).collect()).collect())
            }
            Wit::Separator => Block::Separator,
        }
    }
}

impl From<host::popup::Cell> for Cell {
    fn from(cell: host::popup::Cell) -> Cell {
        use host::popup::Content as Wit;
        let pieces = |pieces: Vec<host::view::Piece>| pieces.into_iter().map(Into::into).collect();
        Cell {
            key: cell.key,
            content: match cell.content {
                Wit::Label(label) => Content::Label(pieces(label)),
                Wit::Button(face) => Content::Button(pieces(face)),
                Wit::Slider(value) => Content::Slider(value),
            },
            emphasis: cell.emphasis.into(),
            takes: cell.takes.into(),
        }
    }
}

impl From<PopupInput> for host::popup::PopupInput {
    fn from(input: PopupInput) -> host::popup::PopupInput {
        match input {
            PopupInput::Input(input) => host::popup::PopupInput::Input(input.into()),
            PopupInput::Slide(value) => host::popup::PopupInput::Slide(value),
        }
    }
}

impl From<host::view::Piece> for view::Piece {
    fn from(piece: host::view::Piece) -> view::Piece {
        use host::view::Piece;
        match piece {
            Piece::Text(text) => view::Piece::Text(text),
            Piece::Icon(glyph) => view::Piece::Icon(glyph),
            Piece::Image(image) => view::Piece::Image(image.into()),
            Piece::BinaryClock(clock) => view::Piece::BinaryClock(clock.into()),
            Piece::HeldImage(handle) => view::Piece::HeldImage(handle),
            Piece::Styled(spans) => view::Piece::Styled(spans.into_iter().map(Into::into).collect()),
        }
    }
}

impl From<host::view::Span> for view::Span {
    fn from(span: host::view::Span) -> view::Span {
        let style = span.style;
        let rgba = |colour| {
            let Rgba(red, green, blue, alpha) = rgba(colour);
            [red, green, blue, alpha]
        };
        let length = |length: host::view::Length| match length {
            host::view::Length::Ems(ems) => view::Length::Ems(ems),
            host::view::Length::Points(points) => view::Length::Points(points),
        };
        view::Span {
            text: span.text,
            style: view::SpanStyle {
                colour: style.colour.map(rgba),
                background: style.background.map(rgba),
                weight: style.weight,
                italic: style.italic,
                size: style.size.map(length),
                family: style.family,
                rise: style.rise.map(length),
                underline: style.underline,
                strikethrough: style.strikethrough,
            },
        }
    }
}

impl From<wit::Image> for view::Image {
    fn from(image: wit::Image) -> view::Image {
        match image {
            wit::Image::Path(path) => view::Image::Path(path),
            wit::Image::Pixels(pixels) => view::Image::Pixels(Arc::new(view::Pixels {
                width: pixels.width,
                height: pixels.height,
                rgba: pixels.rgba,
            })),
        }
    }
}

impl From<wit::BinaryClock> for view::BinaryClock {
    fn from(clock: wit::BinaryClock) -> view::BinaryClock {
        view::BinaryClock {
            hour: clock.hour,
            minute: clock.minute,
            second: clock.second,
            style: match clock.style {
                wit::BinaryClockStyle::Circle => view::BinaryClockStyle::Circle,
                wit::BinaryClockStyle::Rectangle => view::BinaryClockStyle::Rectangle,
            },
        }
    }
}

impl From<Input> for wit::Input {
    fn from(input: Input) -> wit::Input {
        match input {
            Input::PrimaryClick => wit::Input::PrimaryClick,
            Input::DoubleClick => wit::Input::DoubleClick,
            Input::SecondaryClick => wit::Input::SecondaryClick,
            Input::MiddleClick => wit::Input::MiddleClick,
            Input::Extra1Click => wit::Input::Extra1Click,
            Input::Extra2Click => wit::Input::Extra2Click,
            Input::Scroll(direction) => wit::Input::Scroll(match direction {
                ScrollDirection::Up => wit::ScrollDirection::Up,
                ScrollDirection::Down => wit::ScrollDirection::Down,
                ScrollDirection::Left => wit::ScrollDirection::Left,
                ScrollDirection::Right => wit::ScrollDirection::Right,
            }),
        }
    }
}

impl From<Pointer> for host::view::Pointer {
    fn from(pointer: Pointer) -> host::view::Pointer {
        let Pointer { x, y, bar_x, bar_y, output_x, output_y, item_x, item_y, item_width, item_height, scale } =
            pointer;
        host::view::Pointer { x, y, bar_x, bar_y, output_x, output_y, item_x, item_y, item_width, item_height, scale }
    }
}

impl From<wit::Schedule> for Schedule {
    fn from(schedule: wit::Schedule) -> Schedule {
        Schedule { interval_ms: schedule.interval_ms, align_to_wall_clock: schedule.align_to_wall_clock }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::limits::{FOREIGN_WINDOWS, ITEMS};

    fn windows(count: usize) -> Vec<tiler::Container> {
        let window = |index: usize| tiler::Window { title: format!("window {index}"), ..Default::default() };
        (0..count).map(|index| tiler::Container { windows: vec![window(index)], ..Default::default() }).collect()
    }

    fn workspace(name: &str, containers: usize, focused: Option<usize>) -> tiler::Workspace {
        tiler::Workspace {
            name: name.into(),
            containers: windows(containers).into(),
            focused_container: focused,
            ..Default::default()
        }
    }

    fn titles(workspace: &host::tiler::Workspace) -> Vec<&str> {
        workspace.containers.iter().map(|container| container.windows[0].title.as_str()).collect()
    }

    /// 70,000 windows on one workspace reach a widget as its first ones and
    /// its focused one; the windows of all workspaces together are bounded,
    /// and a workspace past the bound still has one, so it does not read as
    /// empty.
    #[test]
    fn a_widget_is_handed_the_first_windows_and_the_focused_one() {
        let mut many = vec![workspace("crowded", 70_000, Some(69_999)), workspace("few", 3, Some(1))];
        many.extend((0..8).map(|index| workspace(&format!("full {index}"), 300, Some(0))));
        many.push(workspace("last", 2, None));
        let state = tiler::State {
            monitors: vec![tiler::Monitor { name: "DP-1".into(), area: None, workspaces: many, focused_workspace: 0 }],
            ..tiler::State::empty(tiler::Kind::Niri)
        };
        let handed: host::tiler::State = state.into();
        let workspaces = &handed.monitors[0].workspaces;
        let crowded = &workspaces[0];
        assert_eq!(crowded.containers.len(), ITEMS);
        assert_eq!(crowded.focused_container, Some(ITEMS as u32 - 1));
        assert_eq!(titles(crowded)[..2], ["window 0", "window 1"]);
        assert_eq!(titles(crowded)[ITEMS - 1], "window 69999", "the focused one is kept, last");
        assert_eq!(
            (titles(&workspaces[1]), workspaces[1].focused_container),
            (vec!["window 0", "window 1", "window 2"], Some(1))
        );
        let all: usize = workspaces.iter().map(|workspace| workspace.containers.len()).sum();
        let past_the_room = workspaces.iter().filter(|workspace| workspace.containers.len() == 1).count();
        assert!(all <= FOREIGN_WINDOWS + past_the_room, "{all} windows handed");
        assert!(workspaces.iter().all(|workspace| !workspace.containers.is_empty()), "no workspace reads as empty");
        assert_eq!(workspaces.last().unwrap().focused_container, None);
    }

    #[test]
    fn the_focused_one_is_kept_whatever_the_room() {
        let items: Vec<usize> = (0..10).collect();
        assert_eq!(first_and_focused(&items, Some(7), 3), (vec![0, 1, 7], Some(2)));
        assert_eq!(first_and_focused(&items, Some(1), 3), (vec![0, 1, 2], Some(1)));
        assert_eq!(first_and_focused(&items, None, 3), (vec![0, 1, 2], None));
        assert_eq!(first_and_focused(&items, Some(12), 3), (vec![0, 1, 2], None), "a focus out of the list");
        assert_eq!(first_and_focused(&items, Some(7), 10), (items.clone(), Some(7)));
    }
}

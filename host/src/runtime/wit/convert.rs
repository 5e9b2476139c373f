//! Between the host's models and the latest release's WIT types: the
//! tiler's state into what a widget reads, a widget's view into the
//! host's [`crate::view`] model, and inputs and schedules both ways.

use super::foreign;
use super::since_v0_1_4::obi::widget::{self as host, types as wit};
use crate::runtime::Schedule;
use crate::tiler;
use crate::view::popup::{Block, Cell, Content, Popup, PopupInput};
use crate::view::{self, Input, ScrollDirection};
use std::sync::Arc;

impl From<tiler::State> for host::tiler::State {
    fn from(state: tiler::State) -> host::tiler::State {
        use host::tiler::Kind;
        let index = |index: usize| index as u32;
        host::tiler::State {
            kind: match state.kind {
                tiler::Kind::Komorebi => Kind::Komorebi,
                tiler::Kind::I3 => Kind::I3,
                tiler::Kind::Sway => Kind::Sway,
                // The released WIT knows three kinds; Hyprland and niri are
                // told as the other Wayland tiler until a release names them.
                tiler::Kind::Hyprland | tiler::Kind::Niri => Kind::Sway,
            },
            monitors: state.monitors.into_iter().map(Into::into).collect(),
            focused_monitor: index(state.focused_monitor),
            bar_monitor: state.bar_monitor.map(index),
            paused: state.paused,
            mouse_follows_focus: state.mouse_follows_focus,
            mode: state.mode.map(foreign),
        }
    }
}

impl From<tiler::Monitor> for host::tiler::Monitor {
    fn from(monitor: tiler::Monitor) -> host::tiler::Monitor {
        host::tiler::Monitor {
            name: foreign(monitor.name),
            workspaces: monitor.workspaces.into_iter().map(Into::into).collect(),
            focused_workspace: monitor.focused_workspace as u32,
        }
    }
}

impl From<tiler::Workspace> for host::tiler::Workspace {
    fn from(workspace: tiler::Workspace) -> host::tiler::Workspace {
        host::tiler::Workspace {
            name: foreign(workspace.name),
            containers: workspace.containers.into_iter().map(Into::into).collect(),
            focused_container: workspace.focused_container.map(|index| index as u32),
            monocle: workspace.monocle.map(Into::into),
            floating_windows: workspace.floating_windows.into_iter().map(Into::into).collect(),
            focused_floating_window: workspace.focused_floating_window.map(|index| index as u32),
            layout: foreign(workspace.layout),
            tiling: workspace.tiling,
            layer: match workspace.layer {
                tiler::Layer::Tiling => host::tiler::Layer::Tiling,
                tiler::Layer::Floating => host::tiler::Layer::Floating,
            },
            urgent: workspace.urgent,
        }
    }
}

impl From<tiler::Container> for host::tiler::Container {
    fn from(container: tiler::Container) -> host::tiler::Container {
        host::tiler::Container {
            windows: container.windows.into_iter().map(Into::into).collect(),
            focused_window: container.focused_window as u32,
            locked: container.locked,
        }
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
        }
    }
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

impl From<wit::Schedule> for Schedule {
    fn from(schedule: wit::Schedule) -> Schedule {
        Schedule { interval_ms: schedule.interval_ms, align_to_wall_clock: schedule.align_to_wall_clock }
    }
}

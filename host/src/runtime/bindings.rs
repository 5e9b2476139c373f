//! The generated WIT bindings of `obi:widget`, one module per release the
//! host serves, the host side of each imported interface (adapting
//! [`crate::capabilities`]), and the conversion of a widget's view into the
//! host's [`crate::view`] model.
//!
//! Imports are implemented once, for the latest release: an interface never
//! changes once released, so the linker serves a 0.1.0 widget's import of
//! `obi:widget/log@0.1.0` with `log@0.1.2` (wasmtime links semver-compatible
//! names). Exports differ between releases; each release's bindings call
//! its own: 0.1.1's share the latest types, 0.1.0's view is converted here.

use super::instance::StoreState;
use crate::capabilities::errands::Errand;
use crate::capabilities::web;
use crate::capabilities::{TrayAction, clock};
use crate::tiler::{self, Message};
use crate::view::{self, Input, ScrollDirection};
use std::sync::Arc;

/// The release widgets are built against today.
pub mod latest {
    wasmtime::component::bindgen!({
        world: "widget",
        path: "../wit",
    });
}

/// Widgets built against 0.1.1: bare exported functions, over the types
/// of interfaces that have not changed since.
pub mod v0_1_1 {
    wasmtime::component::bindgen!({
        world: "widget",
        path: "../wit/since_v0.1.1",
        with: {
            "obi:widget/types": super::latest::obi::widget::types,
            "obi:widget/view": super::latest::obi::widget::view,
            "obi:widget/log": super::latest::obi::widget::log,
            "obi:widget/clock": super::latest::obi::widget::clock,
            "obi:widget/metrics": super::latest::obi::widget::metrics,
            "obi:widget/disks": super::latest::obi::widget::disks,
            "obi:widget/battery": super::latest::obi::widget::battery,
            "obi:widget/network": super::latest::obi::widget::network,
            "obi:widget/process": super::latest::obi::widget::process,
            "obi:widget/web": super::latest::obi::widget::web,
            "obi:widget/tiler": super::latest::obi::widget::tiler,
            "obi:widget/keyboard": super::latest::obi::widget::keyboard,
            "obi:widget/media": super::latest::obi::widget::media,
            "obi:widget/tray": super::latest::obi::widget::tray,
        },
    });
}

/// Widgets built against 0.1.0: their exports, and their view.
pub mod v0_1_0 {
    wasmtime::component::bindgen!({
        world: "widget",
        path: "../wit/since_v0.1.0",
    });
}

use latest::obi::widget::{self as host, types as wit};

impl host::types::Host for StoreState {}
impl host::view::Host for StoreState {}

impl host::log::Host for StoreState {
    fn log(&mut self, level: host::log::Level, message: String) {
        use host::log::Level;
        let widget = self.name.as_str();
        match level {
            Level::Trace => tracing::trace!(target: "obi::widget", widget, "{message}"),
            Level::Debug => tracing::debug!(target: "obi::widget", widget, "{message}"),
            Level::Info => tracing::info!(target: "obi::widget", widget, "{message}"),
            Level::Warn => tracing::warn!(target: "obi::widget", widget, "{message}"),
            Level::Error => tracing::error!(target: "obi::widget", widget, "{message}"),
        }
    }
}

impl host::clock::Host for StoreState {
    fn now(&mut self) -> host::clock::Instant {
        let now = self.capabilities.clock.now();
        host::clock::Instant { seconds: now.timestamp(), nanoseconds: now.timestamp_subsec_nanos() }
    }

    fn civil(&mut self, at: host::clock::Instant, timezone: Option<String>) -> Result<host::clock::CivilTime, String> {
        let civil = clock::civil(clock::from_unix(at.seconds, at.nanoseconds), timezone.as_deref())?;
        Ok(host::clock::CivilTime {
            year: civil.year,
            month: civil.month,
            day: civil.day,
            hour: civil.hour,
            minute: civil.minute,
            second: civil.second,
            nanosecond: civil.nanosecond,
            weekday: civil.weekday,
            day_of_year: civil.day_of_year,
            utc_offset_seconds: civil.utc_offset_seconds,
        })
    }

    fn format(
        &mut self,
        at: host::clock::Instant,
        pattern: String,
        timezone: Option<String>,
    ) -> Result<String, String> {
        clock::format(clock::from_unix(at.seconds, at.nanoseconds), &pattern, timezone.as_deref())
    }
}

impl host::metrics::Host for StoreState {
    fn cpu_usage(&mut self) -> f32 {
        self.capabilities.metrics.cpu_usage()
    }

    fn memory(&mut self) -> host::metrics::MemoryUsage {
        let memory = self.capabilities.metrics.memory();
        host::metrics::MemoryUsage {
            total_bytes: memory.total_bytes,
            used_bytes: memory.used_bytes,
            available_bytes: memory.available_bytes,
        }
    }
}

impl host::disks::Host for StoreState {
    fn disks(&mut self) -> Vec<host::disks::Disk> {
        let disks = self.capabilities.disks.disks(&self.waker);
        disks
            .into_iter()
            .map(|disk| host::disks::Disk {
                mount_point: disk.mount_point,
                name: disk.name,
                total_bytes: disk.total_bytes,
                available_bytes: disk.available_bytes,
                read_only: disk.read_only,
                removable: disk.removable,
            })
            .collect()
    }
}

impl host::battery::Host for StoreState {
    fn batteries(&mut self) -> Vec<host::battery::Battery> {
        use crate::capabilities::ChargeState;
        use host::battery::{Battery, ChargeState as Wit};
        let batteries = self.capabilities.batteries.batteries();
        batteries
            .into_iter()
            .map(|battery| Battery {
                name: battery.name,
                percent: battery.percent,
                state: match battery.state {
                    ChargeState::Charging => Wit::Charging,
                    ChargeState::Discharging => Wit::Discharging,
                    ChargeState::Full => Wit::Full,
                    ChargeState::NotCharging => Wit::NotCharging,
                    ChargeState::Unknown => Wit::Unknown,
                },
            })
            .collect()
    }
}

impl host::network::Host for StoreState {
    fn interfaces(&mut self) -> Vec<host::network::NetworkInterface> {
        let interfaces = self.capabilities.network.interfaces(&self.waker);
        interfaces
            .into_iter()
            .map(|interface| host::network::NetworkInterface {
                name: interface.name,
                received_per_second: interface.received_per_second,
                transmitted_per_second: interface.transmitted_per_second,
                total_received: interface.total_received,
                total_transmitted: interface.total_transmitted,
                default_route: interface.default_route,
                wireless: interface.wireless,
            })
            .collect()
    }
}

/// 0.1.0 and 0.1.1 name the command line itself: it runs when the user
/// declared it for the widget.
impl host::process::Host for StoreState {
    fn spawn(&mut self, command: String) -> Result<(), String> {
        if !self.commands.values().any(|declared| *declared == command) {
            return Err(format!("`{command}` is not one of the commands declared for this widget"));
        }
        self.capabilities.processes.spawn(&self.name, &command)
    }
}

impl host::commands::Host for StoreState {
    fn launch(&mut self, id: String) -> Result<(), String> {
        let command = self.declared(&id)?;
        self.capabilities.processes.spawn(&self.name, &command)
    }

    fn run(&mut self, id: String) -> host::commands::RunState {
        use host::commands::{Output, RunState};
        let command = match self.declared(&id) {
            Ok(command) => command,
            Err(error) => return RunState::Failed(error),
        };
        let processes = self.capabilities.processes.clone();
        match self.runs.poll(&id, &self.waker, "obi-command", move || processes.run(&command)) {
            Errand::Pending => RunState::Pending,
            Errand::Done(output) => {
                RunState::Done(Output { code: output.code, stdout: output.stdout, stderr: output.stderr })
            }
            Errand::Failed(error) => RunState::Failed(error),
        }
    }
}

impl StoreState {
    /// The command line declared for the widget as `id`.
    fn declared(&self, id: &str) -> Result<String, String> {
        self.commands.get(id).cloned().ok_or_else(|| {
            let ids: Vec<&str> = self.commands.keys().map(String::as_str).collect();
            match ids.is_empty() {
                true => format!("no command is declared for this widget (asked for {id:?})"),
                false => format!("no command is declared as {id:?} (declared: {})", ids.join(", ")),
            }
        })
    }
}

impl host::web::Host for StoreState {
    fn fetch(&mut self, url: String) -> host::web::FetchState {
        use host::web::{FetchState as Wit, Response};
        match web::poll(&mut self.fetches, &url, &self.capabilities.web, &self.waker) {
            Errand::Pending => Wit::Pending,
            Errand::Done(response) => Wit::Done(Response { status: response.status, body: response.body }),
            Errand::Failed(error) => Wit::Failed(error),
        }
    }

    fn open(&mut self, url: String) -> Result<(), String> {
        self.capabilities.web.open(&url)
    }
}

impl host::tiler::Host for StoreState {
    fn status(&mut self) -> host::tiler::TilerStatus {
        match self.capabilities.tiler.status(&self.waker) {
            tiler::Status::Connected(state) => host::tiler::TilerStatus::Connected(state.into()),
            tiler::Status::Disconnected(why) => host::tiler::TilerStatus::Disconnected(why),
        }
    }

    fn send(&mut self, messages: Vec<String>) -> Result<(), String> {
        let messages = messages
            .iter()
            .enumerate()
            .map(|(index, json)| {
                let value = serde_json::from_str(json).map_err(|error| format!("message {index}: {error}"))?;
                Message::parse(&value).map_err(|invalid| {
                    let at = if invalid.at.is_empty() { String::new() } else { format!(" at `{}`", invalid.at) };
                    format!("message {index}{at}: {}", invalid.reason)
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        self.capabilities.tiler.send(&messages)
    }
}

impl host::keyboard::Host for StoreState {
    fn layout(&mut self) -> Option<host::keyboard::KeyboardLayout> {
        let layout = self.capabilities.keyboard.layout(&self.waker)?;
        Some(host::keyboard::KeyboardLayout { name: layout.name, short_name: layout.short_name, all: layout.all })
    }
}

impl host::media::Host for StoreState {
    fn now_playing(&mut self) -> Option<host::media::Track> {
        use crate::capabilities::Playback;
        use host::media::Playback as Wit;
        let playing = self.capabilities.media.now_playing(&self.waker)?;
        Some(host::media::Track {
            player: playing.player,
            title: playing.title,
            artist: playing.artist,
            album: playing.album,
            playback: match playing.playback {
                Playback::Playing => Wit::Playing,
                Playback::Paused => Wit::Paused,
                Playback::Stopped => Wit::Stopped,
            },
            can_go_previous: playing.can_go_previous,
            can_go_next: playing.can_go_next,
            can_play_pause: playing.can_play_pause,
        })
    }

    fn control(&mut self, action: host::media::Action) -> Result<(), String> {
        use crate::capabilities::Control;
        use host::media::Action as Wit;
        self.capabilities.media.control(match action {
            Wit::Previous => Control::Previous,
            Wit::PlayPause => Control::PlayPause,
            Wit::Next => Control::Next,
        })
    }
}

impl host::tray::Host for StoreState {
    fn items(&mut self) -> Vec<host::tray::TrayItem> {
        use crate::capabilities::ItemStatus;
        use host::tray::{ItemStatus as Wit, MenuEntry, TrayItem};
        let items = self.capabilities.tray.items(&self.waker);
        items
            .into_iter()
            .map(|item| TrayItem {
                key: item.key,
                id: item.id,
                title: item.title,
                exe: item.exe,
                status: match item.status {
                    ItemStatus::Passive => Wit::Passive,
                    ItemStatus::Active => Wit::Active,
                    ItemStatus::NeedsAttention => Wit::NeedsAttention,
                },
                icon: item.icon,
                tooltip: item.tooltip,
                menu: item
                    .menu
                    .into_iter()
                    .map(|entry| MenuEntry {
                        id: entry.id,
                        depth: entry.depth,
                        label: entry.label,
                        enabled: entry.enabled,
                        toggled: entry.toggled,
                        separator: entry.separator,
                        submenu: entry.submenu,
                    })
                    .collect(),
                item_is_menu: item.item_is_menu,
            })
            .collect()
    }

    fn activate(&mut self, key: String) -> Result<(), String> {
        self.capabilities.tray.act(&key, TrayAction::Activate)
    }

    fn secondary_activate(&mut self, key: String) -> Result<(), String> {
        self.capabilities.tray.act(&key, TrayAction::SecondaryActivate)
    }

    fn context_menu(&mut self, key: String) -> Result<(), String> {
        self.capabilities.tray.act(&key, TrayAction::ContextMenu)
    }

    fn scroll(&mut self, key: String, delta: i32, horizontal: bool) -> Result<(), String> {
        self.capabilities.tray.act(&key, TrayAction::Scroll { delta, horizontal })
    }

    fn choose(&mut self, key: String, id: i32) -> Result<(), String> {
        self.capabilities.tray.act(&key, TrayAction::MenuChosen(id))
    }

    fn sweep(&mut self) {
        self.capabilities.tray.sweep();
    }
}

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
            mode: state.mode,
        }
    }
}

impl From<tiler::Monitor> for host::tiler::Monitor {
    fn from(monitor: tiler::Monitor) -> host::tiler::Monitor {
        host::tiler::Monitor {
            name: monitor.name,
            workspaces: monitor.workspaces.into_iter().map(Into::into).collect(),
            focused_workspace: monitor.focused_workspace as u32,
        }
    }
}

impl From<tiler::Workspace> for host::tiler::Workspace {
    fn from(workspace: tiler::Workspace) -> host::tiler::Workspace {
        host::tiler::Workspace {
            name: workspace.name,
            containers: workspace.containers.into_iter().map(Into::into).collect(),
            focused_container: workspace.focused_container.map(|index| index as u32),
            monocle: workspace.monocle.map(Into::into),
            floating_windows: workspace.floating_windows.into_iter().map(Into::into).collect(),
            focused_floating_window: workspace.focused_floating_window.map(|index| index as u32),
            layout: workspace.layout,
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
        host::tiler::Window { title: window.title, exe: window.exe, class: window.class, icon: window.icon }
    }
}

impl From<host::view::View> for view::View {
    fn from(view: host::view::View) -> view::View {
        view::View { items: view.items.into_iter().map(Into::into).collect(), item_spacing: view.item_spacing }
    }
}

impl From<host::view::Item> for view::Item {
    fn from(item: host::view::Item) -> view::Item {
        use host::view::{Emphasis, Inputs};
        let takes = [
            (Inputs::PRIMARY_CLICK, view::Inputs::PRIMARY_CLICK),
            (Inputs::DOUBLE_CLICK, view::Inputs::DOUBLE_CLICK),
            (Inputs::SECONDARY_CLICK, view::Inputs::SECONDARY_CLICK),
            (Inputs::MIDDLE_CLICK, view::Inputs::MIDDLE_CLICK),
            (Inputs::EXTRA1_CLICK, view::Inputs::EXTRA1_CLICK),
            (Inputs::EXTRA2_CLICK, view::Inputs::EXTRA2_CLICK),
            (Inputs::SCROLL, view::Inputs::SCROLL),
        ]
        .into_iter()
        .filter(|(wit, _)| item.takes.contains(*wit))
        .fold(view::Inputs::NONE, |takes, (_, input)| takes | input);
        view::Item {
            key: item.key,
            pieces: item.pieces.into_iter().map(Into::into).collect(),
            emphasis: match item.emphasis {
                Emphasis::Normal => view::Emphasis::Normal,
                Emphasis::Selected => view::Emphasis::Selected,
                Emphasis::Muted => view::Emphasis::Muted,
                Emphasis::Urgent => view::Emphasis::Urgent,
            },
            takes,
            tooltip: item.tooltip,
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

impl From<wit::Schedule> for super::Schedule {
    fn from(schedule: wit::Schedule) -> super::Schedule {
        super::Schedule { interval_ms: schedule.interval_ms, align_to_wall_clock: schedule.align_to_wall_clock }
    }
}

/// 0.1.0's types are the same shapes as 0.1.1's `types`, generated apart.
mod older {
    use super::v0_1_0::obi::widget::types as old;
    use super::{Input, view, wit};

    impl From<old::View> for view::View {
        fn from(view: old::View) -> view::View {
            view::View { items: view.items.into_iter().map(Into::into).collect(), item_spacing: view.item_spacing }
        }
    }

    /// A 0.1.0 item is selected or not, and takes every input (it could
    /// not say which it answers).
    impl From<old::Item> for view::Item {
        fn from(item: old::Item) -> view::Item {
            view::Item {
                key: item.key,
                pieces: item.pieces.into_iter().map(Into::into).collect(),
                emphasis: if item.selected { view::Emphasis::Selected } else { view::Emphasis::Normal },
                takes: view::Inputs::ALL,
                tooltip: item.tooltip,
            }
        }
    }

    impl From<old::Piece> for view::Piece {
        fn from(piece: old::Piece) -> view::Piece {
            match piece {
                old::Piece::Text(text) => view::Piece::Text(text),
                old::Piece::Icon(glyph) => view::Piece::Icon(glyph),
                old::Piece::Image(old::Image::Path(path)) => view::Piece::Image(wit::Image::Path(path).into()),
                old::Piece::Image(old::Image::Pixels(old::Pixels { width, height, rgba })) => {
                    view::Piece::Image(wit::Image::Pixels(wit::Pixels { width, height, rgba }).into())
                }
                old::Piece::BinaryClock(clock) => view::Piece::BinaryClock(
                    wit::BinaryClock {
                        hour: clock.hour,
                        minute: clock.minute,
                        second: clock.second,
                        style: match clock.style {
                            old::BinaryClockStyle::Circle => wit::BinaryClockStyle::Circle,
                            old::BinaryClockStyle::Rectangle => wit::BinaryClockStyle::Rectangle,
                        },
                    }
                    .into(),
                ),
            }
        }
    }

    impl From<Input> for old::Input {
        fn from(input: Input) -> old::Input {
            use old::ScrollDirection as Old;
            match wit::Input::from(input) {
                wit::Input::PrimaryClick => old::Input::PrimaryClick,
                wit::Input::DoubleClick => old::Input::DoubleClick,
                wit::Input::SecondaryClick => old::Input::SecondaryClick,
                wit::Input::MiddleClick => old::Input::MiddleClick,
                wit::Input::Extra1Click => old::Input::Extra1Click,
                wit::Input::Extra2Click => old::Input::Extra2Click,
                wit::Input::Scroll(direction) => old::Input::Scroll(match direction {
                    wit::ScrollDirection::Up => Old::Up,
                    wit::ScrollDirection::Down => Old::Down,
                    wit::ScrollDirection::Left => Old::Left,
                    wit::ScrollDirection::Right => Old::Right,
                }),
            }
        }
    }

    impl From<old::Schedule> for super::super::Schedule {
        fn from(schedule: old::Schedule) -> super::super::Schedule {
            super::super::Schedule {
                interval_ms: schedule.interval_ms,
                align_to_wall_clock: schedule.align_to_wall_clock,
            }
        }
    }
}

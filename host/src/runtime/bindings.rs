//! The generated WIT bindings of `obi:widget`, the host side of each
//! imported interface (adapting [`crate::capabilities`]), and the conversion
//! of a widget's view into the host's [`crate::view`] model.

use super::instance::StoreState;
use crate::capabilities::clock;
use crate::capabilities::web::FetchState;
use crate::view;
use std::sync::Arc;

wasmtime::component::bindgen!({
    world: "widget",
    path: "../wit",
});

use self::obi::widget::types as wit;

impl self::obi::widget::types::Host for StoreState {}

impl self::obi::widget::log::Host for StoreState {
    fn log(&mut self, level: self::obi::widget::log::Level, message: String) {
        use self::obi::widget::log::Level;
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

impl self::obi::widget::clock::Host for StoreState {
    fn now(&mut self) -> self::obi::widget::clock::Instant {
        let now = self.capabilities.clock.now();
        self::obi::widget::clock::Instant { seconds: now.timestamp(), nanoseconds: now.timestamp_subsec_nanos() }
    }

    fn civil(
        &mut self,
        at: self::obi::widget::clock::Instant,
        timezone: Option<String>,
    ) -> Result<self::obi::widget::clock::CivilTime, String> {
        let civil = clock::civil(clock::from_unix(at.seconds, at.nanoseconds), timezone.as_deref())?;
        Ok(self::obi::widget::clock::CivilTime {
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
        at: self::obi::widget::clock::Instant,
        pattern: String,
        timezone: Option<String>,
    ) -> Result<String, String> {
        clock::format(clock::from_unix(at.seconds, at.nanoseconds), &pattern, timezone.as_deref())
    }
}

impl self::obi::widget::metrics::Host for StoreState {
    fn cpu_usage(&mut self) -> f32 {
        self.capabilities.metrics.cpu_usage()
    }

    fn memory(&mut self) -> self::obi::widget::metrics::MemoryUsage {
        let memory = self.capabilities.metrics.memory();
        self::obi::widget::metrics::MemoryUsage {
            total_bytes: memory.total_bytes,
            used_bytes: memory.used_bytes,
            available_bytes: memory.available_bytes,
        }
    }
}

impl self::obi::widget::disks::Host for StoreState {
    fn disks(&mut self) -> Vec<self::obi::widget::disks::Disk> {
        let disks = self.capabilities.disks.disks(&self.waker);
        disks
            .into_iter()
            .map(|disk| self::obi::widget::disks::Disk {
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

impl self::obi::widget::battery::Host for StoreState {
    fn batteries(&mut self) -> Vec<self::obi::widget::battery::Battery> {
        use self::obi::widget::battery::{Battery, ChargeState as Wit};
        use crate::capabilities::ChargeState;
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

impl self::obi::widget::network::Host for StoreState {
    fn interfaces(&mut self) -> Vec<self::obi::widget::network::NetworkInterface> {
        let interfaces = self.capabilities.network.interfaces(&self.waker);
        interfaces
            .into_iter()
            .map(|interface| self::obi::widget::network::NetworkInterface {
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

impl self::obi::widget::process::Host for StoreState {
    fn spawn(&mut self, command: String) -> Result<(), String> {
        self.capabilities.processes.spawn(&self.name, &command)
    }
}

impl self::obi::widget::web::Host for StoreState {
    fn fetch(&mut self, url: String) -> self::obi::widget::web::FetchState {
        use self::obi::widget::web::{FetchState as Wit, Response};
        match self.fetches.poll(&url, &self.capabilities.web, &self.waker) {
            FetchState::Pending => Wit::Pending,
            FetchState::Done(response) => Wit::Done(Response { status: response.status, body: response.body }),
            FetchState::Failed(error) => Wit::Failed(error),
        }
    }

    fn open(&mut self, url: String) -> Result<(), String> {
        self.capabilities.web.open(&url)
    }
}

impl From<wit::View> for view::View {
    fn from(view: wit::View) -> view::View {
        view::View { items: view.items.into_iter().map(Into::into).collect(), item_spacing: view.item_spacing }
    }
}

impl From<wit::Item> for view::Item {
    fn from(item: wit::Item) -> view::Item {
        view::Item {
            key: item.key,
            pieces: item.pieces.into_iter().map(Into::into).collect(),
            selected: item.selected,
            tooltip: item.tooltip,
        }
    }
}

impl From<wit::Piece> for view::Piece {
    fn from(piece: wit::Piece) -> view::Piece {
        match piece {
            wit::Piece::Text(text) => view::Piece::Text(text),
            wit::Piece::Icon(glyph) => view::Piece::Icon(glyph),
            wit::Piece::Image(wit::Image::Path(path)) => view::Piece::Image(view::Image::Path(path)),
            wit::Piece::Image(wit::Image::Pixels(pixels)) => {
                view::Piece::Image(view::Image::Pixels(Arc::new(view::Pixels {
                    width: pixels.width,
                    height: pixels.height,
                    rgba: pixels.rgba,
                })))
            }
            wit::Piece::BinaryClock(clock) => view::Piece::BinaryClock(view::BinaryClock {
                hour: clock.hour,
                minute: clock.minute,
                second: clock.second,
                style: match clock.style {
                    wit::BinaryClockStyle::Circle => view::BinaryClockStyle::Circle,
                    wit::BinaryClockStyle::Rectangle => view::BinaryClockStyle::Rectangle,
                },
            }),
        }
    }
}

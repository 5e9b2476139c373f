//! The Obi widget SDK: everything a widget crate needs, stock or third-party.
//!
//! A widget implements [`Widget`] (parse its config, refresh into a [`View`],
//! react to input, perhaps with a [`Popup`]) and names its type in
//! [`export!`]. The capability modules ([`log`], [`clock`], [`calendar`],
//! [`metrics`], [`disks`], [`battery`], [`network`], [`commands`],
//! [`command_lines`], [`status_programs`], [`web`], [`tiler`],
//! [`tiler_mode`], [`keyboard`], [`media`], [`media_cover`], [`tray`],
//! [`audio`], [`audio_streams`], [`notifications`], [`backlight`],
//! [`power_profiles`], [`idle_inhibit`], [`bluetooth`], [`screen_casts`],
//! [`wifi`]) are the host's WIT
//! imports; calling one is what makes the built component import it, so a
//! widget asks for exactly the capabilities it uses. [`bar()`] tells where the widget's bar is.
//!
//! ```ignore
//! use obi_sdk::{Widget, View, Schedule, item};
//!
//! struct Hello;
//!
//! impl Widget for Hello {
//!     type Config = serde_json::Value;
//!     fn new(_: Self::Config) -> Result<(Self, Schedule), String> {
//!         Ok((Hello, Schedule::every_secs(60)))
//!     }
//!     fn refresh(&mut self) -> View {
//!         View::of([item("hello").text("hello")])
//!     }
//! }
//!
//! obi_sdk::export!(Hello);
//! ```

#[doc(hidden)]
pub mod bindings {
    wit_bindgen::generate!({
        world: "widget",
        path: "../wit/since_v0.1.8",
        pub_export_macro: true,
        export_macro_name: "__export_widget_world",
        default_bindings_module: "obi_sdk::bindings",
        additional_derives: [PartialEq],
    });
}

pub mod asked;
mod colour;
pub mod icons;
pub mod limits;
pub mod meter;
pub mod month_popup;
pub mod pattern;
mod popup;
mod styled;
mod view;

pub use bindings::obi::widget::popup::{Block, Cell, Content, Popup, PopupInput};
pub use bindings::obi::widget::types::{
    BinaryClock, BinaryClockStyle, Image, Input, Pixels, Schedule, ScrollDirection,
};
pub use bindings::obi::widget::view::{
    Align, Bar, Border, Colour, Emphasis, Inputs, Item, LeastWidth, Length, Look, Piece, Pointer, Sides, Span,
    TextStyle, View,
};
pub use bindings::obi::widget::{
    audio, audio_streams, backlight, battery, bluetooth, calendar, clock, command_lines, commands, disks, idle_inhibit,
    keyboard, log, media, media_cover, metrics, network, notifications, power_profiles, process, screen_casts,
    status_programs, tiler, tiler_mode, tray, web, wifi,
};
pub use colour::hex_colour;
pub use obi_markup as markup;
pub use obi_widget_config::{self as config, LabelPrefix};
pub use popup::{CellBuilder, button, cell, label, slider};
pub use styled::{markup, plain, span, styled};
pub use view::{ItemBuilder, item};

use bindings::exports::obi::widget::guest::Frame;
#[doc(hidden)]
pub use bindings::exports::obi::widget::guest::{Frame as __Frame, Guest as __Guest};
#[doc(hidden)]
pub use serde_json as __serde_json;

/// A widget: its state lives between calls in the component's memory.
pub trait Widget: Sized + 'static {
    /// The widget's object from the config file, e.g. the value of `"Cpu"`.
    type Config: serde::de::DeserializeOwned;

    /// Builds the widget from its config and says how often to refresh it.
    /// An `Err` is shown to the user as a config error of this widget.
    fn new(config: Self::Config) -> Result<(Self, Schedule), String>;

    /// Samples what the widget shows and describes it.
    fn refresh(&mut self) -> View;

    /// A click or scroll on the item with `key`. The host refreshes afterwards.
    fn on_input(&mut self, _key: &str, _input: Input) {}

    /// [`Widget::on_input`], told where the pointer was, for a widget that
    /// needs to know (a status program's clicks say where they fell). By
    /// default [`Widget::on_input`].
    fn on_input_at(&mut self, key: &str, input: Input, _pointer: Pointer) {
        self.on_input(key, input);
    }

    /// The widget's open popup, asked after each refresh; `None`, the
    /// default, when it has none. The host opens a popup only in answer to
    /// input (give one after the click that opens it), keeps it up to date
    /// while it is open, and closes it when this gives `None`.
    fn popup(&mut self) -> Option<Popup> {
        None
    }

    /// Input on the cell `cell_key` of the popup beside the item
    /// `item_key`. The host refreshes afterwards.
    fn on_popup_input(&mut self, _item_key: &str, _cell_key: &str, _input: PopupInput) {}

    /// The host closed the popup beside `item_key` (a click outside it,
    /// Escape, another popup): [`Widget::popup`] should give `None` until
    /// input opens it again.
    fn on_popup_closed(&mut self, _item_key: &str) {}

    /// The user asked that the widget read afresh now (`obi msg refresh
    /// NAME`): what it reads only now and then (a command's output, a
    /// fetch) should be read at the next refresh, which the host runs
    /// right after. By default nothing more than that refresh.
    fn on_refresh_requested(&mut self) {}

    /// Asked after each refresh: when the next one is due, this once,
    /// instead of the schedule's (a countdown's next second). `None`, the
    /// default, keeps the schedule.
    fn next_refresh(&self) -> Option<std::time::Duration> {
        None
    }

    /// A JSON schema of [`Widget::Config`], which `obi --schema` includes
    /// (`schemars::schema_for!` makes one). Asked without a config.
    fn config_schema() -> Option<serde_json::Value> {
        None
    }
}

impl Schedule {
    /// Refresh `secs` seconds after the previous refresh (the host moves
    /// the first to the nearest second, where the bar's clock ticks).
    pub fn every_secs(secs: u64) -> Self {
        Schedule { interval_ms: secs.saturating_mul(1000), align_to_wall_clock: false }
    }

    /// The schedule of komorebi-bar's `data_refresh_interval`: seconds,
    /// 10 when absent. komorebi-bar reads 0 as "every frame"; a bar that is
    /// idle when idle reads no more than once a second.
    pub fn data_refresh_interval(secs: Option<u64>) -> Self {
        Schedule::every_secs(secs.unwrap_or(10).max(1))
    }

    /// Refresh on every wall-clock multiple of `ms` (a clock ticking on the second).
    pub fn on_wall_clock(ms: u64) -> Self {
        Schedule { interval_ms: ms, align_to_wall_clock: true }
    }
}

/// Parses a widget config, naming the widget type in the error.
#[doc(hidden)]
pub fn __parse_config<W: Widget>(json: &str) -> Result<W::Config, String> {
    serde_json::from_str(json).map_err(|error| format!("invalid configuration: {error}"))
}

/// What a request to the host (mute an output, connect a device) came
/// to: a refusal goes to the widget's log as a warning, "cannot `what`:
/// why", and the widget goes on; the host reports what did change.
pub fn ask(what: &str, asked: Result<(), String>) {
    if let Err(error) = asked {
        log::log(log::Level::Warn, &format!("cannot {what}: {error}"));
    }
}

std::thread_local! {
    static BAR: std::cell::Cell<Option<u32>> = const { std::cell::Cell::new(None) };
}

/// Where the widget's bar is, as the host told `init`.
pub fn bar() -> Bar {
    Bar { monitor: BAR.with(std::cell::Cell::get) }
}

#[doc(hidden)]
pub fn __set_bar(bar: Bar) {
    BAR.with(|cell| cell.set(bar.monitor));
}

#[doc(hidden)]
pub fn __frame<W: Widget>(widget: &mut W) -> Frame {
    let view = widget.refresh();
    let next = widget.next_refresh().map(|next| u32::try_from(next.as_millis()).unwrap_or(u32::MAX));
    Frame { view, next_refresh_ms: next, popup: widget.popup() }
}

/// Exports a [`Widget`] type as the component's `guest` interface.
#[macro_export]
macro_rules! export {
    ($widget:ty) => {
        const _: () = {
            ::std::thread_local! {
                static WIDGET: ::std::cell::RefCell<::std::option::Option<$widget>> =
                    const { ::std::cell::RefCell::new(::std::option::Option::None) };
            }

            // Native builds of a widget crate (its unit tests) export
            // nothing: interface export names are not native symbol names.
            #[allow(dead_code)]
            struct Guest;

            impl $crate::__Guest for Guest {
                fn init(
                    config_json: ::std::string::String,
                    bar: $crate::Bar,
                ) -> ::std::result::Result<$crate::Schedule, ::std::string::String> {
                    $crate::__set_bar(bar);
                    let config = $crate::__parse_config::<$widget>(&config_json)?;
                    let (widget, schedule) = <$widget as $crate::Widget>::new(config)?;
                    WIDGET.with(|cell| *cell.borrow_mut() = ::std::option::Option::Some(widget));
                    ::std::result::Result::Ok(schedule)
                }

                fn refresh() -> $crate::__Frame {
                    WIDGET.with(|cell| match cell.borrow_mut().as_mut() {
                        ::std::option::Option::Some(widget) => $crate::__frame(widget),
                        ::std::option::Option::None => panic!("refresh called before init"),
                    })
                }

                fn config_schema() -> ::std::option::Option<::std::string::String> {
                    <$widget as $crate::Widget>::config_schema().map(|schema| schema.to_string())
                }

                fn on_input(key: ::std::string::String, event: $crate::Input, pointer: $crate::Pointer) {
                    WIDGET.with(|cell| {
                        if let ::std::option::Option::Some(widget) = cell.borrow_mut().as_mut() {
                            $crate::Widget::on_input_at(widget, &key, event, pointer);
                        }
                    })
                }

                fn on_popup_input(
                    item_key: ::std::string::String,
                    cell_key: ::std::string::String,
                    event: $crate::PopupInput,
                ) {
                    WIDGET.with(|cell| {
                        if let ::std::option::Option::Some(widget) = cell.borrow_mut().as_mut() {
                            $crate::Widget::on_popup_input(widget, &item_key, &cell_key, event);
                        }
                    })
                }

                fn on_popup_closed(item_key: ::std::string::String) {
                    WIDGET.with(|cell| {
                        if let ::std::option::Option::Some(widget) = cell.borrow_mut().as_mut() {
                            $crate::Widget::on_popup_closed(widget, &item_key);
                        }
                    })
                }

                fn on_refresh_requested() {
                    WIDGET.with(|cell| {
                        if let ::std::option::Option::Some(widget) = cell.borrow_mut().as_mut() {
                            $crate::Widget::on_refresh_requested(widget);
                        }
                    })
                }
            }

            #[cfg(target_family = "wasm")]
            $crate::bindings::__export_widget_world!(Guest);
        };
    };
}

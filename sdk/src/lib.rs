//! The Obi widget SDK: everything a widget crate needs, stock or third-party.
//!
//! A widget implements [`Widget`] (parse its config, refresh into a [`View`],
//! react to input) and names its type in [`export!`]. The capability modules
//! ([`log`], [`clock`], [`metrics`], [`disks`], [`battery`], [`network`],
//! [`process`], [`web`], [`tiler`]) are the host's WIT imports; calling one
//! is what makes the built component import it, so a widget asks for
//! exactly the capabilities it uses. [`bar()`] tells where the widget's bar is.
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
        path: "../wit",
        pub_export_macro: true,
        export_macro_name: "__export_widget_world",
        default_bindings_module: "obi_sdk::bindings",
        additional_derives: [PartialEq],
    });
}

pub mod icons;
mod label;
pub mod meter;
pub mod pattern;
mod view;

pub use bindings::obi::widget::types::{
    BinaryClock, BinaryClockStyle, Image, Input, Pixels, Schedule, ScrollDirection,
};
pub use bindings::obi::widget::view::{Bar, Emphasis, Inputs, Item, Piece, View};
pub use bindings::obi::widget::{
    battery, clock, disks, keyboard, log, media, metrics, network, process, tiler, tray, web,
};
pub use label::LabelPrefix;
pub use view::{ItemBuilder, item};

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
}

impl Schedule {
    /// Refresh `secs` seconds after the previous refresh.
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

/// Exports a [`Widget`] type as the component's `init`, `refresh` and `on-input`.
#[macro_export]
macro_rules! export {
    ($widget:ty) => {
        const _: () = {
            ::std::thread_local! {
                static WIDGET: ::std::cell::RefCell<::std::option::Option<$widget>> =
                    const { ::std::cell::RefCell::new(::std::option::Option::None) };
            }

            struct Guest;

            impl $crate::bindings::Guest for Guest {
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

                fn refresh() -> $crate::View {
                    WIDGET.with(|cell| match cell.borrow_mut().as_mut() {
                        ::std::option::Option::Some(widget) => $crate::Widget::refresh(widget),
                        ::std::option::Option::None => panic!("refresh called before init"),
                    })
                }

                fn on_input(key: ::std::string::String, event: $crate::Input) {
                    WIDGET.with(|cell| {
                        if let ::std::option::Option::Some(widget) = cell.borrow_mut().as_mut() {
                            $crate::Widget::on_input(widget, &key, event);
                        }
                    })
                }
            }

            $crate::bindings::__export_widget_world!(Guest);
        };
    };
}

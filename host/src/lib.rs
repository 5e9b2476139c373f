//! Obi: a status bar for tiling window managers whose widgets are
//! WebAssembly components. The repository's README says what it does and
//! how its folders stack; `TESTING.md` says where each layer's tests live.

#[cfg(feature = "bar")]
pub mod access;
pub mod allocator;
pub mod backoff;
#[cfg(feature = "bar")]
pub mod bar;
pub mod bar_block;
#[cfg(windows)]
pub mod bgra_bitmap;
pub mod capabilities;
pub mod colour;
pub mod config;
pub mod control;
pub mod files;
pub mod headless;
#[cfg(windows)]
pub mod hidden_window;
pub mod import;
pub mod input;
pub mod js_widget_template;
pub mod komorebi_messages;
pub mod notifications;
#[cfg(feature = "bar")]
pub mod render;
pub mod runtime;
pub mod scheduler;
pub mod screen;
pub mod spec;
pub mod suggest;
pub mod sync;
pub mod theme;
pub mod tiler;
pub mod time_zones;
pub mod uptime;
pub mod view;
pub mod wake;
pub mod watch;
pub mod widget_template;
#[cfg(feature = "bar")]
pub mod window;

/// The stock widgets, built for wasm32-wasip2 by `build.rs` and embedded
/// (none without the `stock-widgets` feature).
pub mod stock {
    /// A stock widget: its config key, its component, and the component's
    /// SHA-256, taken when the bar was built so that finding its compiled
    /// code in the cache does not read the component at every start.
    #[derive(Debug, PartialEq, Eq)]
    pub struct StockWidget {
        pub kind: &'static str,
        pub wasm: &'static [u8],
        pub digest: [u8; 32],
    }

    include!(concat!(env!("OUT_DIR"), "/stock_widgets.rs"));
}

//! Runs one widget component headless, the way the bar runs it (same
//! engine, sandbox and capability links), but with capability readings the
//! test scripts: the time, CPU and memory use, the disks, the batteries,
//! the network interfaces, the sound server, the notifications, the
//! backlight, changed between refreshes to play readings over
//! time. No display, no bar: a widget author tests a component with
//! `cargo test`, and the stock widgets are tested this way.
//!
//! ```no_run
//! use obi_harness::{Harness, Script};
//!
//! let script = Script::at("2024-03-09T15:04:05Z".parse().unwrap());
//! script.set_cpu(91.0);
//! let mut cpu = Harness::stock("Cpu", r#"{ "enable": true, "auto_select_over": 90 }"#, &script).unwrap();
//! assert!(cpu.refresh().unwrap().items[0].is_selected());
//! script.set_cpu(12.0);
//! assert!(!cpu.refresh().unwrap().items[0].is_selected());
//! ```

pub use obi::capabilities::Click as StatusClick;
pub use obi::capabilities::CommandOutput;
pub use obi::capabilities::audio::{Input as SoundInput, Output, Playing, Recording, Streams};
pub use obi::capabilities::followed::Followed;
pub use obi::capabilities::status_program::Header;
pub use obi::capabilities::wifi::{Link, Networks, Security, Vpn, WifiNetwork};
pub use obi::capabilities::{
    AudioRequest, AudioStatus, BacklightStatus, Battery, BluetoothDevice, BluetoothRequest, BluetoothStatus,
    Capability, ChargeState, Control, Disk, IdleStatus, Interface, ItemStatus, LevelAsked, MemoryUsage, MenuEntry,
    NowPlaying, Playback, ProfilesStatus, StatusRead, StreamsStatus, TrayAction, TrayItem, WifiRequest, WifiStatus,
};
pub use obi::colour::Rgba;
pub use obi::headless::{Harness, Script, config_schema};
pub use obi::notifications;
pub use obi::runtime::{Failure, Schedule};
pub use obi::spec::WidgetSpec;
pub use obi::tiler;
pub use obi::tiler::KeyboardLayout;
pub use obi::view::look::{Align, Border, LeastWidth, Look};
pub use obi::view::popup::{Block, Cell, Content, Popup, PopupInput};
pub use obi::view::{
    BinaryClock, Emphasis, Image, Input, Inputs, Item, Length, Piece, Pointer, ScrollDirection, Span, SpanStyle, View,
};
pub use obi::wake::Waker;

use obi::sync::lock;
use std::path::PathBuf;

/// The spec of a component on disk: named after its file, granted what
/// every widget may use and `grants`, with the default limits.
pub fn plugin_spec(path: PathBuf, config_json: String, grants: impl IntoIterator<Item = Capability>) -> WidgetSpec {
    WidgetSpec::file(path, config_json, grants)
}

/// Builds the widget crate whose tests call it, for wasm32-wasip2 in
/// release mode, and gives the path of its component:
/// `Harness::plugin(obi_harness::this_widget!(), "{}", &[], &script)`.
#[macro_export]
macro_rules! this_widget {
    () => {
        $crate::build_widget(env!("CARGO_MANIFEST_DIR"), env!("CARGO_PKG_NAME"))
    };
}

/// Builds the widget crate `package` at `manifest_dir` once per test
/// process (see [`this_widget!`]), panicking with cargo's reason when it
/// does not build.
pub fn build_widget(manifest_dir: &str, package: &str) -> PathBuf {
    static BUILT: std::sync::Mutex<Vec<(String, PathBuf)>> = std::sync::Mutex::new(Vec::new());
    let mut built = lock(&BUILT);
    if let Some((_, wasm)) = built.iter().find(|(name, _)| name == package) {
        return wasm.clone();
    }
    let wasm = obi_build_support::build_widget_crate(std::path::Path::new(manifest_dir), package)
        .unwrap_or_else(|error| panic!("{error}"));
    built.push((package.to_owned(), wasm.clone()));
    wasm
}

/// Whether the first item of `view` shows an icon.
pub fn has_icon(view: &View) -> bool {
    view.items.first().is_some_and(|item| item.pieces.iter().any(|piece| matches!(piece, Piece::Icon(_))))
}

/// The text pieces of a view, item by item, each item's texts joined.
pub fn texts(view: &View) -> Vec<String> {
    view.items.iter().map(|item| joined_texts(&item.pieces)).collect()
}

/// The texts of a view's open popup, a row of cells' texts a line (a
/// slider as `[value]`, a separator as `-`); empty when none is open.
pub fn popup_rows(view: &View) -> Vec<Vec<String>> {
    let cell_text = |cell: &Cell| match &cell.content {
        Content::Label(pieces) | Content::Button(pieces) => joined_texts(pieces),
        Content::Slider(value) => format!("[{value}]"),
    };
    let Some(popup) = &view.popup else { return Vec::new() };
    let mut rows = Vec::new();
    for block in &popup.blocks {
        match block {
            Block::Line(cell) => rows.push(vec![cell_text(cell)]),
            Block::Grid(grid) => rows.extend(grid.iter().map(|row| row.iter().map(cell_text).collect())),
            Block::Separator => rows.push(vec!["-".to_owned()]),
        }
    }
    rows
}

/// The texts of `pieces` joined, a styled text's spans among them.
fn joined_texts(pieces: &[Piece]) -> String {
    let mut joined = String::new();
    for piece in pieces {
        match piece {
            Piece::Text(text) => joined.push_str(text),
            Piece::Styled(spans) => joined.extend(spans.iter().map(|span| span.text.as_str())),
            _ => {}
        }
    }
    joined
}

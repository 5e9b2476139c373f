//! What the bar takes in one view, as its host checks it: past these a
//! view is refused as the widget's fault, and the widget restarted. A
//! widget that shows what other programs print or list (a command's line,
//! every tray item) keeps to them with [`fit`] and by showing at most
//! [`ITEMS`] items; the host cuts what other programs name (a window's
//! title, a track's) before a widget reads it.

/// Items in a view, at most.
pub const ITEMS: usize = 256;

/// Pieces in one item, at most.
pub const PIECES_PER_ITEM: usize = 32;

/// Bytes in one text of a view (a piece, a tooltip, a key), at most.
pub const TEXT_BYTES: usize = 4096;

/// Spans in one styled text, at most.
pub const SPANS: usize = 64;

/// Bytes in a span's family name, at most.
pub const FAMILY_BYTES: usize = 256;

/// `text` cut to [`TEXT_BYTES`], with "…" in place of the rest.
pub fn fit(text: impl Into<String>) -> String {
    obi_markup::cut(text.into(), TEXT_BYTES)
}

//! A small builder for popups, as [`crate::item`] is for items:
//! `Popup::beside("date").grid(weeks).line(cell("today").text("Today"))`.

use crate::{Block, Cell, Content, Emphasis, Inputs, Piece, Popup};

impl Popup {
    /// An empty popup that opens beside the item `item_key`.
    pub fn beside(item_key: impl Into<String>) -> Popup {
        Popup { item_key: item_key.into(), blocks: Vec::new() }
    }

    /// Adds one cell across the popup.
    pub fn line(mut self, cell: impl Into<Cell>) -> Popup {
        self.blocks.push(Block::Line(cell.into()));
        self
    }

    /// Adds rows of cells in columns.
    pub fn grid<R, C>(mut self, rows: R) -> Popup
    where
        R: IntoIterator,
        R::Item: IntoIterator<Item = C>,
        C: Into<Cell>,
    {
        let rows = rows.into_iter().map(|row| row.into_iter().map(Into::into).collect()).collect();
        self.blocks.push(Block::Grid(rows));
        self
    }

    /// Adds a thin line across.
    pub fn separator(mut self) -> Popup {
        self.blocks.push(Block::Separator);
        self
    }
}

/// Starts a label cell; `key` names it in `on_popup_input` (empty for one
/// that takes no input, which [`label`] makes).
pub fn cell(key: impl Into<String>) -> CellBuilder {
    CellBuilder(Cell {
        key: key.into(),
        content: Content::Label(Vec::new()),
        emphasis: Emphasis::Normal,
        takes: Inputs::empty(),
    })
}

/// A cell that shows `text` and takes no input.
pub fn label(text: impl Into<String>) -> CellBuilder {
    cell("").text(text)
}

/// A button named `key`: it answers a primary click.
pub fn button(key: impl Into<String>) -> CellBuilder {
    let mut builder = cell(key);
    builder.0.content = Content::Button(Vec::new());
    builder
}

/// A slider named `key` at `value` (0..=100).
pub fn slider(key: impl Into<String>, value: u8) -> CellBuilder {
    let mut builder = cell(key);
    builder.0.content = Content::Slider(value.min(100));
    builder
}

#[must_use]
pub struct CellBuilder(Cell);

impl CellBuilder {
    fn push(mut self, piece: Piece) -> Self {
        if let Content::Label(pieces) | Content::Button(pieces) = &mut self.0.content {
            pieces.push(piece);
        }
        self
    }

    pub fn text(self, text: impl Into<String>) -> Self {
        self.push(Piece::Text(text.into()))
    }

    pub fn icon(self, glyph: impl Into<String>) -> Self {
        self.push(Piece::Icon(glyph.into()))
    }

    /// Pango `markup` drawn with its styles (see [`crate::markup`]).
    pub fn markup(self, markup: &str) -> Self {
        self.push(crate::markup(markup))
    }

    pub fn image(self, image: crate::Image) -> Self {
        self.push(Piece::Image(image))
    }

    /// Appends `piece` only when it is `Some`: handy for optional icons.
    pub fn maybe(self, piece: Option<Piece>) -> Self {
        match piece {
            Some(piece) => self.push(piece),
            None => self,
        }
    }

    pub fn emphasis(mut self, emphasis: Emphasis) -> Self {
        self.0.emphasis = emphasis;
        self
    }

    /// Drawn selected when `selected`, plain otherwise.
    pub fn selected(self, selected: bool) -> Self {
        self.emphasis(if selected { Emphasis::Selected } else { Emphasis::Normal })
    }

    /// The inputs the cell answers, besides a button's click and a slider's slide.
    pub fn takes(mut self, inputs: Inputs) -> Self {
        self.0.takes = inputs;
        self
    }

    pub fn build(self) -> Cell {
        self.0
    }
}

impl From<CellBuilder> for Cell {
    fn from(builder: CellBuilder) -> Cell {
        builder.0
    }
}

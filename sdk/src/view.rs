//! A small builder for views, so that a widget's `refresh` reads as one
//! expression: `View::of([item("cpu").icon(CPU).text("CPU: 12%").selected(hot)])`.

use crate::{BinaryClock, Emphasis, Image, Inputs, Item, Look, Piece, View};

/// Starts an item with a key that stays the same from one refresh to the
/// next. It answers no input until [`ItemBuilder::takes`] says which.
pub fn item(key: impl Into<String>) -> ItemBuilder {
    ItemBuilder(Item {
        key: key.into(),
        pieces: Vec::new(),
        emphasis: Emphasis::Normal,
        takes: Inputs::empty(),
        tooltip: None,
        look: None,
    })
}

#[must_use]
pub struct ItemBuilder(Item);

impl ItemBuilder {
    pub fn text(mut self, text: impl Into<String>) -> Self {
        self.0.pieces.push(Piece::Text(text.into()));
        self
    }

    pub fn icon(mut self, glyph: impl Into<String>) -> Self {
        self.0.pieces.push(Piece::Icon(glyph.into()));
        self
    }

    /// Pango `markup` drawn with its styles (see [`crate::markup`]).
    pub fn markup(mut self, markup: &str) -> Self {
        self.0.pieces.push(crate::markup(markup));
        self
    }

    /// A text of `spans`, each in its own style (see [`crate::styled`]).
    pub fn styled(mut self, spans: impl IntoIterator<Item = crate::Span>) -> Self {
        self.0.pieces.push(crate::styled(spans));
        self
    }

    pub fn image(mut self, image: Image) -> Self {
        self.0.pieces.push(Piece::Image(image));
        self
    }

    pub fn binary_clock(mut self, clock: BinaryClock) -> Self {
        self.0.pieces.push(Piece::BinaryClock(clock));
        self
    }

    /// Appends `piece` only when it is `Some`: handy for optional icons.
    pub fn maybe(mut self, piece: Option<Piece>) -> Self {
        self.0.pieces.extend(piece);
        self
    }

    /// An image the host holds, by the handle a capability gave (a window's icon).
    pub fn held_image(mut self, handle: u64) -> Self {
        self.0.pieces.push(Piece::HeldImage(handle));
        self
    }

    /// Drawn selected when `selected`, plain otherwise.
    pub fn selected(mut self, selected: bool) -> Self {
        self.0.emphasis = if selected { Emphasis::Selected } else { Emphasis::Normal };
        self
    }

    pub fn emphasis(mut self, emphasis: Emphasis) -> Self {
        self.0.emphasis = emphasis;
        self
    }

    /// The inputs the item answers (sent to the widget's `on_input`); the
    /// others go to the bar's `mouse` config.
    pub fn takes(mut self, inputs: Inputs) -> Self {
        self.0.takes = inputs;
        self
    }

    pub fn tooltip(mut self, tooltip: impl Into<String>) -> Self {
        self.0.tooltip = Some(tooltip.into());
        self
    }

    /// Its own look: colours, border, least width and the rest (see
    /// [`Look`]), as a status program's block has.
    pub fn look(mut self, look: Look) -> Self {
        self.0.look = Some(look);
        self
    }

    pub fn build(self) -> Item {
        self.0
    }
}

impl From<ItemBuilder> for Item {
    fn from(builder: ItemBuilder) -> Item {
        builder.0
    }
}

impl View {
    pub fn of<I: Into<Item>>(items: impl IntoIterator<Item = I>) -> View {
        View { items: items.into_iter().map(Into::into).collect(), item_spacing: None }
    }

    /// Its items `pixels` apart instead of the theme's gap.
    pub fn item_spacing(mut self, pixels: f32) -> View {
        self.item_spacing = Some(pixels);
        self
    }

    /// A view that shows nothing (a hidden widget).
    pub fn empty() -> View {
        View { items: Vec::new(), item_spacing: None }
    }
}

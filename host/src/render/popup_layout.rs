//! Where everything in a widget's popup goes: lines across it, grids in
//! columns as wide as their widest cell (the grid stretched to the popup's
//! width, each cell centred in its column), separators between blocks, and
//! a margin around. In logical pixels, from the popup's top left; what a
//! point in it falls on, and where on a slider.

use super::Style;
use super::geometry::Rect;
use super::layout::{item_padding, piece_gap};
use crate::view::Piece;
use crate::view::popup::{Block, Cell, Content, Popup};

#[derive(Debug, Clone, PartialEq)]
pub struct PopupLayout {
    pub width: f32,
    pub height: f32,
    pub cells: Vec<PlacedCell>,
    /// Where each separator's line runs, from the top.
    pub separators: Vec<f32>,
    /// The cell under the pointer that a click would reach, by its index
    /// in `cells`: drawn lit.
    pub hovered: Option<usize>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PlacedCell {
    pub cell: Cell,
    /// The cell's area: what a click on it hits, what its emphasis fills.
    pub rect: Rect,
    /// Its pieces as they will be drawn (texts cut to fit), with widths.
    pub pieces: Vec<(Piece, f32)>,
    /// Where its pieces (or its slider's track) start.
    pub content_x: f32,
    /// How wide its pieces (or its slider's track) are.
    pub content_width: f32,
}

/// Around everything in the popup.
pub fn popup_margin(style: &Style) -> f32 {
    style.font_size * 0.5
}

/// The height of a line or a grid's row.
pub fn row_height(style: &Style) -> f32 {
    style.font_size * 1.9
}

/// A slider's track, when nothing around it is wider.
fn slider_width(style: &Style) -> f32 {
    style.font_size * 12.0
}

/// A popup is never narrower than this (a lone short label reads as a tooltip).
fn minimum_width(style: &Style) -> f32 {
    style.font_size * 6.0
}

/// Lays `popup` out in `style`; `fit` gives each piece as drawn and its width.
pub fn lay_out_popup(popup: &Popup, style: &Style, fit: &mut dyn FnMut(&Piece) -> (Piece, f32)) -> PopupLayout {
    let padding = item_padding(style);
    let gap = piece_gap(style);
    let mut measure = |cell: &Cell| -> (Vec<(Piece, f32)>, f32) {
        match &cell.content {
            Content::Label(pieces) | Content::Button(pieces) => {
                let fitted: Vec<(Piece, f32)> = pieces.iter().map(&mut *fit).collect();
                let width =
                    fitted.iter().map(|(_, width)| width).sum::<f32>() + gap * fitted.len().saturating_sub(1) as f32;
                (fitted, width)
            }
            Content::Slider(_) => (Vec::new(), slider_width(style)),
        }
    };
    // Each block's cells measured, and the width each needs.
    let measured: Vec<Measured> = popup
        .blocks
        .iter()
        .map(|block| match block {
            Block::Line(cell) => Measured::Line(cell, measure(cell)),
            Block::Grid(rows) => {
                let rows: Vec<Vec<MeasuredCell>> =
                    rows.iter().map(|row| row.iter().map(|cell| (cell, measure(cell))).collect()).collect();
                let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
                let mut widths = vec![0.0f32; columns];
                for row in &rows {
                    for (column, (_, (_, width))) in row.iter().enumerate() {
                        widths[column] = widths[column].max(width + 2.0 * padding);
                    }
                }
                Measured::Grid(rows, widths)
            }
            Block::Separator => Measured::Separator,
        })
        .collect();
    let inner = measured
        .iter()
        .map(|block| match block {
            Measured::Line(_, (_, width)) => width + 2.0 * padding,
            Measured::Grid(_, widths) => widths.iter().sum(),
            Measured::Separator => 0.0,
        })
        .fold(minimum_width(style), f32::max);

    let margin = popup_margin(style);
    let height = row_height(style);
    let mut layout = PopupLayout {
        width: inner + 2.0 * margin,
        height: 0.0,
        cells: Vec::new(),
        separators: Vec::new(),
        hovered: None,
    };
    let mut y = margin;
    for block in measured {
        match block {
            Measured::Line(cell, (pieces, width)) => {
                let rect = Rect::new(margin, y, inner, height);
                let content_width =
                    if matches!(cell.content, Content::Slider(_)) { inner - 2.0 * padding } else { width };
                layout.cells.push(PlacedCell {
                    cell: cell.clone(),
                    rect,
                    pieces,
                    content_x: margin + padding,
                    content_width,
                });
                y += height;
            }
            Measured::Grid(rows, widths) => {
                let total: f32 = widths.iter().sum();
                let extra = if widths.is_empty() { 0.0 } else { (inner - total) / widths.len() as f32 };
                for row in rows {
                    let mut x = margin;
                    for ((cell, (pieces, width)), column) in row.into_iter().zip(&widths) {
                        let column = column + extra;
                        let content_width =
                            if matches!(cell.content, Content::Slider(_)) { column - 2.0 * padding } else { width };
                        layout.cells.push(PlacedCell {
                            cell: cell.clone(),
                            rect: Rect::new(x, y, column, height),
                            pieces,
                            content_x: x + (column - content_width) / 2.0,
                            content_width,
                        });
                        x += column;
                    }
                    y += height;
                }
            }
            Measured::Separator => {
                layout.separators.push(y + margin / 2.0);
                y += margin;
            }
        }
    }
    layout.height = y + margin;
    layout
}

/// A cell with its pieces as fitted, and how wide they are together.
type MeasuredCell<'a> = (&'a Cell, (Vec<(Piece, f32)>, f32));

/// A block with its cells measured: a grid with its columns' widths.
enum Measured<'a> {
    Line(&'a Cell, (Vec<(Piece, f32)>, f32)),
    Grid(Vec<Vec<MeasuredCell<'a>>>, Vec<f32>),
    Separator,
}

impl PopupLayout {
    /// Its size in whole logical pixels, rounded up: the window or
    /// surface that shows it.
    pub fn size(&self) -> (u32, u32) {
        (self.width.ceil() as u32, self.height.ceil() as u32)
    }

    /// The cell at (`x`, `y`), if any.
    pub fn cell_at(&self, x: f32, y: f32) -> Option<&PlacedCell> {
        self.index_at(x, y).map(|index| &self.cells[index])
    }

    /// The index in `cells` of the cell at (`x`, `y`), if any.
    pub fn index_at(&self, x: f32, y: f32) -> Option<usize> {
        self.cells.iter().position(|placed| {
            let rect = placed.rect;
            (rect.x..rect.right()).contains(&x) && (rect.y..rect.bottom()).contains(&y)
        })
    }
}

impl PlacedCell {
    /// The value a slider takes when clicked (or dragged) at `x`: where `x`
    /// falls along its track, 0..=100.
    pub fn slider_value_at(&self, x: f32) -> u8 {
        let along = (x - self.content_x) / self.content_width.max(1.0);
        (along.clamp(0.0, 1.0) * 100.0).round() as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::BarConfig;
    use crate::view::popup::PopupInput;
    use crate::view::{Emphasis, Input, Inputs};

    fn style() -> Style {
        Style::from_config(&BarConfig::embedded_default())
    }

    /// Every character 10 pixels wide.
    fn fit(piece: &Piece) -> (Piece, f32) {
        let width = match piece {
            Piece::Text(text) => text.chars().count() as f32 * 10.0,
            _ => 10.0,
        };
        (piece.clone(), width)
    }

    fn assert_close(left: f32, right: f32, what: &str) {
        assert!((left - right).abs() < 1e-3, "{what}: {left} is not {right}");
    }

    fn text(key: &str, text: &str) -> Cell {
        Cell { key: key.into(), content: Content::Label(vec![Piece::Text(text.into())]), ..Cell::label(Vec::new()) }
    }

    #[test]
    fn grid_columns_are_as_wide_as_their_widest_cell_and_fill_the_popup() {
        let style = style();
        let padding = item_padding(&style);
        let popup = Popup {
            item_key: "date".into(),
            blocks: vec![
                Block::Line(text("", "a long title line here")),
                Block::Separator,
                Block::Grid(vec![vec![text("", "Mo"), text("a", "1")], vec![text("", "Tu"), text("b", "10")]]),
            ],
        };
        let layout = lay_out_popup(&popup, &style, &mut fit);
        let margin = popup_margin(&style);
        let inner = 220.0 + 2.0 * padding;
        assert_close(layout.width, inner + 2.0 * margin, "width");
        assert_close(layout.height, 3.0 * row_height(&style) + 3.0 * margin, "height");
        assert_close(layout.separators[0], margin + row_height(&style) + margin / 2.0, "separator");
        let [title, mo, one, tu, ten] = layout.cells.as_slice() else { panic!("{layout:?}") };
        assert_close(title.rect.width, inner, "a line's width");
        assert_close(title.content_x, margin + padding, "a line's start");
        // Two columns of 20 + padding, stretched to the inner width alike.
        assert_close(mo.rect.width, inner / 2.0, "a column");
        assert_close(one.rect.x, margin + inner / 2.0, "the second column");
        assert_close(ten.content_x, one.rect.x + (inner / 2.0 - 20.0) / 2.0, "centred in its column");
        assert_close(tu.rect.y, mo.rect.bottom(), "the second row");
        assert_eq!(
            layout.cell_at(ten.rect.x + 1.0, ten.rect.y + 1.0).map(|placed| placed.cell.key.as_str()),
            Some("b")
        );
        assert_eq!(layout.cell_at(0.0, 0.0), None, "the margin is no cell");
    }

    #[test]
    fn a_slider_spans_its_line_and_is_read_where_it_is_clicked() {
        let style = style();
        let slider = Cell {
            key: "volume".into(),
            content: Content::Slider(40),
            emphasis: Emphasis::Normal,
            takes: Inputs::NONE,
        };
        let popup = Popup { item_key: "volume".into(), blocks: vec![Block::Line(slider)] };
        let layout = lay_out_popup(&popup, &style, &mut fit);
        let placed = &layout.cells[0];
        assert!(
            placed.cell.answers(PopupInput::Slide(0)) && !placed.cell.answers(PopupInput::Input(Input::PrimaryClick))
        );
        assert_eq!(placed.slider_value_at(placed.content_x - 5.0), 0);
        assert_eq!(placed.slider_value_at(placed.content_x + placed.content_width / 4.0), 25);
        assert_eq!(placed.slider_value_at(placed.content_x + placed.content_width + 5.0), 100);
    }
}

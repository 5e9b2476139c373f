//! A widget's popup as the host keeps it: lines and grids of cells that
//! open beside one of its items, checked once when it crosses the sandbox
//! boundary, like the view it came with.

use super::{Emphasis, Input, Inputs, Item, Piece, check_pieces};

#[derive(Debug, Clone, PartialEq)]
pub struct Popup {
    /// The item of the widget's view it opens beside.
    pub item_key: String,
    pub blocks: Vec<Block>,
}

/// A part of a popup, from top to bottom.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// One cell across the popup, from its left.
    Line(Cell),
    /// Rows of cells in columns as wide as their widest cell, each centred
    /// in its column.
    Grid(Vec<Vec<Cell>>),
    Separator,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// Names the cell in the widget's popup input; empty when it takes none.
    pub key: String,
    pub content: Content,
    pub emphasis: Emphasis,
    pub takes: Inputs,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    Label(Vec<Piece>),
    /// Answers a primary click, whatever the cell's `takes` says.
    Button(Vec<Piece>),
    /// A horizontal slider at 0..=100.
    Slider(u8),
}

/// Input inside a popup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PopupInput {
    /// A click or a scroll on a cell.
    Input(Input),
    /// A slider slid to this value, 0..=100.
    Slide(u8),
}

/// Bounds on a popup; past them it is rejected as the widget's fault.
pub mod limits {
    pub const BLOCKS: usize = 64;
    pub const CELLS: usize = 512;
    pub const CELLS_PER_ROW: usize = 16;
}

impl Cell {
    /// A cell showing `pieces` that takes no input.
    pub fn label(pieces: Vec<Piece>) -> Cell {
        Cell { key: String::new(), content: Content::Label(pieces), emphasis: Emphasis::Normal, takes: Inputs::NONE }
    }

    /// Whether the cell answers `input`.
    pub fn answers(&self, input: PopupInput) -> bool {
        if self.key.is_empty() {
            return false;
        }
        match (&self.content, input) {
            (Content::Slider(_), PopupInput::Slide(_)) => true,
            (_, PopupInput::Slide(_)) => false,
            (Content::Button(_), PopupInput::Input(Input::PrimaryClick)) => true,
            (_, PopupInput::Input(input)) => self.takes.takes(input),
        }
    }

    fn pieces(&self) -> &[Piece] {
        match &self.content {
            Content::Label(pieces) | Content::Button(pieces) => pieces,
            Content::Slider(_) => &[],
        }
    }

    pub(super) fn pieces_mut(&mut self) -> &mut [Piece] {
        match &mut self.content {
            Content::Label(pieces) | Content::Button(pieces) => pieces,
            Content::Slider(_) => &mut [],
        }
    }
}

impl Popup {
    /// Every cell, block by block, row by row.
    pub fn cells(&self) -> impl Iterator<Item = &Cell> {
        self.blocks.iter().flat_map(|block| -> Box<dyn Iterator<Item = &Cell>> {
            match block {
                Block::Line(cell) => Box::new(std::iter::once(cell)),
                Block::Grid(rows) => Box::new(rows.iter().flatten()),
                Block::Separator => Box::new(std::iter::empty()),
            }
        })
    }

    pub(super) fn cells_mut(&mut self) -> impl Iterator<Item = &mut Cell> {
        self.blocks.iter_mut().flat_map(|block| -> Box<dyn Iterator<Item = &mut Cell>> {
            match block {
                Block::Line(cell) => Box::new(std::iter::once(cell)),
                Block::Grid(rows) => Box::new(rows.iter_mut().flatten()),
                Block::Separator => Box::new(std::iter::empty()),
            }
        })
    }

    /// The cell named `key`, when one answers input.
    pub fn cell(&self, key: &str) -> Option<&Cell> {
        self.cells().find(|cell| !cell.key.is_empty() && cell.key == key)
    }

    /// Checks the limits, that it opens beside one of `items`, that cell
    /// keys are unique, and the cells' pieces as an item's are checked.
    pub fn validate(&self, items: &[Item]) -> Result<(), String> {
        if !items.iter().any(|item| item.key == self.item_key) {
            return Err(format!("the popup opens beside item {:?}, which the view does not have", self.item_key));
        }
        if self.blocks.len() > limits::BLOCKS {
            return Err(format!("the popup has {} blocks; at most {} are allowed", self.blocks.len(), limits::BLOCKS));
        }
        let wide = self.blocks.iter().filter_map(|block| match block {
            Block::Grid(rows) => rows.iter().map(Vec::len).find(|cells| *cells > limits::CELLS_PER_ROW),
            _ => None,
        });
        if let Some(cells) = wide.max() {
            return Err(format!("a popup row has {cells} cells; at most {} are allowed", limits::CELLS_PER_ROW));
        }
        let cells = self.cells().count();
        if cells > limits::CELLS {
            return Err(format!("the popup has {cells} cells; at most {} are allowed", limits::CELLS));
        }
        let mut keys = std::collections::HashSet::new();
        for cell in self.cells() {
            let name = format!("popup cell {:?}", cell.key);
            if !cell.key.is_empty() && !keys.insert(cell.key.as_str()) {
                return Err(format!("{name} is used twice"));
            }
            if let Content::Slider(value) = cell.content
                && value > 100
            {
                return Err(format!("{name} has a slider at {value}; sliders go from 0 to 100"));
            }
            check_pieces(&name, cell.pieces(), [cell.key.as_str()])?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(key: &str) -> Item {
        Item {
            key: key.into(),
            pieces: Vec::new(),
            emphasis: Emphasis::Normal,
            takes: Inputs::NONE,
            tooltip: None,
            look: None,
        }
    }

    fn button(key: &str) -> Cell {
        Cell { key: key.into(), content: Content::Button(vec![Piece::Text(key.into())]), ..Cell::label(Vec::new()) }
    }

    fn popup(blocks: Vec<Block>) -> Popup {
        Popup { item_key: "date".into(), blocks }
    }

    #[test]
    fn a_calendar_like_popup_is_accepted_and_its_cells_found_by_key() {
        let days = (1..=7).map(|day| Cell::label(vec![Piece::Text(day.to_string())])).collect();
        let calendar = popup(vec![
            Block::Grid(vec![vec![button("previous"), Cell::label(vec![Piece::Text("May".into())]), button("next")]]),
            Block::Separator,
            Block::Grid(vec![days]),
        ]);
        assert_eq!(calendar.validate(&[item("date")]), Ok(()));
        assert_eq!(calendar.cells().count(), 10);
        assert_eq!(calendar.cell("next"), Some(&button("next")));
        assert_eq!(calendar.cell(""), None, "a cell without a key takes no input");
    }

    #[test]
    fn it_must_open_beside_an_item_of_the_view() {
        let error = popup(Vec::new()).validate(&[item("time")]).unwrap_err();
        assert!(error.contains("\"date\""), "{error}");
    }

    #[test]
    fn keys_are_unique_sliders_stay_in_range_and_rows_are_bounded() {
        let twice = popup(vec![Block::Line(button("a")), Block::Line(button("a"))]);
        assert!(twice.validate(&[item("date")]).unwrap_err().contains("used twice"));
        let slider = Cell { key: "volume".into(), content: Content::Slider(101), ..Cell::label(Vec::new()) };
        assert!(popup(vec![Block::Line(slider)]).validate(&[item("date")]).unwrap_err().contains("101"));
        let wide =
            popup(vec![Block::Grid(vec![(0..=limits::CELLS_PER_ROW).map(|_| Cell::label(Vec::new())).collect()])]);
        assert!(wide.validate(&[item("date")]).unwrap_err().contains("cells"));
        let long = Cell::label(vec![Piece::Text("x".repeat(super::super::limits::TEXT_BYTES + 1))]);
        assert!(popup(vec![Block::Line(long)]).validate(&[item("date")]).unwrap_err().contains("bytes"));
    }

    #[test]
    fn buttons_answer_a_primary_click_sliders_a_slide_labels_what_they_take() {
        assert!(button("ok").answers(PopupInput::Input(Input::PrimaryClick)));
        assert!(!button("ok").answers(PopupInput::Slide(3)));
        assert!(!Cell::label(Vec::new()).answers(PopupInput::Input(Input::PrimaryClick)), "no key, no input");
        let day = Cell { key: "1".into(), takes: Inputs::SCROLL, ..Cell::label(Vec::new()) };
        assert!(day.answers(PopupInput::Input(Input::Scroll(super::super::ScrollDirection::Up))));
        assert!(!day.answers(PopupInput::Input(Input::PrimaryClick)));
        let slider = Cell { key: "v".into(), content: Content::Slider(5), ..Cell::label(Vec::new()) };
        assert!(slider.answers(PopupInput::Slide(50)));
    }
}

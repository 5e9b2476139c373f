//! The popup a widget of the bar has open: whose it is, beside which item,
//! where its cells went, and the slider being dragged; and what a press
//! means for it. While a popup is open its grab reports the pointer
//! anywhere on the screen ([`Grabbed`]): a press on the popup is input for
//! the cell under it, one on the bar closes the popup (and is the bar's
//! unless it was on the popup's own item, which it only closes), one
//! anywhere else closes it (and is the press of another of the process's
//! bars it falls on: see `fleet`), and so does Escape. The cell a click would
//! reach is lit while the pointer is on it; the arrow keys light the one
//! before or after, and Return clicks the lit one, as a menu's keys do.

use crate::render::{PopupLayout, Rect, Scene};
use crate::scheduler::WidgetEvent;
use crate::view::popup::{Content, Popup, PopupInput};
use crate::view::{Input, WidgetState};

/// The pointer and the keyboard while a popup holds them, in the screen's
/// device pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grabbed {
    Pressed {
        input: Input,
        at: (i32, i32),
    },
    /// Moved (perhaps with a button held).
    Moved {
        at: (i32, i32),
    },
    Released,
    Key(PopupKey),
}

/// What the keyboard does to an open popup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PopupKey {
    /// Escape: it closes.
    Close,
    /// Up, Left: the cell before is lit.
    Previous,
    /// Down, Right, Tab: the cell after is lit.
    Next,
    /// Return, Enter, Space: the lit cell is clicked.
    Choose,
}

/// Where a point of the screen falls, in logical pixels of what it is on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Located {
    Popup(f32, f32),
    Bar(f32, f32),
    Elsewhere,
}

#[derive(Debug)]
pub struct OpenPopup {
    /// The widget's index in the scene.
    pub widget: usize,
    pub popup: Popup,
    /// Where the item it is beside is on the bar.
    pub anchor: Rect,
    pub layout: PopupLayout,
    /// The slider a press went down on, while the button is held.
    dragging: Option<String>,
}

/// The popup the scene's widgets want open: the first widget's that has
/// one (the widgets' thread keeps it to one at a time), with its index.
pub fn wanted(scene: &Scene) -> Option<(usize, &Popup)> {
    scene.widgets.iter().enumerate().find_map(|(index, widget)| match &widget.state {
        WidgetState::Ready(view) => view.popup.as_ref().map(|popup| (index, popup)),
        _ => None,
    })
}

impl OpenPopup {
    pub fn new(widget: usize, popup: Popup, anchor: Rect, layout: PopupLayout) -> OpenPopup {
        OpenPopup { widget, popup, anchor, layout, dragging: None }
    }

    /// Whether it shows `popup` of `widget` beside `anchor` already.
    pub fn shows(&self, widget: usize, popup: &Popup, anchor: Rect) -> bool {
        self.widget == widget && self.anchor == anchor && &self.popup == popup
    }

    /// Input pressed at (`x`, `y`) on the popup: for the cell there when it
    /// answers it (a primary press on a slider slides it to there, and
    /// holds it for dragging).
    pub fn press(&mut self, input: Input, x: f32, y: f32) -> Option<WidgetEvent> {
        let placed = self.layout.cell_at(x, y)?;
        let event = match (&placed.cell.content, input) {
            (Content::Slider(_), Input::PrimaryClick) => {
                self.dragging = Some(placed.cell.key.clone());
                PopupInput::Slide(placed.slider_value_at(x))
            }
            _ => PopupInput::Input(input),
        };
        placed.cell.answers(event).then(|| self.event(&placed.cell.key.clone(), event))
    }

    /// The pointer is at (`x`, `y`) on the popup, or off it: the cell a
    /// click there would reach is lit. Whether that changed what is lit.
    pub fn hover(&mut self, at: Option<(f32, f32)>) -> bool {
        let clicked = PopupInput::Input(Input::PrimaryClick);
        let index = at.and_then(|(x, y)| self.layout.index_at(x, y));
        let lit = index.filter(|&index| self.layout.cells[index].cell.answers(clicked));
        let changed = lit != self.layout.hovered;
        self.layout.hovered = lit;
        changed
    }

    /// Lights the cell a click would reach before (or after) the lit one,
    /// going round; the first (or the last) when none is lit. Whether
    /// that changed what is lit.
    pub fn step(&mut self, forward: bool) -> bool {
        let clicked = PopupInput::Input(Input::PrimaryClick);
        let clickable: Vec<usize> =
            (0..self.layout.cells.len()).filter(|&index| self.layout.cells[index].cell.answers(clicked)).collect();
        let Some(&last) = clickable.last() else { return false };
        let at = self.layout.hovered.and_then(|lit| clickable.iter().position(|&index| index == lit));
        let next = match (at, forward) {
            (None, true) => clickable[0],
            (None, false) => last,
            (Some(at), true) => clickable[(at + 1) % clickable.len()],
            (Some(at), false) => clickable[(at + clickable.len() - 1) % clickable.len()],
        };
        let changed = self.layout.hovered != Some(next);
        self.layout.hovered = Some(next);
        changed
    }

    /// The key of the lit cell, if one is.
    pub fn lit_key(&self) -> Option<String> {
        Some(self.layout.cells[self.layout.hovered?].cell.key.clone())
    }

    /// Takes over from `earlier`, the same widget's popup as it was: the
    /// cell lit stays lit and a slider held stays held (a level read back
    /// mid-drag re-describes the popup under the pointer). Whether a cell
    /// is lit.
    pub fn carry_on_from(&mut self, earlier: &OpenPopup) -> bool {
        let still_here = |key: &String| self.layout.cells.iter().any(|placed| &placed.cell.key == key);
        self.dragging = earlier.dragging.clone().filter(still_here);
        let lit = earlier.layout.hovered.map(|index| earlier.layout.cells[index].cell.key.as_str());
        lit.is_some_and(|key| self.light(key))
    }

    /// Lights the cell named `key` when a click would reach it; whether it did.
    fn light(&mut self, key: &str) -> bool {
        let clicked = PopupInput::Input(Input::PrimaryClick);
        let cells = &self.layout.cells;
        let index = cells.iter().position(|placed| placed.cell.key == key && placed.cell.answers(clicked));
        self.layout.hovered = index;
        index.is_some()
    }

    /// A click on the lit cell, if one is.
    pub fn choose(&self) -> Option<WidgetEvent> {
        let placed = &self.layout.cells[self.layout.hovered?];
        Some(self.event(&placed.cell.key, PopupInput::Input(Input::PrimaryClick)))
    }

    /// The pointer dragged to `x` on the popup: the slider held slides.
    pub fn drag(&self, x: f32) -> Option<WidgetEvent> {
        let key = self.dragging.as_ref()?;
        let placed = self.layout.cells.iter().find(|placed| &placed.cell.key == key)?;
        Some(self.event(key, PopupInput::Slide(placed.slider_value_at(x))))
    }

    /// `input` for the cell named `key`, when it answers it: what
    /// assistive technology asks of a cell (a click, a slider's value).
    pub fn act(&self, key: &str, input: PopupInput) -> Option<WidgetEvent> {
        let cell = self.popup.cell(key)?;
        cell.answers(input).then(|| self.event(key, input))
    }

    pub fn release(&mut self) {
        self.dragging = None;
    }

    fn event(&self, cell: &str, input: PopupInput) -> WidgetEvent {
        WidgetEvent::PopupInput { widget: self.widget, key: self.popup.item_key.clone(), cell: cell.to_owned(), input }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::BarConfig;
    use crate::render::{Style, lay_out_popup};
    use crate::view::popup::{Block, Cell};
    use crate::view::{Inputs, Piece, ScrollDirection};

    fn open(blocks: Vec<Block>) -> OpenPopup {
        let popup = Popup { item_key: "volume".into(), blocks };
        let style = Style::from_config(&BarConfig::embedded_default());
        let layout = lay_out_popup(&popup, &style, &mut |piece| (piece.clone(), 40.0));
        OpenPopup::new(3, popup, Rect::default(), layout)
    }

    fn cell(key: &str, content: Content, takes: Inputs) -> Cell {
        Cell { key: key.into(), content, takes, ..Cell::label(Vec::new()) }
    }

    fn slid(event: Option<WidgetEvent>) -> Option<u8> {
        match event {
            Some(WidgetEvent::PopupInput { widget: 3, key, cell, input: PopupInput::Slide(value) })
                if key == "volume" && cell == "level" =>
            {
                Some(value)
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_press_on_a_slider_slides_it_and_a_drag_follows_until_released() {
        let mut popup = open(vec![Block::Line(cell("level", Content::Slider(10), Inputs::NONE))]);
        let track = popup.layout.cells[0].clone();
        let middle = track.rect.y + track.rect.height / 2.0;
        let at = |fraction: f32| track.content_x + track.content_width * fraction;
        assert_eq!(slid(popup.press(Input::PrimaryClick, at(0.5), middle)), Some(50));
        assert_eq!(slid(popup.drag(at(0.75))), Some(75));
        assert_eq!(slid(popup.drag(at(2.0))), Some(100), "past its end, the slider is full");
        popup.release();
        assert_eq!(popup.drag(at(0.2)), None);
        assert_eq!(popup.press(Input::SecondaryClick, at(0.5), middle), None, "it takes no other input");
    }

    #[test]
    fn a_popup_described_anew_mid_drag_keeps_the_slider_held() {
        let mut earlier = open(vec![Block::Line(cell("level", Content::Slider(10), Inputs::NONE))]);
        let track = earlier.layout.cells[0].clone();
        let middle = track.rect.y + track.rect.height / 2.0;
        let at = |fraction: f32| track.content_x + track.content_width * fraction;
        slid(earlier.press(Input::PrimaryClick, at(0.1), middle));

        let mut read_back = open(vec![Block::Line(cell("level", Content::Slider(10), Inputs::NONE))]);
        read_back.carry_on_from(&earlier);
        assert_eq!(slid(read_back.drag(at(0.75))), Some(75), "the drag goes on");

        let mut other = open(vec![Block::Line(cell("balance", Content::Slider(10), Inputs::NONE))]);
        other.carry_on_from(&earlier);
        assert_eq!(other.drag(at(0.75)), None, "a slider no longer there is not held");
    }

    #[test]
    fn the_cell_a_click_would_reach_is_lit_under_the_pointer() {
        let mut popup = open(vec![
            Block::Line(cell("mute", Content::Button(vec![Piece::Text("Mute".into())]), Inputs::NONE)),
            Block::Line(cell("", Content::Label(vec![Piece::Text("Output".into())]), Inputs::NONE)),
            Block::Line(cell("level", Content::Slider(10), Inputs::NONE)),
        ]);
        let centre = |index: usize| {
            let rect = popup.layout.cells[index].rect;
            (rect.x + rect.width / 2.0, rect.y + rect.height / 2.0)
        };
        let (button, label, slider) = (centre(0), centre(1), centre(2));
        assert!(popup.hover(Some(button)), "lighting the button is a change");
        assert_eq!(popup.layout.hovered, Some(0));
        assert!(!popup.hover(Some((button.0 + 1.0, button.1))), "still the button: nothing to paint");
        assert!(popup.hover(Some(label)) && popup.layout.hovered.is_none(), "a label takes no click");
        assert!(!popup.hover(Some(slider)), "nor is a slider lit");
        popup.hover(Some(button));
        assert!(popup.hover(None) && popup.layout.hovered.is_none(), "off the popup, nothing is lit");
    }

    #[test]
    fn the_keys_light_the_clickable_cells_in_turn_and_choose_the_lit_one() {
        let button = |key: &str| cell(key, Content::Button(vec![Piece::Text(key.into())]), Inputs::NONE);
        let mut popup = open(vec![
            Block::Line(button("lock")),
            Block::Line(cell("", Content::Label(vec![Piece::Text("or".into())]), Inputs::NONE)),
            Block::Line(button("reboot")),
        ]);
        assert_eq!(popup.choose(), None, "nothing lit, nothing chosen");
        assert!(popup.step(true));
        assert_eq!(popup.layout.hovered, Some(0));
        assert!(popup.step(true));
        assert_eq!(popup.layout.hovered, Some(2), "the label is passed over");
        assert!(popup.step(true));
        assert_eq!(popup.layout.hovered, Some(0), "round to the first");
        assert!(popup.step(false));
        assert_eq!(popup.layout.hovered, Some(2), "and back round to the last");
        match popup.choose() {
            Some(WidgetEvent::PopupInput {
                widget: 3, cell, input: PopupInput::Input(Input::PrimaryClick), ..
            }) => {
                assert_eq!(cell, "reboot")
            }
            other => panic!("{other:?}"),
        }
        let mut nothing_to_click = open(vec![Block::Line(cell("", Content::Label(Vec::new()), Inputs::NONE))]);
        assert!(!nothing_to_click.step(true));
        assert_eq!(popup.lit_key().as_deref(), Some("reboot"));
        let mut again = open(popup.popup.blocks.clone());
        assert!(again.light("reboot") && again.layout.hovered == Some(2), "lit again by its key once redrawn");
        assert!(!again.light(""), "a label is never lit");
    }

    #[test]
    fn a_press_reaches_a_cell_that_takes_it_and_no_other() {
        let mut popup = open(vec![
            Block::Line(cell("mute", Content::Button(vec![Piece::Text("Mute".into())]), Inputs::NONE)),
            Block::Line(cell("", Content::Label(vec![Piece::Text("Output".into())]), Inputs::ALL)),
            Block::Line(cell("speakers", Content::Label(vec![Piece::Text("Speakers".into())]), Inputs::SCROLL)),
        ]);
        let centres: Vec<(f32, f32)> = popup
            .layout
            .cells
            .iter()
            .map(|placed| (placed.rect.x + placed.rect.width / 2.0, placed.rect.y + placed.rect.height / 2.0))
            .collect();
        let centre = |index: usize| centres[index];
        let (x, y) = centre(0);
        assert!(matches!(
            popup.press(Input::PrimaryClick, x, y),
            Some(WidgetEvent::PopupInput { cell, input: PopupInput::Input(Input::PrimaryClick), .. }) if cell == "mute"
        ));
        let (x, y) = centre(1);
        assert_eq!(popup.press(Input::PrimaryClick, x, y), None, "a cell without a key takes nothing");
        let (x, y) = centre(2);
        assert_eq!(popup.press(Input::PrimaryClick, x, y), None);
        let scrolled = popup.press(Input::Scroll(ScrollDirection::Down), x, y);
        assert!(matches!(scrolled, Some(WidgetEvent::PopupInput { cell, .. }) if cell == "speakers"));
        assert_eq!(popup.press(Input::PrimaryClick, 0.0, 0.0), None, "the margin");
    }
}

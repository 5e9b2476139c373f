//! The pointer over a running bar: the item it rests on, whose tooltip
//! shows after a while; presses (a second primary click soon after, near
//! the first, a double click) and scrolls (in whole ticks of the `mouse`
//! config's thresholds), given to the item under the pointer when it takes
//! them, else done as the `mouse` config says.

use super::Running;
use crate::bar::{Route, Surface};
use crate::render::Rect;
use crate::view::Input;
use std::time::{Duration, Instant};

/// How long the cursor rests on an item before its tooltip shows.
const TOOLTIP_DELAY: Duration = Duration::from_millis(500);

/// The item under the cursor, when it has a tooltip.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Hover {
    /// The item: its widget's index in the scene, and its key.
    widget: usize,
    key: String,
    text: String,
    /// Where the item is on the surface.
    anchor: Rect,
    due: Instant,
    shown: bool,
}

impl Running {
    /// The pointer moved to (`x`, `y`): a new item with a tooltip under it
    /// starts the wait for its tooltip; anything else hides the one shown.
    pub fn pointer_moved(&mut self, x: f32, y: f32, surface: &mut dyn Surface) {
        self.cursor = (x, y);
        self.pointer_on_bar = true;
        let target = self.hover_at(x);
        let same =
            matches!((&self.hover, &target), (Some(old), Some(new)) if old.widget == new.widget && old.key == new.key);
        if !same {
            self.end_hover(surface);
            self.hover = target;
        }
    }

    /// The item at `x`, to be hovered, when it has a tooltip.
    fn hover_at(&self, x: f32) -> Option<Hover> {
        let placed = self.bar.item_at(x)?;
        Some(Hover {
            widget: placed.widget,
            key: placed.item.key.clone(),
            text: placed.item.tooltip.clone()?,
            anchor: placed.rect,
            due: Instant::now() + TOOLTIP_DELAY,
            shown: false,
        })
    }

    pub fn pointer_left(&mut self, surface: &mut dyn Surface) {
        self.pointer_on_bar = false;
        self.end_hover(surface);
        self.scroll_ticks.reset();
    }

    /// A button was pressed where the pointer is; a second primary click
    /// soon after the first, near it, is a double click.
    pub fn pressed(&mut self, input: Input, surface: &mut dyn Surface) {
        if self.popup.is_some() {
            return self.press_on_bar_with_popup(input, surface);
        }
        self.end_hover(surface);
        let input = match input {
            Input::PrimaryClick if self.double_clicks.press(Instant::now(), self.cursor) => Input::DoubleClick,
            other => other,
        };
        self.dispatch(input, surface);
    }

    /// Scrolled `points` (x: positive left; y: positive up); each whole
    /// tick of the `mouse` config's thresholds is one scroll input.
    pub fn scrolled(&mut self, points: (f32, f32), surface: &dyn Surface) {
        let (horizontal, vertical) = self.bar.mouse().thresholds;
        for direction in self.scroll_ticks.scroll(points, horizontal, vertical) {
            self.dispatch(Input::Scroll(direction), surface);
        }
    }

    /// When the tooltip of the item the pointer rests on is due, when one waits.
    pub fn tooltip_due(&self) -> Option<Instant> {
        self.hover.as_ref().filter(|hover| !hover.shown).map(|hover| hover.due)
    }

    /// Shows the tooltip that is due.
    pub fn show_tooltip(&mut self, surface: &mut dyn Surface) {
        let Some(hover) = &mut self.hover else { return };
        hover.shown = true;
        surface.show_tooltip(hover.anchor, &hover.text, &self.bar.scene().style);
    }

    /// The text of the tooltip shown, when one is.
    pub fn shown_tooltip(&self) -> Option<&str> {
        self.hover.as_ref().filter(|hover| hover.shown).map(|hover| hover.text.as_str())
    }

    pub(super) fn end_hover(&mut self, surface: &mut dyn Surface) {
        if self.hover.take().is_some_and(|hover| hover.shown) {
            surface.hide_tooltip();
        }
    }

    /// The hovered item after a repaint: gone, its tooltip goes; moved or
    /// with new text, its tooltip follows. An item that came to be under a
    /// pointer resting on the bar (the bar's first items, a workspace
    /// added) is hovered as if the pointer had moved onto it.
    pub(super) fn follow_hovered_item(&mut self, surface: &mut dyn Surface) {
        let Some(hover) = &self.hover else {
            if self.pointer_on_bar {
                self.hover = self.hover_at(self.cursor.0);
            }
            return;
        };
        let now =
            self.bar.shown().items.iter().find(|placed| placed.widget == hover.widget && placed.item.key == hover.key);
        match now.and_then(|placed| Some((placed.rect, placed.item.tooltip.clone()?))) {
            None => self.end_hover(surface),
            Some((anchor, text)) if anchor != hover.anchor || text != hover.text => {
                let Some(hover) = &mut self.hover else { return };
                (hover.anchor, hover.text) = (anchor, text);
                if hover.shown {
                    surface.show_tooltip(hover.anchor, &hover.text, &self.bar.scene().style);
                }
            }
            Some(_) => {}
        }
    }

    /// Gives `input` to the item under the pointer when it takes it, and
    /// else does what the bar's `mouse` config says.
    fn dispatch(&self, input: Input, surface: &dyn Surface) {
        self.dispatch_at(input, self.cursor, surface);
    }

    /// Gives `input` at `at` on the bar to the item there when it takes
    /// it, and else does what the bar's `mouse` config says.
    pub(super) fn dispatch_at(&self, input: Input, at: (f32, f32), surface: &dyn Surface) {
        match self.bar.route(input, at, surface.origin()) {
            Route::Widget(event) => self.scheduler.send(event),
            Route::Bar(action) => {
                tracing::debug!("{input:?} on the bar: {action:?}");
                action.run(&self.tiler);
            }
            Route::Nothing => tracing::debug!("{input:?} on the bar: nothing to do"),
        }
    }
}

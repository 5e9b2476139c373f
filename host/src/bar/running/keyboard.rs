//! The keyboard on a running bar. `obi msg focus` has its surface take
//! the keyboard (a keyboard grab on X11, an exclusive layer surface on
//! Wayland, the foreground on Windows) and rings the first item a click
//! reaches in the theme's accent; Tab and the arrows move the ring among
//! those items, Return and Space click the one ringed, Shift+F10 and the
//! Menu key give it a secondary click (a popup, a menu); Escape, or `obi
//! msg focus` again, gives the keyboard back to the window that had it.
//! While a popup is open its own keys work (see `popups`). Assistive
//! technology is told where the focus is.

use super::{BarEvent, Running};
use crate::access::Target;
use crate::bar::Surface;
use crate::render::Layout;
use std::sync::Arc;

/// What a key does on a bar that holds the keyboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BarKey {
    /// Tab, Right, Down: the next item.
    Next,
    /// Shift+Tab, Left, Up: the one before.
    Previous,
    /// Return, Enter, Space: its click.
    Press,
    /// Shift+F10, Menu: its secondary click.
    Menu,
    /// Escape: the keyboard goes back.
    Release,
}

impl Running {
    /// `obi msg focus`: takes the keyboard, or gives it back when the bar
    /// holds it.
    pub fn toggle_keyboard(&mut self, surface: &mut dyn Surface) {
        if self.keyboard_held {
            return self.release_keyboard(surface);
        }
        if self.hidden {
            tracing::info!("focus asked for, but the bar is hidden: the keyboard stays where it is");
            return;
        }
        let items = self.keyboard_items(self.bar.shown());
        let Some(first) = items.first().cloned() else {
            tracing::info!("focus asked for, but no item of the bar takes a click: the keyboard stays where it is");
            return;
        };
        if !surface.hold_keyboard(true) {
            return;
        }
        self.keyboard_held = true;
        if !self.focus.as_ref().is_some_and(|focus| items.contains(focus)) {
            self.focus = Some(first);
        }
        self.show_focus(surface);
    }

    /// Where a surface's hold on the keyboard reports keys from another
    /// thread: this bar, on the event loop.
    pub fn report_key(&self) -> Arc<dyn Fn(BarKey) -> bool + Send + Sync> {
        let (deliver, bar) = (self.deliver.clone(), self.id);
        Arc::new(move |key| deliver(BarEvent::Key { bar, key }))
    }

    /// Gives the keyboard back to the window that had it.
    pub fn release_keyboard(&mut self, surface: &mut dyn Surface) {
        if std::mem::take(&mut self.keyboard_held) {
            surface.hold_keyboard(false);
            self.show_focus(surface);
        }
    }

    /// The surface lost the keyboard to another window.
    pub fn keyboard_lost(&mut self, surface: &mut dyn Surface) {
        if std::mem::take(&mut self.keyboard_held) {
            self.show_focus(surface);
        }
    }

    /// Whether the bar holds the keyboard.
    pub fn holds_keyboard(&self) -> bool {
        self.keyboard_held
    }

    /// A key pressed while the bar holds the keyboard.
    pub fn key(&mut self, key: BarKey, surface: &mut dyn Surface) {
        if !self.keyboard_held {
            return;
        }
        match key {
            BarKey::Next => self.step_focus(true, surface),
            BarKey::Previous => self.step_focus(false, surface),
            BarKey::Press | BarKey::Menu => {
                if let Some(Target::Item { widget, key: item }) = self.focus.clone() {
                    self.press_item(widget, &item, key == BarKey::Menu, surface);
                }
            }
            BarKey::Release => self.release_keyboard(surface),
        }
    }

    /// Puts the focus on `target` (assistive technology asked).
    pub(super) fn focus_on(&mut self, target: Target, surface: &mut dyn Surface) {
        self.focus = Some(target);
        self.show_focus(surface);
    }

    /// The ring on the item after (or before) the one ringed, going round.
    fn step_focus(&mut self, forward: bool, surface: &mut dyn Surface) {
        let items = self.keyboard_items(self.bar.shown());
        let Some(last) = items.len().checked_sub(1) else { return };
        let at = self.focus.as_ref().and_then(|focus| items.iter().position(|item| item == focus));
        let next = match (at, forward) {
            (None, true) => 0,
            (None, false) => last,
            (Some(at), true) if at == last => 0,
            (Some(at), true) => at + 1,
            (Some(0), false) => last,
            (Some(at), false) => at - 1,
        };
        self.focus = Some(items[next].clone());
        self.show_focus(surface);
    }

    /// The items the keyboard moves among in `layout`: those a click
    /// reaches, in reading order.
    fn keyboard_items(&self, layout: &Layout) -> Vec<Target> {
        let clicked = layout.items.iter().filter(|placed| placed.item.takes.takes_a_click());
        clicked.map(|placed| Target::Item { widget: placed.widget, key: placed.item.key.clone() }).collect()
    }

    /// Paints the ring where the focus is now, and tells assistive technology.
    fn show_focus(&mut self, surface: &mut dyn Surface) {
        surface.redraw();
        self.publish(surface);
    }

    /// Which item of `layout` a frame rings: the focused one, while the
    /// bar holds the keyboard.
    pub(super) fn focus_ring(&self, layout: &Layout) -> Option<usize> {
        let Some(Target::Item { widget, key }) = self.focus.as_ref().filter(|_| self.keyboard_held) else {
            return None;
        };
        layout.items.iter().position(|placed| placed.widget == *widget && placed.item.key == *key)
    }

    /// After a frame: the focused item gone (a workspace closed), the ring
    /// goes to the first item a click reaches.
    pub(super) fn follow_focus(&mut self, surface: &mut dyn Surface) {
        if !self.keyboard_held || self.focus_ring(self.bar.shown()).is_some() {
            return;
        }
        self.focus = self.keyboard_items(self.bar.shown()).into_iter().next();
        self.show_focus(surface);
    }
}

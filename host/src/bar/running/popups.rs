//! A running bar's widget popup: shown beside its item while the widget
//! has it open, and what reaches it while it holds the pointer and the
//! keyboard (a grab on X11, the focus on Windows, a seat grab on Wayland).

use super::{BarEvent, Running};
use crate::bar::Surface;
use crate::bar::popup::{self, Grabbed, Located, OpenPopup, PopupKey};
use crate::scheduler::WidgetEvent;
use crate::view::Input;
use std::sync::Arc;

impl Running {
    /// Shows the popup a widget has open beside its item, as it is now;
    /// hides the one no widget has open any more.
    pub(super) fn follow_popup(&mut self, surface: &mut dyn Surface) {
        let wanted = popup::wanted(self.bar.scene()).and_then(|(widget, popup)| {
            let shown = self.bar.shown().items.iter();
            let mut beside = shown.filter(|placed| placed.widget == widget && placed.item.key == popup.item_key);
            Some((widget, popup, beside.next()?.rect))
        });
        match wanted {
            None => {
                if self.popup.take().is_some() {
                    surface.hide_popup();
                }
            }
            Some((widget, popup, anchor)) => {
                if self.popup.as_ref().is_some_and(|open| open.shows(widget, popup, anchor)) {
                    return;
                }
                let popup = popup.clone();
                let earlier = self.popup.take().filter(|open| open.widget == widget);
                self.end_hover(surface);
                let style = &self.bar.scene().style;
                let layout = self.measure.lay_out_popup(&popup, style);
                if surface.show_popup(anchor, &layout, style) {
                    let mut open = OpenPopup::new(widget, popup, anchor, layout);
                    if earlier.is_some_and(|earlier| open.carry_on_from(&earlier)) {
                        surface.repaint_popup(&open.layout, style);
                    }
                    self.popup = Some(open);
                } else {
                    // Not shown here: the widget is told, rather than asked again each frame.
                    self.popup = None;
                    self.scheduler.send(WidgetEvent::ClosePopup { widget });
                }
            }
        }
    }

    /// Whether a widget has a popup open, shown or to show.
    pub fn wants_popup(&self) -> bool {
        popup::wanted(self.bar.scene()).is_some()
    }

    /// Where what an open popup's grab sees goes: this bar, on the event loop.
    pub fn report_grabbed(&self) -> Arc<dyn Fn(Grabbed) -> bool + Send + Sync> {
        let (deliver, bar) = (self.deliver.clone(), self.id);
        Arc::new(move |input| deliver(BarEvent::Grabbed { bar, input }))
    }

    /// The pointer or the keyboard while the popup holds them.
    pub fn grabbed(&mut self, input: Grabbed, surface: &mut dyn Surface) {
        if self.popup.is_none() {
            return;
        }
        match input {
            Grabbed::Key(key) => self.popup_key(key, surface),
            Grabbed::Released => self.popup_released(),
            Grabbed::Moved { at } => match surface.locate(at) {
                Located::Popup(x, y) => self.popup_moved(Some((x, y)), surface),
                Located::Bar(..) | Located::Elsewhere => self.popup_moved(None, surface),
            },
            Grabbed::Pressed { input, at } => match surface.locate(at) {
                Located::Popup(x, y) => self.popup_pressed(input, x, y),
                Located::Bar(x, y) => {
                    self.cursor = (x, y);
                    self.press_on_bar_with_popup(input, surface);
                }
                Located::Elsewhere => self.close_popup(surface),
            },
        }
    }

    /// A key pressed while the popup holds the keyboard: Escape closes it,
    /// the arrows light another cell, Return clicks the lit one.
    pub fn popup_key(&mut self, key: PopupKey, surface: &mut dyn Surface) {
        let Some(open) = &mut self.popup else { return };
        let changed = match key {
            PopupKey::Close => return self.close_popup(surface),
            PopupKey::Previous => open.step(false),
            PopupKey::Next => open.step(true),
            PopupKey::Choose => {
                if let Some(event) = open.choose() {
                    self.scheduler.send(event);
                }
                false
            }
        };
        if changed {
            surface.repaint_popup(&open.layout, &self.bar.scene().style);
            self.publish(surface);
        }
    }

    /// Input pressed at (`x`, `y`) on the popup shown.
    pub fn popup_pressed(&mut self, input: Input, x: f32, y: f32) {
        if let Some(event) = self.popup.as_mut().and_then(|open| open.press(input, x, y)) {
            self.scheduler.send(event);
        }
    }

    /// The pointer moved to (`x`, `y`) on the popup shown (none: off it),
    /// perhaps dragging a slider; the cell it is on is lit.
    pub fn popup_moved(&mut self, at: Option<(f32, f32)>, surface: &mut dyn Surface) {
        let Some(open) = &mut self.popup else { return };
        if let Some(event) = at.and_then(|(x, _)| open.drag(x)) {
            self.scheduler.send(event);
        }
        if open.hover(at) {
            surface.repaint_popup(&open.layout, &self.bar.scene().style);
            self.publish(surface);
        }
    }

    pub fn popup_released(&mut self) {
        if let Some(open) = &mut self.popup {
            open.release();
        }
    }

    /// A press on the bar while a popup is open closes it; on the popup's
    /// own item that is all it does (a second click on the date closes the
    /// calendar), elsewhere the press goes on as any press on the bar.
    pub(super) fn press_on_bar_with_popup(&mut self, input: Input, surface: &mut dyn Surface) {
        let Some(open) = &self.popup else { return };
        let on_its_item = self
            .bar
            .item_at(self.cursor.0)
            .is_some_and(|placed| placed.widget == open.widget && placed.item.key == open.popup.item_key);
        self.close_popup(surface);
        if !on_its_item {
            self.pressed(input, surface);
        }
    }

    /// Closes the popup shown: at once on the screen, and in its widget.
    pub fn close_popup(&mut self, surface: &mut dyn Surface) {
        if let Some(open) = self.popup.take() {
            surface.hide_popup();
            self.scheduler.send(WidgetEvent::ClosePopup { widget: open.widget });
            self.publish(surface);
        }
    }
}

//! Painting a running bar: everything after an expose, a resize or a
//! reload; only what its widgets changed otherwise, as one frame for the
//! changes at hand. After each frame the hovered item and the open popup
//! follow what is shown.

use super::Running;
use crate::bar::Surface;
use crate::render::{Frame, Layout, damage};
use crate::view::WidgetState;

impl Running {
    /// Paints and presents everything (after an expose, a resize or a reload).
    pub fn paint_all(&mut self, surface: &mut dyn Surface) {
        self.widgets_changed = false;
        let Some(layout) = tracing::trace_span!("laying the bar out").in_scope(|| self.lay_out(surface)) else {
            return;
        };
        tracing::trace_span!("painting the bar").in_scope(|| {
            let focus = self.focus_ring(&layout);
            surface.present(Frame { style: &self.bar.scene().style, layout: &layout, damage: layout.window, focus });
        });
        self.bar.show(layout);
        self.follow_focus(surface);
        self.follow_hovered_item(surface);
        self.follow_popup(surface);
        self.note_presented();
        self.publish(surface);
    }

    /// Paints and presents only what the widgets changed since the last frame.
    pub fn paint_changes(&mut self, surface: &mut dyn Surface) {
        if !std::mem::take(&mut self.widgets_changed) {
            return;
        }
        let Some(layout) = self.lay_out(surface) else { return };
        if let Some(changed) = damage(self.bar.shown(), &layout, &self.bar.scene().style) {
            tracing::trace!("bar {}: presenting {changed:?}", self.id.0);
            let focus = self.focus_ring(&layout);
            // The ring reaches past its item's own damage: painted whole.
            let damage = if focus.is_some() { layout.window } else { changed };
            surface.present(Frame { style: &self.bar.scene().style, layout: &layout, damage, focus });
            self.bar.show(layout);
            self.follow_focus(surface);
            self.follow_hovered_item(surface);
            self.note_presented();
        }
        // A popup may change while the bar does not.
        self.follow_popup(surface);
        self.publish(surface);
    }

    /// The bar laid out at `surface`'s size; none while it has none.
    fn lay_out(&self, surface: &dyn Surface) -> Option<Layout> {
        let (width, height) = surface.size()?;
        Some(self.measure.lay_out(self.bar.scene(), width, height))
    }

    /// Says, once, when the bar's first frame and its first complete one
    /// (every widget shown, or failed) were presented.
    pub(super) fn note_presented(&mut self) {
        if self.complete_once {
            return;
        }
        let widgets = &self.bar.scene().widgets;
        let waiting = widgets.iter().filter(|widget| matches!(widget.state, WidgetState::Pending)).count();
        let at = crate::uptime::since_start();
        match waiting {
            0 => {
                self.complete_once = true;
                tracing::debug!("bar {}: its first complete frame presented {at:.1?} after the start", self.id.0);
            }
            _ => tracing::debug!(
                "bar {}: a frame presented {at:.1?} after the start, {waiting} widgets to come",
                self.id.0
            ),
        }
    }
}

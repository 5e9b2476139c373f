//! What assistive technology is told of a running bar, and what it asks:
//! the bar's tree, sent after each frame and each change of its popup
//! (the adapter takes it only while one listens), and actions on its
//! nodes, done as the input they stand for: a click on an item is a
//! primary click at its middle (or the first click it takes), its menu a
//! secondary one there, a popup button's click a click on it, and a
//! slider's new value a slide to it.

use super::{BarEvent, Running};
use crate::access::{Handlers, Request, Shown, Target};
use crate::bar::Surface;
use crate::view::Input;
use crate::view::popup::PopupInput;
use accesskit::{Action, ActionData, ActionRequest};
use std::sync::Arc;

impl Running {
    /// What the bar's accessibility adapter calls: what it asks reaches
    /// this bar on its loop.
    pub fn access_handlers(&self) -> Handlers {
        let (deliver, bar) = (self.deliver.clone(), self.id);
        Handlers::new(&self.access, Arc::new(move |request| deliver(BarEvent::Access { bar, request })))
    }

    /// Sends assistive technology what changed in the bar's tree, if one
    /// listens: after every frame, so nothing is made unless one does.
    pub(super) fn publish(&mut self, surface: &mut dyn Surface) {
        let scale = surface.origin().scale;
        let Running { access, bar, popup, focus, tiler, .. } = self;
        surface.publish(&mut || {
            let title = match tiler.bar_output() {
                Some(output) => format!("Obi — bar on {output}"),
                None => "Obi — bar".to_owned(),
            };
            // The cell an open popup lights (by the keys, or under the pointer) has the focus.
            let lit = popup.as_ref().and_then(|open| open.lit_key()).map(|key| Target::Cell { key });
            let focus = lit.as_ref().or(focus.as_ref());
            let popup = popup.as_ref().map(|open| (open.widget, &open.popup, &open.layout));
            access.update(&Shown { title: &title, scene: bar.scene(), layout: bar.shown(), popup, focus, scale })
        });
    }

    /// What assistive technology asks of the bar.
    pub fn access_requested(&mut self, request: Request, surface: &mut dyn Surface) {
        match request {
            Request::Tree => self.publish(surface),
            Request::Action(request) => self.act(request, surface),
        }
    }

    fn act(&mut self, request: ActionRequest, surface: &mut dyn Surface) {
        let Some(target) = self.access.target(request.target_node).cloned() else {
            tracing::debug!("assistive technology asked {:?} of a node no longer shown", request.action);
            return;
        };
        match (request.action, target, request.data) {
            (Action::Focus, target, _) => self.focus_on(target, surface),
            (Action::Click, Target::Item { widget, key }, _) => self.press_item(widget, &key, false, surface),
            (Action::ShowContextMenu, Target::Item { widget, key }, _) => self.press_item(widget, &key, true, surface),
            (Action::Click, Target::Cell { key }, _) => self.act_on_cell(&key, PopupInput::Input(Input::PrimaryClick)),
            (Action::SetValue, Target::Cell { key }, Some(ActionData::NumericValue(value))) => {
                self.act_on_cell(&key, PopupInput::Slide(value.round().clamp(0.0, 100.0) as u8))
            }
            (action, target, _) => {
                tracing::debug!("assistive technology asked {action:?} of {target:?}, which does not take it")
            }
        }
    }

    /// A click on the item `key` of widget `widget` (its secondary click
    /// with `secondary`), at its middle, as the pointer would press it.
    pub(super) fn press_item(&mut self, widget: usize, key: &str, secondary: bool, surface: &mut dyn Surface) {
        let shown = self.bar.shown().items.iter().find(|placed| placed.widget == widget && placed.item.key == key);
        let Some(placed) = shown else { return };
        let takes = placed.item.takes;
        let input = match secondary {
            true => Input::SecondaryClick,
            false => takes.first_click().unwrap_or(Input::PrimaryClick),
        };
        let rect = placed.rect;
        self.dispatch_at(input, (rect.x + rect.width / 2.0, rect.y + rect.height / 2.0), surface);
    }

    /// `input` for the cell `key` of the open popup, when it answers it.
    fn act_on_cell(&self, key: &str, input: PopupInput) {
        if let Some(event) = self.popup.as_ref().and_then(|open| open.act(key, input)) {
            self.scheduler.send(event);
        }
    }
}

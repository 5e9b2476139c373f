//! Widgets' popups on Wayland: an xdg popup of the bar's layer surface
//! under the item, as a tooltip is, but grabbing the seat with the press
//! that opened it: the compositor then sends the bar's surfaces the
//! pointer as usual, gives the popup the keyboard, and dismisses the popup
//! when a surface of another client is clicked. Presses and drags on it
//! are input for its cells, and the keys a menu answers work on it (see
//! `keyboard`). Compositors give a layer surface's popup the keyboard only
//! through the layer surface (sway does), so the bar takes the keyboard
//! while the popup is open, and gives it back unless the bar holds it.

use super::scale::{Scale, Viewport};
use super::tooltip::{beside, surface_for};
use super::{LayerBar, Panel};
use crate::render::{PopupLayout, Rect, Style};
use smithay_client_toolkit::reexports::client::protocol::wl_surface;
use smithay_client_toolkit::shell::WaylandSurface;
use smithay_client_toolkit::shell::wlr_layer::KeyboardInteractivity;
use smithay_client_toolkit::shell::xdg::popup::Popup;

/// A widget's popup shown, and its GL surface once the compositor configured it.
pub(super) struct WidgetPopup {
    // Dropped before the popup it draws into.
    surface: Option<glutin::surface::Surface<glutin::surface::WindowSurface>>,
    viewport: Option<Viewport>,
    popup: Popup,
    /// The item it opened beside.
    anchor: Rect,
    layout: PopupLayout,
    scale: Scale,
    style: Style,
}

impl WidgetPopup {
    pub(super) fn is_on(&self, surface: &wl_surface::WlSurface) -> bool {
        self.popup.wl_surface() == surface
    }
}

impl Panel {
    /// A popup laid out as `layout` of the layer surface under (or over)
    /// the item, grabbing the seat with the last press on the bar; painted
    /// once configured. Whether it is shown.
    pub(super) fn open_popup(&mut self, anchor: Rect, layout: &PopupLayout, style: &Style) -> bool {
        let shell = self.shell.clone();
        let (Some(xdg_shell), Some(_)) = (&shell.xdg_shell, &self.gl) else {
            self.close_popup();
            return false;
        };
        let size = layout.size();
        // Redrawn by its widget where it stands and as large: painted again
        // in place. Made anew, it would flicker, and the pointer on it would
        // be told only when it next moves.
        if let Some(shown) = &mut self.popup
            && shown.anchor == anchor
            && shown.scale == self.scale
            && shown.layout.size() == size
        {
            shown.style = style.clone();
            self.repaint_open_popup(layout);
            return true;
        }
        self.close_popup();
        let Some(gl) = self.gl.as_mut() else { return false };
        let Some(positioner) = beside(xdg_shell, anchor, size, (self.logical.1, self.at_bottom)) else { return false };
        let surface = shell.compositor.create_surface(&shell.qh);
        let popup = match Popup::from_surface(None, &positioner, &shell.qh, surface, xdg_shell) {
            Ok(popup) => popup,
            Err(error) => {
                tracing::warn!("making the popup: {error:#}");
                return false;
            }
        };
        gl.window.get_popup(popup.xdg_popup());
        // Before the grab, which keeps the keyboard where it is while it lasts.
        gl.window.set_keyboard_interactivity(KeyboardInteractivity::Exclusive);
        gl.window.commit();
        match &self.last_press {
            Some((seat, serial)) => popup.xdg_popup().grab(seat, *serial),
            None => tracing::info!("no press to grab the seat with: a click outside will not close the popup"),
        }
        popup.wl_surface().commit();
        let viewport = self.followed_scale.as_ref().and(shell.fractional.as_ref());
        let viewport = viewport.map(|fractional| fractional.viewport(popup.wl_surface(), &shell.qh));
        self.popup = Some(WidgetPopup {
            surface: None,
            viewport,
            popup,
            anchor,
            layout: layout.clone(),
            scale: self.scale,
            style: style.clone(),
        });
        true
    }

    /// Takes the popup away, and gives the keyboard back unless the bar holds it.
    pub(super) fn close_popup(&mut self) {
        if self.popup.take().is_some()
            && let Some(gl) = &self.gl
            && !self.keyboard_wanted
        {
            gl.window.set_keyboard_interactivity(KeyboardInteractivity::None);
            gl.window.commit();
        }
    }

    /// Paints the popup shown again as `layout`, where it is.
    pub(super) fn repaint_open_popup(&mut self, layout: &PopupLayout) {
        let (Some(gl), Some(shown)) = (&mut self.gl, &mut self.popup) else { return };
        shown.layout = layout.clone();
        if let Some(surface) = &shown.surface {
            gl.present_popup_on(surface, shown.scale.factor(), &shown.style, &shown.layout);
        }
    }

    /// The compositor placed the popup: it is painted.
    pub(super) fn popup_configured(&mut self, popup: &Popup) {
        let (Some(gl), Some(shown)) = (&mut self.gl, &mut self.popup) else { return };
        if !shown.is_on(popup.wl_surface()) {
            return;
        }
        let size = shown.layout.size();
        let scale = shown.scale;
        if shown.surface.is_none() {
            match surface_for(gl, popup.wl_surface(), shown.viewport.as_ref(), scale, size) {
                Some(surface) => shown.surface = Some(surface),
                None => return,
            }
        }
        if let Some(surface) = &shown.surface {
            gl.present_popup_on(surface, scale.factor(), &shown.style, &shown.layout);
        }
    }
}

impl LayerBar {
    /// The bar whose widget's popup is `surface`.
    pub(super) fn member_with_popup(
        &mut self,
        surface: &wl_surface::WlSurface,
    ) -> Option<&mut crate::bar::Member<Panel>> {
        self.members.iter_mut().find(|member| member.surface.popup.as_ref().is_some_and(|popup| popup.is_on(surface)))
    }

    /// The compositor dismissed a popup (a click on another client's surface).
    pub(super) fn popup_dismissed(&mut self, popup: &Popup) {
        if let Some(crate::bar::Member { running, surface }) = self.member_with_popup(popup.wl_surface()) {
            running.close_popup(surface);
        }
    }
}

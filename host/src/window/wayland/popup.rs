//! Widgets' popups on Wayland: an xdg popup of the bar's layer surface
//! under the item, as a tooltip is, but grabbing the seat with the press
//! that opened it: the compositor then sends the bar's surfaces the
//! pointer as usual, gives the popup the keyboard, and dismisses the popup
//! when a surface of another client is clicked. Presses and drags on it
//! are input for its cells; the keys a menu answers (by their evdev codes:
//! the bar reads no keymap) work on it: Escape closes it, the arrows and
//! Tab light another cell, Return, Enter and Space click the lit one. Compositors give a layer surface's
//! popup the keyboard only through the layer surface (sway does), so the
//! bar takes the keyboard while the popup is open, and gives it back.

use super::scale::{Scale, Viewport};
use super::tooltip::{beside, surface_for};
use super::{LayerBar, Panel};
use crate::bar::PopupKey;
use crate::render::{PopupLayout, Rect, Style};
use smithay_client_toolkit::reexports::client::protocol::{wl_keyboard, wl_seat, wl_surface};
use smithay_client_toolkit::reexports::client::{Connection, Dispatch, QueueHandle, WEnum};
use smithay_client_toolkit::shell::WaylandSurface;
use smithay_client_toolkit::shell::wlr_layer::KeyboardInteractivity;
use smithay_client_toolkit::shell::xdg::popup::Popup;

/// What a key does to a popup, by Linux's code for it (`input-event-codes.h`),
/// as `wl_keyboard` gives it.
fn popup_key(code: u32) -> Option<PopupKey> {
    Some(match code {
        1 => PopupKey::Close,             // KEY_ESC
        103 | 105 => PopupKey::Previous,  // KEY_UP, KEY_LEFT
        106 | 108 | 15 => PopupKey::Next, // KEY_RIGHT, KEY_DOWN, KEY_TAB
        28 | 96 | 57 => PopupKey::Choose, // KEY_ENTER, KEY_KPENTER, KEY_SPACE
        _ => return None,
    })
}

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

    /// Takes the popup away, and gives the keyboard back.
    pub(super) fn close_popup(&mut self) {
        if self.popup.take().is_some()
            && let Some(gl) = &self.gl
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
            match surface_for(gl, popup, shown.viewport.as_ref(), scale, size) {
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

    /// The seat's keyboard, which a popup's grab gives the popup.
    pub(super) fn take_keyboard(&mut self, seat: &wl_seat::WlSeat, qh: &QueueHandle<Self>) {
        if self.keyboard.is_none() {
            self.keyboard = Some(seat.get_keyboard(qh, ()));
        }
    }
}

impl Dispatch<wl_keyboard::WlKeyboard, ()> for LayerBar {
    /// A key on the popup that has the keyboard does what a menu's does;
    /// the keymap (a file the compositor hands over) is closed unread.
    fn event(
        state: &mut Self,
        _: &wl_keyboard::WlKeyboard,
        event: wl_keyboard::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let wl_keyboard::Event::Key { key, state: WEnum::Value(wl_keyboard::KeyState::Pressed), .. } = event
            && let Some(key) = popup_key(key)
        {
            for crate::bar::Member { running, surface } in &mut state.members {
                if surface.popup.is_some() {
                    running.popup_key(key, surface);
                }
            }
        }
    }
}

//! Tooltips on Wayland: an xdg popup of the bar's layer surface, placed
//! under the item (over it for a bar at the bottom) and kept on the output
//! by the compositor, painted by the bar's GL context once the compositor
//! has configured it, at the bar's scale. Where such a popup goes and its
//! GL surface serve widgets' popups too ([`super::popup`]).

use super::scale::{Scale, Viewport};
use super::{LayerBar, Panel};
use crate::render::{Rect, Style};
use crate::window::gl::GlBar;
use raw_window_handle::{RawWindowHandle, WaylandWindowHandle};
use smithay_client_toolkit::error::GlobalError;
use smithay_client_toolkit::globals::{GlobalData, ProvidesBoundGlobal};
use smithay_client_toolkit::reexports::client::protocol::wl_surface;
use smithay_client_toolkit::reexports::client::{Connection, Proxy, QueueHandle};
use smithay_client_toolkit::reexports::protocols::xdg::shell::client::xdg_positioner::{
    Anchor as PopupAnchor, ConstraintAdjustment, Gravity,
};
use smithay_client_toolkit::reexports::protocols::xdg::shell::client::xdg_wm_base;
use smithay_client_toolkit::shell::wlr_layer::LayerSurface;
use smithay_client_toolkit::shell::xdg::XdgPositioner;
use smithay_client_toolkit::shell::xdg::popup::{Popup, PopupConfigure, PopupHandler};
use std::ptr::NonNull;

/// A tooltip's popup, and its GL surface once the compositor configured it.
pub(super) struct Tooltip {
    // Dropped before the popup it draws into.
    surface: Option<glutin::surface::Surface<glutin::surface::WindowSurface>>,
    /// Shows a fractionally scaled buffer at the tooltip's size.
    viewport: Option<Viewport>,
    popup: Popup,
    /// In logical pixels, drawn at `scale`.
    size: (u32, u32),
    scale: Scale,
    text: String,
    style: Style,
}

impl Panel {
    /// The compositor placed the tooltip's popup: it is painted.
    fn tooltip_configured(&mut self, popup: &Popup) {
        let (Some(gl), Some(tooltip)) = (&mut self.gl, &mut self.tooltip) else { return };
        if tooltip.popup.wl_surface() != popup.wl_surface() {
            return;
        }
        let (size, scale) = (tooltip.size, tooltip.scale);
        if tooltip.surface.is_none() {
            match surface_for(gl, popup.wl_surface(), tooltip.viewport.as_ref(), scale, size) {
                Some(surface) => tooltip.surface = Some(surface),
                None => return,
            }
        }
        if let Some(surface) = &tooltip.surface {
            gl.present_tooltip_on(surface, size, scale.factor(), &tooltip.style, &tooltip.text);
        }
    }

    /// A popup of the layer surface under (or over) the item; it is painted
    /// once the compositor configures it.
    pub(super) fn open_tooltip(&mut self, anchor: Rect, text: &str, style: &Style) {
        self.tooltip = None;
        let shell = self.shell.clone();
        let (Some(gl), Some(xdg_shell)) = (&mut self.gl, &shell.xdg_shell) else { return };
        let size = gl.painter().tooltip_size(style, text);
        let Some(positioner) = beside(xdg_shell, anchor, size, (self.logical.1, self.at_bottom)) else { return };
        let surface = shell.compositor.create_surface(&shell.qh);
        let popup = match Popup::from_surface(None, &positioner, &shell.qh, surface, xdg_shell) {
            Ok(popup) => popup,
            Err(error) => return tracing::warn!("making the tooltip: {error:#}"),
        };
        gl.window.get_popup(popup.xdg_popup());
        popup.wl_surface().commit();
        let viewport = self.followed_scale.as_ref().and(shell.fractional.as_ref());
        let viewport = viewport.map(|fractional| fractional.viewport(popup.wl_surface(), &shell.qh));
        self.tooltip = Some(Tooltip {
            surface: None,
            viewport,
            popup,
            size,
            scale: self.scale,
            text: text.to_owned(),
            style: style.clone(),
        });
    }
}

/// Where an xdg popup of `size` goes: under the item at `anchor` of a bar
/// `height` tall (over it for a bar `at_bottom`), slid along the output to
/// stay on it.
pub(super) fn beside(
    xdg_shell: &WmBase,
    anchor: Rect,
    size: (u32, u32),
    (height, at_bottom): (u32, bool),
) -> Option<XdgPositioner> {
    let positioner = XdgPositioner::new(xdg_shell)
        .inspect_err(|error| tracing::warn!("placing a popup of the bar: {error:#}"))
        .ok()?;
    positioner.set_size(size.0 as i32, size.1 as i32);
    let height = height as i32;
    positioner.set_anchor_rect(anchor.x.round() as i32, 0, (anchor.width.round() as i32).max(1), height.max(1));
    let (edge, gravity) = if at_bottom {
        (PopupAnchor::TopLeft, Gravity::TopRight)
    } else {
        (PopupAnchor::BottomLeft, Gravity::BottomRight)
    };
    positioner.set_anchor(edge);
    positioner.set_gravity(gravity);
    positioner.set_constraint_adjustment(ConstraintAdjustment::SlideX | ConstraintAdjustment::FlipY);
    Some(positioner)
}

/// A GL surface on `surface` (a popup's, a notification's), the
/// compositor having configured it, for `size` logical pixels drawn at
/// `scale` (shown at its size through `viewport` when the scale is
/// fractional).
pub(super) fn surface_for(
    gl: &GlBar<LayerSurface>,
    surface: &wl_surface::WlSurface,
    viewport: Option<&Viewport>,
    scale: Scale,
    size: (u32, u32),
) -> Option<glutin::surface::Surface<glutin::surface::WindowSurface>> {
    let pointer = NonNull::new(surface.id().as_ptr().cast())?;
    let handle = RawWindowHandle::Wayland(WaylandWindowHandle::new(pointer));
    match (viewport, scale.whole_factor()) {
        (Some(viewport), _) => viewport.show_at(size),
        (None, Some(factor)) => surface.set_buffer_scale(factor as i32),
        (None, None) => {}
    }
    gl.surface_on(handle, scale.buffer_size(size)).inspect_err(|error| tracing::warn!("{error:#}")).ok()
}

/// xdg-shell's global, bound for the tooltips' popups alone (sctk's
/// `XdgShell` would have the bar handle windows' decorations too).
pub(super) struct WmBase(pub(super) xdg_wm_base::XdgWmBase);

impl ProvidesBoundGlobal<xdg_wm_base::XdgWmBase, 5> for WmBase {
    fn bound_global(&self) -> Result<xdg_wm_base::XdgWmBase, GlobalError> {
        Ok(self.0.clone())
    }
}

impl ProvidesBoundGlobal<xdg_wm_base::XdgWmBase, 6> for WmBase {
    fn bound_global(&self) -> Result<xdg_wm_base::XdgWmBase, GlobalError> {
        Ok(self.0.clone())
    }
}

impl smithay_client_toolkit::reexports::client::Dispatch<xdg_wm_base::XdgWmBase, GlobalData> for LayerBar {
    /// The compositor asks whether the bar is alive.
    fn event(
        _: &mut Self,
        wm_base: &xdg_wm_base::XdgWmBase,
        event: xdg_wm_base::Event,
        _: &GlobalData,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let xdg_wm_base::Event::Ping { serial } = event {
            wm_base.pong(serial);
        }
    }
}

impl PopupHandler for LayerBar {
    fn configure(&mut self, _: &Connection, _: &QueueHandle<Self>, popup: &Popup, _: PopupConfigure) {
        for member in &mut self.members {
            member.surface.tooltip_configured(popup);
            member.surface.popup_configured(popup);
        }
    }

    /// The compositor took a tooltip or a widget's popup away.
    fn done(&mut self, _: &Connection, _: &QueueHandle<Self>, popup: &Popup) {
        let own = |tooltip: &Tooltip| tooltip.popup.wl_surface() == popup.wl_surface();
        match self.members.iter_mut().find(|member| member.surface.tooltip.as_ref().is_some_and(own)) {
            Some(member) => member.surface.tooltip = None,
            None => self.popup_dismissed(popup),
        }
    }
}

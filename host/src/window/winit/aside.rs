//! Windows beside the bar on X11 and Windows, a tooltip's, a popup's, a
//! notification's and an on-screen display's:
//! small, undecorated and placed by hand (override-redirect on X11; on
//! Windows top-most tool windows, see `win32`), under the item they are for
//! (over it when the bar is at the bottom of its monitor). The bar's GL
//! context paints them; a window only lends its surface. When one shows is
//! the running bar's to say.

use super::ScreenRect;
use crate::render::Rect;
use anyhow::Context;
use glutin::config::Config;
use glutin::display::GetGlDisplay;
use glutin::prelude::*;
use glutin::surface::{Surface, WindowSurface};
use glutin_winit::GlWindow;
use winit::dpi::{PhysicalPosition, PhysicalSize};
use winit::event_loop::ActiveEventLoop;
use winit::window::{Window, WindowId};

/// What a window beside the bar is for, which tells window managers and
/// compositors how to treat it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Tooltip,
    Popup,
    Notification,
    /// An on-screen display: the pointer passes through it.
    Osd,
}

pub struct AsideWindow {
    /// On Windows a popup takes the focus when shown.
    #[cfg_attr(not(windows), allow(dead_code))]
    role: Role,
    /// Its size in device pixels.
    pub size: (u32, u32),
    /// Where it was shown last, on the screen.
    pub position: PhysicalPosition<i32>,
    pub surface: Surface<WindowSurface>,
    // Dropped after the surface that draws into it.
    pub window: Window,
}

impl AsideWindow {
    /// A hidden window for `role` whose visual suits `config`, the bar's GL config.
    pub fn new(event_loop: &ActiveEventLoop, config: &Config, role: Role) -> anyhow::Result<AsideWindow> {
        let title = match role {
            Role::Tooltip => "obi tooltip",
            Role::Popup => "obi popup",
            Role::Notification => "obi notification",
            Role::Osd => "obi osd",
        };
        let attributes = Window::default_attributes()
            .with_title(title)
            .with_decorations(false)
            .with_resizable(false)
            .with_visible(false)
            .with_inner_size(PhysicalSize::new(1, 1));
        #[cfg(free_unix)]
        let attributes = {
            use winit::platform::x11::{WindowAttributesExtX11, WindowType};
            let kind = match role {
                Role::Tooltip => WindowType::Tooltip,
                Role::Popup => WindowType::PopupMenu,
                Role::Notification | Role::Osd => WindowType::Notification,
            };
            attributes.with_name("obi", "obi").with_override_redirect(true).with_x11_window_type(vec![kind])
        };
        let window = glutin_winit::finalize_window(event_loop, attributes, config)
            .with_context(|| format!("creating the {title} window"))?;
        #[cfg(windows)]
        super::win32::make_aside(&window, role == Role::Popup)
            .with_context(|| format!("styling the {title} window"))?;
        if role == Role::Osd
            && let Err(error) = window.set_cursor_hittest(false)
        {
            tracing::debug!("the pointer does not pass through the {title}: {error}");
        }
        let surface_attributes = window
            .build_surface_attributes(Default::default())
            .with_context(|| format!("describing the {title}'s GL surface"))?;
        // SAFETY: the surface is of `window`, which outlives it (see the field order).
        let surface = unsafe { config.display().create_window_surface(config, &surface_attributes) }
            .with_context(|| format!("creating the {title}'s GL surface"))?;
        Ok(AsideWindow { role, size: (1, 1), position: PhysicalPosition::new(0, 0), surface, window })
    }

    pub fn id(&self) -> WindowId {
        self.window.id()
    }

    /// Moves the window to `position` on the screen at `size` (device
    /// pixels), and shows it; on Windows a popup takes the focus.
    pub fn show_at(&mut self, position: PhysicalPosition<i32>, size: (u32, u32)) {
        (self.size, self.position) = (size, position);
        #[cfg(windows)]
        {
            let rect = ScreenRect { x: position.x, y: position.y, width: size.0, height: size.1 };
            super::win32::show_aside_at(&self.window, rect, self.role == Role::Popup);
        }
        #[cfg(not(windows))]
        {
            let _ = self.window.request_inner_size(PhysicalSize::new(size.0, size.1));
            self.window.set_outer_position(position);
            self.window.set_visible(true);
        }
    }

    pub fn hide(&self) {
        #[cfg(windows)]
        super::win32::show(&self.window, false);
        #[cfg(not(windows))]
        self.window.set_visible(false);
    }
}

/// Where a `size` window beside the item at `anchor` (logical pixels, of
/// which `scale` device pixels each) of the bar at `bar` goes: under the
/// bar, or over it when there is no room below on `monitor`.
pub fn position(
    bar: ScreenRect,
    anchor: Rect,
    scale: f32,
    size: (u32, u32),
    monitor: ScreenRect,
) -> PhysicalPosition<i32> {
    let below = bar.y + bar.height as i32;
    let fits_below = below + size.1 as i32 <= monitor.y + monitor.height as i32;
    let y = if fits_below { below } else { bar.y - size.1 as i32 };
    let rightmost = monitor.x + monitor.width as i32 - size.0 as i32;
    let x = (bar.x + (anchor.x * scale).round() as i32).min(rightmost).max(monitor.x);
    PhysicalPosition::new(x, y)
}

/// `logical` pixels at `scale` as whole device pixels.
pub fn device_size(logical: (u32, u32), scale: f32) -> (u32, u32) {
    ((logical.0 as f32 * scale).ceil() as u32, (logical.1 as f32 * scale).ceil() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: i32, y: i32, width: u32, height: u32) -> ScreenRect {
        ScreenRect { x, y, width, height }
    }

    const MONITOR: ScreenRect = ScreenRect { x: 0, y: 0, width: 1920, height: 1080 };

    #[test]
    fn under_a_top_bar_over_a_bottom_one() {
        let item = Rect::new(100.0, 4.0, 80.0, 24.0);
        assert_eq!(position(rect(0, 0, 1920, 32), item, 1.0, (200, 30), MONITOR), PhysicalPosition::new(100, 32));
        assert_eq!(position(rect(0, 1048, 1920, 32), item, 1.0, (200, 30), MONITOR), PhysicalPosition::new(100, 1018));
    }

    #[test]
    fn under_its_item_at_the_monitors_scale() {
        let item = Rect::new(100.0, 4.0, 80.0, 24.0);
        assert_eq!(position(rect(0, 0, 1920, 48), item, 1.5, (300, 45), MONITOR), PhysicalPosition::new(150, 48));
        assert_eq!(device_size((200, 30), 1.5), (300, 45));
        assert_eq!(device_size((201, 31), 1.25), (252, 39));
    }

    #[test]
    fn kept_on_the_monitor() {
        let right = Rect::new(1880.0, 4.0, 40.0, 24.0);
        assert_eq!(position(rect(0, 0, 1920, 32), right, 1.0, (300, 30), MONITOR).x, 1620);
        let second = rect(1920, 0, 1280, 1024);
        assert_eq!(position(rect(1920, 0, 1280, 32), right, 1.0, (300, 30), second).x, 1920 + 1280 - 300);
    }
}

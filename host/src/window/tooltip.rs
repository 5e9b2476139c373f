//! Tooltips: once the cursor has rested on an item that has one, a small
//! undecorated window shows its text beside the bar, under the item (over
//! it when the bar is at the bottom of its monitor). The bar's painter
//! paints it on the bar's GL context; the window only lends its surface.

use super::{BarWindow, ScreenRect};
use crate::render::Rect;
use glutin::config::Config;
use glutin::display::GetGlDisplay;
use glutin::prelude::*;
use glutin::surface::{Surface, WindowSurface};
use glutin_winit::GlWindow;
use std::time::{Duration, Instant};
use winit::dpi::{PhysicalPosition, PhysicalSize};
use winit::event_loop::ActiveEventLoop;
use winit::window::{Window, WindowId};

/// How long the cursor rests on an item before its tooltip shows.
const DELAY: Duration = Duration::from_millis(500);

/// The item under the cursor, when it has a tooltip.
#[derive(Debug, Clone, PartialEq)]
pub struct Hover {
    /// The item: its widget's index in the scene, and its key.
    pub widget: usize,
    pub key: String,
    pub text: String,
    /// Where the item is in the bar window.
    pub anchor: Rect,
    pub due: Instant,
    pub shown: bool,
}

pub struct TooltipWindow {
    pub size: (u32, u32),
    pub surface: Surface<WindowSurface>,
    // Dropped after the surface that draws into it.
    pub window: Window,
}

impl TooltipWindow {
    /// A hidden tooltip window whose visual suits `config`, the bar's GL config.
    pub fn new(event_loop: &ActiveEventLoop, config: &Config) -> Result<TooltipWindow, String> {
        let attributes = Window::default_attributes()
            .with_title("obi tooltip")
            .with_decorations(false)
            .with_resizable(false)
            .with_visible(false)
            .with_inner_size(PhysicalSize::new(1, 1));
        #[cfg(free_unix)]
        let attributes = {
            use winit::platform::x11::{WindowAttributesExtX11, WindowType};
            attributes
                .with_name("obi", "obi")
                .with_override_redirect(true)
                .with_x11_window_type(vec![WindowType::Tooltip])
        };
        let window = glutin_winit::finalize_window(event_loop, attributes, config)
            .map_err(|error| format!("creating the tooltip window: {error}"))?;
        let surface_attributes = window
            .build_surface_attributes(Default::default())
            .map_err(|error| format!("describing the tooltip's GL surface: {error}"))?;
        // SAFETY: the surface is of `window`, which outlives it (see the field order).
        let surface = unsafe { config.display().create_window_surface(config, &surface_attributes) }
            .map_err(|error| format!("creating the tooltip's GL surface: {error}"))?;
        Ok(TooltipWindow { size: (1, 1), surface, window })
    }

    pub fn id(&self) -> WindowId {
        self.window.id()
    }

    /// Moves the window to `position` on the screen at `size`, and shows it.
    pub fn show_at(&mut self, position: PhysicalPosition<i32>, size: (u32, u32)) {
        self.size = size;
        let _ = self.window.request_inner_size(PhysicalSize::new(size.0, size.1));
        self.window.set_outer_position(position);
        self.window.set_visible(true);
    }

    pub fn hide(&self) {
        self.window.set_visible(false);
    }
}

/// Following the cursor from item to item, and showing tooltips.
impl BarWindow {
    /// The cursor moved: a new item with a tooltip under it starts the wait
    /// for its tooltip; anything else hides the one shown.
    pub(super) fn track_hover(&mut self) {
        let target = self.bar.item_at(self.cursor.0).and_then(|placed| {
            let text = placed.item.tooltip.clone()?;
            Some(Hover {
                widget: placed.widget,
                key: placed.item.key.clone(),
                text,
                anchor: placed.rect,
                due: Instant::now() + DELAY,
                shown: false,
            })
        });
        let same =
            matches!((&self.hover, &target), (Some(old), Some(new)) if old.widget == new.widget && old.key == new.key);
        if !same {
            self.end_hover();
            self.hover = target;
        }
    }

    pub(super) fn end_hover(&mut self) {
        if self.hover.take().is_some_and(|hover| hover.shown)
            && let Some(tooltip) = &self.tooltip
        {
            tooltip.hide();
        }
    }

    /// The hovered item after a repaint: gone, its tooltip goes; moved or
    /// with new text, its tooltip follows.
    pub(super) fn follow_hovered_item(&mut self) {
        let Some(hover) = &self.hover else { return };
        let now =
            self.bar.shown().items.iter().find(|placed| placed.widget == hover.widget && placed.item.key == hover.key);
        match now.and_then(|placed| Some((placed.rect, placed.item.tooltip.clone()?))) {
            None => self.end_hover(),
            Some((anchor, text)) if anchor != hover.anchor || text != hover.text => {
                let shown = hover.shown;
                if let Some(hover) = &mut self.hover {
                    (hover.anchor, hover.text) = (anchor, text);
                }
                if shown {
                    self.show_tooltip(None);
                }
            }
            Some(_) => {}
        }
    }

    /// Shows the hovered item's tooltip, making its window first if need be.
    pub(super) fn show_tooltip(&mut self, event_loop: Option<&ActiveEventLoop>) {
        let (Some(gl), Some(hover), Some(bar)) = (&mut self.gl, &mut self.hover, self.rect) else { return };
        hover.shown = true;
        if self.tooltip.is_none() && !self.no_tooltips {
            let Some(event_loop) = event_loop else { return };
            // An undecorated window placed by hand is an X11 notion; Wayland wants a popup surface.
            #[cfg(free_unix)]
            {
                use winit::platform::x11::ActiveEventLoopExtX11;
                if !event_loop.is_x11() {
                    tracing::info!("tooltips are shown on X11 only for now");
                    self.no_tooltips = true;
                    return;
                }
            }
            match TooltipWindow::new(event_loop, &gl.config) {
                Ok(window) => self.tooltip = Some(window),
                Err(error) => {
                    tracing::warn!("{error}; tooltips are not shown");
                    self.no_tooltips = true;
                }
            }
        }
        let Some(tooltip) = &mut self.tooltip else { return };
        let size = gl.painter().tooltip_size(&self.bar.scene().style, &hover.text);
        let monitor = gl.window.current_monitor().map_or(bar, |monitor| ScreenRect {
            x: monitor.position().x,
            y: monitor.position().y,
            width: monitor.size().width,
            height: monitor.size().height,
        });
        tooltip.show_at(position(bar, hover.anchor, size, monitor), size);
        gl.present_tooltip(tooltip, &self.bar.scene().style, &hover.text, &self.text_font);
    }

    /// Paints the tooltip shown again (its window was exposed).
    pub(super) fn repaint_tooltip(&mut self) {
        if let (Some(gl), Some(tooltip), Some(hover)) = (&mut self.gl, &self.tooltip, &self.hover)
            && hover.shown
        {
            gl.present_tooltip(tooltip, &self.bar.scene().style, &hover.text, &self.text_font);
        }
    }
}

/// Where a `size` tooltip for the item at `anchor` of the bar at `bar`
/// goes: under the bar, or over it when there is no room below on `monitor`.
fn position(bar: ScreenRect, anchor: Rect, size: (u32, u32), monitor: ScreenRect) -> PhysicalPosition<i32> {
    let below = bar.y + bar.height as i32;
    let fits_below = below + size.1 as i32 <= monitor.y + monitor.height as i32;
    let y = if fits_below { below } else { bar.y - size.1 as i32 };
    let rightmost = monitor.x + monitor.width as i32 - size.0 as i32;
    let x = (bar.x + anchor.x.round() as i32).min(rightmost).max(monitor.x);
    PhysicalPosition::new(x, y)
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
        assert_eq!(position(rect(0, 0, 1920, 32), item, (200, 30), MONITOR), PhysicalPosition::new(100, 32));
        assert_eq!(position(rect(0, 1048, 1920, 32), item, (200, 30), MONITOR), PhysicalPosition::new(100, 1018));
    }

    #[test]
    fn kept_on_the_monitor() {
        let right = Rect::new(1880.0, 4.0, 40.0, 24.0);
        assert_eq!(position(rect(0, 0, 1920, 32), right, (300, 30), MONITOR).x, 1620);
        let second = rect(1920, 0, 1280, 1024);
        assert_eq!(position(rect(1920, 0, 1280, 32), right, (300, 30), second).x, 1920 + 1280 - 300);
    }
}

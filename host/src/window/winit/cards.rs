//! The desktop's notifications and the on-screen display beside a bar on
//! X11 and Windows: a window of their own each (override-redirect on X11,
//! a top-most tool window that never takes the focus on Windows), made as
//! they are first needed and kept for the next, stacked from a corner or
//! an edge's middle of their monitor (the bar's, or the focused one),
//! newest nearest it, clear of the bar when it runs along that edge. The bar's GL paints them as it paints
//! a popup.

use super::ScreenRect;
use super::aside::{AsideWindow, Role, device_size};
use crate::config::model::ScreenPlace;
use crate::render::{PopupLayout, Style};
use crate::window::gl::GlBar;
use glutin::config::Config;
use winit::dpi::PhysicalPosition;
use winit::event_loop::ActiveEventLoop;
use winit::window::{Window, WindowId};

/// Between two cards, and between them and the monitor's edge or the bar,
/// in logical pixels.
const GAP: f32 = 10.0;

/// The windows of cards stacked in one place: the notifications', or the
/// on-screen display's.
pub struct CardWindows {
    role: Role,
    windows: Vec<AsideWindow>,
    /// The cards shown, newest first, to paint again.
    cards: Vec<PopupLayout>,
    /// Making a window failed: no more are made.
    failed: bool,
    /// Where the pointer was last on a card, in its logical pixels.
    pub pointer: (f32, f32),
}

impl CardWindows {
    /// None yet, for cards in `role`.
    pub fn new(role: Role) -> CardWindows {
        CardWindows { role, windows: Vec::new(), cards: Vec::new(), failed: false, pointer: (0.0, 0.0) }
    }

    /// Makes windows until there are `count`, with `config`, the bar's GL config.
    pub fn prepare(&mut self, event_loop: &ActiveEventLoop, config: &Config, count: usize) {
        while self.windows.len() < count && !self.failed {
            match AsideWindow::new(event_loop, config, self.role) {
                Ok(window) => self.windows.push(window),
                Err(error) => {
                    tracing::warn!("{error:#}; such cards are not shown");
                    self.failed = true;
                }
            }
        }
    }

    /// Shows `cards` stacked at `place` on `monitor` (where `bar` is, if
    /// it is on it), at `scale` device pixels to the logical; hides the
    /// windows left over.
    #[allow(clippy::too_many_arguments, reason = "where they go, and how they are painted")]
    pub fn show(
        &mut self,
        gl: &mut GlBar<Window>,
        cards: &[PopupLayout],
        place: ScreenPlace,
        style: &Style,
        (monitor, bar): (ScreenRect, Option<ScreenRect>),
        scale: f32,
    ) {
        let shown = cards.len().min(self.windows.len());
        let sizes: Vec<(u32, u32)> = cards[..shown].iter().map(|card| device_size(card.size(), scale)).collect();
        let positions = stack(&sizes, place, monitor, bar, (GAP * scale).round() as i32);
        for ((window, card), (position, size)) in
            self.windows.iter_mut().zip(cards).zip(positions.into_iter().zip(sizes))
        {
            window.show_at(position, size);
            gl.present_popup_on(&window.surface, scale, style, card);
        }
        for window in &self.windows[shown..] {
            window.hide();
        }
        self.cards = cards[..shown].to_vec();
    }

    /// Paints the `index`th card again (its window was exposed).
    pub fn repaint(&self, gl: &mut GlBar<Window>, index: usize, style: &Style, scale: f32) {
        if let (Some(window), Some(card)) = (self.windows.get(index), self.cards.get(index)) {
            gl.present_popup_on(&window.surface, scale, style, card);
        }
    }

    /// Which card's window `id` is, when it is one.
    pub fn index_of(&self, id: WindowId) -> Option<usize> {
        self.windows.iter().position(|window| window.id() == id)
    }
}

/// Where windows of `sizes` (newest first) go at `place` on `monitor`,
/// `gap` apart and from its edges, and clear of `bar` when it runs along
/// that edge of the monitor.
pub fn stack(
    sizes: &[(u32, u32)],
    place: ScreenPlace,
    monitor: ScreenRect,
    bar: Option<ScreenRect>,
    gap: i32,
) -> Vec<PhysicalPosition<i32>> {
    use ScreenPlace::*;
    let (top, bottom) = (monitor.y, monitor.y + monitor.height as i32);
    let on_monitor = bar.filter(|bar| bar.x < monitor.x + monitor.width as i32 && monitor.x < bar.x + bar.width as i32);
    let from_top = matches!(place, TopLeft | TopCenter | TopRight);
    // The edge they stack from, past the bar when it runs along it.
    let edge = match (from_top, on_monitor) {
        (true, Some(bar)) if bar.y <= top + 1 => bar.y + bar.height as i32,
        (true, _) => top,
        (false, Some(bar)) if bar.y + bar.height as i32 >= bottom - 1 => bar.y,
        (false, _) => bottom,
    };
    let mut along = gap;
    sizes
        .iter()
        .map(|&(width, height)| {
            let x = match place {
                TopLeft | BottomLeft => monitor.x + gap,
                TopCenter | BottomCenter => monitor.x + (monitor.width as i32 - width as i32) / 2,
                TopRight | BottomRight => monitor.x + monitor.width as i32 - width as i32 - gap,
            };
            let y = if from_top { edge + along } else { edge - along - height as i32 };
            along += height as i32 + gap;
            PhysicalPosition::new(x, y)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MONITOR: ScreenRect = ScreenRect { x: 1920, y: 0, width: 1280, height: 1024 };

    #[test]
    fn they_stack_from_the_corner_newest_nearest_and_clear_of_the_bar() {
        let top_bar = ScreenRect { x: 1920, y: 0, width: 1280, height: 32 };
        let positions = stack(&[(300, 80), (300, 60)], ScreenPlace::TopRight, MONITOR, Some(top_bar), 10);
        assert_eq!(positions, [PhysicalPosition::new(2890, 42), PhysicalPosition::new(2890, 132)]);
        let positions = stack(&[(300, 80)], ScreenPlace::BottomLeft, MONITOR, Some(top_bar), 10);
        assert_eq!(positions, [PhysicalPosition::new(1930, 934)], "the bar is at the other edge");
    }

    #[test]
    fn over_a_bottom_bar_and_centred() {
        let bottom_bar = ScreenRect { x: 1920, y: 992, width: 1280, height: 32 };
        let positions = stack(&[(300, 80), (300, 80)], ScreenPlace::BottomCenter, MONITOR, Some(bottom_bar), 10);
        assert_eq!(positions, [PhysicalPosition::new(2410, 902), PhysicalPosition::new(2410, 812)]);
        let elsewhere = ScreenRect { x: 0, y: 0, width: 1920, height: 32 };
        let positions = stack(&[(300, 80)], ScreenPlace::TopLeft, MONITOR, Some(elsewhere), 10);
        assert_eq!(positions, [PhysicalPosition::new(1930, 10)], "a bar on another monitor is not in the way");
    }
}

//! How many buffer pixels the bar draws to each of its logical ones. Where
//! the compositor offers `wp_fractional_scale_v1` and `wp_viewporter`, it
//! names the scale of each surface in 120ths (1.5 is 180): the bar draws a
//! buffer that many times its logical size, and a viewport shows it at the
//! logical size, so text is drawn for the output's own pixels at 1.25 or
//! 1.5 too. Elsewhere the bar takes `wl_surface`'s integer buffer scale and
//! the compositor scales what is left.

use super::LayerBar;
use smithay_client_toolkit::reexports::client::globals::GlobalList;
use smithay_client_toolkit::reexports::client::protocol::wl_surface::WlSurface;
use smithay_client_toolkit::reexports::client::{Connection, Dispatch, QueueHandle, delegate_noop};
use smithay_client_toolkit::reexports::protocols::wp::fractional_scale::v1::client::{
    wp_fractional_scale_manager_v1::WpFractionalScaleManagerV1,
    wp_fractional_scale_v1::{self, WpFractionalScaleV1},
};
use smithay_client_toolkit::reexports::protocols::wp::viewporter::client::{
    wp_viewport::WpViewport, wp_viewporter::WpViewporter,
};

/// Buffer pixels to a logical one, in 120ths as the fractional-scale
/// protocol says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scale(u32);

impl Scale {
    pub const ONE: Scale = Scale(120);

    pub fn whole(factor: u32) -> Scale {
        Scale(factor.max(1) * 120)
    }

    pub fn in_120ths(scale: u32) -> Scale {
        Scale(scale.max(1))
    }

    /// The whole factor, when the scale is one.
    pub fn whole_factor(self) -> Option<u32> {
        self.0.is_multiple_of(120).then_some(self.0 / 120)
    }

    pub fn factor(self) -> f32 {
        self.0 as f32 / 120.0
    }

    /// The buffer for a surface of `logical` size: rounded half away from
    /// zero, as the protocol asks.
    pub fn buffer_size(self, logical: (u32, u32)) -> (u32, u32) {
        let scaled = |length: u32| ((u64::from(length) * u64::from(self.0) + 60) / 120).max(1) as u32;
        (scaled(logical.0), scaled(logical.1))
    }
}

impl std::fmt::Display for Scale {
    fn fmt(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(formatter, "{}", self.factor())
    }
}

/// The compositor's fractional scaling, when it offers both globals.
pub struct Fractional {
    manager: WpFractionalScaleManagerV1,
    viewporter: WpViewporter,
}

impl Fractional {
    pub fn bind(globals: &GlobalList, qh: &QueueHandle<LayerBar>) -> Option<Fractional> {
        let manager = globals.bind(qh, 1..=1, ()).ok()?;
        let viewporter = globals.bind(qh, 1..=1, ()).ok()?;
        Some(Fractional { manager, viewporter })
    }

    /// Follows the scale the compositor prefers for `surface`, which comes
    /// to [`LayerBar::preferred_scale`], and shows its buffer at the size
    /// the returned viewport is given.
    pub fn follow(&self, surface: &WlSurface, qh: &QueueHandle<LayerBar>) -> FollowedScale {
        FollowedScale {
            fractional: self.manager.get_fractional_scale(surface, qh, surface.clone()),
            viewport: self.viewport(surface, qh),
        }
    }

    /// A viewport alone, for a surface drawn at the scale of another (a
    /// tooltip's, at the bar's).
    pub fn viewport(&self, surface: &WlSurface, qh: &QueueHandle<LayerBar>) -> Viewport {
        Viewport(self.viewporter.get_viewport(surface, qh, ()))
    }
}

/// A surface's fractional scale, followed, and its viewport; both end with it.
pub struct FollowedScale {
    fractional: WpFractionalScaleV1,
    pub viewport: Viewport,
}

impl Drop for FollowedScale {
    fn drop(&mut self) {
        self.fractional.destroy();
    }
}

/// Shows a surface's buffer at a logical size.
pub struct Viewport(WpViewport);

impl Viewport {
    pub fn show_at(&self, logical: (u32, u32)) {
        self.0.set_destination(logical.0 as i32, logical.1 as i32);
    }
}

impl Drop for Viewport {
    fn drop(&mut self) {
        self.0.destroy();
    }
}

impl Dispatch<WpFractionalScaleV1, WlSurface> for LayerBar {
    fn event(
        state: &mut Self,
        _: &WpFractionalScaleV1,
        event: wp_fractional_scale_v1::Event,
        surface: &WlSurface,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let wp_fractional_scale_v1::Event::PreferredScale { scale } = event {
            state.preferred_scale(surface, Scale::in_120ths(scale));
        }
    }
}

delegate_noop!(LayerBar: ignore WpFractionalScaleManagerV1);
delegate_noop!(LayerBar: ignore WpViewporter);
delegate_noop!(LayerBar: ignore WpViewport);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_the_logical_size_scaled_and_rounded() {
        assert_eq!(Scale::ONE.buffer_size((1280, 40)), (1280, 40));
        assert_eq!(Scale::whole(2).buffer_size((640, 40)), (1280, 80));
        assert_eq!(Scale::in_120ths(180).buffer_size((853, 40)), (1280, 60));
        // 1366 × 1.25 = 1707.5, rounded away from zero.
        assert_eq!(Scale::in_120ths(150).buffer_size((1366, 25)), (1708, 31));
        assert_eq!(Scale::in_120ths(0), Scale::in_120ths(1), "a scale of nothing is not taken");
        assert_eq!(Scale::in_120ths(180).factor(), 1.5);
    }
}

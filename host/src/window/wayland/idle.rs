//! Holding idling off on Wayland, where the compositor decides when the
//! outputs idle: the process's hold (the IdleInhibitor widget's) is an idle
//! inhibitor (`zwp_idle_inhibit_manager_v1`) on a bar's surface, which the
//! compositor honours while that surface is shown. It is kept on the first
//! bar's surface, and made anew on the next one's when that bar goes.

use crate::capabilities::{IdleInhibition, IdleStatus};
use smithay_client_toolkit::reexports::client::globals::GlobalList;
use smithay_client_toolkit::reexports::client::protocol::wl_surface::WlSurface;
use smithay_client_toolkit::reexports::client::{QueueHandle, delegate_noop};
use smithay_client_toolkit::reexports::protocols::wp::idle_inhibit::zv1::client::{
    zwp_idle_inhibit_manager_v1::ZwpIdleInhibitManagerV1, zwp_idle_inhibitor_v1::ZwpIdleInhibitorV1,
};
use std::sync::Arc;

pub struct IdleHold {
    /// The compositor's, when it offers one.
    manager: Option<ZwpIdleInhibitManagerV1>,
    inhibition: Arc<IdleInhibition>,
    /// Idling is to be held off.
    wanted: bool,
    /// The inhibitor made, and the surface it is on.
    made: Option<(ZwpIdleInhibitorV1, WlSurface)>,
}

impl IdleHold {
    /// The compositor's manager of inhibitors, for `inhibition`'s asks.
    pub fn bind(globals: &GlobalList, qh: &QueueHandle<super::LayerBar>, inhibition: Arc<IdleInhibition>) -> IdleHold {
        let manager = globals
            .bind(qh, 1..=1, ())
            .inspect_err(|error| {
                tracing::info!("the compositor offers no idle inhibitor ({error:#}): idling cannot be held off")
            })
            .ok();
        IdleHold { manager, inhibition, wanted: false, made: None }
    }

    /// Idling is to be held off, or let go, from the next [`IdleHold::keep`].
    pub fn ask(&mut self, held: bool) {
        self.wanted = held;
    }

    /// Keeps an inhibitor on `surface` (the first bar's; none while no bar
    /// has one) while idling is to be held off, and none while it is not,
    /// and says so.
    pub fn keep(&mut self, surface: Option<&WlSurface>, qh: &QueueHandle<super::LayerBar>) {
        let on_it = self.made.as_ref().is_some_and(|(_, on)| Some(on) == surface);
        if !(self.wanted && on_it)
            && let Some((inhibitor, _)) = self.made.take()
        {
            inhibitor.destroy();
        }
        let status = match (self.wanted, surface, &self.manager) {
            (false, ..) => IdleStatus::NotHeld,
            (true, _, None) => {
                IdleStatus::Unavailable("the compositor offers no idle inhibitor (zwp_idle_inhibit_manager_v1)".into())
            }
            // Held once a bar has a surface to hold it with.
            (true, None, Some(_)) => return,
            (true, Some(surface), Some(manager)) => {
                if self.made.is_none() {
                    self.made = Some((manager.create_inhibitor(surface, qh, ()), surface.clone()));
                }
                IdleStatus::Held
            }
        };
        self.inhibition.report(status);
    }
}

delegate_noop!(super::LayerBar: ZwpIdleInhibitManagerV1);
delegate_noop!(super::LayerBar: ZwpIdleInhibitorV1);

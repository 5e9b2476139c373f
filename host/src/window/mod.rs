//! The bars' surfaces, by platform: [`winit`] where winit is the windowing
//! layer (X11, Windows), `wayland` a layer surface for each bar (Linux),
//! and [`gl`] the GL both paint through. The caller chooses the backend;
//! this module starts it and lists its monitors. A surface shows what its
//! bar paints and hands it what happens there; it never talks to a tiler.

mod gl;
#[cfg(free_unix)]
mod wayland;
mod winit;

#[cfg(free_unix)]
use crate::bar::Output;
use crate::bar::{Deliver, Fleet};

pub use gl::rasterise_on_calling_thread;
#[cfg(free_unix)]
pub use winit::end_quietly_without_the_display;

/// How the bars are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// A winit window: a dock on X11, a tool window (or an AppBar) on Windows.
    Winit,
    /// A wlr-layer-shell surface.
    #[cfg(free_unix)]
    Wayland,
}

/// Runs, on `backend`, the bars of the fleet `start` makes with the way to
/// reach their loop, until they are told to quit or the display goes.
pub fn run(backend: Backend, start: impl FnOnce(Deliver) -> Fleet) -> anyhow::Result<()> {
    match backend {
        #[cfg(free_unix)]
        Backend::Wayland => {
            let wayland = wayland::connect()?;
            let fleet = start(wayland.deliver());
            wayland.run(fleet)
        }
        Backend::Winit => {
            #[cfg(free_unix)]
            winit::end_quietly_without_the_display();
            let event_loop = tracing::debug_span!("opening the display").in_scope(winit::event_loop)?;
            let fleet = start(winit::deliver_to(&event_loop));
            winit::BarWindows::new(fleet).run(event_loop)
        }
    }
}

/// The monitors `backend` would place the bars among, in the order the
/// config's `monitor` numbers them: RandR's on X11, the compositor's
/// layout's on Wayland.
#[cfg(free_unix)]
pub fn monitors(backend: Backend) -> anyhow::Result<Vec<Output>> {
    match backend {
        Backend::Wayland => wayland::outputs::list(),
        Backend::Winit => winit::x11_monitors(),
    }
}

//! The compositor's outputs as the bar numbers them (its `monitor`): in
//! their order in the layout, left to right, then top to bottom. The bar
//! places itself by this numbering, and `obi check` lists outputs by it.

use crate::bar::{Output, ScreenRect};
use anyhow::Context;
use smithay_client_toolkit::output::{OutputHandler, OutputInfo, OutputState};
use smithay_client_toolkit::reexports::client::globals::registry_queue_init;
use smithay_client_toolkit::reexports::client::protocol::wl_output;
use smithay_client_toolkit::reexports::client::{Connection, QueueHandle};
use smithay_client_toolkit::registry::{ProvidesRegistryState, RegistryState};
use smithay_client_toolkit::{delegate_output, delegate_registry, registry_handlers};

/// Where an output is in the compositor's layout.
pub fn origin(info: &OutputInfo) -> (i32, i32) {
    info.logical_position.unwrap_or(info.location)
}

/// `outputs` in the bar's numbering.
pub fn in_layout_order<T>(mut outputs: Vec<(T, OutputInfo)>) -> Vec<(T, OutputInfo)> {
    outputs.sort_by_key(|(_, info)| origin(info));
    outputs
}

/// The names of `outputs`, in their order, as the fleet knows monitors.
pub fn names<T>(outputs: &[(T, OutputInfo)]) -> Vec<String> {
    outputs.iter().map(|(_, info)| monitor(info).name).collect()
}

/// An output as the bar's placement sees a monitor (in logical pixels; no
/// output is the primary one).
pub fn monitor(info: &OutputInfo) -> Output {
    let (x, y) = origin(info);
    let (width, height) = info.logical_size.unwrap_or_default();
    Output {
        name: info.name.clone().unwrap_or_else(|| "(unnamed)".to_owned()),
        rect: ScreenRect { x, y, width: width.max(0) as u32, height: height.max(0) as u32 },
        primary: false,
        scale: 1.0,
    }
}

/// The outputs of the compositor `WAYLAND_DISPLAY` names, in the bar's
/// numbering.
pub fn list() -> anyhow::Result<Vec<Output>> {
    let connection = Connection::connect_to_env().context("cannot reach the Wayland compositor")?;
    let (globals, mut queue) = registry_queue_init(&connection).context("reading the compositor's globals")?;
    let qh = queue.handle();
    let mut listing = Listing { registry: RegistryState::new(&globals), outputs: OutputState::new(&globals, &qh) };
    // The outputs' names and places arrive after their globals.
    for _ in 0..2 {
        queue.roundtrip(&mut listing).context("asking the compositor for its outputs")?;
    }
    let outputs = listing.outputs.outputs().filter_map(|output| Some(((), listing.outputs.info(&output)?))).collect();
    Ok(in_layout_order(outputs).iter().map(|(_, info)| monitor(info)).collect())
}

struct Listing {
    registry: RegistryState,
    outputs: OutputState,
}

impl OutputHandler for Listing {
    fn output_state(&mut self) -> &mut OutputState {
        &mut self.outputs
    }

    fn new_output(&mut self, _: &Connection, _: &QueueHandle<Self>, _: wl_output::WlOutput) {}

    fn update_output(&mut self, _: &Connection, _: &QueueHandle<Self>, _: wl_output::WlOutput) {}

    fn output_destroyed(&mut self, _: &Connection, _: &QueueHandle<Self>, _: wl_output::WlOutput) {}
}

impl ProvidesRegistryState for Listing {
    fn registry(&mut self) -> &mut RegistryState {
        &mut self.registry
    }

    registry_handlers![OutputState];
}

delegate_output!(Listing);
delegate_registry!(Listing);

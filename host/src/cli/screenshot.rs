//! `obi --screenshot OUT.png`: one frame of the bar, painted offscreen.

use obi::bar::Bar;
use obi::render::{Offscreen, find_text_font};
use obi::runtime::WidgetEngine;
use obi::scheduler::Scheduler;
use obi::view::images::HeldImages;
use std::path::Path;

/// How long a screenshot waits for answers its widgets were promised
/// (a first reading of the disks, a release feed).
const SCREENSHOT_SETTLE: std::time::Duration = std::time::Duration::from_secs(10);

/// Refreshes every widget of `bar` once and writes the frame to `path`.
pub fn write(mut engine: WidgetEngine, mut bar: Bar, held: HeldImages, width: u32, path: &Path) -> anyhow::Result<()> {
    bar.set_text_font(find_text_font(bar.font_family())?.data);
    let height = bar.pixel_height();
    // GL start-up does not depend on the widgets: overlap the two.
    let specs = bar.specs().to_vec();
    let (offscreen, states) = std::thread::scope(|scope| {
        let states = scope.spawn(|| Scheduler::first_states(&mut engine, specs, SCREENSHOT_SETTLE));
        let offscreen = Offscreen::new(width, height);
        (offscreen, states.join().expect("the widget thread panicked"))
    });
    let mut offscreen = offscreen?;
    offscreen.painter.use_held_images(held);
    for (index, state) in states.into_iter().enumerate() {
        bar.apply(0, index, state);
    }
    offscreen.render(bar.scene(), path)
}

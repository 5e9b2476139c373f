//! What the user asks of a running bar: `obi msg` (show, hide, toggle,
//! reload, refresh, quit), a saved config file, read on a thread of its
//! own and run when it is good, and a change of the sway or i3 bar block
//! it stands in for.

use super::{BarEvent, BarId, Deliver, Flow, Running};
use crate::bar::Surface;
use crate::bar_block::BlockEvent;
use crate::config::{BarConfig, Diagnostic, Loaded};
use crate::control;
use crate::render::find_text_font;
use crate::scheduler::WidgetEvent;
use std::path::Path;
use std::sync::Arc;

/// `obi msg refresh NAME` named no widget of the bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoWidgetNamed(pub String);

impl std::fmt::Display for NoWidgetNamed {
    fn fmt(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(formatter, "no widget is named {:?}", self.0)
    }
}

impl std::error::Error for NoWidgetNamed {}

impl Running {
    /// Does what `obi msg` asks of this bar; `quit` ends it. Fails when
    /// the bar has no widget of the name `refresh` gives.
    pub fn obey(&mut self, command: control::Command, surface: &mut dyn Surface) -> Result<Flow, NoWidgetNamed> {
        use control::Command;
        let hidden = match command {
            Command::Toggle => !self.hidden,
            Command::Show => false,
            Command::Hide => true,
            Command::Reload => {
                match &self.source.path {
                    Some(path) => {
                        let (path, deliver, bar) = (path.clone(), self.deliver.clone(), self.id);
                        let reading = std::thread::Builder::new()
                            .name("obi-config".into())
                            .spawn(move || read_config_for(&deliver, bar, &path));
                        if let Err(error) = reading {
                            tracing::warn!("cannot read the config again: {error}");
                        }
                    }
                    None => tracing::warn!("reload asked for, but this bar runs the built-in config"),
                }
                return Ok(Flow::Continue);
            }
            Command::Quit => return Ok(Flow::Quit),
            Command::Focus => {
                self.toggle_keyboard(surface);
                return Ok(Flow::Continue);
            }
            Command::Refresh(name) => {
                let widgets = self.bar.widgets_named(&name);
                if widgets.is_empty() {
                    return Err(NoWidgetNamed(name));
                }
                widgets.into_iter().for_each(|widget| self.scheduler.send(WidgetEvent::RefreshRequested { widget }));
                return Ok(Flow::Continue);
            }
            // Every bar hears a signal: one with no widget listening has nothing to do.
            Command::Signal(number) => {
                let widgets = self.bar.widgets_signalled(number);
                widgets.into_iter().for_each(|widget| self.scheduler.send(WidgetEvent::RefreshRequested { widget }));
                return Ok(Flow::Continue);
            }
        };
        self.set_hidden(hidden, surface);
        Ok(Flow::Continue)
    }

    /// Hides the bar, or shows it; its status programs are stopped while
    /// it is hidden.
    fn set_hidden(&mut self, hidden: bool, surface: &mut dyn Surface) {
        if hidden == self.hidden {
            return;
        }
        self.hidden = hidden;
        if hidden {
            self.release_keyboard(surface);
        }
        self.scheduler.send(WidgetEvent::Hidden(hidden));
        self.end_hover(surface);
        surface.set_visible(!hidden);
        if !hidden {
            surface.redraw();
        }
    }

    /// The bar block the bar stands in for changed (its config runs, its
    /// mode shows or hides the bar), or its modifier was pressed or released.
    pub fn block_changed(&mut self, event: BlockEvent, surface: &mut dyn Surface) {
        match event {
            BlockEvent::Changed(block) => {
                self.source.block = Some(Arc::new(*block));
                self.end_hover(surface);
                self.apply_config(surface);
                tracing::info!("the bar block changed");
            }
            BlockEvent::ModifierHeld(held) => self.modifier_held = held,
        }
        if let Some(block) = &self.source.block {
            self.set_hidden(!block.shown(self.modifier_held), surface);
        }
    }

    /// Runs the config file as read again, if it is good.
    pub fn reload(&mut self, read: Result<Loaded, Vec<Diagnostic>>, surface: &mut dyn Surface) {
        let Some(path) = self.source.path.clone() else { return };
        let loaded = match read {
            Ok(loaded) => loaded,
            Err(diagnostics) => {
                tracing::error!("{} changed but cannot be used; the bar keeps its running config", path.display());
                diagnostics.iter().for_each(|diagnostic| tracing::error!("{diagnostic}"));
                return;
            }
        };
        loaded.warnings.iter().for_each(|warning| tracing::warn!("{warning}"));
        self.end_hover(surface);
        self.source.config = loaded.config;
        self.apply_config(surface);
        tracing::info!("reloaded {}", path.display());
    }

    /// Runs the source's config as it is now.
    fn apply_config(&mut self, surface: &mut dyn Surface) {
        let reloaded = self.bar.reload(&self.source.running_config());
        if reloaded.font_changed {
            match find_text_font(self.bar.font_family()) {
                Ok(font) => self.bar.set_text_font(font.data),
                Err(error) => tracing::warn!("{error}"),
            }
        }
        self.scheduler.send(reloaded.reconfigure);
        if reloaded.placement_changed {
            self.tiler.set_bar_monitor(self.bar.placement().monitor);
            surface.place(self.bar.placement(), self.tiler.monitor_area());
        }
        self.notifications_reconfigured(surface);
        self.osd_reconfigured(Some(surface));
        surface.redraw();
    }
}

/// Reads the config at `path` on the calling thread, never the event
/// loop's (even a bounded file takes its time to read and check), and
/// hands what it read to the bar.
pub(super) fn read_config_for(deliver: &Deliver, bar: BarId, path: &Path) {
    deliver(BarEvent::ConfigRead { bar, read: Box::new(BarConfig::load(path)) });
}

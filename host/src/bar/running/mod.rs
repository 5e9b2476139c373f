//! A bar as it runs: its model, its widgets' scheduler, its tiler, and the
//! pointer over it (double clicks, scroll ticks, the item it rests on for a
//! tooltip). A surface's event loop hands it what happens (a widget's new
//! state, a saved config, `obi msg`, the pointer) and it answers through
//! the [`Surface`]: what to paint, where input goes, when a tooltip shows.
//!
//! Widget changes are painted once the loop has handled the events at
//! hand ([`Running::paint_changes`]): changes that arrive together make
//! one frame. A saved config is read and checked on another thread; a good
//! one replaces the running one (unchanged widgets keep their state), a
//! bad one is logged and ignored.
//!
//! Its jobs each have a file: [`painting`], the [`pointer`] (tooltips,
//! presses, scrolls), [`popups`], [`requests`] (`obi msg`, a saved
//! config), what assistive technology is told and asks ([`access`]), and
//! the [`keyboard`] the bar holds when asked; this one makes a bar and
//! holds what they share.

mod access;
mod keyboard;
mod notices;
mod osd;
mod painting;
mod pointer;
mod popups;
mod requests;

pub use keyboard::BarKey;
pub use notices::{NoticeInput, NotificationHost};
pub use osd::OsdHost;

use super::popup::{Grabbed, OpenPopup};
use super::surface::{ReportOutput, Surface};
use super::{Bar, ScreenRect};
use crate::bar_block::{BarBlock, BlockEvent};
use crate::config::model::MonitorConfigOrIndex;
use crate::config::{BarConfig, Diagnostic, Loaded};
use crate::input::{DoubleClicks, ScrollTicks};
use crate::render::Measure;
use crate::scheduler::{Changes, SchedulerHandle};
use crate::tiler::Connection;
use pointer::Hover;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::mpsc::Sender;

/// Which bar of the process an event is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BarId(pub u64);

/// Which of the process's bars shows what they share (the notifications,
/// the on-screen display): the first whose config enables it, until it
/// lets go.
#[derive(Debug, Clone, Copy, Default)]
struct ShownBy(Option<BarId>);

impl ShownBy {
    /// Whether `bar` may show `what`: no other bar does (the log says which does).
    fn free_for(self, bar: BarId, what: &str) -> bool {
        match self.0 {
            Some(shown_by) if shown_by != bar => {
                tracing::info!(
                    "{what}: shown by the first bar that enabled them (bar {}), not by bar {}",
                    shown_by.0,
                    bar.0
                );
                false
            }
            _ => true,
        }
    }

    fn is_shown(self) -> bool {
        self.0.is_some()
    }

    /// Bar `bar` shows it no more, if it did.
    fn let_go(&mut self, bar: BarId) {
        if self.0 == Some(bar) {
            self.0 = None;
        }
    }
}

/// Messages from other threads to the bars' event loop.
#[derive(Debug)]
pub enum BarEvent {
    /// Widgets of bar `bar` show something new.
    Widgets { bar: BarId, changes: Changes },
    /// Bar `bar`'s config file was saved, and read again (off the event loop).
    ConfigRead { bar: BarId, read: Box<Result<Loaded, Vec<Diagnostic>>> },
    /// `obi msg ...` from the control socket, with where the answer goes,
    /// or a signal's quit.
    Control { request: crate::control::Request, reply: Option<Sender<String>> },
    /// Monitors were added or removed, or changed resolution.
    MonitorsChanged,
    /// The sway or i3 bar block the bars stand in for changed, or its
    /// modifier was pressed or released.
    Block(BlockEvent),
    /// The pointer or the keyboard, held by bar `bar`'s open popup.
    Grabbed { bar: BarId, input: Grabbed },
    /// Assistive technology asks something of bar `bar`.
    Access { bar: BarId, request: crate::access::Request },
    /// A key pressed while bar `bar` holds the keyboard.
    Key { bar: BarId, key: BarKey },
    /// The desktop's notifications changed.
    Notifications,
    /// The pointer on the `index`th notification bar `bar` shows.
    Notice { bar: BarId, index: usize, input: NoticeInput },
    /// The volume or the backlight, followed for on-screen displays, changed.
    Levels,
}

/// Hands a [`BarEvent`] to the bars' event loop, whichever it is; false
/// once the loop is gone.
pub type Deliver = Arc<dyn Fn(BarEvent) -> bool + Send + Sync>;

/// What a bar is made from: its config file (none: the built-in config),
/// the config as last read from it, the monitor it goes on in place of
/// the config's (`--every-monitor`), and the sway or i3 bar block it
/// stands in for, whose config lies beneath the file's.
#[derive(Debug, Clone)]
pub struct BarSource {
    pub path: Option<PathBuf>,
    pub config: BarConfig,
    pub monitor: Option<usize>,
    /// The display's name of that monitor, when it has one.
    pub monitor_name: Option<String>,
    pub block: Option<Arc<BarBlock>>,
}

impl BarSource {
    /// A bar of `config`, read from `path`, alone.
    pub fn of(path: Option<PathBuf>, config: BarConfig) -> BarSource {
        BarSource { path, config, monitor: None, monitor_name: None, block: None }
    }

    /// The config the bar runs: the file's over its block's, on the monitor
    /// it was given. A bar given its monitor spans it: `position.start`,
    /// absolute on the screen, would put every such bar in one place.
    pub fn running_config(&self) -> BarConfig {
        let config = match &self.block {
            Some(block) => {
                let first = self.monitor.is_none_or(|monitor| monitor == 0);
                self.config.over(&crate::bar_block::config(block, self.monitor_name.as_deref(), first))
            }
            None => self.config.clone(),
        };
        let Some(index) = self.monitor else { return config };
        let mut config = config;
        config.model.monitor = Some(match config.model.monitor {
            Some(MonitorConfigOrIndex::Config(mut monitor)) => {
                monitor.index = index;
                MonitorConfigOrIndex::Config(monitor)
            }
            _ => MonitorConfigOrIndex::Index(index),
        });
        if let Some(position) = &mut config.model.position {
            position.start = None;
        }
        config
    }
}

/// Whether the loop goes on after an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

pub struct Running {
    id: BarId,
    bar: Bar,
    scheduler: SchedulerHandle,
    /// Its view of the tiler, shared with its widgets: its `mouse` config
    /// talks to it, and it learns which output the bar is on.
    tiler: Connection,
    source: BarSource,
    /// Reads `source`'s file again on every save.
    watcher: Option<crate::watch::FileWatcher>,
    deliver: Deliver,
    /// What it lays itself and its popups out with.
    measure: Measure,
    cursor: (f32, f32),
    /// The pointer is on the bar (it moved onto it and has not left).
    pointer_on_bar: bool,
    double_clicks: DoubleClicks,
    scroll_ticks: ScrollTicks,
    hover: Option<Hover>,
    /// A widget's popup, while it is shown.
    popup: Option<OpenPopup>,
    /// Hidden by `obi msg`, or by its bar block's mode.
    hidden: bool,
    /// Its bar block's modifier is held (sway's `bar_state_update`).
    modifier_held: bool,
    /// A widget's state changed since the last frame.
    widgets_changed: bool,
    /// Every widget has shown something (or failed) in a frame presented.
    complete_once: bool,
    /// The bar's accessibility tree, as last sent.
    access: crate::access::AccessTree,
    /// The item (or popup cell) the keyboard is on, or assistive
    /// technology put the focus on.
    focus: Option<crate::access::Target>,
    /// The bar holds the keyboard (`obi msg focus`): its keys move the focus.
    keyboard_held: bool,
    /// The desktop's notifications, when this bar shows them.
    notices: Option<notices::Notices>,
    /// The process's notification server, which a reload enabling or
    /// disabling notifications asks for them or gives them back.
    notification_host: Option<notices::NotificationHost>,
    /// The on-screen displays, when this bar shows them.
    osd: Option<osd::Osd>,
    /// The levels the process follows for them.
    osd_host: Option<OsdHost>,
}

impl Running {
    /// Bar `id`, `bar` as made from `source`, whose widgets run under
    /// `scheduler`, whose events come through `deliver`, and which lays
    /// itself out with `measure`.
    pub fn new(
        id: BarId,
        source: BarSource,
        bar: Bar,
        scheduler: SchedulerHandle,
        tiler: Connection,
        deliver: Deliver,
        measure: Measure,
    ) -> Running {
        Running {
            id,
            bar,
            scheduler,
            tiler,
            source,
            watcher: None,
            deliver,
            measure,
            cursor: (0.0, 0.0),
            pointer_on_bar: false,
            double_clicks: DoubleClicks::default(),
            scroll_ticks: ScrollTicks::default(),
            hover: None,
            popup: None,
            hidden: false,
            modifier_held: false,
            widgets_changed: false,
            complete_once: false,
            access: crate::access::AccessTree::default(),
            focus: None,
            keyboard_held: false,
            notices: None,
            notification_host: None,
            osd: None,
            osd_host: None,
        }
    }

    /// Starts watching the bar's config file, until the bar is dropped:
    /// each save is read again.
    pub(super) fn listen(&mut self) -> anyhow::Result<()> {
        if let Some(path) = &self.source.path {
            let (deliver, saved, bar) = (self.deliver.clone(), path.clone(), self.id);
            self.watcher = Some(crate::watch::watch(path, move || requests::read_config_for(&deliver, bar, &saved))?);
        }
        Ok(())
    }

    pub fn id(&self) -> BarId {
        self.id
    }

    pub fn source(&self) -> &BarSource {
        &self.source
    }

    pub fn bar(&self) -> &Bar {
        &self.bar
    }

    pub fn bar_mut(&mut self) -> &mut Bar {
        &mut self.bar
    }

    /// Where the tiler has the bar's monitor, when it says (komorebi).
    pub fn tiler_monitor_area(&self) -> Option<ScreenRect> {
        self.tiler.monitor_area()
    }

    /// How the bar's surface tells the tiler which output the bar is on.
    pub fn report_output(&self) -> ReportOutput {
        let tiler = self.tiler.clone();
        Rc::new(move |name| tiler.set_bar_output(name))
    }

    /// Whether the user hid the bar.
    pub fn hidden(&self) -> bool {
        self.hidden
    }

    /// Widgets of the bar show something new.
    pub fn widgets_changed(&mut self, changes: Changes) {
        for (index, state) in changes.states {
            self.widgets_changed |= self.bar.apply(changes.generation, index, state);
        }
    }

    /// The monitors changed: the surface puts the bar on its monitor again.
    pub fn monitors_changed(&mut self, surface: &mut dyn Surface) {
        surface.place(self.bar.placement(), self.tiler.monitor_area());
    }
}

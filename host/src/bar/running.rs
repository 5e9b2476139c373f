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

use super::popup::{self, Grabbed, Located, OpenPopup, PopupKey};
use super::surface::{ReportOutput, Surface};
use super::{Bar, Route, ScreenRect};
use crate::config::model::MonitorConfigOrIndex;
use crate::config::{BarConfig, Diagnostic, Loaded};
use crate::control;
use crate::input::{DoubleClicks, ScrollTicks};
use crate::render::{Rect, damage, find_text_font};
use crate::scheduler::{Changes, SchedulerHandle, WidgetEvent};
use crate::tiler::Connection;
use crate::view::{Input, WidgetState};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// Which bar of the process an event is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BarId(pub u64);

/// Messages from other threads to the bars' event loop.
#[derive(Debug)]
pub enum BarEvent {
    /// Widgets of bar `bar` show something new.
    Widgets { bar: BarId, changes: Changes },
    /// Bar `bar`'s config file was saved, and read again (off the event loop).
    ConfigRead { bar: BarId, read: Box<Result<Loaded, Vec<Diagnostic>>> },
    /// `obi msg ...` from the control socket, with where the answer goes,
    /// or a signal's quit.
    Control { request: control::Request, reply: Option<Sender<String>> },
    /// Monitors were added or removed, or changed resolution.
    MonitorsChanged,
    /// The pointer or the keyboard, held by bar `bar`'s open popup.
    Grabbed { bar: BarId, input: Grabbed },
}

/// Hands a [`BarEvent`] to the bars' event loop, whichever it is; false
/// once the loop is gone.
pub type Deliver = Arc<dyn Fn(BarEvent) -> bool + Send + Sync>;

/// What a bar is made from: its config file (none: the built-in config),
/// the config as last read from it, and the monitor it goes on in place of
/// the config's (`--every-monitor`).
#[derive(Debug, Clone)]
pub struct BarSource {
    pub path: Option<PathBuf>,
    pub config: BarConfig,
    pub monitor: Option<usize>,
}

impl BarSource {
    /// The config the bar runs: the file's, on the monitor it was given.
    /// A bar given its monitor spans it: `position.start`, absolute on the
    /// screen, would put every such bar in one place.
    pub fn running_config(&self) -> BarConfig {
        let Some(index) = self.monitor else { return self.config.clone() };
        let mut config = self.config.clone();
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

/// How long the cursor rests on an item before its tooltip shows.
const TOOLTIP_DELAY: Duration = Duration::from_millis(500);

/// The item under the cursor, when it has a tooltip.
#[derive(Debug, Clone, PartialEq)]
struct Hover {
    /// The item: its widget's index in the scene, and its key.
    widget: usize,
    key: String,
    text: String,
    /// Where the item is on the surface.
    anchor: Rect,
    due: Instant,
    shown: bool,
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
    cursor: (f32, f32),
    /// The pointer is on the bar (it moved onto it and has not left).
    pointer_on_bar: bool,
    double_clicks: DoubleClicks,
    scroll_ticks: ScrollTicks,
    hover: Option<Hover>,
    /// A widget's popup, while it is shown.
    popup: Option<OpenPopup>,
    /// Hidden by `obi msg`.
    hidden: bool,
    /// A widget's state changed since the last frame.
    widgets_changed: bool,
    /// Every widget has shown something (or failed) in a frame presented.
    complete_once: bool,
}

impl Running {
    /// Bar `id`, `bar` as made from `source`, whose widgets run under
    /// `scheduler` and whose events come through `deliver`.
    pub fn new(
        id: BarId,
        source: BarSource,
        bar: Bar,
        scheduler: SchedulerHandle,
        tiler: Connection,
        deliver: Deliver,
    ) -> Running {
        Running {
            id,
            bar,
            scheduler,
            tiler,
            source,
            watcher: None,
            deliver,
            cursor: (0.0, 0.0),
            pointer_on_bar: false,
            double_clicks: DoubleClicks::default(),
            scroll_ticks: ScrollTicks::default(),
            hover: None,
            popup: None,
            hidden: false,
            widgets_changed: false,
            complete_once: false,
        }
    }

    /// Starts watching the bar's config file, until the bar is dropped:
    /// each save is read again.
    pub(super) fn listen(&mut self) -> anyhow::Result<()> {
        if let Some(path) = &self.source.path {
            let (deliver, saved, bar) = (self.deliver.clone(), path.clone(), self.id);
            self.watcher = Some(crate::watch::watch(path, move || read_config_for(&deliver, bar, &saved))?);
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

    /// Paints and presents everything (after an expose, a resize or a reload).
    pub fn paint_all(&mut self, surface: &mut dyn Surface) {
        self.widgets_changed = false;
        let laying_out = tracing::trace_span!("laying the bar out").entered();
        let Some(layout) = surface.lay_out(self.bar.scene()) else { return };
        drop(laying_out);
        tracing::trace_span!("painting the bar").in_scope(|| {
            surface.present(&self.bar.scene().style, &layout, layout.window);
        });
        self.bar.show(layout);
        self.follow_hovered_item(surface);
        self.follow_popup(surface);
        self.note_presented();
    }

    /// Paints and presents only what the widgets changed since the last frame.
    pub fn paint_changes(&mut self, surface: &mut dyn Surface) {
        if !std::mem::take(&mut self.widgets_changed) {
            return;
        }
        let Some(layout) = surface.lay_out(self.bar.scene()) else { return };
        if let Some(changed) = damage(self.bar.shown(), &layout, &self.bar.scene().style) {
            tracing::trace!("bar {}: presenting {changed:?}", self.id.0);
            surface.present(&self.bar.scene().style, &layout, changed);
            self.bar.show(layout);
            self.follow_hovered_item(surface);
            self.note_presented();
        }
        // A popup may change while the bar does not.
        self.follow_popup(surface);
    }

    /// Shows the popup a widget has open beside its item, as it is now;
    /// hides the one no widget has open any more.
    fn follow_popup(&mut self, surface: &mut dyn Surface) {
        let wanted = popup::wanted(self.bar.scene()).and_then(|(widget, popup)| {
            let shown = self.bar.shown().items.iter();
            let mut beside = shown.filter(|placed| placed.widget == widget && placed.item.key == popup.item_key);
            Some((widget, popup, beside.next()?.rect))
        });
        match wanted {
            None => {
                if self.popup.take().is_some() {
                    surface.hide_popup();
                }
            }
            Some((widget, popup, anchor)) => {
                if self.popup.as_ref().is_some_and(|open| open.shows(widget, popup, anchor)) {
                    return;
                }
                let popup = popup.clone();
                // The widget's popup as it is now keeps the cell that was lit.
                let lit = self.popup.as_ref().filter(|open| open.widget == widget).and_then(OpenPopup::lit_key);
                self.end_hover(surface);
                match surface.show_popup(anchor, &popup, &self.bar.scene().style) {
                    Some(layout) => {
                        let mut open = OpenPopup::new(widget, popup, anchor, layout);
                        if lit.is_some_and(|key| open.light(&key)) {
                            surface.repaint_popup(&open.layout, &self.bar.scene().style);
                        }
                        self.popup = Some(open);
                    }
                    // Not shown here: the widget is told, rather than asked again each frame.
                    None => {
                        self.popup = None;
                        self.scheduler.send(WidgetEvent::ClosePopup { widget });
                    }
                }
            }
        }
    }

    /// Whether a widget has a popup open, shown or to show.
    pub fn wants_popup(&self) -> bool {
        popup::wanted(self.bar.scene()).is_some()
    }

    /// Where what an open popup's grab sees goes: this bar, on the event loop.
    pub fn report_grabbed(&self) -> std::sync::Arc<dyn Fn(Grabbed) -> bool + Send + Sync> {
        let (deliver, bar) = (self.deliver.clone(), self.id);
        std::sync::Arc::new(move |input| deliver(BarEvent::Grabbed { bar, input }))
    }

    /// The pointer or the keyboard while the popup holds them.
    pub fn grabbed(&mut self, input: Grabbed, surface: &mut dyn Surface) {
        if self.popup.is_none() {
            return;
        }
        match input {
            Grabbed::Key(key) => self.popup_key(key, surface),
            Grabbed::Released => self.popup_released(),
            Grabbed::Moved { at } => match surface.locate(at) {
                Located::Popup(x, y) => self.popup_moved(Some((x, y)), surface),
                Located::Bar(..) | Located::Elsewhere => self.popup_moved(None, surface),
            },
            Grabbed::Pressed { input, at } => match surface.locate(at) {
                Located::Popup(x, y) => self.popup_pressed(input, x, y),
                Located::Bar(x, y) => {
                    self.cursor = (x, y);
                    self.press_on_bar_with_popup(input, surface);
                }
                Located::Elsewhere => self.close_popup(surface),
            },
        }
    }

    /// A key pressed while the popup holds the keyboard: Escape closes it,
    /// the arrows light another cell, Return clicks the lit one.
    pub fn popup_key(&mut self, key: PopupKey, surface: &mut dyn Surface) {
        let Some(open) = &mut self.popup else { return };
        let changed = match key {
            PopupKey::Close => return self.close_popup(surface),
            PopupKey::Previous => open.step(false),
            PopupKey::Next => open.step(true),
            PopupKey::Choose => {
                if let Some(event) = open.choose() {
                    self.scheduler.send(event);
                }
                false
            }
        };
        if changed {
            surface.repaint_popup(&open.layout, &self.bar.scene().style);
        }
    }

    /// Input pressed at (`x`, `y`) on the popup shown.
    pub fn popup_pressed(&mut self, input: Input, x: f32, y: f32) {
        if let Some(event) = self.popup.as_mut().and_then(|open| open.press(input, x, y)) {
            self.scheduler.send(event);
        }
    }

    /// The pointer moved to (`x`, `y`) on the popup shown (none: off it),
    /// perhaps dragging a slider; the cell it is on is lit.
    pub fn popup_moved(&mut self, at: Option<(f32, f32)>, surface: &mut dyn Surface) {
        let Some(open) = &mut self.popup else { return };
        if let Some(event) = at.and_then(|(x, _)| open.drag(x)) {
            self.scheduler.send(event);
        }
        if open.hover(at) {
            surface.repaint_popup(&open.layout, &self.bar.scene().style);
        }
    }

    pub fn popup_released(&mut self) {
        if let Some(open) = &mut self.popup {
            open.release();
        }
    }

    /// A press on the bar while a popup is open closes it; on the popup's
    /// own item that is all it does (a second click on the date closes the
    /// calendar), elsewhere the press goes on as any press on the bar.
    fn press_on_bar_with_popup(&mut self, input: Input, surface: &mut dyn Surface) {
        let Some(open) = &self.popup else { return };
        let on_its_item = self
            .bar
            .item_at(self.cursor.0)
            .is_some_and(|placed| placed.widget == open.widget && placed.item.key == open.popup.item_key);
        self.close_popup(surface);
        if !on_its_item {
            self.pressed(input, surface);
        }
    }

    /// Closes the popup shown: at once on the screen, and in its widget.
    pub fn close_popup(&mut self, surface: &mut dyn Surface) {
        if let Some(open) = self.popup.take() {
            surface.hide_popup();
            self.scheduler.send(WidgetEvent::ClosePopup { widget: open.widget });
        }
    }

    /// Says, once, when the bar's first frame and its first complete one
    /// (every widget shown, or failed) were presented.
    fn note_presented(&mut self) {
        if self.complete_once {
            return;
        }
        let widgets = &self.bar.scene().widgets;
        let waiting = widgets.iter().filter(|widget| matches!(widget.state, WidgetState::Pending)).count();
        let at = crate::uptime::since_start();
        match waiting {
            0 => {
                self.complete_once = true;
                tracing::debug!("bar {}: its first complete frame presented {at:.1?} after the start", self.id.0);
            }
            _ => tracing::debug!(
                "bar {}: a frame presented {at:.1?} after the start, {waiting} widgets to come",
                self.id.0
            ),
        }
    }

    /// The pointer moved to (`x`, `y`): a new item with a tooltip under it
    /// starts the wait for its tooltip; anything else hides the one shown.
    pub fn pointer_moved(&mut self, x: f32, y: f32, surface: &mut dyn Surface) {
        self.cursor = (x, y);
        self.pointer_on_bar = true;
        let target = self.hover_at(x);
        let same =
            matches!((&self.hover, &target), (Some(old), Some(new)) if old.widget == new.widget && old.key == new.key);
        if !same {
            self.end_hover(surface);
            self.hover = target;
        }
    }

    /// The item at `x`, to be hovered, when it has a tooltip.
    fn hover_at(&self, x: f32) -> Option<Hover> {
        let placed = self.bar.item_at(x)?;
        Some(Hover {
            widget: placed.widget,
            key: placed.item.key.clone(),
            text: placed.item.tooltip.clone()?,
            anchor: placed.rect,
            due: Instant::now() + TOOLTIP_DELAY,
            shown: false,
        })
    }

    pub fn pointer_left(&mut self, surface: &mut dyn Surface) {
        self.pointer_on_bar = false;
        self.end_hover(surface);
        self.scroll_ticks.reset();
    }

    /// A button was pressed where the pointer is; a second primary click
    /// soon after the first, near it, is a double click.
    pub fn pressed(&mut self, input: Input, surface: &mut dyn Surface) {
        if self.popup.is_some() {
            return self.press_on_bar_with_popup(input, surface);
        }
        self.end_hover(surface);
        let input = match input {
            Input::PrimaryClick if self.double_clicks.press(Instant::now(), self.cursor) => Input::DoubleClick,
            other => other,
        };
        self.dispatch(input);
    }

    /// Scrolled `points` (x: positive left; y: positive up); each whole
    /// tick of the `mouse` config's thresholds is one scroll input.
    pub fn scrolled(&mut self, points: (f32, f32)) {
        let (horizontal, vertical) = self.bar.mouse().thresholds;
        for direction in self.scroll_ticks.scroll(points, horizontal, vertical) {
            self.dispatch(Input::Scroll(direction));
        }
    }

    /// When the tooltip of the item the pointer rests on is due, when one waits.
    pub fn tooltip_due(&self) -> Option<Instant> {
        self.hover.as_ref().filter(|hover| !hover.shown).map(|hover| hover.due)
    }

    /// Shows the tooltip that is due.
    pub fn show_tooltip(&mut self, surface: &mut dyn Surface) {
        let Some(hover) = &mut self.hover else { return };
        hover.shown = true;
        surface.show_tooltip(hover.anchor, &hover.text, &self.bar.scene().style);
    }

    /// The text of the tooltip shown, when one is.
    pub fn shown_tooltip(&self) -> Option<&str> {
        self.hover.as_ref().filter(|hover| hover.shown).map(|hover| hover.text.as_str())
    }

    fn end_hover(&mut self, surface: &mut dyn Surface) {
        if self.hover.take().is_some_and(|hover| hover.shown) {
            surface.hide_tooltip();
        }
    }

    /// The hovered item after a repaint: gone, its tooltip goes; moved or
    /// with new text, its tooltip follows. An item that came to be under a
    /// pointer resting on the bar (the bar's first items, a workspace
    /// added) is hovered as if the pointer had moved onto it.
    fn follow_hovered_item(&mut self, surface: &mut dyn Surface) {
        let Some(hover) = &self.hover else {
            if self.pointer_on_bar {
                self.hover = self.hover_at(self.cursor.0);
            }
            return;
        };
        let now =
            self.bar.shown().items.iter().find(|placed| placed.widget == hover.widget && placed.item.key == hover.key);
        match now.and_then(|placed| Some((placed.rect, placed.item.tooltip.clone()?))) {
            None => self.end_hover(surface),
            Some((anchor, text)) if anchor != hover.anchor || text != hover.text => {
                let Some(hover) = &mut self.hover else { return };
                (hover.anchor, hover.text) = (anchor, text);
                if hover.shown {
                    surface.show_tooltip(hover.anchor, &hover.text, &self.bar.scene().style);
                }
            }
            Some(_) => {}
        }
    }

    /// Gives `input` to the item under the pointer when it takes it, and
    /// else does what the bar's `mouse` config says.
    fn dispatch(&self, input: Input) {
        match self.bar.route(input, self.cursor.0) {
            Route::Widget(event) => self.scheduler.send(event),
            Route::Bar(action) => {
                tracing::debug!("{input:?} on the bar: {action:?}");
                action.run(&self.tiler);
            }
            Route::Nothing => tracing::debug!("{input:?} on the bar: nothing to do"),
        }
    }

    /// Does what `obi msg` asks of this bar; `quit` ends it. Fails when
    /// the bar has no widget of the name `refresh` gives.
    pub fn obey(&mut self, command: control::Command, surface: &mut dyn Surface) -> Result<Flow, String> {
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
            Command::Refresh(name) => {
                let widgets = self.bar.widgets_named(&name);
                if widgets.is_empty() {
                    return Err(format!("no widget is named {name:?}"));
                }
                widgets.into_iter().for_each(|widget| self.scheduler.send(WidgetEvent::RefreshRequested { widget }));
                return Ok(Flow::Continue);
            }
        };
        self.hidden = hidden;
        self.end_hover(surface);
        surface.set_visible(!hidden);
        if !hidden {
            surface.redraw();
        }
        Ok(Flow::Continue)
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
        let reloaded = self.bar.reload(&self.source.running_config());
        if reloaded.font_changed {
            match find_text_font(self.bar.font_family()) {
                Ok(font) => surface.set_text_font(&font.data),
                Err(error) => tracing::warn!("{error}"),
            }
        }
        self.scheduler.send(reloaded.reconfigure);
        tracing::info!("reloaded {}", path.display());
        if reloaded.placement_changed {
            self.tiler.set_bar_monitor(self.bar.placement().monitor);
            surface.place(self.bar.placement(), self.tiler.monitor_area());
        }
        surface.redraw();
    }
}

/// Reads the config at `path` on the calling thread, never the event
/// loop's (even a bounded file takes its time to read and check), and
/// hands what it read to the bar.
fn read_config_for(deliver: &Deliver, bar: BarId, path: &Path) {
    deliver(BarEvent::ConfigRead { bar, read: Box::new(BarConfig::load(path)) });
}

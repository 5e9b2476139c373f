//! Runs every widget of every bar of the process on one thread: each
//! refreshes on its own schedule, input is delivered between refreshes, and
//! a failing widget is dropped, shown as failed and restarted with
//! exponential backoff while the others go on. The thread sleeps until the
//! next refresh is due or an event arrives (input, a reload, or a capability
//! waking a widget whose answer came in after its call); it never polls.
//! However short its schedule and however often it is woken, a widget is
//! refreshed at most every [`MIN_REFRESH_GAP`]: a burst of wakes is one
//! refresh, which reads the latest. The answers to what a widget asked for
//! as it started (a command's output, a first reading) are the exception:
//! each is read as it comes, so that it is in the bar's first frame. A
//! refresh may name when the next is due (a countdown's next second), which
//! stands in for the schedule that once. Intervals of whole seconds land on
//! the wall clock's seconds, as a clock's ticks do, so that an idle bar's
//! widgets share one wakeup and one frame a second. A third-party widget's
//! component file is watched: when it is saved anew, the widgets made from
//! it, and only those, start again from the new one.

use crate::capabilities::Capabilities;
use crate::runtime::{Failure, Schedule, WidgetEngine, WidgetInstance};
use crate::spec::{WidgetSource, WidgetSpec};
use crate::view::WidgetState;
use crate::view::popup::PopupInput;
use crate::view::{Input, Pointer};
use crate::wake::Waker;
use crate::watch::{FileWatcher, watch_files};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Restarts wait 1 s, 2 s, 4 s ... up to this.
const MAX_BACKOFF: Duration = Duration::from_secs(60);
/// A widget that stayed up this long starts its backoff from 1 s again.
const HEALTHY_AFTER: Duration = Duration::from_secs(60);
/// Wall-clock ticks land just after the boundary, so a clock reads the new second.
const TICK_SLACK: Duration = Duration::from_millis(2);
/// Refreshes due this close together run in one wakeup: due times worked
/// out from the same second in different wakeups differ by how long reading
/// the two clocks took. Less than [`TICK_SLACK`], so that a clock run early
/// by it still reads the new second.
const TOGETHER: Duration = Duration::from_millis(1);
/// The wall clock's second, on which longer intervals land.
const SECOND: Duration = Duration::from_secs(1);
/// A tenth of a second: quicker than a bar needs to follow anything, and
/// what keeps a widget that asks for 1 ms, or a flood of wakes, from taking
/// the thread every widget shares.
pub const MIN_REFRESH_GAP: Duration = Duration::from_millis(100);

/// What a bar tells its widgets, besides the passing of time.
#[derive(Debug, PartialEq)]
pub enum WidgetEvent {
    /// A click or scroll on item `key` of widget number `widget`, and
    /// where the pointer was.
    Input { widget: usize, key: String, input: Input, pointer: Pointer },
    /// Input on cell `cell` of the popup widget `widget` has open beside
    /// its item `key`.
    PopupInput { widget: usize, key: String, cell: String, input: PopupInput },
    /// The bar closed widget `widget`'s popup (a click outside it, Escape).
    ClosePopup { widget: usize },
    /// The user asked that widget `widget` read afresh (`obi msg refresh`).
    RefreshRequested { widget: usize },
    /// The bar was hidden, or shown again: the status programs its
    /// widgets run are stopped while it is hidden.
    Hidden(bool),
    /// A new set of widgets (a reloaded config). `continued[i]` names the
    /// running widget that the new widget `i` continues (see
    /// [`crate::spec::continued`]): it keeps its instance and state; the others
    /// start anew. States reported from then on carry `generation`.
    Reconfigure { generation: u64, specs: Vec<WidgetSpec>, continued: Vec<Option<usize>> },
}

/// What a bar's widgets changed in one pass of the widget thread: sent
/// together, so that the bar paints them in one frame.
#[derive(Debug)]
pub struct Changes {
    /// The config generation the widgets are of (0 until the first `Reconfigure`).
    pub generation: u64,
    /// Each changed widget's index and what it shows now.
    pub states: Vec<(usize, WidgetState)>,
}

/// Where a bar's widgets' changes go.
type Sink = Box<dyn FnMut(Changes) + Send>;

/// What the widgets' thread is told.
enum Order {
    /// For the widgets of bar `bar`.
    Bar(u64, WidgetEvent),
    /// A bar's widgets start, with its own capabilities.
    AddBar {
        bar: u64,
        capabilities: Box<Capabilities>,
        specs: Vec<WidgetSpec>,
        sink: Sink,
    },
    /// A bar is gone: its widgets stop.
    RemoveBar(u64),
    /// A capability has an answer for the widget in slot `slot` (see [`Waker`]).
    Wake {
        slot: u64,
    },
    /// The component file at `path` was saved anew: the widgets made from
    /// it, on every bar, start again from the new one.
    ComponentChanged {
        path: PathBuf,
    },
    Stop,
}

pub struct Scheduler;

impl Scheduler {
    /// Starts the widgets' thread, with no bar yet: every bar of the
    /// process runs its widgets on it ([`WidgetThread::add_bar`]), since
    /// the engine's deadlines assume one call at a time.
    pub fn start(engine: WidgetEngine) -> WidgetThread {
        let (sender, receiver) = mpsc::channel();
        let wakes = sender.clone();
        let thread = thread::Builder::new()
            .name("obi-widgets".into())
            .spawn(move || run(engine, (wakes, receiver)))
            .expect("spawning the widget thread");
        WidgetThread { inner: Arc::new(ThreadInner { sender, thread: Some(thread) }) }
    }

    /// Starts the widgets of one bar on a thread of their own, with the
    /// engine's capabilities. `sink` receives each changed state with its
    /// config generation and widget index.
    pub fn spawn(
        engine: WidgetEngine,
        specs: Vec<WidgetSpec>,
        mut sink: impl FnMut(u64, usize, WidgetState) + Send + 'static,
    ) -> SchedulerHandle {
        let capabilities = engine.capabilities().clone();
        Scheduler::start(engine).add_bar(capabilities, specs, move |changes: Changes| {
            for (index, state) in changes.states {
                sink(changes.generation, index, state);
            }
        })
    }

    /// Starts every widget and refreshes it once, on this thread: what the
    /// bar shows first (and what `--screenshot` draws).
    /// A widget whose capability promised an answer (a first reading, a
    /// fetch) is refreshed again when it comes, for up to `settle`.
    pub fn first_states(engine: &mut WidgetEngine, specs: Vec<WidgetSpec>, settle: Duration) -> Vec<WidgetState> {
        let moment = Moment::now();
        let now = moment.now;
        let capabilities = engine.capabilities().clone();
        let (woken, wakes) = mpsc::channel();
        let mut slots: Vec<Slot> = specs
            .into_iter()
            .enumerate()
            .map(|(index, spec)| {
                let woken = woken.clone();
                let waker = Waker::new(move || {
                    let _ = woken.send(index);
                });
                Slot::new(spec, now, index as u64, waker)
            })
            .collect();
        slots.iter_mut().for_each(|slot| slot.tick(engine, &capabilities, moment));
        // Each promise brings one wake: wait until as many as were promised
        // have been read by a refresh.
        let mut answered = vec![0; slots.len()];
        let deadline = now + settle;
        while slots.iter().zip(&answered).any(|(slot, &answered)| slot.waker.promised() > answered) {
            let Ok(index) = wakes.recv_timeout(deadline.saturating_duration_since(Instant::now())) else { break };
            answered[index] = slots[index].waker.take();
            if slots[index].instance.is_some() {
                slots[index].tick(engine, &capabilities, Moment::now());
            }
        }
        slots.into_iter().map(|slot| slot.shown).collect()
    }
}

/// The thread every bar's widgets run on; it stops once the last handle
/// to it is dropped.
#[derive(Clone)]
pub struct WidgetThread {
    inner: Arc<ThreadInner>,
}

struct ThreadInner {
    sender: Sender<Order>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for ThreadInner {
    fn drop(&mut self) {
        let _ = self.sender.send(Order::Stop);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl WidgetThread {
    /// Starts a bar's widgets, which read `capabilities` (the bar's view of
    /// the tiler among them); `sink` receives what they change. Dropping
    /// the handle stops them.
    pub fn add_bar(
        &self,
        capabilities: Capabilities,
        specs: Vec<WidgetSpec>,
        sink: impl FnMut(Changes) + Send + 'static,
    ) -> SchedulerHandle {
        static NEXT_BAR: AtomicU64 = AtomicU64::new(0);
        let bar = NEXT_BAR.fetch_add(1, Ordering::Relaxed);
        let capabilities = Box::new(capabilities);
        // The thread only ends after `Stop`, which the last handle sends.
        let _ = self.inner.sender.send(Order::AddBar { bar, capabilities, specs, sink: Box::new(sink) });
        SchedulerHandle { thread: self.clone(), bar }
    }
}

/// One bar's widgets on the widgets' thread.
pub struct SchedulerHandle {
    thread: WidgetThread,
    bar: u64,
}

impl SchedulerHandle {
    pub fn send(&self, event: WidgetEvent) {
        let _ = self.thread.inner.sender.send(Order::Bar(self.bar, event));
    }
}

impl Drop for SchedulerHandle {
    fn drop(&mut self) {
        let _ = self.thread.inner.sender.send(Order::RemoveBar(self.bar));
    }
}

/// A widget's place on the widget thread: its spec and instance, when it
/// is next due, and how it has fared.
struct Slot {
    id: u64,
    spec: WidgetSpec,
    waker: Waker,
    instance: Option<WidgetInstance>,
    schedule: Schedule,
    due: Option<Instant>,
    /// When it was last refreshed.
    refreshed: Option<Instant>,
    /// Answers to what the widget asked for as it started (a command's
    /// output, a first reading) still to come: each is read as soon as it
    /// comes, not a gap after the start, since it belongs in the bar's
    /// first frame. Only those: a widget cannot earn more by asking again.
    first_answers_owed: usize,
    failures: u32,
    started: Instant,
    shown: WidgetState,
}

impl Slot {
    fn new(spec: WidgetSpec, now: Instant, id: u64, waker: Waker) -> Slot {
        Slot {
            id,
            spec,
            waker,
            instance: None,
            schedule: Schedule { interval_ms: 0, align_to_wall_clock: false },
            due: Some(now),
            refreshed: None,
            first_answers_owed: 0,
            failures: 0,
            started: now,
            shown: WidgetState::Pending,
        }
    }

    /// Starts the widget if it is not running, then refreshes it.
    fn tick(&mut self, engine: &mut WidgetEngine, capabilities: &Capabilities, moment: Moment) {
        let now = moment.now;
        let starting = self.instance.is_none();
        let _span = starting.then(|| tracing::debug_span!("starting a widget", widget = %self.spec.name).entered());
        let promised_before = self.waker.promised();
        if starting {
            match WidgetInstance::start_with(engine, capabilities, &self.spec, self.waker.clone()) {
                Ok((instance, schedule)) => {
                    if (1..MIN_REFRESH_GAP.as_millis() as u64).contains(&schedule.interval_ms) {
                        tracing::warn!(
                            "widget `{}` asks to be refreshed every {} ms; it is refreshed every {} ms at most",
                            self.spec.name,
                            schedule.interval_ms,
                            MIN_REFRESH_GAP.as_millis()
                        );
                    }
                    self.instance = Some(instance);
                    self.schedule = schedule;
                    self.started = now;
                }
                Err(failure) => return self.fail(failure, now),
            }
        }
        let instance = self.instance.as_mut().expect("started above");
        tracing::trace!("refreshing widget `{}`", self.spec.name);
        self.refreshed = Some(now);
        let refreshed = instance.refresh(engine);
        if starting {
            self.first_answers_owed = self.waker.promised() - promised_before;
        }
        match refreshed {
            Ok(refreshed) => {
                self.shown = WidgetState::Ready(refreshed.view);
                self.due = match refreshed.next_refresh {
                    Some(asked) => Some(now + asked.max(MIN_REFRESH_GAP)),
                    None => next_due(&self.schedule, now, moment.wall),
                };
            }
            Err(failure) => self.fail(failure, now),
        }
    }

    /// Has the widget refreshed as soon as it may: at once, unless it was a
    /// moment ago and this is not an answer owed since its start.
    fn wake(&mut self, now: Instant) {
        let owed = self.first_answers_owed > 0;
        self.first_answers_owed = self.first_answers_owed.saturating_sub(1);
        let allowed = match self.refreshed {
            Some(refreshed) if !owed => (refreshed + MIN_REFRESH_GAP).max(now),
            _ => now,
        };
        self.due = Some(self.due.map_or(allowed, |due| due.min(allowed)));
    }

    fn input(&mut self, engine: &mut WidgetEngine, capabilities: &Capabilities, key: &str, at: (Input, Pointer)) {
        let Some(instance) = self.instance.as_mut() else { return };
        let answered = instance.on_input(engine, key, at);
        self.after_input(engine, capabilities, answered);
    }

    fn popup_input(
        &mut self,
        engine: &mut WidgetEngine,
        capabilities: &Capabilities,
        (key, cell): (&str, &str),
        input: PopupInput,
    ) {
        let Some(instance) = self.instance.as_mut() else { return };
        let answered = instance.on_popup_input(engine, key, cell, input);
        self.after_input(engine, capabilities, answered);
    }

    /// Tells the widget the user asked that it read afresh, and refreshes it.
    fn refresh_requested(&mut self, engine: &mut WidgetEngine, capabilities: &Capabilities) {
        let Some(instance) = self.instance.as_mut() else { return };
        let answered = instance.request_refresh(engine);
        self.after_input(engine, capabilities, answered);
    }

    /// Closes the widget's popup, and refreshes it when one was open.
    fn close_popup(&mut self, engine: &mut WidgetEngine, capabilities: &Capabilities) {
        let Some(instance) = self.instance.as_mut() else { return };
        match instance.close_popup(engine) {
            Ok(false) => {}
            Ok(true) => self.tick(engine, capabilities, Moment::now()),
            Err(failure) => self.fail(failure, Instant::now()),
        }
    }

    /// The widget answered input (or failed to): it is refreshed at once.
    fn after_input(&mut self, engine: &mut WidgetEngine, capabilities: &Capabilities, answered: Result<(), Failure>) {
        match answered {
            Ok(()) => self.tick(engine, capabilities, Moment::now()),
            Err(failure) => self.fail(failure, Instant::now()),
        }
    }

    fn has_popup(&self) -> bool {
        matches!(&self.shown, WidgetState::Ready(view) if view.popup.is_some())
    }

    /// Drops the instance and starts the widget afresh now, its backoff forgotten.
    fn restart(&mut self, now: Instant) {
        self.instance = None;
        self.failures = 0;
        self.due = Some(now);
    }

    fn fail(&mut self, failure: Failure, now: Instant) {
        self.instance = None;
        let name = &self.spec.name;
        // Neither a load error nor a refused config goes away by retrying:
        // those wait for the config (or the plugin) to change.
        let retry = !matches!(failure, Failure::Load(_) | Failure::Config(_));
        let message = if retry {
            if now.duration_since(self.started) >= HEALTHY_AFTER {
                self.failures = 0;
            }
            self.failures += 1;
            let backoff = Duration::from_secs(1 << (self.failures - 1).min(6)).min(MAX_BACKOFF);
            self.due = Some(now + backoff);
            format!("widget `{name}` {failure}; restarting in {} s", backoff.as_secs())
        } else {
            self.due = None;
            format!("widget `{name}`: {failure}")
        };
        tracing::warn!("{message}");
        self.shown = WidgetState::Failed { message };
    }
}

/// The monotonic clock and the wall clock read together: the due times
/// worked out from one reading agree to the nanosecond, and refreshes due
/// on the same second run in one wakeup.
#[derive(Clone, Copy)]
struct Moment {
    now: Instant,
    wall: SystemTime,
}

impl Moment {
    fn now() -> Moment {
        Moment { now: Instant::now(), wall: SystemTime::now() }
    }
}

/// When a widget refreshed at `now` (the wall clock reading `wall`) is due again.
fn next_due(schedule: &Schedule, now: Instant, wall: SystemTime) -> Option<Instant> {
    if schedule.interval_ms == 0 {
        return None;
    }
    let interval = Duration::from_millis(schedule.interval_ms).max(MIN_REFRESH_GAP);
    let since_epoch = wall.duration_since(UNIX_EPOCH).unwrap_or_default();
    if schedule.align_to_wall_clock {
        let into_interval = Duration::from_nanos((since_epoch.as_nanos() % interval.as_nanos()) as u64);
        return Some(now + (interval - into_interval) + TICK_SLACK);
    }
    // An interval of a fraction of a second more would be moved anew each time.
    if interval < SECOND || interval.subsec_nanos() != 0 {
        return Some(now + interval);
    }
    // Moved to the nearest second (by half a second at most, at the first
    // refresh; from then on every refresh is on a second and the interval exact).
    let into_second = Duration::from_nanos(since_epoch.subsec_nanos().into());
    let nearest_second =
        if into_second < SECOND / 2 { now + interval - into_second } else { now + interval + (SECOND - into_second) };
    Some(nearest_second + TICK_SLACK)
}

/// Makes the slots of every bar, each with an id and a waker of its own.
struct SlotMaker {
    next_id: u64,
    wakes: Sender<Order>,
}

impl SlotMaker {
    fn make(&mut self, spec: WidgetSpec, now: Instant) -> Slot {
        let id = self.next_id;
        self.next_id += 1;
        let wakes = self.wakes.clone();
        // A send error means the widget thread has stopped: nobody to wake.
        let waker = Waker::new(move || {
            let _ = wakes.send(Order::Wake { slot: id });
        });
        Slot::new(spec, now, id, waker)
    }
}

/// One bar's widgets, and what its surface was last told of them.
struct BarWidgets {
    id: u64,
    capabilities: Box<Capabilities>,
    generation: u64,
    slots: Vec<Slot>,
    published: Vec<Option<WidgetState>>,
    /// The slots refreshed in this pass (kept to spare an allocation a pass).
    ticked: Vec<usize>,
    sink: Sink,
}

impl BarWidgets {
    /// Tells the bar the states of `slots` that changed since it was last
    /// told, all at once.
    fn publish(&mut self, slots: impl IntoIterator<Item = usize>) {
        let mut states = Vec::new();
        for index in slots {
            let Some(slot) = self.slots.get(index) else { continue };
            if self.published[index].as_ref() != Some(&slot.shown) {
                self.published[index] = Some(slot.shown.clone());
                states.push((index, slot.shown.clone()));
            }
        }
        if !states.is_empty() {
            (self.sink)(Changes { generation: self.generation, states });
        }
    }

    /// Refreshes the widgets that are due, then tells the bar what changed:
    /// all of it at once, so that it paints one frame for them.
    fn tick_due(&mut self, engine: &mut WidgetEngine, moment: Moment) {
        let mut ticked = std::mem::take(&mut self.ticked);
        ticked.clear();
        for index in 0..self.slots.len() {
            if self.slots[index].due.is_some_and(|due| due <= moment.now + TOGETHER) {
                self.slots[index].tick(engine, &self.capabilities, moment);
                ticked.push(index);
            }
        }
        self.publish(ticked.iter().copied());
        self.ticked = ticked;
    }

    /// After input to widget `opened`: when it opened a popup, the others'
    /// close. Publishes what changed.
    fn one_popup_at_a_time(&mut self, engine: &mut WidgetEngine, opened: usize) {
        let mut changed = vec![opened];
        if self.slots[opened].has_popup() {
            for index in 0..self.slots.len() {
                if index != opened && self.slots[index].has_popup() {
                    self.slots[index].close_popup(engine, &self.capabilities);
                    changed.push(index);
                }
            }
        }
        self.publish(changed);
    }

    fn handle(&mut self, engine: &mut WidgetEngine, maker: &mut SlotMaker, event: WidgetEvent) {
        match event {
            WidgetEvent::Input { widget, key, input, pointer } => {
                if let Some(slot) = self.slots.get_mut(widget) {
                    slot.input(engine, &self.capabilities, &key, (input, pointer));
                    self.one_popup_at_a_time(engine, widget);
                }
            }
            WidgetEvent::PopupInput { widget, key, cell, input } => {
                if let Some(slot) = self.slots.get_mut(widget) {
                    slot.popup_input(engine, &self.capabilities, (&key, &cell), input);
                    self.publish([widget]);
                }
            }
            WidgetEvent::ClosePopup { widget } => {
                if let Some(slot) = self.slots.get_mut(widget) {
                    slot.close_popup(engine, &self.capabilities);
                    self.publish([widget]);
                }
            }
            WidgetEvent::RefreshRequested { widget } => {
                if let Some(slot) = self.slots.get_mut(widget) {
                    slot.refresh_requested(engine, &self.capabilities);
                    self.publish([widget]);
                }
            }
            WidgetEvent::Hidden(hidden) => self.capabilities.hiding.set_hidden(hidden),
            WidgetEvent::Reconfigure { generation, specs, continued } => {
                self.generation = generation;
                let old = std::mem::take(&mut self.slots);
                self.slots = reuse_slots(old, specs, &continued, |spec| maker.make(spec, Instant::now()));
                self.published = vec![None; self.slots.len()];
                let shown = (0..self.slots.len()).filter(|&index| self.slots[index].shown != WidgetState::Pending);
                self.publish(shown.collect::<Vec<_>>());
            }
        }
    }
}

fn run(mut engine: WidgetEngine, (wakes, orders): (Sender<Order>, Receiver<Order>)) {
    let mut maker = SlotMaker { next_id: 0, wakes };
    let mut bars: Vec<BarWidgets> = Vec::new();
    let mut watching = Vec::new();
    loop {
        let moment = Moment::now();
        bars.iter_mut().for_each(|bar| bar.tick_due(&mut engine, moment));
        let next = bars.iter().flat_map(|bar| &bar.slots).filter_map(|slot| slot.due).min();
        let order = match next {
            Some(due) => orders.recv_timeout(due.saturating_duration_since(Instant::now())),
            None => orders.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match order {
            Ok(Order::Bar(id, event)) => {
                let reconfigured = matches!(event, WidgetEvent::Reconfigure { .. });
                if let Some(bar) = bars.iter_mut().find(|bar| bar.id == id) {
                    bar.handle(&mut engine, &mut maker, event);
                }
                if reconfigured {
                    watching = watch_components(&bars, &maker.wakes);
                }
            }
            Ok(Order::AddBar { bar, capabilities, specs, sink }) => {
                let now = Instant::now();
                let slots: Vec<Slot> = specs.into_iter().map(|spec| maker.make(spec, now)).collect();
                let published = vec![None; slots.len()];
                bars.push(BarWidgets {
                    id: bar,
                    capabilities,
                    generation: 0,
                    slots,
                    published,
                    ticked: Vec::new(),
                    sink,
                });
                watching = watch_components(&bars, &maker.wakes);
            }
            Ok(Order::RemoveBar(id)) => {
                bars.retain(|bar| bar.id != id);
                watching = watch_components(&bars, &maker.wakes);
            }
            Ok(Order::Wake { slot }) => {
                let mut all = bars.iter_mut().flat_map(|bar| &mut bar.slots);
                if let Some(woken) = all.find(|candidate| candidate.id == slot) {
                    woken.waker.take();
                    if woken.instance.is_some() {
                        woken.wake(Instant::now());
                    }
                }
            }
            Ok(Order::ComponentChanged { path }) => {
                tracing::info!("{} changed: starting its widgets again", path.display());
                engine.forget(&path);
                let now = Instant::now();
                let source = WidgetSource::File(path);
                for slot in bars.iter_mut().flat_map(|bar| &mut bar.slots).filter(|slot| slot.spec.source == source) {
                    slot.restart(now);
                }
            }
            Ok(Order::Stop) | Err(RecvTimeoutError::Disconnected) => {
                drop(watching);
                return;
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
    }
}

/// Watches the component files of every bar's third-party widgets; a save
/// is sent to the widget thread as [`Order::ComponentChanged`]. A file
/// that cannot be watched (it is missing: its widget shows why) is not.
fn watch_components(bars: &[BarWidgets], events: &Sender<Order>) -> Vec<FileWatcher> {
    let mut paths: Vec<PathBuf> = bars
        .iter()
        .flat_map(|bar| &bar.slots)
        .filter_map(|slot| match &slot.spec.source {
            WidgetSource::File(path) => Some(path.clone()),
            WidgetSource::Embedded(_) => None,
        })
        .collect();
    paths.sort();
    paths.dedup();
    paths
        .into_iter()
        .filter_map(|path| {
            let events = events.clone();
            let watched = watch_files(std::slice::from_ref(&path), move |saved| {
                let _ = events.send(Order::ComponentChanged { path: saved.to_path_buf() });
            });
            watched.map_err(|error| tracing::debug!("not reloading on change: {error:#}")).ok()
        })
        .collect()
}

/// The slots for `specs`: each takes over the old slot it continues
/// (instance, schedule and state included) when that slot runs the same
/// spec, or starts fresh.
fn reuse_slots(
    old: Vec<Slot>,
    specs: Vec<WidgetSpec>,
    continued: &[Option<usize>],
    mut fresh: impl FnMut(WidgetSpec) -> Slot,
) -> Vec<Slot> {
    let mut old: Vec<Option<Slot>> = old.into_iter().map(Some).collect();
    specs
        .into_iter()
        .enumerate()
        .map(|(index, spec)| {
            let from = continued.get(index).copied().flatten();
            match from.and_then(|from| old.get_mut(from)?.take_if(|slot| slot.spec == spec)) {
                Some(slot) => slot,
                None => fresh(spec),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wall_clock_ticks_land_on_the_boundary() {
        let now = Instant::now();
        let wall = UNIX_EPOCH + Duration::from_millis(1_700_000_000_250);
        let second = Schedule { interval_ms: 1000, align_to_wall_clock: true };
        assert_eq!(next_due(&second, now, wall), Some(now + Duration::from_millis(750) + TICK_SLACK));
        let minute = Schedule { interval_ms: 60_000, align_to_wall_clock: true };
        // 1_700_000_000_250 ms is 20.25 s past a minute.
        assert_eq!(next_due(&minute, now, wall), Some(now + Duration::from_millis(39_750) + TICK_SLACK));
    }

    #[test]
    fn intervals_land_on_the_nearest_second_and_zero_means_never() {
        let now = Instant::now();
        let every = |interval_ms| Schedule { interval_ms, align_to_wall_clock: false };
        let at = |ms: u64| UNIX_EPOCH + Duration::from_millis(1_700_000_000_000 + ms);
        let ten_seconds = every(10_000);
        assert_eq!(next_due(&ten_seconds, now, at(250)), Some(now + Duration::from_millis(9_750) + TICK_SLACK));
        assert_eq!(next_due(&ten_seconds, now, at(750)), Some(now + Duration::from_millis(10_250) + TICK_SLACK));
        // Once on the second, the interval is exact.
        let on_the_second = at(0) + TICK_SLACK;
        assert_eq!(next_due(&ten_seconds, now, on_the_second), Some(now + Duration::from_secs(10)));
        // A clock's tick and a one-second interval come due together.
        let clock = Schedule { interval_ms: 1000, align_to_wall_clock: true };
        for ms in [0, 2, 300, 999] {
            let (ticks, refreshes) = (next_due(&clock, now, at(ms)), next_due(&every(1000), now, at(ms)));
            let apart = ticks.unwrap().max(refreshes.unwrap()) - ticks.unwrap().min(refreshes.unwrap());
            assert!(ms < 500 && apart.is_zero() || ms >= 500 && apart == SECOND, "{ms} ms into the second: {apart:?}");
        }
        // Shorter than a second, or not of whole seconds: counted from now.
        assert_eq!(next_due(&every(500), now, at(250)), Some(now + Duration::from_millis(500)));
        assert_eq!(next_due(&every(1500), now, at(250)), Some(now + Duration::from_millis(1500)));
        assert_eq!(next_due(&every(0), now, at(250)), None);
    }

    #[test]
    fn a_schedule_shorter_than_the_gap_waits_the_gap() {
        let now = Instant::now();
        let every_millisecond = Schedule { interval_ms: 1, align_to_wall_clock: false };
        assert_eq!(next_due(&every_millisecond, now, SystemTime::now()), Some(now + MIN_REFRESH_GAP));
    }

    fn test_spec() -> WidgetSpec {
        WidgetSpec {
            name: "test".into(),
            source: crate::spec::WidgetSource::File("test.wasm".into()),
            config_json: "{}".into(),
            monitor: None,
            grants: Default::default(),
            commands: Default::default(),
            restart_waits: Default::default(),
            refresh_signal: None,
            limits: Default::default(),
        }
    }

    #[test]
    fn a_wake_is_at_once_unless_the_widget_just_refreshed() {
        let start = Instant::now();
        let mut slot = Slot::new(test_spec(), start, 0, Waker::unheard());
        slot.due = None;
        let later = start + Duration::from_secs(5);
        slot.wake(later);
        assert_eq!(slot.due, Some(later), "nothing refreshed it before");

        slot.refreshed = Some(later);
        slot.due = None;
        for burst in 0..1000 {
            slot.wake(later + Duration::from_micros(burst));
        }
        assert_eq!(slot.due, Some(later + MIN_REFRESH_GAP), "a burst is one refresh, a gap after the last");
        slot.wake(later + Duration::from_secs(1));
        assert_eq!(slot.due, Some(later + MIN_REFRESH_GAP), "an earlier due time stays");
    }

    #[test]
    fn what_a_widget_asked_for_as_it_started_is_read_as_soon_as_it_comes() {
        let start = Instant::now();
        let mut slot = Slot::new(test_spec(), start, 0, Waker::unheard());
        slot.refreshed = Some(start);
        slot.first_answers_owed = 2;
        let answered = |ms| start + Duration::from_millis(ms);
        for ms in [3, 5] {
            slot.due = None;
            slot.wake(answered(ms));
            assert_eq!(slot.due, Some(answered(ms)), "the answer {ms} ms after the start is read at once");
            slot.refreshed = slot.due;
        }
        slot.due = None;
        slot.wake(answered(6));
        assert_eq!(slot.due, Some(answered(5) + MIN_REFRESH_GAP), "past what it was owed, the gap holds");
    }
}

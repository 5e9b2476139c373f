//! The bars of one process: one per config file, or one config on every
//! monitor (`--every-monitor`). They share what is costly to have twice:
//! the widgets' thread with its engine and compiled components, the
//! capabilities' samplers, and the tiler connection, which each bar sees
//! from its own monitor (and, in `window/`, the GL context and painter).
//! Each has its own widget instances, its own config (a reload of one file
//! reloads the bars made from it alone) and its own surface, which the
//! display's loop pairs with it as a [`Member`].
//!
//! Events from other threads name their bar; `obi msg` names the bars it
//! is for by order or by monitor, and is answered once they obeyed. A bar
//! told to quit ends alone; the process ends with its last bar.

use super::popup::{Grabbed, Located};
use super::running::{BarEvent, BarId, BarSource, Deliver, Flow, NotificationHost, OsdHost, Running};
use super::surface::Surface;
use crate::capabilities::Capabilities;
use crate::control::{self, Request, Target};
use crate::render::text::ListAhead;
use crate::render::{Measure, find_text_font};
use crate::runtime::WidgetEngine;
use crate::scheduler::{Scheduler, WidgetThread};
use crate::tiler::Connection;
use crate::view::Input;
use crate::view::images::HeldImages;
use std::sync::Arc;

/// What bars the process runs.
#[derive(Debug, Clone)]
pub struct Plan {
    /// One bar for each, or with `every_monitor` the one config for all.
    pub sources: Vec<BarSource>,
    /// A bar of the first source on each monitor, following monitors as
    /// they come and go.
    pub every_monitor: bool,
    /// With `every_monitor`, the monitors (by name) that have a bar; none:
    /// all of them (a sway or i3 bar block's `output` list).
    pub outputs: Option<Vec<String>>,
}

impl Plan {
    /// The bars of `sources`, each where its config puts it.
    pub fn of(sources: Vec<BarSource>) -> Plan {
        Plan { sources, every_monitor: false, outputs: None }
    }

    /// Whether a bar goes on the monitor named `name`.
    fn wants(&self, name: &str) -> bool {
        self.outputs.as_ref().is_none_or(|outputs| outputs.iter().any(|output| output == name))
    }
}

/// A bar and the surface it is shown on.
pub struct Member<S> {
    pub running: Running,
    pub surface: S,
}

/// Makes the process's bars, and keeps what they share.
pub struct Fleet {
    plan: Plan,
    widgets: WidgetThread,
    capabilities: Capabilities,
    tiler: Connection,
    deliver: Deliver,
    /// What the bars lay out with, and the painters shape with.
    measure: Measure,
    next_id: u64,
    /// The sway or i3 bar block the bars stand in for, followed once they listen.
    #[cfg(unix)]
    block: Option<crate::bar_block::BlockSource>,
    /// The desktop's notification server, which the bars share.
    notifications: NotificationHost,
    /// The levels the bars' on-screen displays show, followed once.
    osd: OsdHost,
}

/// What keeps the process listening to signals and `obi msg`; the control
/// socket is removed when dropped.
pub struct Listening {
    _control: Option<control::ControlServer>,
}

impl Fleet {
    /// Starts the widgets' thread on `engine`; bars reach the loop through `deliver`.
    pub fn new(plan: Plan, engine: WidgetEngine, tiler: Connection, deliver: Deliver) -> Fleet {
        let capabilities = engine.capabilities().clone();
        let notifications =
            NotificationHost::new(deliver.clone(), capabilities.held.clone(), capabilities.notifications.clone());
        let osd = OsdHost::new(capabilities.audio.clone(), capabilities.backlight.clone(), deliver.clone());
        let widgets = Scheduler::start(engine);
        let measure = tracing::debug_span!("starting the text engine").in_scope(Measure::new);
        Fleet {
            plan,
            widgets,
            capabilities,
            tiler,
            deliver,
            measure,
            next_id: 0,
            #[cfg(unix)]
            block: None,
            notifications,
            osd,
        }
    }

    /// Has the bars stand in for the bar block of `source`: its changes are
    /// followed once they listen (the config of each source is its block's).
    #[cfg(unix)]
    pub fn stand_in_for(&mut self, source: crate::bar_block::BlockSource) {
        self.block = Some(source);
    }

    /// What the bars lay out with: the painters shape their texts with it.
    pub fn measure(&self) -> Measure {
        self.measure.clone()
    }

    /// Where the widgets' capabilities hold the images widgets show by
    /// handle (window and tray icons, covers): the painter draws from it.
    pub fn held_images(&self) -> HeldImages {
        self.capabilities.held.clone()
    }

    /// The process's hold on idling, which a Wayland loop hands its way.
    pub fn idle_inhibition(&self) -> Arc<crate::capabilities::IdleInhibition> {
        self.capabilities.idle_inhibit.clone()
    }

    /// How other threads reach the bars' loop.
    pub fn deliver(&self) -> Deliver {
        self.deliver.clone()
    }

    /// Has the loop told `MonitorsChanged` whenever the tiler's monitors
    /// move (komorebi says where they are, and that places the bars).
    pub fn follow_tiler_monitors(&self) {
        let deliver = self.deliver.clone();
        self.tiler.watch_monitor_areas(move || _ = deliver(BarEvent::MonitorsChanged));
    }

    /// A running bar made from `source`, listening to its file.
    pub fn start(&mut self, source: BarSource) -> anyhow::Result<Running> {
        let id = BarId(self.next_id);
        self.next_id += 1;
        let config = source.running_config();
        let font = tracing::debug_span!("finding the text font").in_scope(|| find_text_font(config.font_family()))?;
        let tiler = self.tiler.for_another_bar(config.monitor());
        let capabilities =
            Capabilities { tiler: Arc::new(tiler.clone()), hiding: Arc::default(), ..self.capabilities.clone() };
        let deliver = self.deliver.clone();
        let mut bar = tracing::debug_span!("making the bar's widgets").in_scope(|| super::Bar::new(&config));
        bar.set_text_font(font.data.clone());
        let mut list_ahead = ListAhead::new(font.data.clone());
        let scheduler = self.widgets.add_bar(capabilities, bar.specs().to_vec(), move |changes| {
            list_ahead.look_at(changes.states.iter().map(|(_, state)| state));
            // Fails only once the loop is gone and the bar is shutting down.
            deliver(BarEvent::Widgets { bar: id, changes });
        });
        let (deliver, measure) = (self.deliver.clone(), self.measure.clone());
        let mut running = Running::new(id, source, bar, scheduler, tiler, deliver, measure);
        tracing::debug_span!("watching the bar's config").in_scope(|| running.listen())?;
        running.host_notifications(self.notifications.clone());
        running.host_osd(self.osd.clone());
        Ok(running)
    }

    /// The bars the plan asks for at the start, started (one per source,
    /// or with `every_monitor` one for each of `monitors`, named as the
    /// display names them, that the plan wants), and why any could not be.
    pub fn start_first(&mut self, monitors: &[String]) -> (Vec<Running>, Vec<String>) {
        let sources = match self.plan.every_monitor {
            false => self.plan.sources.clone(),
            true => self.wanted(monitors).map(|(monitor, name)| self.on_monitor(None, monitor, name)).collect(),
        };
        let (mut started, mut failures) = (Vec::new(), Vec::new());
        for source in sources {
            match self.start(source) {
                Ok(bar) => started.push(bar),
                Err(error) => failures.push(format!("{error:#}")),
            }
        }
        (started, failures)
    }

    /// The monitors among `monitors` that get a bar, with their names; the
    /// first, unnamed, while there is none and every monitor is wanted.
    fn wanted<'a>(&'a self, monitors: &'a [String]) -> impl Iterator<Item = (usize, Option<&'a str>)> + 'a {
        let waiting = (monitors.is_empty() && self.plan.outputs.is_none()).then_some((0, None));
        let named = monitors.iter().enumerate().filter(|(_, name)| self.plan.wants(name));
        waiting.into_iter().chain(named.map(|(monitor, name)| (monitor, Some(name.as_str()))))
    }

    /// The first source on `monitor` (named `name`), with the config as
    /// `now` runs it (the file may have been saved since the start).
    fn on_monitor(&self, now: Option<&BarSource>, monitor: usize, name: Option<&str>) -> BarSource {
        let first = now.or(self.plan.sources.first()).expect("a plan has a source");
        BarSource { monitor: Some(monitor), monitor_name: name.map(str::to_owned), ..first.clone() }
    }

    /// With `every_monitor`, a bar on each of `monitors` the plan wants:
    /// bars of monitors that went are dropped, and new monitors get one
    /// (started as [`Fleet::start`] starts it), their surfaces made by
    /// `surface_for`. Without, nothing changes.
    pub fn follow_monitors<S>(
        &mut self,
        members: &mut Vec<Member<S>>,
        monitors: &[String],
        mut surface_for: impl FnMut(&mut Running) -> Option<S>,
    ) {
        if !self.plan.every_monitor {
            return;
        }
        let wanted: Vec<(usize, Option<String>)> =
            self.wanted(monitors).map(|(monitor, name)| (monitor, name.map(str::to_owned))).collect();
        // With no monitor at all, the first bar waits for one.
        if !monitors.is_empty() {
            members.retain(|member| {
                let source = member.running.source();
                // A bar that waited for a monitor, unnamed, takes the first.
                let named = |name: &Option<String>| source.monitor_name.is_none() || source.monitor_name == *name;
                wanted.iter().any(|(monitor, name)| source.monitor == Some(*monitor) && named(name))
            });
            take_over_cards(members, &self.notifications);
        }
        for (monitor, name) in wanted {
            if members.iter().any(|member| member.running.source().monitor == Some(monitor)) {
                continue;
            }
            let now = members.first().map(|member| member.running.source());
            let source = self.on_monitor(now, monitor, name.as_deref());
            match self.start(source) {
                Ok(mut running) => {
                    tracing::info!("a bar for monitor {monitor}");
                    if let Some(surface) = surface_for(&mut running) {
                        members.push(Member { running, surface });
                    }
                }
                Err(error) => tracing::error!("no bar for monitor {monitor}: {error:#}"),
            }
        }
        members.sort_by_key(|member| member.running.source().monitor);
    }

    /// Listens to SIGTERM and SIGINT (as `quit`), the real-time signals
    /// (as `signal N`) and to `obi msg` on the process's control socket
    /// (without which the bars work, saying so).
    pub fn listen(&self) -> Listening {
        #[cfg(unix)]
        {
            let deliver = self.deliver.clone();
            let signals = control::obey_signals(move |command| {
                deliver(BarEvent::Control { request: Request { command, target: Target::All }, reply: None })
            });
            if let Err(error) = signals {
                tracing::warn!("{error:#}; a signal ends the bar without its clean-up");
            }
        }
        #[cfg(unix)]
        if let Some(block) = self.block.clone() {
            let deliver = self.deliver.clone();
            // The block's mode shows or hides the bars from the start.
            deliver(BarEvent::Block(crate::bar_block::BlockEvent::ModifierHeld(false)));
            if let Err(error) = block.follow(move |event| _ = deliver(BarEvent::Block(event))) {
                tracing::warn!("{error:#}; the bar block's changes will not reach the bars");
            }
        }
        let deliver = self.deliver.clone();
        let control = control::serve(move |request, reply| deliver(BarEvent::Control { request, reply: Some(reply) }))
            .inspect_err(|error| tracing::warn!("no control socket, `obi msg` will not reach this bar: {error:#}"))
            .ok();
        Listening { _control: control }
    }
}

/// Hands `event` to the bars it is for. A bar told to quit is dropped;
/// once none is left, the loop ends. Before the first bar has started
/// (winit opens the windows after its loop has begun) an event reaches
/// none and ends nothing.
pub fn dispatch<S: Surface>(members: &mut Vec<Member<S>>, event: BarEvent) -> Flow {
    let had_bars = !members.is_empty();
    match event {
        BarEvent::Widgets { bar, changes } => {
            if let Some(member) = find(members, bar) {
                member.running.widgets_changed(changes);
            }
        }
        BarEvent::ConfigRead { bar, read } => {
            if let Some(Member { running, surface }) = find(members, bar) {
                running.reload(*read, surface);
            }
            // Its config may no longer enable the cards another bar's does.
            if let Some(host) = members.first().and_then(|member| member.running.notification_host()) {
                take_over_cards(members, &host);
            }
        }
        BarEvent::Access { bar, request } => {
            if let Some(Member { running, surface }) = find(members, bar) {
                running.access_requested(request, surface);
            }
        }
        BarEvent::Key { bar, key } => {
            if let Some(Member { running, surface }) = find(members, bar) {
                running.key(key, surface);
            }
        }
        BarEvent::Grabbed { bar, input } => {
            let Some(Member { running, surface }) = find(members, bar) else { return Flow::Continue };
            let elsewhere = matches!(input, Grabbed::Pressed { at, .. } if surface.locate(at) == Located::Elsewhere);
            running.grabbed(input, surface);
            if let (true, Grabbed::Pressed { input, at }) = (elsewhere, input) {
                press_on_another_bar(members, input, at);
            }
        }
        BarEvent::MonitorsChanged => {
            for Member { running, surface } in members.iter_mut() {
                running.monitors_changed(surface);
            }
        }
        BarEvent::Block(event) => {
            for Member { running, surface } in members.iter_mut() {
                running.block_changed(event.clone(), surface);
            }
        }
        BarEvent::Notifications => members.iter_mut().for_each(|member| member.running.notifications_changed()),
        BarEvent::Levels => members.iter_mut().for_each(|member| member.running.levels_changed()),
        BarEvent::Notice { bar, index, input } => {
            if let Some(Member { running, surface }) = find(members, bar) {
                running.notice_input(index, input, surface);
            }
        }
        BarEvent::Control { request, reply } => {
            let answer = obey(members, request);
            if let Some(reply) = reply {
                let _ = reply.send(answer);
            }
        }
    }
    if had_bars && members.is_empty() { Flow::Quit } else { Flow::Continue }
}

/// Some bars went, or a bar's config was read again: the notifications and
/// the on-screen display no bar shows now are shown by the first of
/// `members` whose config enables them, and the notification server is
/// switched off when none does.
fn take_over_cards<S>(members: &mut [Member<S>], host: &NotificationHost) {
    members.iter_mut().for_each(|member| member.running.take_over_cards());
    host.settle();
}

/// A press the popup of one bar held, off that bar, is a press on the
/// bar it fell on, if another of the process's bars (on another monitor)
/// is there: as on Wayland, where each bar has its own presses, the click
/// that closes the popup does what it does on that bar too.
fn press_on_another_bar<S: Surface>(members: &mut [Member<S>], input: Input, at: (i32, i32)) {
    for Member { running, surface } in members {
        if let Located::Bar(x, y) = surface.locate(at) {
            running.pointer_moved(x, y, surface);
            running.pressed(input, surface);
            return;
        }
    }
}

fn find<S>(members: &mut [Member<S>], bar: BarId) -> Option<&mut Member<S>> {
    members.iter_mut().find(|member| member.running.id() == bar)
}

/// Has the bars `request` names obey it; the answer for `obi msg`.
fn obey<S: Surface>(members: &mut Vec<Member<S>>, request: Request) -> String {
    let mut chosen: Vec<usize> = match request.target {
        Target::All => (0..members.len()).collect(),
        Target::Bar(number) => (number < members.len()).then_some(number).into_iter().collect(),
        Target::Monitor(number) => members
            .iter()
            .enumerate()
            .filter(|(_, member)| member.surface.monitor() == Some(number))
            .map(|(index, _)| index)
            .collect(),
    };
    if chosen.is_empty() {
        let running = match members.len() {
            0 => "no bars".to_owned(),
            1 => "1 bar (bar 0)".to_owned(),
            count => format!("{count} bars (0 to {})", count - 1),
        };
        return match request.target {
            Target::Monitor(number) => format!("error: no bar is on monitor {number}; this obi runs {running}"),
            _ => format!("error: no such bar; this obi runs {running}"),
        };
    }
    // The keyboard goes to one bar: back from the one that holds it, else
    // to the first chosen.
    if request.command == control::Command::Focus {
        let holding = chosen.iter().copied().find(|index| members[*index].running.holds_keyboard());
        chosen = vec![holding.unwrap_or(chosen[0])];
    }
    let mut quitting = Vec::new();
    let mut refused = Vec::new();
    for index in &chosen {
        let Member { running, surface } = &mut members[*index];
        match running.obey(request.command.clone(), surface) {
            Ok(Flow::Quit) => quitting.push(*index),
            Ok(Flow::Continue) => {}
            Err(why) => refused.push(why),
        }
    }
    if !quitting.is_empty() {
        let host = members[quitting[0]].running.notification_host();
        for index in quitting.into_iter().rev() {
            members.remove(index);
        }
        if let Some(host) = host {
            take_over_cards(members, &host);
        }
    }
    match (chosen.len() - refused.len(), chosen.len()) {
        // No bar took it: each says why alike ("no widget is named …").
        (0, _) => format!("error: {}", refused[0]),
        (1, 1) => "ok".to_owned(),
        (took, count) if took == count => format!("ok ({count} bars)"),
        (took, count) => format!("ok ({took} of {count} bars)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bar::{Placement, ScreenRect};
    use crate::config::BarConfig;
    use crate::render::{Frame, PopupLayout, Rect, Style};
    use crate::runtime::ComponentCache;

    /// A surface that remembers whether it is shown, on a set monitor.
    struct Shown {
        monitor: Option<usize>,
        visible: bool,
    }

    impl Surface for Shown {
        fn size(&self) -> Option<(f32, f32)> {
            None
        }
        fn present(&mut self, _: Frame) {}
        fn redraw(&mut self) {}
        fn set_visible(&mut self, visible: bool) {
            self.visible = visible;
        }
        fn place(&mut self, _: &Placement, _: Option<ScreenRect>) {}
        fn show_tooltip(&mut self, _: Rect, _: &str, _: &Style) {}
        fn hide_tooltip(&mut self) {}
        fn repaint_popup(&mut self, _: &PopupLayout, _: &Style) {}

        fn show_popup(&mut self, _: Rect, _: &PopupLayout, _: &Style) -> bool {
            false
        }
        fn hide_popup(&mut self) {}
        fn show_notices(&mut self, _: &[PopupLayout], _: &crate::bar::CardPlace, _: &Style) {}
        fn show_osd(&mut self, _: Option<&PopupLayout>, _: &crate::bar::CardPlace, _: &Style) {}
        fn locate(&self, _: (i32, i32)) -> crate::bar::Located {
            crate::bar::Located::Elsewhere
        }
        fn monitor(&self) -> Option<usize> {
            self.monitor
        }
        fn origin(&self) -> crate::bar::Origin {
            crate::bar::Origin { x: 0.0, y: 0.0, output_x: 0.0, output_y: 0.0, scale: 1.0 }
        }
        fn publish(&mut self, _: &mut dyn FnMut() -> accesskit::TreeUpdate) {}
        fn hold_keyboard(&mut self, _: bool) -> bool {
            false
        }
    }

    /// A fleet of `plan` that reaches no loop.
    fn fleet(plan: Plan) -> Fleet {
        let tiler = Connection::none("no tiler in this test");
        let capabilities = Capabilities::system(Arc::new(tiler.clone()), HeldImages::default()).unwrap();
        let engine = WidgetEngine::new(capabilities, ComponentCache::in_memory()).unwrap();
        Fleet::new(plan, engine, tiler, Arc::new(|_| true))
    }

    /// `count` monitors' names: `M0`, `M1` …
    fn names(count: usize) -> Vec<String> {
        (0..count).map(|monitor| format!("M{monitor}")).collect()
    }

    /// The bars `fleet` starts with, each on the surface `surface` makes for its place.
    fn started(fleet: &mut Fleet, monitors: &[String], surface: impl Fn(usize) -> Shown) -> Vec<Member<Shown>> {
        let (started, failures) = fleet.start_first(monitors);
        assert!(failures.is_empty(), "{failures:?}");
        started.into_iter().enumerate().map(|(at, running)| Member { running, surface: surface(at) }).collect()
    }

    /// Two bars without widgets, on monitors 0 and 1, from the files
    /// `0.json` and `1.json` in the folder returned.
    fn two_bars() -> (tempfile::TempDir, Fleet, Vec<Member<Shown>>) {
        two_bars_with("")
    }

    /// Two bars as [`two_bars`] makes them, their files with `more` keys.
    fn two_bars_with(more: &str) -> (tempfile::TempDir, Fleet, Vec<Member<Shown>>) {
        let folder = tempfile::tempdir().unwrap();
        let source = |monitor: usize| {
            let text = format!(r#"{{ "monitor": {monitor}, "left_widgets": [], "right_widgets": [] {more} }}"#);
            let path = folder.path().join(format!("{monitor}.json"));
            std::fs::write(&path, &text).unwrap();
            let config = BarConfig::parse(&text, "test").expect("a good config").config;
            BarSource::of(Some(path), config)
        };
        let mut fleet = fleet(Plan::of(vec![source(0), source(1)]));
        let members = started(&mut fleet, &names(2), |monitor| Shown { monitor: Some(monitor), visible: true });
        (folder, fleet, members)
    }

    /// The monitors' numbers of `members`' bars, in order.
    fn monitors(members: &[Member<Shown>]) -> Vec<Option<usize>> {
        members.iter().map(|member| member.running.source().monitor).collect()
    }

    #[test]
    fn on_every_monitor_bars_come_and_go_with_monitors() {
        let config = BarConfig::parse(r#"{ "left_widgets": [], "right_widgets": [] }"#, "test").unwrap().config;
        let plan = Plan { every_monitor: true, ..Plan::of(vec![BarSource::of(None, config.clone())]) };
        let mut every = fleet(plan);
        let mut members = started(&mut every, &names(2), |_| Shown { monitor: None, visible: true });
        assert_eq!(monitors(&members), [Some(0), Some(1)]);
        let first = members[0].running.id();
        let surface = |_: &mut Running| Some(Shown { monitor: None, visible: true });

        every.follow_monitors(&mut members, &names(3), surface);
        assert_eq!(monitors(&members), [Some(0), Some(1), Some(2)], "a third monitor gets a bar");
        every.follow_monitors(&mut members, &names(1), surface);
        assert_eq!(monitors(&members), [Some(0)], "the bars of monitors gone go");
        assert_eq!(members[0].running.id(), first, "the first monitor's bar stays as it was");
        every.follow_monitors(&mut members, &[], surface);
        assert_eq!(monitors(&members), [Some(0)], "with no monitor, the first bar waits for one");

        // A bar block's `output M1`: that monitor's bar alone, wherever it is.
        let only = Plan { outputs: Some(vec!["M1".into()]), ..plan_on_every_monitor(config) };
        let mut on_m1 = fleet(only);
        let mut members = started(&mut on_m1, &names(2), |_| Shown { monitor: None, visible: true });
        assert_eq!(monitors(&members), [Some(1)]);
        on_m1.follow_monitors(&mut members, &["M1".to_owned()], surface);
        assert_eq!(monitors(&members), [Some(0)], "M1 is the first monitor now: its bar is made anew there");
        assert_eq!(members[0].running.source().monitor_name.as_deref(), Some("M1"));
    }

    fn plan_on_every_monitor(config: BarConfig) -> Plan {
        Plan { every_monitor: true, ..Plan::of(vec![BarSource::of(None, config)]) }
    }

    /// What `obi msg` is answered when `line` reaches the bars, and whether they go on.
    fn ask(members: &mut Vec<Member<Shown>>, line: &str) -> (String, Flow) {
        let (reply, answer) = std::sync::mpsc::channel();
        let flow = dispatch(members, BarEvent::Control { request: line.parse().unwrap(), reply: Some(reply) });
        (answer.recv().unwrap(), flow)
    }

    #[test]
    fn an_event_before_the_first_bar_ends_nothing() {
        let mut none: Vec<Member<Shown>> = Vec::new();
        assert_eq!(dispatch(&mut none, BarEvent::MonitorsChanged), Flow::Continue);
        assert_eq!(ask(&mut none, "show").1, Flow::Continue, "an `obi msg` before the windows open");
    }

    fn shown(members: &[Member<Shown>]) -> Vec<bool> {
        members.iter().map(|member| member.surface.visible).collect()
    }

    /// The height each bar runs at.
    fn heights(members: &[Member<Shown>]) -> Vec<u32> {
        members.iter().map(|member| member.running.bar().placement().height).collect()
    }

    #[test]
    fn a_saved_file_reloads_its_own_bar_and_a_broken_one_none() {
        let (_folder, _fleet, mut members) = two_bars();
        let before = heights(&members);
        let second = members[1].running.id();
        let read =
            BarConfig::parse(r#"{ "monitor": 1, "height": 61, "left_widgets": [], "right_widgets": [] }"#, "1.json");
        assert_eq!(dispatch(&mut members, BarEvent::ConfigRead { bar: second, read: Box::new(read) }), Flow::Continue);
        assert_eq!(heights(&members), [before[0], 61], "the second bar alone took its file's new height");

        let broken = BarConfig::parse(r#"{ "height": "tall" }"#, "1.json");
        assert!(broken.is_err());
        dispatch(&mut members, BarEvent::ConfigRead { bar: second, read: Box::new(broken) });
        assert_eq!(heights(&members), [before[0], 61], "a broken save leaves the running config");
    }

    #[test]
    fn a_request_reaches_the_bars_it_names_by_place_or_monitor() {
        let (_folder, _fleet, mut members) = two_bars();
        assert_eq!(ask(&mut members, "hide bar 1"), ("ok".to_owned(), Flow::Continue));
        assert_eq!(shown(&members), [true, false]);
        assert_eq!(ask(&mut members, "toggle monitor 0").0, "ok");
        assert_eq!(shown(&members), [false, false]);
        assert_eq!(ask(&mut members, "show").0, "ok (2 bars)");
        assert_eq!(shown(&members), [true, true]);

        assert_eq!(ask(&mut members, "hide bar 2").0, "error: no such bar; this obi runs 2 bars (0 to 1)");
        let (answer, _) = ask(&mut members, "hide monitor 3");
        assert_eq!(answer, "error: no bar is on monitor 3; this obi runs 2 bars (0 to 1)");
        assert_eq!(shown(&members), [true, true], "a request for no bar changes none");

        assert_eq!(ask(&mut members, "quit bar 0"), ("ok".to_owned(), Flow::Continue));
        assert_eq!(members.len(), 1);
        assert_eq!(members[0].surface.monitor, Some(1), "the other bar runs on");
        assert_eq!(ask(&mut members, "quit"), ("ok".to_owned(), Flow::Quit), "the last bar ends the loop");
        assert!(members.is_empty());
    }

    #[test]
    fn the_on_screen_display_of_a_bar_that_goes_is_taken_over_by_another_that_enables_it() {
        let text = r#"{ "left_widgets": [], "right_widgets": [], "osd": { "enable": true } }"#;
        let config = BarConfig::parse(text, "test").unwrap().config;
        let mut every = fleet(plan_on_every_monitor(config));
        let mut members = started(&mut every, &names(2), |monitor| Shown { monitor: Some(monitor), visible: true });
        let showing = |members: &[Member<Shown>]| members.iter().map(|m| m.running.shows_osd()).collect::<Vec<_>>();
        assert_eq!(showing(&members), [true, false], "the first bar shows it");
        assert_eq!(ask(&mut members, "quit bar 0").0, "ok");
        assert_eq!(showing(&members), [true], "the other bar took it over");
    }

    #[test]
    fn a_reload_that_no_longer_enables_the_on_screen_display_hands_it_to_a_bar_that_does() {
        let (_folder, _fleet, mut members) = two_bars_with(r#", "osd": { "enable": true }"#);
        let showing = |members: &[Member<Shown>]| members.iter().map(|m| m.running.shows_osd()).collect::<Vec<_>>();
        assert_eq!(showing(&members), [true, false]);
        let first = members[0].running.id();
        let read = BarConfig::parse(r#"{ "monitor": 0, "left_widgets": [], "right_widgets": [] }"#, "0.json");
        dispatch(&mut members, BarEvent::ConfigRead { bar: first, read: Box::new(read) });
        assert_eq!(showing(&members), [false, true], "the second bar took it over");
    }
}

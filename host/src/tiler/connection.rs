//! A bar's connection to its tiler: the state the tiler's client
//! publishes, shown to each bar with its own monitor found in it; the
//! batches its widgets and its `mouse` config send, in order, from a
//! thread of their own; and where komorebi says its monitors are.

use super::{Choice, Client, Kind, Message, Options, State, Status};
use crate::screen::ScreenRect;
use crate::sync::lock;
use crate::wake::{Pushed, Waker};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::thread;

/// A bar's connection to its tiler, shared by its widgets and its mouse
/// config. Cloning it shares the connection; [`Connection::for_another_bar`]
/// shares the tiler with another bar, which sees it from its own monitor.
#[derive(Clone)]
pub struct Connection {
    shared: Arc<Shared>,
    bar: Arc<BarView>,
}

/// The tiler, whichever bars look at it.
struct Shared {
    /// The state as the client last heard it; none before its first word.
    heard: Mutex<Option<Status>>,
    /// Where the tiler's monitors are, by the numbers a config's `monitor`
    /// gives (komorebi's), as last heard: kept while the tiler is away, so
    /// that a restart of it does not move the bars.
    monitor_areas: Mutex<Vec<Option<ScreenRect>>>,
    /// Told when `monitor_areas` changes, to place the bars again.
    area_watchers: Mutex<Vec<Box<dyn Fn() + Send + Sync>>>,
    /// Every bar's view, to be shown each state heard.
    bars: Mutex<Vec<Weak<BarView>>>,
    /// Batches wait here for the thread that sends them, in order: a tiler
    /// that is slow to answer must not hold up a widget or the window.
    outbox: OnceLock<Sender<(Vec<Message>, Weak<BarView>)>>,
    client: OnceLock<Box<dyn Client>>,
    /// The tiler tells the keyboard layout in use (sway).
    tells_keyboard_layout: bool,
}

/// What one bar sees of the tiler: the state heard, with the bar's own
/// monitor found in it.
struct BarView {
    status: Pushed<Status>,
    /// The name of the monitor the bar's window is on, once placed: it
    /// finds the bar's monitor among the tiler's by name.
    output: Mutex<Option<String>>,
    /// The config's `monitor`, by which the bar's monitor is found among
    /// komorebi's (its names are not the window system's).
    monitor: Mutex<Option<usize>>,
}

impl BarView {
    fn new(monitor: Option<usize>) -> BarView {
        BarView {
            status: Pushed::new(Status::Disconnected("connecting to the tiler".into())),
            output: Mutex::new(None),
            monitor: Mutex::new(monitor),
        }
    }

    /// Shows `heard` to the bar's readers, its bar monitor found anew.
    fn show(&self, heard: Status) {
        let status = match heard {
            Status::Connected(mut state) => {
                if state.kind == Kind::Komorebi {
                    state.bar_monitor = state.numbered_monitor(*lock(&self.monitor));
                }
                let output = lock(&self.output).clone();
                if let Some(found) =
                    output.and_then(|name| state.monitors.iter().position(|monitor| monitor.name == name))
                {
                    state.bar_monitor = Some(found);
                }
                Status::Connected(state)
            }
            disconnected => disconnected,
        };
        self.status.publish(status);
    }
}

impl Connection {
    /// Connects to the tiler `options` choose, in the background.
    pub fn start(options: &Options) -> Connection {
        let tiler = match super::chosen(options.choice, options) {
            Ok(tiler) => tiler,
            Err(why) => {
                if options.choice == Choice::Auto {
                    tracing::info!("{why}; the Komorebi widget shows it as disconnected");
                }
                return Connection::none(&why);
            }
        };
        let connection = Connection::waiting(tiler.tells_keyboard_layout);
        *lock(&connection.bar.monitor) = options.monitor;
        match (tiler.start)(options, connection.publisher()) {
            Ok(client) => {
                let _ = connection.shared.client.set(client);
                connection
            }
            Err(why) => {
                let why = format!("{why:#}");
                tracing::warn!("{why}");
                Connection::none(&why)
            }
        }
    }

    /// No tiler: widgets are told `why`, and sending fails saying so.
    pub fn none(why: &str) -> Connection {
        let connection = Connection::waiting(false);
        connection.publisher().publish(Status::Disconnected(why.into()));
        connection
    }

    /// A connection whose client is being set up.
    fn waiting(tells_keyboard_layout: bool) -> Connection {
        let bar = Arc::new(BarView::new(None));
        let shared = Arc::new(Shared {
            heard: Mutex::new(None),
            monitor_areas: Mutex::new(Vec::new()),
            area_watchers: Mutex::new(Vec::new()),
            bars: Mutex::new(vec![Arc::downgrade(&bar)]),
            outbox: OnceLock::new(),
            client: OnceLock::new(),
            tells_keyboard_layout,
        });
        Connection { shared, bar }
    }

    /// The same tiler for another bar, whose monitor is the config's
    /// `monitor` until its placement names it.
    pub fn for_another_bar(&self, monitor: Option<usize>) -> Connection {
        let bar = Arc::new(BarView::new(monitor));
        let mut bars = lock(&self.shared.bars);
        bars.retain(|view| view.strong_count() > 0);
        bars.push(Arc::downgrade(&bar));
        // A bar that comes later is shown what was heard before it.
        if let Some(heard) = lock(&self.shared.heard).clone() {
            bar.show(heard);
        }
        Connection { shared: self.shared.clone(), bar }
    }

    /// The state as this bar last heard it, or why there is none; `waker`'s
    /// widget is woken at every change from now on.
    pub fn status(&self, waker: &Waker) -> Status {
        self.bar.status.read(waker)
    }

    /// Whether the keyboard layout in use is the tiler's to tell (sway's:
    /// on Wayland no X server knows it).
    pub fn tells_keyboard_layout(&self) -> bool {
        self.shared.tells_keyboard_layout
    }

    /// A connection whose states a test publishes itself.
    #[cfg(test)]
    fn scripted() -> (Connection, Publisher) {
        let connection = Connection::waiting(false);
        let publisher = connection.publisher();
        (connection, publisher)
    }

    fn publisher(&self) -> Publisher {
        Publisher { shared: Arc::downgrade(&self.shared) }
    }

    /// The state as last heard, without subscribing.
    pub fn current(&self) -> Status {
        self.bar.status.current()
    }

    /// Sends `batch` to the tiler, in order, in one go, from a thread of its
    /// own. Fails at once when there is no tiler to send to; what fails
    /// later is logged.
    pub fn send_batch(&self, batch: Vec<Message>) -> Result<(), String> {
        if let Status::Disconnected(why) = self.current() {
            return Err(format!("cannot send to the tiler: {why}"));
        }
        let outbox = self.shared.outbox.get_or_init(|| {
            let (outbox, batches) = mpsc::channel();
            let shared = Arc::downgrade(&self.shared);
            let spawned =
                thread::Builder::new().name("obi-tiler-send".into()).spawn(move || deliver(&shared, &batches));
            if let Err(error) = spawned {
                tracing::warn!("cannot start sending to the tiler: {error}");
            }
            outbox
        });
        outbox
            .send((batch, Arc::downgrade(&self.bar)))
            .map_err(|_| "cannot send to the tiler: its sending thread is gone".into())
    }

    /// Where the tiler's monitor of the bar's config number is on the
    /// screen, where the tiler says (komorebi): the bar goes there.
    pub fn monitor_area(&self) -> Option<ScreenRect> {
        let number = lock(&self.bar.monitor).unwrap_or(0);
        lock(&self.shared.monitor_areas).get(number).copied().flatten()
    }

    /// Calls `on_change` (on the tiler's thread) whenever the tiler's
    /// monitors move or are numbered anew.
    pub fn watch_monitor_areas(&self, on_change: impl Fn() + Send + Sync + 'static) {
        lock(&self.shared.area_watchers).push(Box::new(on_change));
    }

    /// Tells the connection the name of the monitor the bar is on (RandR's
    /// name, which i3 and sway give their outputs).
    pub fn set_bar_output(&self, name: &str) {
        *lock(&self.bar.output) = Some(name.to_owned());
        self.show_again();
    }

    /// The name of the monitor the bar is on, once its surface said.
    pub fn bar_output(&self) -> Option<String> {
        lock(&self.bar.output).clone()
    }

    /// Tells the connection the config's `monitor` anew (a reload changed
    /// it): komorebi's state shows the bar's monitor by it at once. The
    /// other tilers find it by the name the bar's placement gives.
    pub fn set_bar_monitor(&self, monitor: Option<usize>) {
        let changed = std::mem::replace(&mut *lock(&self.bar.monitor), monitor) != monitor;
        if changed {
            self.show_again();
        }
    }

    /// The last state heard again, the bar's monitor found anew.
    fn show_again(&self) {
        let heard = lock(&self.shared.heard).clone();
        if let Some(heard @ Status::Connected(_)) = heard {
            self.bar.show(heard);
        }
    }
}

/// Sends each batch as it comes, with the state as the bar that sent it
/// sees it, until the connection is gone.
fn deliver(shared: &Weak<Shared>, batches: &Receiver<(Vec<Message>, Weak<BarView>)>) {
    while let Ok((batch, bar)) = batches.recv() {
        let Some(shared) = shared.upgrade() else { return };
        let Some(client) = shared.client.get() else { continue };
        let status = match bar.upgrade() {
            Some(bar) => bar.status.current(),
            None => continue,
        };
        let state = match &status {
            Status::Connected(state) => Some(state),
            Status::Disconnected(_) => None,
        };
        if let Err(why) = client.send(&batch, state) {
            let names: Vec<&str> = batch.iter().map(|message| message.name).collect();
            tracing::warn!("sending {} to the tiler: {why:#}", names.join(", "));
        }
    }
}

/// Where a client's threads put what they hear. It does not keep the
/// connection alive: once the bar has let go of it, publishing does nothing.
#[derive(Clone)]
pub struct Publisher {
    shared: Weak<Shared>,
}

impl Publisher {
    /// Makes `status` the current one and, when it differs from the last,
    /// wakes every widget that reads the tiler.
    pub fn publish(&self, status: Status) {
        if let Some(shared) = self.shared.upgrade() {
            shared.publish(status);
        }
    }

    /// Says that the tiler cannot be reached and why, in the log too, once
    /// for as long as the reason stays the same (a client asks again every
    /// second).
    pub fn unreachable(&self, why: anyhow::Error) {
        let Some(shared) = self.shared.upgrade() else { return };
        let why = format!("{why:#}");
        if shared.publish(Status::Disconnected(why.clone())) {
            tracing::info!("{why}; asking again every second");
        }
    }
}

impl Shared {
    /// Shows `status` to every bar. True when it differs from the last.
    fn publish(&self, status: Status) -> bool {
        let changed = lock(&self.heard).replace(status.clone()).as_ref() != Some(&status);
        if let Status::Connected(state) = &status {
            self.note_monitor_areas(state);
        }
        let bars: Vec<Arc<BarView>> = lock(&self.bars).iter().filter_map(Weak::upgrade).collect();
        for bar in bars {
            bar.show(status.clone());
        }
        changed
    }

    /// Keeps where `state` says the tiler's monitors are, telling the
    /// watchers when that changed.
    fn note_monitor_areas(&self, state: &State) {
        if state.kind != Kind::Komorebi {
            return;
        }
        let areas: Vec<Option<ScreenRect>> =
            (0..state.monitors.len()).map(|number| state.numbered_area(Some(number))).collect();
        let previous = std::mem::replace(&mut *lock(&self.monitor_areas), areas.clone());
        if previous == areas {
            return;
        }
        for watcher in lock(&self.area_watchers).iter() {
            watcher();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiler::{Monitor, Workspace};
    use std::collections::HashMap;
    use std::sync::atomic::Ordering;

    fn state(workspaces: usize) -> State {
        State {
            monitors: vec![Monitor {
                name: "DP-1".into(),
                area: None,
                workspaces: (0..workspaces)
                    .map(|index| Workspace { name: index.to_string(), ..Default::default() })
                    .collect(),
                focused_workspace: 0,
            }],
            ..State::empty(Kind::I3)
        }
    }

    /// komorebi's monitors, left and right, numbered by the user right first.
    fn komorebi_left_and_right(right_first: bool) -> State {
        let at = |x| Monitor {
            area: Some(ScreenRect { x, y: 0, width: 1920, height: 1080 }),
            ..state(1).monitors[0].clone()
        };
        let mut numbers = HashMap::new();
        if right_first {
            numbers.extend([(0, 1), (1, 0)]);
        }
        State { monitors: vec![at(0), at(1920)], monitor_numbers: numbers, ..State::empty(Kind::Komorebi) }
    }

    /// A bar goes where komorebi's monitor of its number is, is told when
    /// that changes (and only then), and stays while komorebi is away.
    #[test]
    fn the_bars_monitor_is_where_komorebi_says_its_number_is() {
        let (connection, publisher) = Connection::scripted();
        let second = connection.for_another_bar(Some(1));
        let told = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counter = told.clone();
        connection.watch_monitor_areas(move || _ = counter.fetch_add(1, Ordering::SeqCst));
        assert_eq!(connection.monitor_area(), None, "nothing before komorebi says");
        publisher.publish(Status::Connected(komorebi_left_and_right(false)));
        assert_eq!(
            (connection.monitor_area().map(|area| area.x), second.monitor_area().map(|area| area.x)),
            (Some(0), Some(1920))
        );
        publisher.publish(Status::Connected(komorebi_left_and_right(false)));
        assert_eq!(told.load(Ordering::SeqCst), 1, "the same monitors again tell nobody");
        publisher.publish(Status::Connected(komorebi_left_and_right(true)));
        assert_eq!(told.load(Ordering::SeqCst), 2);
        assert_eq!(
            (connection.monitor_area().map(|area| area.x), second.monitor_area().map(|area| area.x)),
            (Some(1920), Some(0))
        );
        publisher.publish(Status::Disconnected("komorebi restarts".into()));
        assert_eq!(connection.monitor_area().map(|area| area.x), Some(1920), "kept while komorebi is away");
        let mut i3 = state(1);
        i3.monitors[0].area = Some(ScreenRect { x: 0, y: 0, width: 800, height: 600 });
        publisher.publish(Status::Connected(i3));
        assert_eq!(
            (connection.monitor_area().map(|area| area.x), told.load(Ordering::SeqCst)),
            (Some(1920), 2),
            "i3 names its outputs, it does not number them"
        );
    }

    #[test]
    fn reading_subscribes_and_a_change_wakes() {
        let (connection, publisher) = Connection::scripted();
        let (waker, woken) = Waker::counting();
        assert!(matches!(connection.status(&waker), Status::Disconnected(_)));
        assert_eq!(waker.promised(), 1, "a first answer is promised while connecting");
        publisher.publish(Status::Connected(state(2)));
        assert_eq!(woken.load(Ordering::SeqCst), 1);
        publisher.publish(Status::Connected(state(2)));
        assert_eq!(woken.load(Ordering::SeqCst), 1, "the same state again wakes nobody");
        publisher.publish(Status::Connected(state(3)));
        assert_eq!(woken.load(Ordering::SeqCst), 2);
        assert_eq!(connection.status(&waker), Status::Connected(state(3)));
        assert_eq!(waker.promised(), 1, "reading again promises nothing more");
    }

    #[test]
    fn the_bar_monitor_is_found_by_its_output_name() {
        let (connection, publisher) = Connection::scripted();
        let mut two = state(1);
        two.monitors.push(Monitor { name: "HDMI-1".into(), ..two.monitors[0].clone() });
        publisher.publish(Status::Connected(two));
        connection.set_bar_output("HDMI-1");
        match connection.current() {
            Status::Connected(state) => assert_eq!(state.bar_monitor, Some(1)),
            other => panic!("{other:?}"),
        }
    }

    /// Two bars on one tiler: one state heard wakes both, and each finds
    /// its own monitor in it; a bar that comes later sees what was heard.
    #[test]
    fn bars_sharing_a_tiler_see_it_from_their_own_monitors() {
        let (first, publisher) = Connection::scripted();
        let second = first.for_another_bar(None);
        first.set_bar_output("DP-1");
        second.set_bar_output("HDMI-1");
        let (first_waker, first_woken) = Waker::counting();
        let (second_waker, second_woken) = Waker::counting();
        first.status(&first_waker);
        second.status(&second_waker);
        let mut two = state(1);
        two.monitors.push(Monitor { name: "HDMI-1".into(), ..two.monitors[0].clone() });
        publisher.publish(Status::Connected(two.clone()));
        assert_eq!((first_woken.load(Ordering::SeqCst), second_woken.load(Ordering::SeqCst)), (1, 1));
        let bar_monitor = |connection: &Connection| match connection.current() {
            Status::Connected(state) => state.bar_monitor,
            other => panic!("{other:?}"),
        };
        assert_eq!((bar_monitor(&first), bar_monitor(&second)), (Some(0), Some(1)));

        let third = first.for_another_bar(Some(1));
        assert_eq!(third.current(), Status::Connected(two), "told what was heard before it");
        third.set_bar_output("HDMI-1");
        assert_eq!(bar_monitor(&third), Some(1));
        assert_eq!(first_woken.load(Ordering::SeqCst), 1, "another bar's placement wakes only its own readers");
    }

    #[test]
    fn without_a_tiler_sending_says_why() {
        let connection = Connection::none("no tiler was chosen (--tiler none)");
        let error = connection.send_batch(vec![Message::unit("TogglePause")]).unwrap_err();
        assert!(error.contains("--tiler none"), "{error}");
        let (waker, _) = Waker::counting();
        connection.status(&waker);
        assert_eq!(waker.promised(), 0, "nothing is coming");
    }
}

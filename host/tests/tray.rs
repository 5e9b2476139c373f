//! The tray capability on a private D-Bus session bus (`dbus-daemon
//! --session`), against test items that speak StatusNotifierItem and
//! dbusmenu: they register (by bus name, or by object path), show their
//! pixmap or their icon name, change icon, take clicks, scrolls and menu
//! choices, and vanish; Obi runs the watcher when none is there, hosts
//! another's when there is one, and takes over when it leaves. An item that
//! says nonsense is shown for what makes sense; a bus that dies empties the
//! tray, and one that comes back is hosted again.

mod common;

use obi::capabilities::{ItemStatus, SystemTray, Tray, TrayAction, TrayItem};
use obi::view::images::HeldImages;
use obi::wake::Waker;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use zbus::blocking::Connection;
use zbus::zvariant::{OwnedObjectPath, OwnedValue, Value};

use obi_test_support::session_bus::{SessionBus as Bus, wait_for_calls};

fn bus() -> Option<Bus> {
    Bus::for_tests("tray tests", None)
}

type Calls = Arc<Mutex<Vec<String>>>;
type Pixmap = (i32, i32, Vec<u8>);

/// A test item: what it says of itself, and the calls it gets.
struct Item {
    id: String,
    icon_name: String,
    theme_path: String,
    pixmaps: Vec<Pixmap>,
    calls: Calls,
}

#[zbus::interface(name = "org.kde.StatusNotifierItem")]
impl Item {
    fn activate(&self, x: i32, y: i32) {
        self.calls.lock().unwrap().push(format!("Activate {x} {y}"));
    }

    fn secondary_activate(&self, _x: i32, _y: i32) {
        self.calls.lock().unwrap().push("SecondaryActivate".into());
    }

    fn context_menu(&self, _x: i32, _y: i32) {
        self.calls.lock().unwrap().push("ContextMenu".into());
    }

    fn scroll(&self, delta: i32, orientation: &str) {
        self.calls.lock().unwrap().push(format!("Scroll {delta} {orientation}"));
    }

    #[zbus(property)]
    fn id(&self) -> String {
        self.id.clone()
    }

    #[zbus(property)]
    fn title(&self) -> String {
        format!("{} title", self.id)
    }

    #[zbus(property)]
    fn status(&self) -> String {
        "Active".into()
    }

    #[zbus(property)]
    fn icon_name(&self) -> String {
        self.icon_name.clone()
    }

    #[zbus(property)]
    fn icon_theme_path(&self) -> String {
        self.theme_path.clone()
    }

    #[zbus(property)]
    fn icon_pixmap(&self) -> Vec<Pixmap> {
        self.pixmaps.clone()
    }

    #[zbus(property)]
    fn tool_tip(&self) -> (String, Vec<Pixmap>, String, String) {
        (String::new(), Vec::new(), format!("{} tip", self.id), "more".into())
    }

    #[zbus(property)]
    fn menu(&self) -> OwnedObjectPath {
        OwnedObjectPath::try_from("/Menu").unwrap()
    }

    #[zbus(signal)]
    async fn new_icon(emitter: &zbus::object_server::SignalEmitter<'_>) -> zbus::Result<()>;
}

/// A dbusmenu node: its id, its properties and its children.
type Node = (i32, HashMap<String, OwnedValue>, Vec<OwnedValue>);

/// A test menu: "Open", and "More" with "Inner" in it.
struct Menu {
    calls: Calls,
}

fn node(id: i32, label: &str, children: Vec<OwnedValue>) -> OwnedValue {
    let mut properties: HashMap<String, OwnedValue> = HashMap::new();
    properties.insert("label".into(), Value::from(label).try_into().unwrap());
    if !children.is_empty() {
        properties.insert("children-display".into(), Value::from("submenu").try_into().unwrap());
    }
    Value::from((id, properties, children)).try_into().unwrap()
}

#[zbus::interface(name = "com.canonical.dbusmenu")]
impl Menu {
    fn get_layout(&self, _parent: i32, _depth: i32, _properties: Vec<String>) -> (u32, Node) {
        let inner = node(3, "Inner", Vec::new());
        let children = vec![node(1, "_Open", Vec::new()), node(2, "More", vec![inner])];
        (1, (0, HashMap::new(), children))
    }

    fn event(&self, id: i32, event: &str, _data: Value<'_>, _timestamp: u32) {
        self.calls.lock().unwrap().push(format!("Event {id} {event}"));
    }
}

/// An item on `bus`, registered with the watcher by its bus name, or (with
/// `path`) by its object path.
fn item(bus: &Bus, id: &str, path: Option<&str>, pixmaps: Vec<Pixmap>, icon: (&str, &str)) -> (Connection, Calls) {
    let calls = Calls::default();
    let at = path.unwrap_or("/StatusNotifierItem");
    let name = format!("org.kde.StatusNotifierItem-{}-{id}", std::process::id());
    let item =
        Item { id: id.into(), icon_name: icon.0.into(), theme_path: icon.1.into(), pixmaps, calls: calls.clone() };
    let connection = zbus::blocking::connection::Builder::address(bus.address.as_str())
        .unwrap()
        .name(name.as_str())
        .unwrap()
        .serve_at(at, item)
        .unwrap()
        .serve_at("/Menu", Menu { calls: calls.clone() })
        .unwrap()
        .build()
        .unwrap();
    let service = if path.is_some() { at.to_owned() } else { name };
    register(&connection, &service);
    (connection, calls)
}

/// Registers `service` with the watcher, once there is one.
fn register(connection: &Connection, service: &str) {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let registered = connection.call_method(
            Some("org.kde.StatusNotifierWatcher"),
            "/StatusNotifierWatcher",
            Some("org.kde.StatusNotifierWatcher"),
            "RegisterStatusNotifierItem",
            &service,
        );
        match registered {
            Ok(_) => return,
            Err(error) if Instant::now() > until => panic!("no watcher to register with: {error}"),
            Err(_) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

/// A 2x2 pixmap of one colour, ARGB in network byte order.
fn pixmap(argb: [u8; 4]) -> Pixmap {
    (2, 2, argb.repeat(4))
}

fn wait_for(tray: &SystemTray, test: impl Fn(&[TrayItem]) -> bool) -> Vec<TrayItem> {
    let waker = Waker::unheard();
    let until = Instant::now() + Duration::from_secs(15);
    loop {
        let items = tray.items(&waker);
        if test(&items) {
            return items;
        }
        assert!(Instant::now() < until, "waited in vain; last: {items:#?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The colour of the held icon `handle`, top-left; none when there is
/// none, or the tray has let go of it since the items were read (a new
/// icon took its place).
fn colour(held: &HeldImages, handle: Option<u64>) -> Option<[u8; 4]> {
    let pixels = held.get(handle?)?;
    Some(pixels.rgba[..4].try_into().unwrap())
}

#[test]
fn items_come_with_their_icons_tooltips_and_menus_and_go() {
    let Some(bus) = bus() else { return };
    let held = HeldImages::default();
    let tray = SystemTray::on_bus(held.clone(), Some(bus.address.clone()));
    wait_for(&tray, |items| items.is_empty());
    let theme = tempfile::tempdir().unwrap();
    write_png(&theme.path().join("obi-test-icon.png"), [0, 0, 255, 255]);
    let (red, _) = item(&bus, "red", None, vec![pixmap([255, 255, 0, 0])], ("", ""));
    let (_named, _) = item(
        &bus,
        "named",
        Some("/org/ayatana/NotificationItem/named"),
        Vec::new(),
        ("obi-test-icon", theme.path().to_str().unwrap()),
    );
    let items = wait_for(&tray, |items| items.len() == 2);
    let find = |id: &str| items.iter().find(|item| item.id == id).unwrap().clone();
    let (first, second) = (find("red"), find("named"));
    assert_eq!(colour(&held, first.icon), Some([255, 0, 0, 255]), "the pixmap, made RGBA");
    assert_eq!(colour(&held, second.icon), Some([0, 0, 255, 255]), "the icon name, found in the item's theme path");
    assert!(second.key.ends_with("/org/ayatana/NotificationItem/named"), "{}", second.key);
    assert_eq!(
        (first.title.as_str(), first.tooltip.as_str(), first.status),
        ("red title", "red tip\nmore", ItemStatus::Active)
    );
    assert!(!first.exe.is_empty(), "the owner's executable");
    let labels: Vec<(u32, &str)> = first.menu.iter().map(|entry| (entry.depth, entry.label.as_str())).collect();
    assert_eq!(labels, [(0, "Open"), (0, "More"), (1, "Inner")]);

    // A new icon, said with NewIcon.
    {
        let interface = red.object_server().interface::<_, Item>("/StatusNotifierItem").unwrap();
        interface.get_mut().pixmaps = vec![pixmap([255, 0, 255, 0])];
        zbus::block_on(Item::new_icon(interface.signal_emitter())).unwrap();
    }
    let items = wait_for(&tray, |items| {
        items.iter().any(|item| item.id == "red" && colour(&held, item.icon) == Some([0, 255, 0, 255]))
    });
    assert_eq!(items.len(), 2);
    let old_icon = first.icon.unwrap();
    assert!(held.get(old_icon).is_none(), "the old icon was let go of");

    drop(red);
    let items = wait_for(&tray, |items| items.len() == 1);
    assert_eq!(items[0].id, "named", "the item whose owner left is gone");
}

#[test]
fn clicks_scrolls_and_menu_choices_reach_the_item() {
    let Some(bus) = bus() else { return };
    let tray = SystemTray::on_bus(HeldImages::default(), Some(bus.address.clone()));
    wait_for(&tray, |items| items.is_empty());
    let (_item, calls) = item(&bus, "clicky", None, vec![pixmap([255, 1, 2, 3])], ("", ""));
    let key = wait_for(&tray, |items| items.len() == 1)[0].key.clone();
    for action in [
        TrayAction::Activate,
        TrayAction::SecondaryActivate,
        TrayAction::ContextMenu,
        TrayAction::Scroll { delta: -1, horizontal: false },
        TrayAction::MenuChosen(3),
    ] {
        tray.act(&key, action).unwrap();
    }
    assert_eq!(
        wait_for_calls(&calls, 5),
        ["Activate 0 0", "SecondaryActivate", "ContextMenu", "Scroll -1 vertical", "Event 3 clicked"]
    );
    assert!(tray.act("no-such-item", TrayAction::Activate).is_err());
}

/// Another program's watcher, which never forgets an item.
#[derive(Default, Clone)]
struct ForgetfulWatcher {
    items: Arc<Mutex<Vec<String>>>,
}

#[zbus::interface(name = "org.kde.StatusNotifierWatcher")]
impl ForgetfulWatcher {
    fn register_status_notifier_item(&self, service: &str, #[zbus(header)] header: zbus::message::Header<'_>) {
        let sender = header.sender().map(|sender| sender.to_string()).unwrap_or_default();
        let entry = if service.starts_with('/') {
            format!("{sender}{service}")
        } else {
            format!("{service}/StatusNotifierItem")
        };
        self.items.lock().unwrap().push(entry);
    }

    fn register_status_notifier_host(&self, _service: &str) {}

    #[zbus(property)]
    fn registered_status_notifier_items(&self) -> Vec<String> {
        self.items.lock().unwrap().clone()
    }
}

/// Another program's watcher on `bus`, for as long as its connection lives.
fn forgetful_watcher(bus: &Bus) -> Connection {
    zbus::blocking::connection::Builder::address(bus.address.as_str())
        .unwrap()
        .name("org.kde.StatusNotifierWatcher")
        .unwrap()
        .serve_at("/StatusNotifierWatcher", ForgetfulWatcher::default())
        .unwrap()
        .build()
        .unwrap()
}

#[test]
fn another_watcher_is_hosted_a_sweep_reads_what_it_did_not_say_and_the_gone_are_not_shown() {
    let Some(bus) = bus() else { return };
    let _watcher = forgetful_watcher(&bus);
    let (first, _) = item(&bus, "first", None, vec![pixmap([255, 9, 9, 9])], ("", ""));
    let tray = SystemTray::on_bus(HeldImages::default(), Some(bus.address.clone()));
    wait_for(&tray, |items| items.len() == 1);
    // This watcher says nothing of a new item: only a sweep finds it.
    let (_second, _) = item(&bus, "second", None, vec![pixmap([255, 8, 8, 8])], ("", ""));
    tray.sweep();
    wait_for(&tray, |items| items.len() == 2);
    // Nor does it forget the first when it leaves.
    drop(first);
    let items = wait_for(&tray, |items| items.len() == 1);
    assert_eq!(items[0].id, "second");
}

/// An item that says nonsense: a number for its id, a status the standard
/// does not have, torn and absurd pixmaps, a string for its tooltip, a
/// string for its menu, an icon name nowhere to be found.
struct Garbled;

#[zbus::interface(name = "org.kde.StatusNotifierItem")]
impl Garbled {
    #[zbus(property)]
    fn id(&self) -> u32 {
        7
    }

    #[zbus(property)]
    fn status(&self) -> String {
        "Sideways".into()
    }

    #[zbus(property)]
    fn icon_pixmap(&self) -> Vec<Pixmap> {
        vec![(2, 2, vec![1, 2, 3]), (-4, 4, Vec::new()), (1 << 20, 1 << 20, vec![0; 4]), (0, 0, Vec::new())]
    }

    #[zbus(property)]
    fn icon_name(&self) -> String {
        "obi-no-such-icon-anywhere".into()
    }

    #[zbus(property)]
    fn tool_tip(&self) -> String {
        "not a structure".into()
    }

    #[zbus(property)]
    fn menu(&self) -> String {
        "/not/an/object/path".into()
    }
}

#[test]
fn an_item_that_says_nonsense_is_shown_for_what_makes_sense() {
    let Some(bus) = bus() else { return };
    let tray = SystemTray::on_bus(HeldImages::default(), Some(bus.address.clone()));
    wait_for(&tray, |items| items.is_empty());
    let garbled = zbus::blocking::connection::Builder::address(bus.address.as_str())
        .unwrap()
        .serve_at("/StatusNotifierItem", Garbled)
        .unwrap()
        .build()
        .unwrap();
    register(&garbled, garbled.unique_name().unwrap().as_str());
    let (_sane, _) = item(&bus, "sane", None, vec![pixmap([255, 1, 1, 1])], ("", ""));
    let items = wait_for(&tray, |items| items.len() == 2);
    let shown = items.iter().find(|item| item.id != "sane").unwrap();
    assert_eq!((shown.id.as_str(), shown.tooltip.as_str(), shown.status), ("", "", ItemStatus::Active));
    assert_eq!((shown.icon, shown.menu.len()), (None, 0), "no icon, no menu: the widget shows its first letter");
    assert!(items.iter().any(|item| item.id == "sane" && item.icon.is_some()), "the sane item is unharmed");
}

#[test]
fn when_another_watcher_leaves_obi_runs_one_and_items_register_again() {
    let Some(bus) = bus() else { return };
    let other = forgetful_watcher(&bus);
    let (item_connection, calls) = item(&bus, "faithful", None, vec![pixmap([255, 5, 5, 5])], ("", ""));
    let tray = SystemTray::on_bus(HeldImages::default(), Some(bus.address.clone()));
    wait_for(&tray, |items| items.len() == 1);
    drop(other);
    // As items do when a watcher appears, it registers again, with Obi's.
    let service = item_connection.unique_name().unwrap().to_string();
    let until = Instant::now() + Duration::from_secs(10);
    while !registered_with_obi(&item_connection, &service) {
        assert!(Instant::now() < until, "obi never ran a watcher");
        std::thread::sleep(Duration::from_millis(50));
    }
    let key = wait_for(&tray, |items| items.len() == 1)[0].key.clone();
    tray.act(&key, TrayAction::Activate).unwrap();
    assert_eq!(wait_for_calls(&calls, 1), ["Activate 0 0"], "clicks reach the item through the new watch");
}

/// Registers `service` with the watcher on the bus, when it is Obi's (the
/// test's watcher answers `RegisterStatusNotifierItem` too, but it is gone).
fn registered_with_obi(connection: &Connection, service: &str) -> bool {
    let owner = connection.call_method(
        Some("org.freedesktop.DBus"),
        "/org/freedesktop/DBus",
        Some("org.freedesktop.DBus"),
        "GetConnectionUnixProcessID",
        &"org.kde.StatusNotifierWatcher",
    );
    let Ok(owner) = owner else { return false };
    if owner.body().deserialize::<u32>().ok() != Some(std::process::id()) {
        return false;
    }
    register(connection, service);
    true
}

#[test]
fn a_bus_that_dies_leaves_no_items_and_one_that_comes_back_is_hosted_again() {
    let dir = tempfile::tempdir().unwrap();
    let address = format!("unix:path={}", dir.path().join("bus").display());
    let Some(bus) = Bus::for_tests("tray tests", Some(&address)) else { return };
    let tray = SystemTray::on_bus(HeldImages::default(), Some(address.clone()));
    wait_for(&tray, |items| items.is_empty());
    let (doomed, _) = item(&bus, "doomed", None, vec![pixmap([255, 5, 5, 5])], ("", ""));
    wait_for(&tray, |items| items.len() == 1);
    drop(bus);
    wait_for(&tray, |items| items.is_empty());
    drop(doomed);

    let _ = std::fs::remove_file(dir.path().join("bus"));
    let bus = Bus::for_tests("tray tests", Some(&address)).unwrap();
    let (_reborn, calls) = item(&bus, "reborn", None, vec![pixmap([255, 5, 5, 5])], ("", ""));
    let items = wait_for(&tray, |items| items.len() == 1);
    assert_eq!(items[0].id, "reborn");
    tray.act(&items[0].key, TrayAction::SecondaryActivate).unwrap();
    assert_eq!(wait_for_calls(&calls, 1), ["SecondaryActivate"], "clicks reach items on the new bus");
}

fn write_png(path: &std::path::Path, rgba: [u8; 4]) {
    let file = std::fs::File::create(path).unwrap();
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), 4, 4);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header().unwrap().write_image_data(&rgba.repeat(16)).unwrap();
}

#[test]
fn an_item_that_never_answers_is_left_out_and_the_rest_of_the_tray_updates() {
    let Some(bus) = bus() else { return };
    let tray = SystemTray::on_bus(HeldImages::default(), Some(bus.address.clone()));
    wait_for(&tray, |items| items.is_empty());
    // It owns a name and registers, and then answers no call: it has no object server.
    let silent = zbus::blocking::connection::Builder::address(bus.address.as_str()).unwrap().build().unwrap();
    let silent_name = format!("org.kde.StatusNotifierItem-{}-silent", std::process::id());
    silent.request_name(silent_name.as_str()).unwrap();
    register(&silent, &silent_name);
    let (good, _) = item(&bus, "good", None, vec![pixmap([255, 255, 0, 0])], ("", ""));
    let items = wait_for(&tray, |items| items.iter().any(|item| item.id == "good"));
    assert_eq!(items.len(), 1, "the silent item is left out: {items:#?}");

    let changed = Instant::now();
    {
        let interface = good.object_server().interface::<_, Item>("/StatusNotifierItem").unwrap();
        interface.get_mut().id = "good again".into();
        zbus::block_on(Item::new_icon(interface.signal_emitter())).unwrap();
    }
    wait_for(&tray, |items| items.iter().any(|item| item.id == "good again"));
    assert!(changed.elapsed() < Duration::from_secs(2), "the change took {:?}", changed.elapsed());
}

/// A tray item whose every property comes after `delay`.
struct SlowItem {
    delay: Duration,
}

#[zbus::interface(name = "org.kde.StatusNotifierItem")]
impl SlowItem {
    #[zbus(property)]
    fn id(&self) -> String {
        std::thread::sleep(self.delay);
        "slow".into()
    }

    #[zbus(property)]
    fn status(&self) -> String {
        std::thread::sleep(self.delay);
        "Active".into()
    }
}

/// Twenty items that each answer every call after 2.8 s (a minute and
/// more to read one after another): they are read at once, left out after
/// one wait, and a good item that comes meanwhile shows within 5 s.
#[test]
fn slow_items_cost_the_tray_one_wait_and_a_good_one_shows_within_seconds() {
    let Some(bus) = bus() else { return };
    let tray = SystemTray::on_bus(HeldImages::default(), Some(bus.address.clone()));
    wait_for(&tray, |items| items.is_empty());
    let slow: Vec<Connection> = (0..20)
        .map(|index| {
            let name = format!("org.kde.StatusNotifierItem-{}-slow{index}", std::process::id());
            let connection = zbus::blocking::connection::Builder::address(bus.address.as_str())
                .unwrap()
                .name(name.as_str())
                .unwrap()
                .serve_at("/StatusNotifierItem", SlowItem { delay: Duration::from_millis(2800) })
                .unwrap()
                .build()
                .unwrap();
            register(&connection, &name);
            connection
        })
        .collect();
    let registered = Instant::now();
    let (_good, _) = item(&bus, "good", None, vec![pixmap([255, 255, 0, 0])], ("", ""));
    let items = wait_for(&tray, |items| items.iter().any(|item| item.id == "good"));
    assert!(registered.elapsed() < Duration::from_secs(5), "the good item showed after {:?}", registered.elapsed());
    assert_eq!(items.len(), 1, "the slow ones are left out: {items:#?}");
    drop(slow);
}

/// One client registers 300 items: the tray shows the first 256 (what a
/// bar's view holds) and says how many it left out; it showed none.
#[test]
fn three_hundred_items_of_one_client_show_the_first_256() {
    let Some(bus) = bus() else { return };
    let _ = common::logs::logs();
    let tray = SystemTray::on_bus(HeldImages::default(), Some(bus.address.clone()));
    wait_for(&tray, |items| items.is_empty());
    let mut builder = zbus::blocking::connection::Builder::address(bus.address.as_str()).unwrap();
    for index in 0..300 {
        let item = Item {
            id: format!("many{index}"),
            icon_name: String::new(),
            theme_path: String::new(),
            pixmaps: Vec::new(),
            calls: Calls::default(),
        };
        builder = builder.serve_at(format!("/item/{index}"), item).unwrap();
    }
    let client = builder.build().unwrap();
    for index in 0..300 {
        register(&client, &format!("/item/{index}"));
    }
    let items = wait_for(&tray, |items| items.len() == 256);
    let ids: Vec<&str> = items.iter().map(|item| item.id.as_str()).collect();
    assert_eq!((ids.first().copied(), ids.last().copied()), (Some("many0"), Some("many255")), "the first 256");
    let said = "300 tray items are registered: the first 256 are shown, 44 left out";
    assert!(obi_test_support::wait::until(Duration::from_secs(5), || common::logs::logged().contains(said)));
}

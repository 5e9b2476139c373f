//! The notification server on a private D-Bus session bus (`dbus-daemon
//! --session`): Debian's `notify-send` and a client of the test's own send
//! to it; what they sent is kept as the specification says, the user's
//! actions and the clock reach them as signals, another server holding the
//! name is named and its leaving is followed, and hostile senders (a
//! burst, a vast body, an image that is not what it says, an icon that is
//! a FIFO) cost a bounded amount and stop nothing.

use obi::notifications::{self, CloseReason, NAME, PATH, Service, Settings, Standing, Urgency, limits};
use obi_test_support::session_bus::SessionBus;
use obi_test_support::skip;
use std::collections::HashMap;
use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};
use zbus::blocking::{Connection, MessageIterator};
use zbus::zvariant::Value;

fn bus() -> Option<SessionBus> {
    // What the server logs is shown with a failing test's output.
    let _ = tracing_subscriber::fmt().with_test_writer().try_init();
    SessionBus::for_tests("notification server tests", None)
}

fn client(bus: &SessionBus) -> Connection {
    zbus::blocking::connection::Builder::address(bus.address.as_str()).unwrap().build().unwrap()
}

/// The server on `bus`, once it serves.
fn serving(bus: &SessionBus, settings: Settings) -> Service {
    let service = notifications::start(settings, Some(bus.address.clone()));
    assert!(until(|| service.standing() == Standing::Serving), "serving: {:?}", service.standing());
    service
}

fn until(mut ready: impl FnMut() -> bool) -> bool {
    obi_test_support::wait::until(Duration::from_secs(10), &mut ready)
}

/// The server's signals as the bus carries them: (member, id, key or reason).
fn signals(connection: &Connection) -> Receiver<(String, u32, String)> {
    let rule = format!("type='signal',interface='{NAME}'");
    let messages = MessageIterator::for_match_rule(rule.as_str(), connection, None).unwrap();
    let (send, received) = mpsc::channel();
    std::thread::spawn(move || {
        for message in messages.flatten() {
            let member = message.header().member().map(|member| member.to_string()).unwrap_or_default();
            let said = match member.as_str() {
                "ActionInvoked" => message.body().deserialize::<(u32, String)>().ok(),
                _ => message.body().deserialize::<(u32, u32)>().ok().map(|(id, reason)| (id, reason.to_string())),
            };
            if let Some((id, what)) = said
                && send.send((member, id, what)).is_err()
            {
                return;
            }
        }
    });
    received
}

fn next(signals: &Receiver<(String, u32, String)>) -> (String, u32, String) {
    signals.recv_timeout(Duration::from_secs(5)).expect("a signal within 5 s")
}

type Hints<'a> = HashMap<&'a str, Value<'a>>;

/// `Notify` from the test's own client; the id it was given.
fn notify(
    connection: &Connection,
    (summary, body): (&str, &str),
    replaces: u32,
    actions: &[&str],
    hints: Hints,
    timeout: i32,
) -> zbus::Result<u32> {
    let arguments = ("test", replaces, "", summary, body, actions, hints, timeout);
    let reply = connection.call_method(Some(NAME), PATH, Some(NAME), "Notify", &arguments)?;
    reply.body().deserialize()
}

fn capabilities_of(connection: &Connection) -> Vec<String> {
    let reply = connection.call_method(Some(NAME), PATH, Some(NAME), "GetCapabilities", &()).unwrap();
    reply.body().deserialize().unwrap()
}

fn summaries(service: &Service) -> Vec<String> {
    service.on_screen().into_iter().map(|notification| notification.summary).collect()
}

#[test]
fn notify_sends_notification_is_kept_and_its_chosen_action_reaches_it() {
    let Some(bus) = bus() else { return };
    if !installed("notify-send") {
        return;
    }
    let service = serving(&bus, Settings::default());
    let watcher = client(&bus);
    let heard = signals(&watcher);
    let mut sender = Command::new("notify-send")
        .args(["--app-name=Mail", "-u", "critical", "-A", "yes=Reply", "-A", "no=Ignore"])
        .args(["New mail", "<b>Ann</b> wrote &amp; <i>asked</i>"])
        .env("DBUS_SESSION_BUS_ADDRESS", &bus.address)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    assert!(until(|| !service.on_screen().is_empty()), "notify-send's notification is shown");
    let shown = service.on_screen().remove(0);
    assert_eq!((shown.app_name.as_str(), shown.summary.as_str()), ("Mail", "New mail"));
    assert_eq!(shown.body, "<b>Ann</b> wrote &amp; <i>asked</i>", "the body as sent, markup and all");
    assert_eq!(shown.urgency, Urgency::Critical);
    let keys: Vec<(&str, &str)> =
        shown.actions.iter().map(|action| (action.key.as_str(), action.label.as_str())).collect();
    assert_eq!(keys, [("yes", "Reply"), ("no", "Ignore")]);

    service.invoke(shown.id, "yes");
    assert_eq!(next(&heard), ("ActionInvoked".into(), shown.id, "yes".into()));
    assert_eq!(next(&heard), ("NotificationClosed".into(), shown.id, "2".into()), "closed as dismissed");
    let status = wait_with_timeout(&mut sender);
    let mut printed = String::new();
    sender.stdout.take().unwrap().read_to_string(&mut printed).unwrap();
    assert!(status.success());
    assert_eq!(printed.trim(), "yes", "notify-send was told the action chosen");
    assert!(service.on_screen().is_empty());
}

#[test]
fn the_server_says_what_it_is_and_keeps_timeouts_replacements_and_closings_as_the_specification_says() {
    let Some(bus) = bus() else { return };
    let service = serving(&bus, Settings { history: 0, ..Settings::default() });
    let connection = client(&bus);
    let heard = signals(&connection);

    let capabilities = capabilities_of(&connection);
    assert_eq!(capabilities, ["actions", "body", "body-markup", "icon-static"], "no persistence without a history");
    let information: (String, String, String, String) = connection
        .call_method(Some(NAME), PATH, Some(NAME), "GetServerInformation", &())
        .unwrap()
        .body()
        .deserialize()
        .unwrap();
    assert_eq!((information.0.as_str(), information.3.as_str()), ("Obi", "1.2"));

    let started = Instant::now();
    let brief = notify(&connection, ("brief", ""), 0, &[], Hints::new(), 300).unwrap();
    assert_eq!(next(&heard), ("NotificationClosed".into(), brief, (CloseReason::Expired as u32).to_string()));
    assert!(started.elapsed() >= Duration::from_millis(300), "not before its time");

    let first = notify(&connection, ("download 10%", ""), 0, &[], Hints::new(), 0).unwrap();
    let replaced = notify(&connection, ("download 90%", ""), first, &[], Hints::new(), 0).unwrap();
    assert_eq!(replaced, first, "replaced in place, under its id");
    assert_eq!(summaries(&service), ["download 90%"]);

    let critical = Hints::from([("urgency", Value::U8(2))]);
    let stays = notify(&connection, ("disk full", ""), 0, &[], critical, 100).unwrap();
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(summaries(&service), ["disk full", "download 90%"], "a critical one stays past its timeout");

    connection.call_method(Some(NAME), PATH, Some(NAME), "CloseNotification", &(stays,)).unwrap();
    assert_eq!(next(&heard), ("NotificationClosed".into(), stays, (CloseReason::Closed as u32).to_string()));
    connection
        .call_method(Some(NAME), PATH, Some(NAME), "CloseNotification", &(stays,))
        .expect("closing it again is no error");
    service.dismiss(first);
    assert_eq!(next(&heard), ("NotificationClosed".into(), first, (CloseReason::Dismissed as u32).to_string()));
}

#[test]
fn with_a_history_a_notification_leaves_the_screen_alive_and_do_not_disturb_keeps_it_there() {
    let Some(bus) = bus() else { return };
    let service = serving(&bus, Settings::default());
    let connection = client(&bus);
    let capabilities = capabilities_of(&connection);
    assert!(capabilities.iter().any(|capability| capability == "persistence"));
    let id = notify(&connection, ("seen later", ""), 0, &["default", "Open"], Hints::new(), 200).unwrap();
    assert!(until(|| service.on_screen().is_empty()), "it leaves the screen after its timeout");
    let history = service.history();
    assert_eq!((history[0].0.id, history[0].1), (id, false), "kept, unseen");

    service.set_do_not_disturb(true);
    notify(&connection, ("quiet", ""), 0, &[], Hints::new(), -1).unwrap();
    let critical = Hints::from([("urgency", Value::U8(2))]);
    notify(&connection, ("loud", ""), 0, &[], critical, -1).unwrap();
    assert_eq!(summaries(&service), ["loud"], "only critical ones show through do-not-disturb");
    let kept: Vec<String> = service.history().into_iter().map(|(notification, _)| notification.summary).collect();
    assert_eq!(kept, ["loud", "quiet", "seen later"]);
    assert_eq!(service.read(|store| store.unseen()), 3);
    service.mark_seen();
    assert_eq!(service.read(|store| store.unseen()), 0);
}

#[test]
fn hints_sent_as_other_integers_than_the_specifications_are_read_and_texts_cut() {
    let Some(bus) = bus() else { return };
    let service = serving(&bus, Settings::default());
    let connection = client(&bus);
    let hints = Hints::from([
        ("urgency", Value::I32(2)),
        ("resident", Value::U32(1)),
        ("transient", Value::U8(1)),
        ("category", Value::from("x".repeat(100_000))),
    ]);
    let id = notify(&connection, ("integers", ""), 0, &[], hints, -1).expect("a call with them is answered");
    let read = service.read(|store| store.get(id).cloned()).expect("kept");
    assert_eq!((read.urgency, read.resident, read.transient), (Urgency::Critical, true, true));
    assert!(read.category.unwrap().len() <= limits::NAME_BYTES);
    let hints = Hints::from([("urgency", Value::U32(0))]);
    let id = notify(&connection, ("low", ""), 0, &[], hints, -1).unwrap();
    assert_eq!(service.read(|store| store.get(id).map(|read| read.urgency)), Some(Urgency::Low));
}

#[test]
fn another_server_holding_the_name_is_named_and_obi_serves_once_it_leaves() {
    let Some(bus) = bus() else { return };
    let other = client(&bus);
    other.request_name(NAME).unwrap();
    let service = notifications::start(Settings::default(), Some(bus.address.clone()));
    let held = until(|| matches!(service.standing(), Standing::HeldBy(_)));
    let Standing::HeldBy(holder) = service.standing() else { panic!("held: {held}, {:?}", service.standing()) };
    let comm = std::fs::read_to_string("/proc/self/comm").unwrap();
    assert!(holder.contains(&format!("{} (pid {}", comm.trim(), std::process::id())), "{holder}");

    other.release_name(NAME).unwrap();
    assert!(until(|| service.standing() == Standing::Serving), "it takes the name: {:?}", service.standing());
    let sender = client(&bus);
    notify(&sender, ("now obi's", ""), 0, &[], Hints::new(), -1).unwrap();
    assert_eq!(summaries(&service), ["now obi's"]);
}

/// A reload that no longer enables notifications lets the name go for
/// another server to take; one that enables them again takes it back, with
/// the history as it was.
#[test]
fn switched_off_the_server_lets_the_name_go_and_switched_on_takes_it_again() {
    let Some(bus) = bus() else { return };
    let service = serving(&bus, Settings::default());
    let connection = client(&bus);
    notify(&connection, ("before", ""), 0, &[], Hints::new(), -1).unwrap();
    let dbus = zbus::blocking::fdo::DBusProxy::new(&connection).unwrap();
    let owned = || dbus.name_has_owner(NAME.try_into().unwrap()).unwrap();
    let server = dbus.get_name_owner(NAME.try_into().unwrap()).unwrap();

    service.switch(false);
    assert!(until(|| service.standing() == Standing::SwitchedOff), "{:?}", service.standing());
    assert!(until(|| !owned()), "the name is let go");
    let asked = connection.call_method(Some(server.as_str()), PATH, Some(NAME), "GetServerInformation", &());
    assert!(asked.is_err(), "nothing answers at the server's path any more");
    let other = client(&bus);
    other.request_name(NAME).unwrap();
    other.release_name(NAME).unwrap();

    service.switch(true);
    assert!(until(|| service.standing() == Standing::Serving), "{:?}", service.standing());
    notify(&connection, ("after", ""), 0, &[], Hints::new(), -1).unwrap();
    let kept: Vec<String> = service.history().into_iter().map(|(notification, _)| notification.summary).collect();
    assert_eq!(kept, ["after", "before"], "the history is kept across");
}

#[test]
fn hostile_senders_cost_a_bounded_amount_and_stop_nothing() {
    let Some(bus) = bus() else { return };
    let settings = Settings { history: 50, ..Settings::default() };
    let service = serving(&bus, settings);
    let connection = client(&bus);

    obi_test_support::notification_flood::flood(&connection, 10_000);
    let last = notify(&connection, ("after the flood", ""), 0, &[], Hints::new(), -1).expect("it still answers");
    let alive = service.read(|store| store.len());
    assert!(alive <= settings.max_visible + limits::MOST_WAITING + settings.history, "{alive} alive");
    assert_eq!(service.history().len(), settings.history, "the history is capped");
    assert_eq!(service.history()[0].0.id, last);

    let vast = "x".repeat(10 << 20);
    let id = notify(&connection, ("vast", &vast), 0, &[], Hints::new(), -1).unwrap();
    let body = service.read(|store| store.get(id).map(|notification| notification.body.len()));
    assert!(body.unwrap() <= limits::BODY_BYTES, "the body is cut: {body:?}");

    let claimed = zbus::zvariant::Structure::from((30000i32, 30000i32, 120000i32, true, 8i32, 4i32, vec![0u8; 64]));
    let image = Hints::from([("image-data", Value::Structure(claimed))]);
    let id = notify(&connection, ("vast image", ""), 0, &[], image, -1).unwrap();
    assert_eq!(service.read(|store| store.get(id).map(|notification| notification.icon.is_some())), Some(false));

    let folder = tempfile::tempdir().unwrap();
    let fifo = folder.path().join("icon.png");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let started = Instant::now();
    let arguments = ("fifo", 0u32, fifo.to_str().unwrap(), "icon", "", Vec::<&str>::new(), Hints::new(), -1);
    let reply = connection.call_method(Some(NAME), PATH, Some(NAME), "Notify", &arguments).unwrap();
    let id: u32 = reply.body().deserialize().unwrap();
    assert!(started.elapsed() < Duration::from_secs(1), "the FIFO was not waited on");
    assert_eq!(service.read(|store| store.get(id).map(|notification| notification.icon.is_some())), Some(false));

    let small =
        zbus::zvariant::Structure::from((2i32, 1i32, 8i32, true, 8i32, 4i32, vec![255u8, 0, 0, 255, 0, 0, 255, 255]));
    let id =
        notify(&connection, ("small image", ""), 0, &[], Hints::from([("image-data", Value::Structure(small))]), -1)
            .unwrap();
    let icon =
        service.read(|store| store.get(id).and_then(|notification| notification.icon.clone())).expect("an image");
    assert_eq!((icon.width, icon.height, &icon.rgba[..]), (2, 1, &[255, 0, 0, 255, 0, 0, 255, 255][..]));
}

fn installed(program: &str) -> bool {
    let found = Command::new("sh").args(["-c", &format!("command -v {program}")]).output();
    if found.is_ok_and(|output| output.status.success()) {
        return true;
    }
    skip::unavailable(&format!("notification server tests: no {program} (.ci/run installs libnotify-bin)"));
    false
}

fn wait_with_timeout(child: &mut std::process::Child) -> std::process::ExitStatus {
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(Instant::now() < until, "notify-send did not end");
        std::thread::sleep(Duration::from_millis(20));
    }
}

//! The media capability on a private D-Bus session bus (`dbus-daemon
//! --session`), against test players that speak MPRIS 2: what they play
//! and its changes reach the widgets that read it, controls reach the
//! player, and players that come and go, or a bus that dies, are followed.

mod common;

use obi::capabilities::{Control, Media, NowPlaying, Playback, SystemMedia};
use obi::view::images::HeldImages;
use obi::wake::Waker;
use std::collections::HashMap;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use zbus::blocking::Connection;
use zbus::zvariant::{OwnedValue, Value};

use obi_test_support::session_bus::{SessionBus as Bus, wait_for_calls};
use obi_test_support::web_server::WebServer;

fn bus() -> Option<Bus> {
    Bus::for_tests("media tests", None)
}

/// What a test player says, and the calls it was sent.
struct Player {
    status: String,
    title: String,
    artists: Vec<String>,
    art_url: String,
    calls: Arc<Mutex<Vec<String>>>,
}

#[zbus::interface(name = "org.mpris.MediaPlayer2.Player")]
impl Player {
    fn next(&mut self) {
        self.calls.lock().unwrap().push("Next".into());
    }

    fn previous(&mut self) {
        self.calls.lock().unwrap().push("Previous".into());
    }

    fn play_pause(&mut self) {
        self.calls.lock().unwrap().push("PlayPause".into());
    }

    #[zbus(property)]
    fn playback_status(&self) -> String {
        self.status.clone()
    }

    #[zbus(property)]
    fn metadata(&self) -> HashMap<String, OwnedValue> {
        let mut metadata = HashMap::new();
        metadata.insert("xesam:title".into(), Value::from(self.title.clone()).try_into().unwrap());
        metadata.insert("xesam:artist".into(), Value::from(self.artists.clone()).try_into().unwrap());
        metadata.insert("xesam:album".into(), Value::from("An Album").try_into().unwrap());
        if !self.art_url.is_empty() {
            metadata.insert("mpris:artUrl".into(), Value::from(self.art_url.clone()).try_into().unwrap());
        }
        metadata
    }

    #[zbus(property)]
    fn can_go_next(&self) -> bool {
        true
    }

    #[zbus(property)]
    fn can_go_previous(&self) -> bool {
        true
    }

    #[zbus(property)]
    fn can_play(&self) -> bool {
        true
    }

    #[zbus(property)]
    fn can_pause(&self) -> bool {
        true
    }
}

struct Root {
    identity: String,
}

#[zbus::interface(name = "org.mpris.MediaPlayer2")]
impl Root {
    #[zbus(property)]
    fn identity(&self) -> String {
        self.identity.clone()
    }
}

const PATH: &str = "/org/mpris/MediaPlayer2";

/// A player named `name` on `bus`, playing or paused `title`.
fn player(bus: &Bus, name: &str, status: &str, title: &str) -> (Connection, Arc<Mutex<Vec<String>>>) {
    let calls = Arc::new(Mutex::new(Vec::new()));
    let player = Player {
        status: status.into(),
        title: title.into(),
        artists: vec!["Ann".into(), "Bo".into()],
        art_url: String::new(),
        calls: calls.clone(),
    };
    let connection = zbus::blocking::connection::Builder::address(bus.address.as_str())
        .unwrap()
        .name(format!("org.mpris.MediaPlayer2.{name}"))
        .unwrap()
        .serve_at(PATH, Root { identity: format!("{name} player") })
        .unwrap()
        .serve_at(PATH, player)
        .unwrap()
        .build()
        .unwrap();
    (connection, calls)
}

/// Changes what `connection`'s player plays, and says so on the bus.
fn change(connection: &Connection, status: &str, title: &str) {
    let player = connection.object_server().interface::<_, Player>(PATH).unwrap();
    {
        let mut state = player.get_mut();
        state.status = status.into();
        state.title = title.into();
    }
    let emitter = player.signal_emitter();
    zbus::block_on(player.get().playback_status_changed(emitter)).unwrap();
    zbus::block_on(player.get().metadata_changed(emitter)).unwrap();
}

/// Gives what `connection`'s player plays the cover at `url`, and says so.
fn change_cover(connection: &Connection, url: &str) {
    let player = connection.object_server().interface::<_, Player>(PATH).unwrap();
    player.get_mut().art_url = url.into();
    zbus::block_on(player.get().metadata_changed(player.signal_emitter())).unwrap();
}

fn waker() -> (Waker, Receiver<()>) {
    let (woken, wakes) = mpsc::channel();
    (
        Waker::new(move || {
            let _ = woken.send(());
        }),
        wakes,
    )
}

/// Waits until what plays satisfies `test`.
fn wait_for(media: &SystemMedia, waker: &Waker, test: impl Fn(&Option<NowPlaying>) -> bool) -> Option<NowPlaying> {
    let until = Instant::now() + Duration::from_secs(15);
    loop {
        let playing = media.now_playing(waker);
        if test(&playing) {
            return playing;
        }
        assert!(Instant::now() < until, "waited in vain; last: {playing:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn what_a_player_plays_and_its_changes_reach_the_widget() {
    let Some(bus) = bus() else { return };
    let (player, calls) = player(&bus, "test", "Playing", "First Song");
    let media = SystemMedia::on_bus(Some(bus.address.clone()), HeldImages::default());
    let (waker, wakes) = waker();
    let shown = wait_for(&media, &waker, Option::is_some).unwrap();
    assert_eq!(
        (shown.player.as_str(), shown.title.as_str(), shown.artist.as_str(), shown.album.as_str()),
        ("test player", "First Song", "Ann, Bo", "An Album")
    );
    assert_eq!(shown.playback, Playback::Playing);
    assert!(shown.can_go_next && shown.can_go_previous && shown.can_play_pause);
    while wakes.try_recv().is_ok() {}

    change(&player, "Paused", "Second Song");
    assert!(wakes.recv_timeout(Duration::from_secs(5)).is_ok(), "the change woke the reader");
    let shown = wait_for(&media, &waker, |playing| playing.as_ref().is_some_and(|p| p.title == "Second Song"));
    assert_eq!(shown.unwrap().playback, Playback::Paused);

    for control in [Control::Next, Control::Previous, Control::PlayPause] {
        media.control(control).unwrap();
    }
    assert_eq!(wait_for_calls(&calls, 3), ["Next", "Previous", "PlayPause"]);
}

#[test]
fn players_that_come_and_go_are_followed_and_the_one_playing_is_shown() {
    let Some(bus) = bus() else { return };
    let media = SystemMedia::on_bus(Some(bus.address.clone()), HeldImages::default());
    let (waker, _wakes) = waker();
    wait_for(&media, &waker, Option::is_none);
    let (paused, _) = player(&bus, "paused", "Paused", "Quiet");
    assert_eq!(wait_for(&media, &waker, Option::is_some).unwrap().title, "Quiet", "a paused player, alone, is shown");
    let (playing, _) = player(&bus, "loud", "Playing", "Loud");
    wait_for(&media, &waker, |now| now.as_ref().is_some_and(|p| p.title == "Loud"));
    drop(playing);
    wait_for(&media, &waker, |now| now.as_ref().is_some_and(|p| p.title == "Quiet"));
    drop(paused);
    wait_for(&media, &waker, Option::is_none);
    assert!(media.control(Control::Next).is_err(), "no player to ask");
}

#[test]
fn a_bus_that_dies_leaves_nothing_shown_and_one_that_comes_back_is_followed_again() {
    let dir = tempfile::tempdir().unwrap();
    let address = format!("unix:path={}", dir.path().join("bus").display());
    let Some(bus) = Bus::for_tests("media tests", Some(&address)) else { return };
    let (doomed, _) = player(&bus, "test", "Playing", "Song");
    let media = SystemMedia::on_bus(Some(address.clone()), HeldImages::default());
    let (waker, _wakes) = waker();
    wait_for(&media, &waker, Option::is_some);
    drop(bus);
    wait_for(&media, &waker, Option::is_none);
    drop(doomed);

    let _ = std::fs::remove_file(dir.path().join("bus"));
    let bus = Bus::for_tests("media tests", Some(&address)).unwrap();
    let (_reborn, calls) = player(&bus, "reborn", "Playing", "Again");
    wait_for(&media, &waker, |playing| playing.as_ref().is_some_and(|playing| playing.title == "Again"));
    media.control(Control::Next).unwrap();
    assert_eq!(wait_for_calls(&calls, 1), ["Next"], "controls reach players on the new bus");
}

/// A player that says nonsense: a number for its title, one string for
/// its artists, a status MPRIS does not have, no other property.
struct Garbled;

#[zbus::interface(name = "org.mpris.MediaPlayer2.Player")]
impl Garbled {
    #[zbus(property)]
    fn playback_status(&self) -> u32 {
        7
    }

    #[zbus(property)]
    fn metadata(&self) -> HashMap<String, OwnedValue> {
        let mut metadata = HashMap::new();
        metadata.insert("xesam:title".into(), Value::from(42u32).try_into().unwrap());
        metadata.insert("xesam:artist".into(), Value::from("Solo").try_into().unwrap());
        metadata
    }
}

#[test]
fn a_player_that_says_nonsense_is_read_for_what_makes_sense() {
    let Some(bus) = bus() else { return };
    let _garbled = zbus::blocking::connection::Builder::address(bus.address.as_str())
        .unwrap()
        .name("org.mpris.MediaPlayer2.garbled")
        .unwrap()
        .serve_at(PATH, Garbled)
        .unwrap()
        .build()
        .unwrap();
    let media = SystemMedia::on_bus(Some(bus.address.clone()), HeldImages::default());
    let (waker, _wakes) = waker();
    let shown = wait_for(&media, &waker, Option::is_some).unwrap();
    assert_eq!((shown.player.as_str(), shown.title.as_str(), shown.artist.as_str()), ("garbled", "", "Solo"));
    assert_eq!(shown.playback, Playback::Stopped);
    assert!(!shown.can_go_next && !shown.can_play_pause);
}

/// A connection that owns `name` on `bus` and answers no call: it has no
/// object server, so calls to it wait until their time runs out.
fn silent(bus: &Bus, name: &str) -> Connection {
    let connection = zbus::blocking::connection::Builder::address(bus.address.as_str()).unwrap().build().unwrap();
    connection.request_name(name).unwrap();
    connection
}

#[test]
fn a_player_that_never_answers_is_left_out_and_holds_up_nobody() {
    let Some(bus) = bus() else { return };
    let _silent = silent(&bus, "org.mpris.MediaPlayer2.silent");
    let (player, _) = player(&bus, "test", "Playing", "First Song");
    let media = SystemMedia::on_bus(Some(bus.address.clone()), HeldImages::default());
    let (waker, _wakes) = waker();
    let shown = wait_for(&media, &waker, Option::is_some).unwrap();
    assert_eq!(shown.title, "First Song", "the player that answers is shown");
    // The silent one is left alone now: a change is read without waiting on it.
    let changed = Instant::now();
    change(&player, "Playing", "Second Song");
    wait_for(&media, &waker, |playing| playing.as_ref().is_some_and(|p| p.title == "Second Song"));
    assert!(changed.elapsed() < Duration::from_secs(2), "the change took {:?}", changed.elapsed());
}

/// The cover a player names is read from a file or fetched over http,
/// decoded, shrunk and held; another track's replaces it, released.
#[test]
fn the_cover_is_read_from_a_file_or_the_web_and_held() {
    let Some(bus) = bus() else { return };
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("My Album.png");
    let mut encoder = png::Encoder::new(std::fs::File::create(&png).unwrap(), 300, 200);
    encoder.set_color(png::ColorType::Rgba);
    encoder.write_header().unwrap().write_image_data(&[200; 300 * 200 * 4]).unwrap();
    let jpeg = WebServer::serving_bytes(include_bytes!("fixtures/cover.jpg").to_vec(), "image/jpeg");

    let (player, _) = player(&bus, "covered", "Playing", "Song");
    let held = HeldImages::default();
    let media = SystemMedia::on_bus(Some(bus.address.clone()), held.clone());
    let (waker, _) = waker();
    wait_for(&media, &waker, Option::is_some);
    assert_eq!(media.cover(&waker), None, "no cover named");

    change_cover(&player, &format!("file://{}", png.display().to_string().replace(' ', "%20")));
    let cover = |media: &SystemMedia| {
        let until = Instant::now() + Duration::from_secs(15);
        loop {
            if let Some(handle) = media.cover(&waker) {
                return handle;
            }
            assert!(Instant::now() < until, "no cover came");
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    let from_file = cover(&media);
    let pixels = held.get(from_file).unwrap();
    assert_eq!((pixels.width, pixels.height), (100, 67), "shrunk to at most 128 a side");

    change_cover(&player, &format!("{}/cover.jpg", jpeg.url));
    let until = Instant::now() + Duration::from_secs(15);
    while media.cover(&waker) == Some(from_file) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    let from_web = cover(&media);
    let pixels = held.get(from_web).unwrap();
    assert_eq!((pixels.width, pixels.height), (48, 32));
    let [red, green, blue] = [pixels.rgba[0], pixels.rgba[1], pixels.rgba[2]];
    assert!(red > 200 && green < 30 && blue < 30, "the gradient starts red: {:?}", &pixels.rgba[..4]);
    assert!(held.get(from_file).is_none(), "the first cover was released");
    assert_eq!(jpeg.requests(), ["GET /cover.jpg HTTP/1.1"]);

    change_cover(&player, "data:image/png;base64,AAAA");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(media.cover(&waker), None, "an address of another kind is not read");
    assert!(held.get(from_web).is_none());
}

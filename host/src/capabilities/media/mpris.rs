//! Media players over MPRIS 2 on the D-Bus session bus. Threads of their
//! own listen for players that come and go (`NameOwnerChanged`) and for what
//! they say changed (`PropertiesChanged`); after each, the players are read
//! again and the one to show is pushed: the one playing (the last to start,
//! when several do), else the last that played, else any. Controls go to
//! that player from a thread of their own (one for the capability's life,
//! on whatever bus is followed now), so a player that hangs holds up
//! nobody. A bus that vanishes is looked for again every few seconds; a
//! player that says nonsense is read for what makes sense, and one that
//! does not answer in time is left out for a minute. Only the properties
//! shown are asked for, and of its metadata only what is shown is read.

use super::{Control, NowPlaying, Playback};
use crate::capabilities::bus_properties::{PassedOver, property};
use crate::capabilities::session_bus::{Bus, Unresponsive, follow_signals, stay_connected, timed_out};
use crate::sync::lock;
use crate::wake::Pushed;
use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use zbus::blocking::Connection;
use zbus::zvariant::{OwnedValue, Signature, Type};

const PLAYERS: &str = "org.mpris.MediaPlayer2.";
const PATH: &str = "/org/mpris/MediaPlayer2";

/// The MPRIS method of a control.
fn method(control: Control) -> &'static str {
    match control {
        Control::Previous => "Previous",
        Control::PlayPause => "PlayPause",
        Control::Next => "Next",
    }
}

/// The connection players are followed on now, for the controls thread.
type Followed = Arc<Mutex<Option<Connection>>>;

/// Connects to the bus, again whenever it goes away.
pub fn follow(address: Option<String>, shown: &Pushed<Option<NowPlaying>>, requests: Receiver<(String, Control)>) {
    let followed = Followed::default();
    let controlling = followed.clone();
    let controls =
        std::thread::Builder::new().name("obi-media-controls".into()).spawn(move || control(&controlling, requests));
    if let Err(error) = controls {
        tracing::warn!("media: no thread for the controls: {error}");
    }
    let follow = |connection: &Connection| {
        *lock(&followed) = Some(connection.clone());
        let watched = watch(connection, shown);
        *lock(&followed) = None;
        watched
    };
    stay_connected(Bus::Session(address.as_deref()), "media players", follow, || {
        shown.publish(None);
    })
}

/// Sends each control to its player, on the bus followed now.
fn control(followed: &Followed, requests: Receiver<(String, Control)>) {
    for (player, control) in requests {
        let connection = lock(followed).clone();
        let Some(connection) = connection else { continue };
        let called = connection.call_method(
            Some(player.as_str()),
            PATH,
            Some("org.mpris.MediaPlayer2.Player"),
            method(control),
            &(),
        );
        if let Err(error) = called {
            tracing::warn!("{player} did not take {}: {error}", method(control));
        }
    }
}

/// Follows the players on `connection` until it fails.
fn watch(connection: &Connection, shown: &Pushed<Option<NowPlaying>>) -> zbus::Result<()> {
    let rules = [
        format!("type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path='{PATH}'"),
        format!(
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0namespace='{}'",
            PLAYERS.trim_end_matches('.')
        ),
    ];
    let mut recency = Recency::default();
    follow_signals(connection, &rules, "obi-media-signals", |unresponsive| {
        shown.publish(choose(read_players(connection, unresponsive)?, &mut recency));
        Ok(())
    })
}

/// Every player on the bus, as it says it is.
fn read_players(connection: &Connection, unresponsive: &mut Unresponsive) -> zbus::Result<Vec<NowPlaying>> {
    let names = zbus::blocking::fdo::DBusProxy::new(connection)?.list_names()?;
    let mut players = Vec::new();
    for name in names.iter().map(|name| name.as_str()) {
        if !name.starts_with(PLAYERS) || unresponsive.skips(name) {
            continue;
        }
        let read = read_player(connection, name);
        unresponsive.note(name, &format!("media player {name}"), &read);
        match read {
            Ok(player) => players.push(player),
            Err(error) => tracing::debug!("media player {name} cannot be read: {error}"),
        }
    }
    Ok(players)
}

fn read_player(connection: &Connection, source: &str) -> zbus::Result<NowPlaying> {
    const PLAYER: &str = "org.mpris.MediaPlayer2.Player";
    let flag = |name: &str| -> zbus::Result<bool> {
        Ok(property::<bool>(connection, source, PATH, PLAYER, name)?.unwrap_or(false))
    };
    let playback = match property::<String>(connection, source, PATH, PLAYER, "PlaybackStatus")?.as_deref() {
        Some("Playing") => Playback::Playing,
        Some("Paused") => Playback::Paused,
        _ => Playback::Stopped,
    };
    let metadata = property::<Metadata>(connection, source, PATH, PLAYER, "Metadata")?.unwrap_or_default();
    // The root interface may be missing: the bus name stands in for its name.
    let identity = match property::<String>(connection, source, PATH, "org.mpris.MediaPlayer2", "Identity") {
        Err(error) if timed_out(&error) => return Err(error),
        read => read.ok().flatten(),
    };
    Ok(NowPlaying {
        player: identity.unwrap_or_else(|| source.trim_start_matches(PLAYERS).to_owned()),
        title: metadata.title.first().unwrap_or_default(),
        artist: metadata.artist.0.join(", "),
        album: metadata.album.first().unwrap_or_default(),
        playback,
        can_go_previous: flag("CanGoPrevious")?,
        can_go_next: flag("CanGoNext")?,
        can_play_pause: flag("CanPlay")? || flag("CanPause")?,
        source: source.to_owned(),
        art_url: metadata.art_url.first().filter(|url| !url.is_empty()),
    })
}

/// What the bar reads of a player's metadata, whatever else it holds.
#[derive(Debug, Default)]
struct Metadata {
    title: Texts,
    artist: Texts,
    album: Texts,
    art_url: Texts,
}

impl Type for Metadata {
    const SIGNATURE: &'static Signature = <HashMap<String, OwnedValue> as Type>::SIGNATURE;
}

impl<'de> Deserialize<'de> for Metadata {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> Visitor<'de> for Entries {
            type Value = Metadata;

            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("a dictionary of metadata")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Metadata, A::Error> {
                let mut read = Metadata::default();
                while let Some(key) = map.next_key::<&str>()? {
                    let field = match key {
                        "xesam:title" => &mut read.title,
                        "xesam:artist" => &mut read.artist,
                        "xesam:album" => &mut read.album,
                        "mpris:artUrl" => &mut read.art_url,
                        _ => {
                            map.next_value::<PassedOver>()?;
                            continue;
                        }
                    };
                    *field = map.next_value()?;
                }
                Ok(read)
            }
        }
        deserializer.deserialize_map(Entries)
    }
}

/// The texts of a variant that holds a string or a list of them (the
/// first [`Texts::MOST`]); anything else is no text. For the values of a
/// dictionary of variants, whose types the peer chooses.
#[derive(Debug, Default, PartialEq, Eq)]
struct Texts(Vec<String>);

impl Texts {
    /// Strings of a list kept at most.
    const MOST: usize = 32;

    /// The first text, or none.
    fn first(self) -> Option<String> {
        self.0.into_iter().next()
    }
}

impl<'de> Deserialize<'de> for Texts {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // A variant is read as its signature, then its value.
        deserializer.deserialize_tuple(2, TextsVisitor)
    }
}

struct TextsVisitor;

impl<'de> Visitor<'de> for TextsVisitor {
    type Value = Texts;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a variant")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut variant: A) -> Result<Texts, A::Error> {
        let signature: &str = variant.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let texts = match signature {
            "s" | "o" => variant.next_element::<String>()?.into_iter().collect(),
            "as" => variant.next_element::<FirstStrings>()?.map(|strings| strings.0).unwrap_or_default(),
            "v" => variant.next_element::<Texts>()?.unwrap_or_default().0,
            "ay" => variant.next_element::<&[u8]>().map(|_| Vec::new())?,
            _ => variant.next_element::<IgnoredAny>().map(|_| Vec::new())?,
        };
        Ok(Texts(texts))
    }
}

impl Type for Texts {
    const SIGNATURE: &'static Signature = &Signature::Variant;
}

/// The first [`Texts::MOST`] strings of a list; the rest are passed over.
struct FirstStrings(Vec<String>);

impl<'de> Deserialize<'de> for FirstStrings {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Strings;
        impl<'de> Visitor<'de> for Strings {
            type Value = FirstStrings;

            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("a list of strings")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut list: A) -> Result<FirstStrings, A::Error> {
                let mut kept = Vec::new();
                while kept.len() < Texts::MOST {
                    match list.next_element::<String>()? {
                        Some(text) => kept.push(text),
                        None => return Ok(FirstStrings(kept)),
                    }
                }
                while list.next_element::<IgnoredAny>()?.is_some() {}
                Ok(FirstStrings(kept))
            }
        }
        deserializer.deserialize_seq(Strings)
    }
}

/// When each player last started playing, to choose among them.
#[derive(Default)]
struct Recency {
    started: HashMap<String, Instant>,
    playing: HashSet<String>,
}

/// The player to show: the one playing (the last to start, when several
/// do), else the one that started last, else the first.
fn choose(players: Vec<NowPlaying>, recency: &mut Recency) -> Option<NowPlaying> {
    let now = Instant::now();
    let present = |name: &String| players.iter().any(|player| player.source == *name);
    recency.started.retain(|name, _| present(name));
    recency.playing.retain(present);
    for player in &players {
        if player.playback != Playback::Playing {
            recency.playing.remove(&player.source);
        } else if recency.playing.insert(player.source.clone()) {
            recency.started.insert(player.source.clone(), now);
        }
    }
    let started = |player: &&NowPlaying| recency.started.get(&player.source).copied();
    let playing = players.iter().filter(|player| player.playback == Playback::Playing).max_by_key(started);
    let last = players.iter().filter(|player| started(player).is_some()).max_by_key(started);
    playing.or(last).or(players.first()).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use zbus::zvariant::{LE, Value, serialized::Context, to_bytes};

    /// `value` as a peer would send it in a dictionary of variants, read
    /// back as [`Texts`].
    fn texts_of(value: Value<'_>) -> Texts {
        let dictionary = HashMap::from([("key", value)]);
        let bytes = to_bytes(Context::new_dbus(LE, 0), &dictionary).unwrap();
        let (mut read, _): (HashMap<String, Texts>, _) = bytes.deserialize().unwrap();
        read.remove("key").unwrap()
    }

    #[test]
    fn a_string_or_a_list_of_them_is_text_and_nothing_else_is() {
        assert_eq!(texts_of(Value::from("Song")).0, ["Song"]);
        assert_eq!(texts_of(Value::from(vec!["a", "b"])).0, ["a", "b"]);
        assert_eq!(texts_of(Value::from(7u32)), Texts::default());
        assert_eq!(texts_of(Value::from(vec![0u8; 1 << 20])), Texts::default(), "bytes are passed over");
        let many: Vec<String> = (0..1000).map(|at| at.to_string()).collect();
        let kept = texts_of(Value::from(many)).0;
        assert_eq!((kept.len(), kept.last().map(String::as_str)), (Texts::MOST, Some("31")));
    }
    use std::time::Duration;

    fn player(name: &str, playback: Playback) -> NowPlaying {
        NowPlaying {
            player: name.into(),
            title: format!("{name} song"),
            artist: String::new(),
            album: String::new(),
            playback,
            can_go_previous: true,
            can_go_next: true,
            can_play_pause: true,
            source: format!("{PLAYERS}{name}"),
            art_url: None,
        }
    }

    fn chosen(players: &[NowPlaying], recency: &mut Recency) -> Option<String> {
        choose(players.to_vec(), recency).map(|player| player.player)
    }

    #[test]
    fn the_player_playing_is_shown_and_the_last_to_start_wins() {
        let mut since = Recency::default();
        assert_eq!(
            chosen(&[player("a", Playback::Paused), player("b", Playback::Playing)], &mut since).as_deref(),
            Some("b")
        );
        std::thread::sleep(Duration::from_millis(5));
        let both = [player("a", Playback::Playing), player("b", Playback::Playing)];
        assert_eq!(chosen(&both, &mut since).as_deref(), Some("a"), "a started later");
        let paused = [player("a", Playback::Paused), player("b", Playback::Paused)];
        assert_eq!(chosen(&paused, &mut since).as_deref(), Some("a"), "the last that played");
        std::thread::sleep(Duration::from_millis(5));
        let b_again = [player("a", Playback::Playing), player("b", Playback::Paused)];
        assert_eq!(chosen(&b_again, &mut since).as_deref(), Some("a"));
        std::thread::sleep(Duration::from_millis(5));
        let b_restarts = [player("a", Playback::Playing), player("b", Playback::Playing)];
        assert_eq!(chosen(&b_restarts, &mut since).as_deref(), Some("b"), "b started again, later than a");
        assert_eq!(chosen(&[], &mut since), None);
        assert_eq!(chosen(&[player("c", Playback::Stopped)], &mut since).as_deref(), Some("c"));
    }
}

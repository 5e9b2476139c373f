//! The notifications the server holds, and where each is: on screen with
//! its time running (or paused while the pointer is on it), waiting for
//! room on screen, or away in the history. Every change says what the bus
//! is to be told ([`Signal`]s); the store itself never talks to anyone.
//!
//! A notification lives from `Notify` until it is closed: by its sender, by
//! the user (a click, a dismissal, clearing the history), or by the server
//! when it leaves the screen and the history keeps nothing (or it is
//! transient), or when the history is full and it is the oldest there. One
//! that leaves the screen with a history to go to stays alive there, so its
//! default action can still be invoked from the history (the
//! specification's "persistence").

use super::limits::MOST_WAITING;
use super::notification::{CloseReason, DEFAULT_ACTION, Notification, Signal, Timeout, Urgency};
use std::time::{Duration, Instant};

/// How the config has notifications shown and kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    pub default_timeout: Duration,
    pub max_visible: usize,
    /// How many the history keeps; 0 keeps none.
    pub history: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { default_timeout: Duration::from_secs(5), max_visible: 3, history: 100 }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// On screen, leaving it at `until` (never: none).
    Shown {
        until: Option<Instant>,
    },
    /// On screen with the pointer on it: `left` of its time to run when it goes.
    Paused {
        left: Option<Duration>,
    },
    Waiting,
    Away,
}

#[derive(Debug, Clone)]
struct Entry {
    notification: Notification,
    place: Place,
    /// The user has seen it: clicked it, dismissed it or opened the history.
    seen: bool,
}

impl Entry {
    fn on_screen(&self) -> bool {
        matches!(self.place, Place::Shown { .. } | Place::Paused { .. })
    }
}

/// A notification kept in the history, and whether the user has seen it.
#[derive(Debug, Clone, Copy)]
pub struct Kept<'a> {
    pub notification: &'a Notification,
    pub seen: bool,
}

#[derive(Debug, Default)]
pub struct Store {
    settings: Settings,
    last_id: u32,
    /// Oldest first.
    entries: Vec<Entry>,
    do_not_disturb: bool,
}

impl Store {
    pub fn new(settings: Settings) -> Store {
        Store { settings, ..Store::default() }
    }

    /// Keeps `notification` (its id is set here), in place of the live one
    /// numbered `replaces` if there is one; its id, and what the bus is told.
    pub fn notify(&mut self, mut notification: Notification, replaces: u32, now: Instant) -> (u32, Vec<Signal>) {
        // Shown again with its time running from now, if it is on screen.
        let until = self.until(&notification, now);
        let away = self.do_not_disturb && notification.urgency != Urgency::Critical;
        let replaced = self.entries.iter_mut().find(|entry| replaces != 0 && entry.notification.id == replaces);
        let id = match replaced {
            Some(entry) => {
                notification.id = replaces;
                entry.notification = notification;
                entry.seen = false;
                // A replaced notification on screen starts its time again;
                // one gone away comes back as new, unless do-not-disturb
                // keeps it away.
                entry.place = match (away, entry.on_screen()) {
                    (true, _) => Place::Away,
                    (false, true) => Place::Shown { until },
                    (false, false) => Place::Waiting,
                };
                replaces
            }
            None => {
                notification.id = self.next_id();
                let id = notification.id;
                let place = if away { Place::Away } else { Place::Waiting };
                self.entries.push(Entry { notification, place, seen: false });
                id
            }
        };
        let mut signals = Vec::new();
        if away && !self.keeps(id) {
            // Do-not-disturb with no history to go to: it is never seen.
            self.close(id, CloseReason::Expired, &mut signals);
        }
        self.settle(now, &mut signals);
        (id, signals)
    }

    /// Closes `id` as its sender asks (`CloseNotification`); nothing when
    /// it is not alive.
    pub fn close_by_sender(&mut self, id: u32, now: Instant) -> Vec<Signal> {
        let mut signals = Vec::new();
        self.close(id, CloseReason::Closed, &mut signals);
        self.settle(now, &mut signals);
        signals
    }

    /// The user dismissed `id` (on screen or in the history).
    pub fn dismiss(&mut self, id: u32, now: Instant) -> Vec<Signal> {
        let mut signals = Vec::new();
        self.close(id, CloseReason::Dismissed, &mut signals);
        self.settle(now, &mut signals);
        signals
    }

    /// The user cleared the history: every notification is dismissed.
    pub fn dismiss_all(&mut self, now: Instant) -> Vec<Signal> {
        let ids: Vec<u32> = self.entries.iter().map(|entry| entry.notification.id).collect();
        let mut signals = Vec::new();
        for id in ids {
            self.close(id, CloseReason::Dismissed, &mut signals);
        }
        self.settle(now, &mut signals);
        signals
    }

    /// The user invoked the action `key` of `id` (`default` by a click on
    /// it): the sender is told, and the notification is closed as dismissed
    /// unless it is resident. A click on one without a default action
    /// dismisses it; an action it does not have does nothing.
    pub fn invoke(&mut self, id: u32, key: &str, now: Instant) -> Vec<Signal> {
        let Some(entry) = self.entries.iter_mut().find(|entry| entry.notification.id == id) else { return Vec::new() };
        let mut signals = Vec::new();
        if entry.notification.has_action(key) {
            signals.push(Signal::ActionInvoked { id, key: key.to_owned() });
        } else if key != DEFAULT_ACTION {
            return signals;
        }
        entry.seen = true;
        if !entry.notification.resident || !entry.notification.has_action(key) {
            self.close(id, CloseReason::Dismissed, &mut signals);
        }
        self.settle(now, &mut signals);
        signals
    }

    /// The pointer is on `id` (on none: `None`): its time stops while it is,
    /// and every other one's runs.
    pub fn hover(&mut self, id: Option<u32>, now: Instant) {
        for entry in &mut self.entries {
            let on_it = Some(entry.notification.id) == id;
            entry.place = match entry.place {
                Place::Shown { until } if on_it => {
                    Place::Paused { left: until.map(|until| until.saturating_duration_since(now)) }
                }
                Place::Paused { left } if !on_it => Place::Shown { until: left.map(|left| now + left) },
                place => place,
            };
        }
    }

    /// Notifications whose time is up leave the screen, and those waiting
    /// take their place.
    pub fn tick(&mut self, now: Instant) -> Vec<Signal> {
        let mut signals = Vec::new();
        self.settle(now, &mut signals);
        signals
    }

    /// When [`Store::tick`] has something to do next.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.entries
            .iter()
            .filter_map(|entry| match entry.place {
                Place::Shown { until } => until,
                _ => None,
            })
            .min()
    }

    /// With do-not-disturb on, only critical notifications are shown: the
    /// others go to the history as they come, and those on screen leave it.
    pub fn set_do_not_disturb(&mut self, on: bool, now: Instant) -> Vec<Signal> {
        self.do_not_disturb = on;
        let mut signals = Vec::new();
        if on {
            let hidden: Vec<u32> = self
                .entries
                .iter()
                .filter(|entry| entry.place != Place::Away && entry.notification.urgency != Urgency::Critical)
                .map(|entry| entry.notification.id)
                .collect();
            for id in hidden {
                self.send_away(id, &mut signals);
            }
        }
        self.settle(now, &mut signals);
        signals
    }

    pub fn do_not_disturb(&self) -> bool {
        self.do_not_disturb
    }

    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// The config changed how they are shown and kept.
    pub fn set_settings(&mut self, settings: Settings, now: Instant) -> Vec<Signal> {
        self.settings = settings;
        let mut signals = Vec::new();
        self.settle(now, &mut signals);
        signals
    }

    /// The user looked at the history: everything in it is seen.
    pub fn mark_seen(&mut self) {
        self.entries.iter_mut().for_each(|entry| entry.seen = true);
    }

    /// Those on screen, newest first.
    pub fn on_screen(&self) -> impl Iterator<Item = &Notification> {
        self.entries.iter().rev().filter(|entry| entry.on_screen()).map(|entry| &entry.notification)
    }

    /// Those the history holds (on screen too, or waiting, or away), newest
    /// first: as many as it keeps.
    pub fn history(&self) -> impl Iterator<Item = Kept<'_>> {
        let kept = self.entries.iter().rev().filter(|entry| !entry.notification.transient);
        kept.take(self.settings.history).map(|entry| Kept { notification: &entry.notification, seen: entry.seen })
    }

    /// How many in the history the user has not seen.
    pub fn unseen(&self) -> usize {
        self.history().filter(|kept| !kept.seen).count()
    }

    pub fn get(&self, id: u32) -> Option<&Notification> {
        self.entries.iter().find(|entry| entry.notification.id == id).map(|entry| &entry.notification)
    }

    /// How many are alive, wherever they are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn next_id(&mut self) -> u32 {
        loop {
            self.last_id = self.last_id.wrapping_add(1);
            let id = self.last_id;
            if id != 0 && self.entries.iter().all(|entry| entry.notification.id != id) {
                return id;
            }
        }
    }

    fn until(&self, notification: &Notification, now: Instant) -> Option<Instant> {
        if notification.urgency == Urgency::Critical {
            return None;
        }
        match notification.timeout {
            Timeout::Never => None,
            Timeout::Default => Some(now + self.settings.default_timeout),
            Timeout::After(after) => Some(now + after),
        }
    }

    /// Whether `id` may stay in the history when it leaves the screen.
    fn keeps(&self, id: u32) -> bool {
        self.settings.history > 0 && self.get(id).is_some_and(|notification| !notification.transient)
    }

    fn close(&mut self, id: u32, reason: CloseReason, signals: &mut Vec<Signal>) {
        if let Some(at) = self.entries.iter().position(|entry| entry.notification.id == id) {
            self.entries.remove(at);
            signals.push(Signal::Closed { id, reason });
        }
    }

    /// `id` leaves the screen (or its wait) for the history, or is closed
    /// as expired when there it cannot stay.
    fn send_away(&mut self, id: u32, signals: &mut Vec<Signal>) {
        if !self.keeps(id) {
            return self.close(id, CloseReason::Expired, signals);
        }
        if let Some(entry) = self.entries.iter_mut().find(|entry| entry.notification.id == id) {
            entry.place = Place::Away;
        }
    }

    /// Puts everything where it now belongs: those whose time is up away,
    /// those waiting on screen as room is made, the oldest waiting away past
    /// [`MOST_WAITING`], and the oldest of the history closed past its size.
    fn settle(&mut self, now: Instant, signals: &mut Vec<Signal>) {
        let expired: Vec<u32> = self
            .entries
            .iter()
            .filter(|entry| matches!(entry.place, Place::Shown { until: Some(until) } if until <= now))
            .map(|entry| entry.notification.id)
            .collect();
        for id in expired {
            self.send_away(id, signals);
        }
        let mut shown = self.entries.iter().filter(|entry| entry.on_screen()).count();
        for at in 0..self.entries.len() {
            if shown >= self.settings.max_visible {
                break;
            }
            if self.entries[at].place == Place::Waiting {
                let until = self.until(&self.entries[at].notification, now);
                self.entries[at].place = Place::Shown { until };
                shown += 1;
            }
        }
        let waiting: Vec<u32> = self
            .entries
            .iter()
            .filter(|entry| entry.place == Place::Waiting)
            .map(|entry| entry.notification.id)
            .collect();
        for id in waiting.iter().take(waiting.len().saturating_sub(MOST_WAITING)) {
            self.send_away(*id, signals);
        }
        let away: Vec<u32> =
            self.entries.iter().filter(|entry| entry.place == Place::Away).map(|entry| entry.notification.id).collect();
        let kept = self.entries.iter().filter(|entry| !entry.notification.transient).count();
        for id in away.iter().take(kept.saturating_sub(self.settings.history)) {
            self.close(*id, CloseReason::Expired, signals);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notifications::notification::Action;

    fn note(summary: &str) -> Notification {
        Notification::new("test", summary, "")
    }

    fn with_actions(summary: &str, keys: &[&str]) -> Notification {
        let actions = keys.iter().map(|key| Action { key: (*key).into(), label: key.to_uppercase() }).collect();
        Notification { actions, ..note(summary) }
    }

    fn shown(store: &Store) -> Vec<&str> {
        store.on_screen().map(|notification| notification.summary.as_str()).collect()
    }

    fn history(store: &Store) -> Vec<&str> {
        store.history().map(|kept| kept.notification.summary.as_str()).collect()
    }

    const SECOND: Duration = Duration::from_secs(1);

    #[test]
    fn a_notification_is_shown_until_its_time_is_up_and_then_kept_in_the_history() {
        let start = Instant::now();
        let mut store = Store::new(Settings::default());
        let (id, signals) = store.notify(note("hello"), 0, start);
        assert_eq!((id, signals), (1, vec![]));
        assert_eq!(shown(&store), ["hello"]);
        assert_eq!(store.next_deadline(), Some(start + 5 * SECOND), "the config's default timeout");
        assert_eq!(store.tick(start + 4 * SECOND), []);
        assert_eq!(shown(&store), ["hello"]);
        assert_eq!(store.tick(start + 5 * SECOND), [], "it lives on in the history: nothing is said");
        assert!(shown(&store).is_empty());
        assert_eq!(history(&store), ["hello"]);
        assert_eq!(store.unseen(), 1);
        store.mark_seen();
        assert_eq!(store.unseen(), 0);
    }

    #[test]
    fn without_a_history_an_expired_one_is_closed_as_expired() {
        let start = Instant::now();
        let mut store = Store::new(Settings { history: 0, ..Settings::default() });
        let (id, _) = store.notify(Notification { timeout: Timeout::After(SECOND), ..note("brief") }, 0, start);
        assert_eq!(store.tick(start + SECOND), [Signal::Closed { id, reason: CloseReason::Expired }]);
        assert!(store.is_empty());
        let (transient, _) = store.notify(Notification { transient: true, ..note("t") }, 0, start);
        let mut kept = Store::new(Settings::default());
        kept.notify(Notification { transient: true, ..note("t") }, 0, start);
        assert_eq!(kept.tick(start + 5 * SECOND), [Signal::Closed { id: 1, reason: CloseReason::Expired }]);
        assert!(history(&kept).is_empty(), "a transient one is never kept");
        assert_eq!(transient, 2);
    }

    #[test]
    fn timeouts_as_the_sender_asks_and_critical_ones_stay() {
        let start = Instant::now();
        let mut store = Store::new(Settings::default());
        store.notify(Notification { timeout: Timeout::Never, ..note("never") }, 0, start);
        store.notify(Notification { timeout: Timeout::After(2 * SECOND), ..note("two") }, 0, start);
        let critical = Notification { urgency: Urgency::Critical, timeout: Timeout::After(SECOND), ..note("critical") };
        store.notify(critical, 0, start);
        assert_eq!(store.next_deadline(), Some(start + 2 * SECOND));
        store.tick(start + 60 * SECOND);
        assert_eq!(shown(&store), ["critical", "never"]);
        assert_eq!(store.next_deadline(), None);
    }

    #[test]
    fn replacing_keeps_the_id_and_the_place_and_starts_its_time_again() {
        let start = Instant::now();
        let mut store = Store::new(Settings::default());
        let (first, _) = store.notify(note("a"), 0, start);
        let (second, _) = store.notify(note("b"), 0, start);
        let (replaced, signals) = store.notify(note("a, again"), first, start + 3 * SECOND);
        assert_eq!((replaced, signals), (first, vec![]));
        assert_eq!(shown(&store), ["b", "a, again"], "in its place, not on top");
        store.tick(start + 5 * SECOND);
        assert_eq!(shown(&store), ["a, again"], "its time began again when it was replaced");
        assert!(store.get(second).is_some());
        let (unknown, _) = store.notify(note("c"), 77, start);
        assert_ne!(unknown, 77, "replacing what is not there is a new notification");
    }

    #[test]
    fn at_most_max_visible_are_shown_and_the_others_wait_their_turn() {
        let start = Instant::now();
        let mut store = Store::new(Settings { max_visible: 2, ..Settings::default() });
        for summary in ["1", "2", "3"] {
            store.notify(note(summary), 0, start);
        }
        assert_eq!(shown(&store), ["2", "1"]);
        store.tick(start + 5 * SECOND);
        assert_eq!(shown(&store), ["3"], "the third is shown when room is made");
        assert_eq!(store.next_deadline(), Some(start + 10 * SECOND), "its time runs from when it was shown");
    }

    #[test]
    fn hovering_stops_the_time_and_leaving_lets_it_run_on() {
        let start = Instant::now();
        let mut store = Store::new(Settings::default());
        let (id, _) = store.notify(note("held"), 0, start);
        store.hover(Some(id), start + 2 * SECOND);
        assert_eq!(store.next_deadline(), None);
        store.tick(start + 30 * SECOND);
        assert_eq!(shown(&store), ["held"]);
        store.hover(None, start + 30 * SECOND);
        assert_eq!(store.next_deadline(), Some(start + 33 * SECOND), "three seconds were left");
    }

    #[test]
    fn actions_are_said_and_the_notification_closed_as_dismissed_unless_resident() {
        let start = Instant::now();
        let mut store = Store::new(Settings::default());
        let (id, _) = store.notify(with_actions("reply?", &["default", "reply"]), 0, start);
        assert_eq!(store.invoke(id, "nonsense", start), [], "an action it does not have does nothing");
        assert_eq!(
            store.invoke(id, "reply", start),
            [Signal::ActionInvoked { id, key: "reply".into() }, Signal::Closed { id, reason: CloseReason::Dismissed }]
        );
        assert!(store.is_empty());
        let (resident, _) = store.notify(Notification { resident: true, ..with_actions("r", &["default"]) }, 0, start);
        assert_eq!(
            store.invoke(resident, "default", start),
            [Signal::ActionInvoked { id: resident, key: "default".into() }]
        );
        assert!(store.get(resident).is_some(), "a resident one stays");
        let (plain, _) = store.notify(note("no actions"), 0, start);
        assert_eq!(
            store.invoke(plain, "default", start),
            [Signal::Closed { id: plain, reason: CloseReason::Dismissed }]
        );
    }

    #[test]
    fn the_sender_closes_its_own_and_the_user_dismisses_from_the_history() {
        let start = Instant::now();
        let mut store = Store::new(Settings::default());
        let (a, _) = store.notify(note("a"), 0, start);
        let (b, _) = store.notify(note("b"), 0, start);
        let (c, _) = store.notify(note("c"), 0, start);
        assert_eq!(store.close_by_sender(a, start), [Signal::Closed { id: a, reason: CloseReason::Closed }]);
        assert_eq!(store.close_by_sender(a, start), [], "once");
        store.tick(start + 10 * SECOND);
        assert_eq!(store.dismiss(b, start), [Signal::Closed { id: b, reason: CloseReason::Dismissed }]);
        assert_eq!(history(&store), ["c"]);
        assert_eq!(store.dismiss_all(start), [Signal::Closed { id: c, reason: CloseReason::Dismissed }]);
        assert!(store.is_empty());
    }

    #[test]
    fn do_not_disturb_sends_all_but_critical_ones_to_the_history() {
        let start = Instant::now();
        let mut store = Store::new(Settings::default());
        store.notify(note("before"), 0, start);
        assert_eq!(store.set_do_not_disturb(true, start), []);
        assert!(shown(&store).is_empty(), "those on screen leave it");
        store.notify(note("during"), 0, start);
        store.notify(Notification { urgency: Urgency::Critical, ..note("critical") }, 0, start);
        assert_eq!(shown(&store), ["critical"]);
        assert_eq!(history(&store), ["critical", "during", "before"]);
        assert_eq!(store.unseen(), 3);
        store.set_do_not_disturb(false, start);
        store.notify(note("after"), 0, start);
        assert_eq!(shown(&store), ["after", "critical"]);
    }

    #[test]
    fn a_replacement_during_do_not_disturb_stays_away_unless_critical() {
        let start = Instant::now();
        let mut store = Store::new(Settings::default());
        let (id, _) = store.notify(note("downloading 10%"), 0, start);
        store.set_do_not_disturb(true, start);
        store.notify(note("downloading 50%"), id, start);
        assert!(shown(&store).is_empty(), "a progress update does not break through");
        assert_eq!(history(&store), ["downloading 50%"]);
        store.notify(Notification { urgency: Urgency::Critical, ..note("download failed") }, id, start);
        assert_eq!(shown(&store), ["download failed"]);
        let shown_id = store.on_screen().next().map(|notification| notification.id);
        assert_eq!(shown_id, Some(id), "replaced in place, with its id");
        store.notify(note("retrying"), id, start);
        assert!(shown(&store).is_empty(), "no longer critical: away again");
    }

    #[test]
    fn the_history_and_the_wait_are_bounded_and_the_oldest_closed_first() {
        let start = Instant::now();
        let mut store = Store::new(Settings { history: 3, max_visible: 1, ..Settings::default() });
        let mut closed = Vec::new();
        for number in 0..10_000 {
            closed.extend(store.notify(note(&number.to_string()), 0, start).1);
        }
        assert_eq!(shown(&store), ["0"]);
        assert!(store.len() <= 1 + MOST_WAITING + 3, "{} kept", store.len());
        assert!(closed.iter().all(|signal| matches!(signal, Signal::Closed { reason: CloseReason::Expired, .. })));
        assert_eq!(closed.len(), 10_000 - store.len());
        assert_eq!(history(&store)[0], "9999", "the newest are kept");
    }

    #[test]
    fn ids_are_never_zero_nor_one_still_alive() {
        let start = Instant::now();
        let mut store = Store::new(Settings::default());
        store.notify(note("one"), 0, start);
        store.last_id = u32::MAX - 1;
        assert_eq!(store.notify(note("max"), 0, start).0, u32::MAX);
        assert_eq!(store.notify(note("wrapped"), 0, start).0, 2, "0 is skipped, and 1 is alive");
    }
}

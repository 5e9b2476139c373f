//! # Notifications
//!
//! The desktop's notifications as Obi's notification server keeps them (an
//! Obi extension of the format; the root `notifications` key starts the
//! server): a bell with the count of those not seen yet, crossed out while
//! do-not-disturb is on. A click opens the history (which marks everything
//! in it seen): the newest notifications with their app, time, summary and
//! body; a click on one runs its default action, × dismisses it, and the
//! popup's top row switches do-not-disturb and clears them all. A
//! secondary click switches do-not-disturb. While Obi is not the server
//! (not enabled, or another program holds the name) the bell is faded and
//! its tooltip says why.
//!
//! | key              | values                                | default |
//! |------------------|---------------------------------------|---------|
//! | `enable`         | `true` / `false`                      | required |
//! | `label_prefix`   | `None`, `Icon`, `Text`, `IconAndText` | `Icon` |
//! | `hide_when_none` | hidden with nothing unseen and do-not-disturb off | `false` |
//! | `history_shown`  | how many the history lists, 1 to 25   | 10 |
//!
//! ```json
//! { "Notifications": { "enable": true, "hide_when_none": false, "history_shown": 10 } }
//! ```

use obi_sdk::config::NotificationsConfig as Config;
use obi_sdk::notifications::{self, Notification, NotificationsStatus, Standing};
use obi_sdk::{
    Emphasis, Input, Inputs, LabelPrefix, Piece, Popup, PopupInput, Schedule, View, Widget, ask, button, clock, icons,
    item, label,
};

/// The item's key on the bar, and the popup's cells.
const BELL: &str = "notifications";
const DO_NOT_DISTURB: &str = "do-not-disturb";
const CLEAR_ALL: &str = "clear-all";
/// A notification's cells: these and its id.
const INVOKE: &str = "invoke:";
const DISMISS: &str = "dismiss:";

/// The most the history popup lists: each is a block of the popup, which
/// holds 64.
const MOST_SHOWN: u8 = 25;
/// A body in the history is one line of at most this many bytes.
const BODY_BYTES: usize = 120;

pub struct Notifications {
    prefix: LabelPrefix,
    hide_when_none: bool,
    history_shown: u8,
    status: Option<NotificationsStatus>,
    /// The history as last read, newest first; read while the popup is open.
    history: Vec<Notification>,
    open: bool,
}

/// One line of `body` (the specification's markup) as plain text, cut.
fn one_line(body: &str) -> String {
    let plain = obi_sdk::markup::plain_text(body);
    let words: Vec<&str> = plain.split_whitespace().collect();
    obi_sdk::markup::cut(words.join(" "), BODY_BYTES)
}

/// The local time of day `seconds` after the epoch: `14:02`.
fn time_of_day(seconds: i64) -> String {
    clock::format(clock::Instant { seconds, nanoseconds: 0 }, "%H:%M", None).unwrap_or_default()
}

impl Notifications {
    fn toggle_do_not_disturb(&self) {
        if let Some(status) = &self.status {
            notifications::set_do_not_disturb(!status.do_not_disturb);
        }
    }

    /// A notification of the history: its app and time with ×, its
    /// summary (a click runs its default action) and its body.
    fn entry(notification: &Notification) -> Vec<Vec<obi_sdk::Cell>> {
        let id = notification.id;
        let when = format!("{} · {}", notification.app_name, time_of_day(notification.received_seconds));
        let header =
            vec![label(when).emphasis(Emphasis::Muted).build(), button(format!("{DISMISS}{id}")).text("×").build()];
        let summary = format!("<b>{}</b>", obi_sdk::markup::escape(&notification.summary));
        let summary = match notification.has_default_action {
            true => button(format!("{INVOKE}{id}")).markup(&summary),
            false => label("").markup(&summary),
        };
        let summary = if notification.critical { summary.emphasis(Emphasis::Urgent) } else { summary };
        let mut rows = vec![header, vec![summary.build()]];
        let body = one_line(&notification.body);
        if !body.is_empty() {
            rows.push(vec![label(body).build()]);
        }
        rows
    }
}

impl Widget for Notifications {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let history_shown = config.history_shown.unwrap_or(10);
        if !(1..=MOST_SHOWN).contains(&history_shown) {
            return Err(format!(
                "`history_shown` is how many the history lists, 1 to {MOST_SHOWN}, not {history_shown}"
            ));
        }
        let widget = Notifications {
            prefix: config.label_prefix.unwrap_or(LabelPrefix::Icon),
            hide_when_none: config.hide_when_none.unwrap_or(false),
            history_shown,
            status: None,
            history: Vec::new(),
            open: false,
        };
        // The server tells the host of every change.
        Ok((widget, Schedule { interval_ms: 0, align_to_wall_clock: false }))
    }

    fn refresh(&mut self) -> View {
        let status = notifications::status();
        if self.open && status.unseen > 0 {
            // What comes while the history is open is seen there.
            notifications::mark_seen();
        }
        self.history = match self.open {
            true => notifications::history(self.history_shown.into()),
            false => Vec::new(),
        };
        let serving = status.standing == Standing::Serving;
        let quiet = status.unseen == 0 && !status.do_not_disturb;
        let shown_status = self.status.insert(status);
        if self.hide_when_none && serving && quiet && !self.open {
            return View::empty();
        }
        let glyph = if shown_status.do_not_disturb { icons::BELL_SLASH } else { icons::BELL };
        let count = shown_status.unseen.to_string();
        let text = match (self.prefix, shown_status.unseen) {
            (LabelPrefix::Icon, 0) => None,
            (prefix, _) => Some(prefix.label("Notifications", &count)),
        };
        let tooltip = match &shown_status.standing {
            Standing::NotServing(why) => why.clone(),
            Standing::Serving => {
                let unseen = match shown_status.unseen {
                    1 => "1 notification not seen".to_owned(),
                    unseen => format!("{unseen} notifications not seen"),
                };
                let quiet = if shown_status.do_not_disturb { "; do not disturb is on" } else { "" };
                format!("{unseen}{quiet}")
            }
        };
        let bell = item(BELL)
            .takes(Inputs::PRIMARY_CLICK | Inputs::SECONDARY_CLICK)
            .maybe(self.prefix.shows_icon().then(|| Piece::Icon(glyph.into())))
            .maybe(text.map(Piece::Text))
            .tooltip(tooltip);
        View::of([match serving {
            true => bell.selected(self.open),
            false => bell.emphasis(Emphasis::Muted),
        }])
    }

    fn on_input(&mut self, _key: &str, input: Input) {
        match input {
            Input::PrimaryClick => {
                self.open = !self.open;
                if self.open {
                    notifications::mark_seen();
                }
            }
            Input::SecondaryClick => self.toggle_do_not_disturb(),
            _ => {}
        }
    }

    fn popup(&mut self) -> Option<Popup> {
        let status = self.status.as_ref().filter(|_| self.open)?;
        let quiet =
            button(DO_NOT_DISTURB).icon(icons::BELL_SLASH).text("Do not disturb").selected(status.do_not_disturb);
        let clear = button(CLEAR_ALL).text("Clear all");
        let popup = Popup::beside(BELL).grid([vec![quiet.build(), clear.build()]]).separator();
        if self.history.is_empty() {
            let why = match &status.standing {
                Standing::Serving => "No notifications".to_owned(),
                Standing::NotServing(why) => why.clone(),
            };
            return Some(popup.line(label(why).emphasis(Emphasis::Muted)));
        }
        let entries = self.history.iter().map(Self::entry);
        Some(entries.enumerate().fold(popup, |popup, (index, rows)| {
            let popup = if index > 0 { popup.separator() } else { popup };
            popup.grid(rows)
        }))
    }

    fn on_popup_input(&mut self, _item_key: &str, cell_key: &str, input: PopupInput) {
        if input != PopupInput::Input(Input::PrimaryClick) {
            return;
        }
        let id = |prefix: &str| cell_key.strip_prefix(prefix).and_then(|id| id.parse::<u32>().ok());
        match cell_key {
            DO_NOT_DISTURB => self.toggle_do_not_disturb(),
            CLEAR_ALL => notifications::dismiss_all(),
            _ => {
                if let Some(id) = id(INVOKE) {
                    ask("run the notification's action", notifications::invoke(id));
                } else if let Some(id) = id(DISMISS) {
                    ask("dismiss the notification", notifications::dismiss(id));
                }
            }
        }
    }

    fn on_popup_closed(&mut self, _item_key: &str) {
        self.open = false;
    }
}

obi_sdk::export!(Notifications);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_is_one_plain_line_cut() {
        assert_eq!(
            one_line("<b>Ann</b> wrote:\n  see you\tat <i>noon</i> &amp; bring tea"),
            "Ann wrote: see you at noon & bring tea"
        );
        let long = one_line(&"word ".repeat(100));
        assert!(long.len() <= BODY_BYTES && long.ends_with('…'), "{long}");
    }
}

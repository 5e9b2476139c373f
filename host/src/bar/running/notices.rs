//! The desktop's notifications on the bar that shows them: each one on
//! screen made into a card (its icon held for the painter while it is
//! shown), the cards handed to the surface to stack at the configured
//! place, and what the pointer does on them handed to the server: the
//! pointer on a card stops its time, a click invokes its default action
//! (a button its own action, × or a secondary click dismisses it). Which
//! bar that is (the first whose config enables them, then the next when it
//! goes), and whether the server runs, is kept for the process by the
//! [`NotificationHost`] its bars share.

use super::{BarEvent, BarId, Deliver, Running, ShownBy};
use crate::bar::{CardMonitor, CardPlace, Surface};
use crate::capabilities::Notifications;
use crate::config::model::{NotificationServerConfig, ScreenPlace, ShownOn};
use crate::notifications::{DEFAULT_ACTION, Notification, Service, Settings, Urgency};
use crate::render::{ACTION_PREFIX, DISMISS_KEY, NoticeCard, PopupLayout, Style};
use crate::sync::lock;
use crate::tiler::Status;
use crate::view::Input;
use crate::view::images::HeldImages;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The pointer on one of the notifications shown, in its logical pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NoticeInput {
    Moved(f32, f32),
    Left,
    Pressed(Input, f32, f32),
}

/// How the config has them shown.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NoticeLook {
    pub place: ScreenPlace,
    pub monitor: ShownOn,
    pub width: f32,
}

impl NoticeLook {
    pub fn of(config: &NotificationServerConfig) -> NoticeLook {
        NoticeLook {
            place: config.position.unwrap_or(ScreenPlace::TopRight),
            monitor: config.monitor.unwrap_or_default(),
            width: config.width.unwrap_or(360.0),
        }
    }
}

/// What the server keeps, as the config says.
pub fn settings_of(config: &NotificationServerConfig) -> Settings {
    let default = Settings::default();
    Settings {
        default_timeout: config.timeout_ms.map_or(default.default_timeout, |ms| Duration::from_millis(ms.into())),
        max_visible: config.max_visible.map_or(default.max_visible, |most| most as usize),
        history: config.history.map_or(default.history, |kept| kept as usize),
    }
}

pub struct Notices {
    service: Service,
    look: NoticeLook,
    held: HeldImages,
    /// Newest first, as the surface stacks them.
    shown: Vec<ShownNotice>,
    /// The server's notifications changed since they were shown.
    stale: bool,
    /// Where they were shown last: a card lit under the pointer is painted
    /// again there, wherever the focus went since.
    shown_at: CardPlace,
    /// The process's server, which another bar may show once this one is gone.
    host: NotificationHost,
    bar: BarId,
}

struct ShownNotice {
    notification: Notification,
    layout: PopupLayout,
    /// The handle its icon is held under.
    icon: Option<u64>,
}

impl ShownNotice {
    /// Lets go of its icon, held in `held`: the card is gone.
    fn let_go(self, held: &HeldImages) {
        if let Some(handle) = self.icon {
            held.release(handle);
        }
    }
}

impl Notices {
    /// The notifications `service` serves, shown by bar `bar` of `host`
    /// as `look` says, their icons held in `held` while shown.
    fn new(service: Service, look: NoticeLook, held: HeldImages, host: NotificationHost, bar: BarId) -> Notices {
        let shown_at = CardPlace { place: look.place, monitor: CardMonitor::Bar };
        Notices { service, look, held, shown: Vec::new(), stale: true, shown_at, host, bar }
    }

    /// Has `surface` show the cards as they are laid out now, where they were last.
    fn show_on(&self, surface: &mut dyn Surface, style: &Style) {
        let layouts: Vec<PopupLayout> = self.shown.iter().map(|shown| shown.layout.clone()).collect();
        surface.show_notices(&layouts, &self.shown_at, style);
    }
}

impl Drop for Notices {
    /// Another bar may show them now (see [`NotificationHost::settle`]).
    fn drop(&mut self) {
        for shown in self.shown.drain(..) {
            shown.let_go(&self.held);
        }
        self.host.let_go(self.bar);
    }
}

/// The process's notification server, shared by its bars: started by the
/// first bar whose config enables notifications (on Linux, where Obi can
/// be the server), shown by one bar at a time, and switched off (its bus
/// name let go, its history kept) while no bar's config enables it.
#[derive(Clone)]
pub struct NotificationHost(Arc<Mutex<Hosting>>);

struct Hosting {
    service: Option<Service>,
    shown_by: ShownBy,
    deliver: Deliver,
    held: HeldImages,
    /// What widgets read, handed the server once it starts.
    readers: Arc<Notifications>,
}

impl NotificationHost {
    /// No server yet; once there is one, its changes reach the bars
    /// through `deliver` and the widgets through `readers`, and its cards'
    /// icons are held in `held`.
    pub fn new(deliver: Deliver, held: HeldImages, readers: Arc<Notifications>) -> NotificationHost {
        NotificationHost(Arc::new(Mutex::new(Hosting {
            service: None,
            shown_by: ShownBy::default(),
            deliver,
            held,
            readers,
        })))
    }

    /// Bar `bar`, whose config enables notifications as `config` says:
    /// the notices it is to show, unless another bar shows them already.
    pub fn enable(&self, bar: BarId, config: &NotificationServerConfig) -> Option<Notices> {
        // Elsewhere the config's warnings say so once, at each read.
        if !cfg!(free_unix) {
            return None;
        }
        let mut hosting = lock(&self.0);
        if !hosting.shown_by.free_for(bar, "notifications") {
            return None;
        }
        let service = match &hosting.service {
            Some(service) => {
                service.set_settings(settings_of(config));
                service.switch(true);
                service.clone()
            }
            None => {
                let service = crate::notifications::start(settings_of(config), None);
                let deliver = hosting.deliver.clone();
                service.listen(move || _ = deliver(BarEvent::Notifications));
                hosting.readers.serve(Arc::new(service.clone()));
                hosting.service.insert(service).clone()
            }
        };
        hosting.shown_by = ShownBy(Some(bar));
        Some(Notices::new(service, NoticeLook::of(config), hosting.held.clone(), self.clone(), bar))
    }

    /// Whether a bar shows the notifications.
    fn is_shown(&self) -> bool {
        lock(&self.0).shown_by.is_shown()
    }

    /// Bar `bar` shows the notifications no more (it is gone, or its
    /// config no longer enables them); the server runs on for a bar that
    /// takes them over.
    fn let_go(&self, bar: BarId) {
        lock(&self.0).shown_by.let_go(bar);
    }

    /// Once the bars that could took the notifications over: with none
    /// showing them the server is switched off, its bus name let go.
    pub fn settle(&self) {
        let hosting = lock(&self.0);
        if let (false, Some(service)) = (hosting.shown_by.is_shown(), &hosting.service) {
            service.switch(false);
        }
    }
}

impl Running {
    /// Has the bar show the notifications when its config enables them,
    /// from the server `host` keeps for the process, now and after each
    /// reload.
    pub fn host_notifications(&mut self, host: NotificationHost) {
        if let Some(config) = self.source.config.notifications() {
            self.notices = host.enable(self.id, config);
        }
        self.notification_host = Some(host);
    }

    /// The process's notification server, which the bar shows or may take over.
    pub fn notification_host(&self) -> Option<NotificationHost> {
        self.notification_host.clone()
    }

    /// Takes over the notifications and the on-screen display where its
    /// config enables them and no bar shows them (the bar that did is gone).
    pub fn take_over_cards(&mut self) {
        if let (Some(config), None, Some(host)) =
            (self.source.config.notifications(), &self.notices, &self.notification_host)
            && !host.is_shown()
        {
            self.notices = host.enable(self.id, config);
        }
        if self.osd.is_none() && self.osd_host.as_ref().is_some_and(|host| !host.is_shown()) {
            self.osd_reconfigured(None);
        }
    }

    /// The config was read again: the notifications are shown as it says
    /// now, or no more.
    pub(super) fn notifications_reconfigured(&mut self, surface: &mut dyn Surface) {
        match (self.source.config.notifications(), &mut self.notices) {
            (Some(config), Some(notices)) => {
                notices.service.set_settings(settings_of(config));
                notices.look = NoticeLook::of(config);
                // Laid out again, in the width and theme read now.
                for shown in notices.shown.drain(..) {
                    shown.let_go(&notices.held);
                }
                notices.stale = true;
            }
            (None, Some(_)) => {
                // Let go: the bars then settle which shows them, if any
                // (`take_over_cards`), before the server is switched off.
                if let Some(notices) = self.notices.take() {
                    surface.show_notices(&[], &notices.shown_at, &self.bar.scene().style);
                }
            }
            (Some(config), None) => {
                self.notices = self.notification_host.as_ref().and_then(|host| host.enable(self.id, config));
            }
            (None, None) => {}
        }
    }

    /// The server's notifications changed.
    pub fn notifications_changed(&mut self) {
        if let Some(notices) = &mut self.notices {
            notices.stale = true;
        }
    }

    /// How many notifications the surface is to show now.
    pub fn notices_wanted(&self) -> usize {
        self.notices.as_ref().map_or(0, |notices| match notices.stale {
            true => notices.service.read(|store| store.on_screen().count()),
            false => notices.shown.len(),
        })
    }

    /// Shows the notifications on screen now, when they changed.
    pub fn paint_notices(&mut self, surface: &mut dyn Surface) {
        let Some(look) = self.notices.as_ref().filter(|notices| notices.stale).map(|notices| notices.look) else {
            return;
        };
        let at = self.card_place(look.place, look.monitor);
        let Some(notices) = self.notices.as_mut() else { return };
        notices.shown_at = at;
        let style = &self.bar.scene().style;
        notices.stale = false;
        let mut before: HashMap<u32, ShownNotice> =
            notices.shown.drain(..).map(|shown| (shown.notification.id, shown)).collect();
        for notification in notices.service.on_screen() {
            let kept = match before.remove(&notification.id) {
                Some(shown) if shown.notification == notification => Some(shown),
                // Replaced: its card is made anew.
                Some(replaced) => {
                    replaced.let_go(&notices.held);
                    None
                }
                None => None,
            };
            let shown = kept.unwrap_or_else(|| {
                let icon = notification.icon.as_ref().map(|pixels| notices.held.hold((**pixels).clone()));
                let card = card(&notification, icon);
                let layout = self.measure.lay_out_notice(&card, notices.look.width, style);
                ShownNotice { notification, layout, icon }
            });
            notices.shown.push(shown);
        }
        for gone in before.into_values() {
            gone.let_go(&notices.held);
        }
        notices.show_on(surface, style);
    }

    /// Where cards shown at `place` on the monitor `on` says go now.
    pub(super) fn card_place(&self, place: ScreenPlace, on: ShownOn) -> CardPlace {
        let monitor = match on {
            ShownOn::Bar => CardMonitor::Bar,
            // The tiler's state is read (a copy) only when it is asked.
            ShownOn::Focused => match self.tiler.current() {
                Status::Connected(state) => {
                    let focused = state.monitors.get(state.focused_monitor);
                    CardMonitor::Focused {
                        name: focused.map(|monitor| monitor.name.clone()),
                        area: focused.and_then(|monitor| monitor.area),
                    }
                }
                Status::Disconnected(_) => CardMonitor::Focused { name: None, area: None },
            },
        };
        CardPlace { place, monitor }
    }

    /// The pointer on the `index`th notification shown (newest first).
    pub fn notice_input(&mut self, index: usize, input: NoticeInput, surface: &mut dyn Surface) {
        let Some(notices) = &mut self.notices else { return };
        let Some(shown) = notices.shown.get_mut(index) else { return };
        let id = shown.notification.id;
        // The button under the pointer is lit.
        let lit = match input {
            NoticeInput::Moved(x, y) => {
                notices.service.hover(Some(id));
                shown.layout.index_at(x, y).filter(|at| !shown.layout.cells[*at].cell.key.is_empty())
            }
            NoticeInput::Left => {
                notices.service.hover(None);
                None
            }
            NoticeInput::Pressed(input, x, y) => {
                let key = shown.layout.cell_at(x, y).map(|placed| placed.cell.key.as_str()).unwrap_or_default();
                match (key, input) {
                    (DISMISS_KEY, Input::PrimaryClick) | (_, Input::SecondaryClick) => notices.service.dismiss(id),
                    (key, Input::PrimaryClick) => {
                        let action = key.strip_prefix(ACTION_PREFIX).unwrap_or(DEFAULT_ACTION).to_owned();
                        notices.service.invoke(id, &action);
                    }
                    _ => {}
                }
                return;
            }
        };
        if shown.layout.hovered != lit {
            shown.layout.hovered = lit;
            notices.show_on(surface, &self.bar.scene().style);
        }
    }
}

/// The card `notification` is shown as, its icon held under `icon`.
fn card(notification: &Notification, icon: Option<u64>) -> NoticeCard {
    let time = chrono::DateTime::<chrono::Local>::from(notification.received).format("%H:%M");
    let header = match notification.app_name.is_empty() {
        true => time.to_string(),
        false => format!("{} · {time}", notification.app_name),
    };
    NoticeCard {
        header,
        summary: notification.summary.clone(),
        body: obi_markup::spans(&notification.body),
        icon,
        buttons: notification.buttons().map(|action| (action.key.clone(), action.label.clone())).collect(),
        urgent: notification.urgency == Urgency::Critical,
    }
}

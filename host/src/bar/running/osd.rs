//! On-screen displays: when the default output's volume or mute, or the
//! backlight's level, changes (from a key, `pactl`, any program), the bar
//! whose config enables `osd` shows the new level for a moment at the
//! configured place. The levels are followed once for the process by the
//! [`OsdHost`] its bars share; the first bar that enables the displays
//! shows them (as notifications are), until its config no longer does or
//! it is gone; then the next bar whose config enables them takes them over.

use super::{BarEvent, BarId, Deliver, Running, ShownBy};
use crate::bar::{CardMonitor, CardPlace, Surface};
use crate::capabilities::{Audio, AudioStatus, Backlight, BacklightStatus};
use crate::config::model::{OsdConfig, ScreenPlace, ShownOn};
use crate::render::OsdCard;
use crate::sync::lock;
use crate::wake::Waker;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The icon font's glyphs for what changed.
const SPEAKER: &str = "\u{e44a}";
const SPEAKER_MUTED: &str = "\u{e45c}";
const SUN: &str = "\u{e472}";

/// A level that changed, as the display shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Volume { percent: u32, muted: bool },
    Brightness { percent: u32 },
}

impl Level {
    fn card(self) -> OsdCard {
        match self {
            Level::Volume { percent, muted } => OsdCard { icon: if muted { SPEAKER_MUTED } else { SPEAKER }, percent },
            Level::Brightness { percent } => OsdCard { icon: SUN, percent },
        }
    }
}

/// The levels as last read: the default output's name, volume and mute,
/// and the backlight's device and level. A level is shown only when the
/// same output or device had another before: not at the first reading,
/// nor when the default output changes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Levels {
    volume: Option<(String, u32, bool)>,
    brightness: Option<(String, u32)>,
}

impl Levels {
    fn read(audio: &dyn Audio, backlight: &dyn Backlight, waker: &Waker) -> Levels {
        let volume = match audio.status(waker) {
            AudioStatus::Connected(outputs) => outputs
                .into_iter()
                .find(|output| output.is_default)
                .map(|output| (output.name, output.volume_percent, output.muted)),
            AudioStatus::Unavailable(_) => None,
        };
        let brightness = match backlight.status(waker) {
            BacklightStatus::Level { device, percent } => Some((device, percent)),
            BacklightStatus::Absent(_) => None,
        };
        Levels { volume, brightness }
    }

    /// What changed from `before` to these, the volume first.
    fn change_from(&self, before: &Levels) -> Option<Level> {
        let volume = match (&before.volume, &self.volume) {
            (Some((was, ..)), Some((output, percent, muted))) if was == output && before.volume != self.volume => {
                Some(Level::Volume { percent: *percent, muted: *muted })
            }
            _ => None,
        };
        let brightness = match (&before.brightness, &self.brightness) {
            (Some((was, old)), Some((device, percent))) if was == device && old != percent => {
                Some(Level::Brightness { percent: *percent })
            }
            _ => None,
        };
        volume.or(brightness)
    }
}

/// The levels the process follows for its on-screen displays, and which
/// bar shows them.
#[derive(Clone)]
pub struct OsdHost(Arc<Mutex<Following>>);

struct Following {
    audio: Arc<dyn Audio>,
    backlight: Arc<dyn Backlight>,
    deliver: Deliver,
    /// Made when a bar first enables the displays: only then are the
    /// sound server and the backlight followed.
    waker: Option<Waker>,
    last: Levels,
    shown_by: ShownBy,
}

impl OsdHost {
    /// Follows `audio` and `backlight` once a bar enables the displays,
    /// telling the bars of each change through `deliver`.
    pub fn new(audio: Arc<dyn Audio>, backlight: Arc<dyn Backlight>, deliver: Deliver) -> OsdHost {
        let following =
            Following { audio, backlight, deliver, waker: None, last: Levels::default(), shown_by: ShownBy::default() };
        OsdHost(Arc::new(Mutex::new(following)))
    }

    /// Bar `bar` enables the displays: whether it is the one to show them
    /// (no other bar does).
    fn enable(&self, bar: BarId) -> bool {
        let mut following = lock(&self.0);
        if !following.shown_by.free_for(bar, "osd") {
            return false;
        }
        following.shown_by = ShownBy(Some(bar));
        let deliver = following.deliver.clone();
        let waker = following.waker.get_or_insert_with(|| Waker::new(move || _ = deliver(BarEvent::Levels))).clone();
        // What changed while no bar showed the displays is not shown now.
        waker.take();
        following.last = Levels::read(&*following.audio, &*following.backlight, &waker);
        true
    }

    /// Whether a bar shows the displays.
    pub(super) fn is_shown(&self) -> bool {
        lock(&self.0).shown_by.is_shown()
    }

    /// Bar `bar` no longer shows the displays.
    fn let_go(&self, bar: BarId) {
        lock(&self.0).shown_by.let_go(bar);
    }

    /// The levels were told to have changed: the one that did, to show.
    fn changed(&self) -> Option<Level> {
        let mut following = lock(&self.0);
        let waker = following.waker.clone()?;
        waker.take();
        let now = Levels::read(&*following.audio, &*following.backlight, &waker);
        let change = now.change_from(&following.last);
        following.last = now;
        change
    }
}

/// The displays of the bar that shows them: how, the level to show next,
/// and until when the one shown stays.
pub(super) struct Osd {
    host: OsdHost,
    bar: BarId,
    place: ScreenPlace,
    monitor: ShownOn,
    width: f32,
    timeout: Duration,
    waiting: Option<Level>,
    until: Option<Instant>,
}

impl Osd {
    fn new(host: OsdHost, bar: BarId, config: &OsdConfig) -> Osd {
        let (place, monitor, width, timeout) = look(config);
        Osd { host, bar, place, monitor, width, timeout, waiting: None, until: None }
    }

    /// Where it is hidden from: one display, wherever it is.
    fn anywhere(&self) -> CardPlace {
        CardPlace { place: self.place, monitor: CardMonitor::Bar }
    }
}

/// Where the config puts the displays, on which monitor, how wide, and for how long.
fn look(config: &OsdConfig) -> (ScreenPlace, ShownOn, f32, Duration) {
    let place = config.position.unwrap_or(ScreenPlace::BottomCenter);
    let timeout = Duration::from_millis(config.timeout_ms.unwrap_or(1200).into());
    (place, config.monitor.unwrap_or_default(), config.width.unwrap_or(300.0), timeout)
}

impl Drop for Osd {
    /// Another bar whose config enables them may take them over now.
    fn drop(&mut self) {
        self.host.let_go(self.bar);
    }
}

impl Running {
    /// Has the bar show the displays when its config enables them, from
    /// the levels `host` follows for the process, now and after each reload.
    pub fn host_osd(&mut self, host: OsdHost) {
        self.osd_host = Some(host);
        self.osd_reconfigured(None);
    }

    /// The config was read again: the displays are shown as it says now,
    /// or no more (the one on screen, if any, hidden on `surface`).
    pub(super) fn osd_reconfigured(&mut self, surface: Option<&mut dyn Surface>) {
        let config = self.source.config.osd().cloned();
        match (config, &mut self.osd) {
            (Some(config), Some(osd)) => (osd.place, osd.monitor, osd.width, osd.timeout) = look(&config),
            (None, osd @ Some(_)) => {
                let shown = osd.take().filter(|osd| osd.until.is_some());
                if let (Some(osd), Some(surface)) = (shown, surface) {
                    surface.show_osd(None, &osd.anywhere(), &self.bar.scene().style);
                }
            }
            (Some(config), osd @ None) => {
                if let Some(host) = self.osd_host.clone().filter(|host| host.enable(self.id)) {
                    *osd = Some(Osd::new(host, self.id, &config));
                }
            }
            (None, None) => {}
        }
    }

    /// The followed levels changed: the one that did is shown next.
    pub fn levels_changed(&mut self) {
        if let Some(osd) = &mut self.osd
            && let Some(level) = osd.host.changed()
        {
            osd.waiting = Some(level);
        }
    }

    /// Whether a display waits to be shown.
    pub fn osd_wanted(&self) -> bool {
        self.osd.as_ref().is_some_and(|osd| osd.waiting.is_some())
    }

    /// Whether this bar shows the on-screen displays.
    #[cfg(test)]
    pub(crate) fn shows_osd(&self) -> bool {
        self.osd.is_some()
    }

    /// When the display shown is to go.
    pub fn osd_due(&self) -> Option<Instant> {
        self.osd.as_ref().and_then(|osd| osd.until)
    }

    /// Shows the level that changed, or hides the display whose time is up.
    pub fn paint_osd(&mut self, surface: &mut dyn Surface) {
        let Some(osd) = &self.osd else { return };
        if let Some(level) = osd.waiting {
            let at = self.card_place(osd.place, osd.monitor);
            let Some(osd) = &mut self.osd else { return };
            osd.waiting = None;
            let style = &self.bar.scene().style;
            let layout = self.measure.lay_out_osd(&level.card(), osd.width, style);
            // Shown elsewhere before (the focus moved), it is moved here.
            surface.show_osd(Some(&layout), &at, style);
            osd.until = Some(Instant::now() + osd.timeout);
        } else if osd.until.is_some_and(|until| until <= Instant::now()) {
            surface.show_osd(None, &osd.anywhere(), &self.bar.scene().style);
            if let Some(osd) = &mut self.osd {
                osd.until = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn levels(volume: Option<(&str, u32, bool)>, brightness: Option<(&str, u32)>) -> Levels {
        Levels {
            volume: volume.map(|(output, percent, muted)| (output.into(), percent, muted)),
            brightness: brightness.map(|(device, percent)| (device.into(), percent)),
        }
    }

    #[test]
    fn a_level_is_shown_when_it_changed_on_the_same_output_or_panel() {
        let before = levels(Some(("speakers", 40, false)), Some(("panel", 50)));
        let louder = levels(Some(("speakers", 45, false)), Some(("panel", 50)));
        assert_eq!(louder.change_from(&before), Some(Level::Volume { percent: 45, muted: false }));
        let muted = levels(Some(("speakers", 40, true)), Some(("panel", 50)));
        assert_eq!(muted.change_from(&before), Some(Level::Volume { percent: 40, muted: true }));
        let dimmer = levels(Some(("speakers", 40, false)), Some(("panel", 30)));
        assert_eq!(dimmer.change_from(&before), Some(Level::Brightness { percent: 30 }));
        assert_eq!(before.change_from(&before), None);
    }

    #[test]
    fn a_first_reading_or_another_output_shows_nothing() {
        let nothing = levels(None, None);
        let first = levels(Some(("speakers", 40, false)), Some(("panel", 50)));
        assert_eq!(first.change_from(&nothing), None, "the sound server and the panel were first read");
        let headphones = levels(Some(("headphones", 70, false)), Some(("panel", 50)));
        assert_eq!(headphones.change_from(&first), None, "the default output changed, not its volume");
    }
}

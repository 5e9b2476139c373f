//! # PowerMenu
//!
//! A button whose popup offers to lock the session, log out, suspend,
//! reboot and shut down (an Obi extension of the format). Reboot and Shut
//! down ask again (their line reads "Reboot? Click again") and run on the
//! second click; the others run on the first. Choosing one runs its command
//! and closes the menu; a click elsewhere closes it and forgets a first
//! click. The bar declares each action's command from the same config; the
//! widget only names them.
//!
//! | key            | values                                           | default |
//! |----------------|--------------------------------------------------|---------|
//! | `enable`       | `true` / `false`                                 | required |
//! | `label_prefix` | `Icon`, `Text` ("Power"), `IconAndText`           | `Icon`  |
//! | `lock`, `log_out`, `suspend`, `reboot`, `shut_down` | a command line in place of the platform's, or `false` to leave the action out | the platform's |
//!
//! The platform's commands: on Linux `loginctl lock-session`, `loginctl
//! terminate-session "$XDG_SESSION_ID"`, `systemctl suspend`, `systemctl
//! reboot`, `systemctl poweroff`; on Windows `rundll32.exe
//! user32.dll,LockWorkStation`, `shutdown.exe /l`, `rundll32.exe
//! powrprof.dll,SetSuspendState 0,1,0`, `shutdown.exe /r /t 0`,
//! `shutdown.exe /s /t 0`.
//!
//! ```json
//! { "PowerMenu": { "enable": true, "lock": "swaylock -f", "log_out": "swaymsg exit", "suspend": false } }
//! ```

use obi_sdk::config::{LabelPrefix, PowerAction, PowerMenuConfig as Config};
use obi_sdk::log::{self, Level};
use obi_sdk::{
    Emphasis, Input, Inputs, Piece, Popup, PopupInput, Schedule, View, Widget, button, commands, icons, item,
};

/// The button's key on the bar.
const BUTTON: &str = "power";

pub struct PowerMenu {
    actions: Vec<PowerAction>,
    prefix: LabelPrefix,
    open: bool,
    /// The action clicked once that waits for its second click.
    armed: Option<PowerAction>,
}

fn glyph(action: PowerAction) -> &'static str {
    match action {
        PowerAction::Lock => icons::LOCK,
        PowerAction::LogOut => icons::SIGN_OUT,
        PowerAction::Suspend => icons::MOON,
        PowerAction::Reboot => icons::ARROW_CLOCKWISE,
        PowerAction::ShutDown => icons::POWER,
    }
}

impl PowerMenu {
    fn close(&mut self) {
        self.open = false;
        self.armed = None;
    }

    fn run(&mut self, action: PowerAction) {
        self.close();
        if let Err(error) = commands::launch(action.id()) {
            log::log(Level::Error, &format!("cannot {}: {error}", action.name().to_lowercase()));
        }
    }
}

impl Widget for PowerMenu {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let menu = PowerMenu {
            actions: config.actions(),
            prefix: config.label_prefix.unwrap_or(LabelPrefix::Icon),
            open: false,
            armed: None,
        };
        // It changes only with input.
        Ok((menu, Schedule { interval_ms: 0, align_to_wall_clock: false }))
    }

    fn refresh(&mut self) -> View {
        if self.actions.is_empty() {
            return View::empty();
        }
        // Without a prefix that shows anything, the icon: a button must show something.
        let shows_text = self.prefix.shows_text();
        let shows_icon = self.prefix.shows_icon() || !shows_text;
        let button = item(BUTTON)
            .takes(Inputs::PRIMARY_CLICK)
            .maybe(shows_icon.then(|| Piece::Icon(icons::POWER.into())))
            .maybe(shows_text.then(|| Piece::Text("Power".into())))
            .selected(self.open)
            .tooltip("Lock, log out, suspend, reboot or shut down");
        View::of([button])
    }

    fn on_input(&mut self, key: &str, input: Input) {
        if key == BUTTON && input == Input::PrimaryClick {
            match self.open {
                true => self.close(),
                false => self.open = true,
            }
        }
    }

    fn popup(&mut self) -> Option<Popup> {
        if !self.open {
            return None;
        }
        let lines = self.actions.iter().map(|&action| {
            let armed = self.armed == Some(action);
            let text = if armed { format!("{}? Click again", action.name()) } else { action.name().to_owned() };
            let line = button(action.id()).icon(glyph(action)).text(text);
            if armed { line.emphasis(Emphasis::Urgent) } else { line }
        });
        Some(lines.fold(Popup::beside(BUTTON), Popup::line))
    }

    fn on_popup_input(&mut self, _item_key: &str, cell_key: &str, input: PopupInput) {
        let Some(action) = PowerAction::from_id(cell_key).filter(|action| self.actions.contains(action)) else {
            return;
        };
        if input != PopupInput::Input(Input::PrimaryClick) {
            return;
        }
        if action.asks_twice() && self.armed != Some(action) {
            self.armed = Some(action);
        } else {
            self.run(action);
        }
    }

    fn on_popup_closed(&mut self, _item_key: &str) {
        self.close();
    }
}

obi_sdk::export!(PowerMenu);

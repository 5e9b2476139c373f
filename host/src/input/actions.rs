//! The bar's `mouse` config: what each of the nine triggers does where no
//! item takes the input. A message goes to the tiler as komorebi-bar's
//! batch: `FocusMonitorAtCursor` (unless `focus_monitor_at_cursor` is
//! false), `MouseFollowsFocus` false, the message, `MouseFollowsFocus` back
//! to what the tiler had (unless `ignore_mouse_follows_focus` is false). A
//! command has its environment variables resolved (as data, see
//! [`super::for_the_shell`]), then runs in the platform's shell.

use super::for_the_shell;
use crate::capabilities::process;
use crate::config::model::{MouseConfig, MouseMessage};
use crate::tiler::{Connection, Message, Status};
use crate::view::{Input, ScrollDirection};
use serde_json::json;

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Tiler { message: Message, focus_monitor_at_cursor: bool, ignore_mouse_follows_focus: bool },
    Command(String),
}

#[derive(Debug, Clone, Default)]
pub struct MouseActions {
    primary_double_click: Option<Action>,
    secondary_click: Option<Action>,
    middle_click: Option<Action>,
    extra1_click: Option<Action>,
    extra2_click: Option<Action>,
    scroll_up: Option<Action>,
    scroll_down: Option<Action>,
    scroll_left: Option<Action>,
    scroll_right: Option<Action>,
    /// Points of scrolling per tick: horizontally, vertically.
    pub thresholds: (f32, f32),
}

impl MouseActions {
    pub fn from_config(config: Option<&MouseConfig>) -> MouseActions {
        let default = MouseConfig::default();
        let config = config.unwrap_or(&default);
        let action = |message: &Option<MouseMessage>| message.as_ref().and_then(Action::from_config);
        MouseActions {
            primary_double_click: action(&config.on_primary_double_click),
            secondary_click: action(&config.on_secondary_click),
            middle_click: action(&config.on_middle_click),
            extra1_click: action(&config.on_extra1_click),
            extra2_click: action(&config.on_extra2_click),
            scroll_up: action(&config.on_scroll_up),
            scroll_down: action(&config.on_scroll_down),
            scroll_left: action(&config.on_scroll_left),
            scroll_right: action(&config.on_scroll_right),
            thresholds: (config.horizontal_scroll_threshold(), config.vertical_scroll_threshold()),
        }
    }

    /// What `input` does on the bar; a single primary click does nothing.
    pub fn action(&self, input: Input) -> Option<&Action> {
        match input {
            Input::PrimaryClick => None,
            Input::DoubleClick => self.primary_double_click.as_ref(),
            Input::SecondaryClick => self.secondary_click.as_ref(),
            Input::MiddleClick => self.middle_click.as_ref(),
            Input::Extra1Click => self.extra1_click.as_ref(),
            Input::Extra2Click => self.extra2_click.as_ref(),
            Input::Scroll(ScrollDirection::Up) => self.scroll_up.as_ref(),
            Input::Scroll(ScrollDirection::Down) => self.scroll_down.as_ref(),
            Input::Scroll(ScrollDirection::Left) => self.scroll_left.as_ref(),
            Input::Scroll(ScrollDirection::Right) => self.scroll_right.as_ref(),
        }
    }
}

impl Action {
    /// The action a trigger's config describes; reading the config has
    /// checked its message already.
    fn from_config(message: &MouseMessage) -> Option<Action> {
        match message {
            MouseMessage::Command(command) => Some(Action::Command(command.clone())),
            MouseMessage::Tiler(tiler) => Some(Action::Tiler {
                message: Message::parse(&tiler.message).ok()?,
                focus_monitor_at_cursor: tiler.focus_monitor_at_cursor.unwrap_or(true),
                ignore_mouse_follows_focus: tiler.ignore_mouse_follows_focus.unwrap_or(true),
            }),
        }
    }

    /// The messages komorebi-bar sends for a tiler action, in order;
    /// `mouse_follows_focus` is the tiler's setting, restored at the end.
    pub fn batch(&self, mouse_follows_focus: bool) -> Vec<Message> {
        let Action::Tiler { message, focus_monitor_at_cursor, ignore_mouse_follows_focus } = self else {
            return Vec::new();
        };
        let mut batch = Vec::new();
        if *focus_monitor_at_cursor {
            batch.push(Message::unit("FocusMonitorAtCursor"));
        }
        if *ignore_mouse_follows_focus {
            batch.push(Message::with("MouseFollowsFocus", json!(false)));
            batch.push(message.clone());
            batch.push(Message::with("MouseFollowsFocus", json!(mouse_follows_focus)));
        } else {
            batch.push(message.clone());
        }
        batch
    }

    /// Does it: sends the batch to `tiler`, or starts the command. What
    /// fails is logged; nothing here blocks the bar.
    pub fn run(&self, tiler: &Connection) {
        match self {
            Action::Tiler { .. } => {
                let mouse_follows_focus = match tiler.current() {
                    Status::Connected(state) => state.mouse_follows_focus,
                    Status::Disconnected(_) => true,
                };
                if let Err(why) = tiler.send_batch(self.batch(mouse_follows_focus)) {
                    tracing::warn!("mouse: {why}");
                }
            }
            Action::Command(command) => {
                let line = match for_the_shell(command, |name| std::env::var(name).ok()) {
                    Ok(line) => line,
                    Err(why) => return tracing::warn!("mouse: `{command}` is not run: {why}"),
                };
                let shown = line.clone();
                let started = process::launch(&line, move |ended| {
                    if let Err(failure) = ended {
                        tracing::warn!("mouse: `{shown}` {failure}");
                    }
                });
                if let Err(why) = started {
                    tracing::warn!("mouse: `{line}`: {why}");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn actions(json: &str) -> MouseActions {
        MouseActions::from_config(Some(&serde_json::from_str(json).unwrap()))
    }

    fn lines(batch: &[Message]) -> Vec<String> {
        batch.iter().map(Message::to_json).collect()
    }

    #[test]
    fn a_message_is_wrapped_as_komorebi_bar_wraps_it() {
        let mouse =
            actions(r#"{ "on_scroll_up": { "message": { "type": "CycleFocusWorkspace", "content": "Previous" } } }"#);
        let action = mouse.action(Input::Scroll(ScrollDirection::Up)).unwrap();
        assert_eq!(
            lines(&action.batch(true)),
            [
                r#"{"type":"FocusMonitorAtCursor"}"#,
                r#"{"type":"MouseFollowsFocus","content":false}"#,
                r#"{"type":"CycleFocusWorkspace","content":"Previous"}"#,
                r#"{"type":"MouseFollowsFocus","content":true}"#,
            ]
        );
        assert!(mouse.action(Input::Scroll(ScrollDirection::Down)).is_none());
    }

    #[test]
    fn the_wrapping_can_be_turned_off() {
        let mouse = actions(
            r#"{ "on_middle_click": { "focus_monitor_at_cursor": false, "ignore_mouse_follows_focus": false,
                 "message": { "type": "TogglePause" } } }"#,
        );
        assert_eq!(lines(&mouse.action(Input::MiddleClick).unwrap().batch(false)), [r#"{"type":"TogglePause"}"#]);
        let restored = actions(
            r#"{ "on_extra1_click": { "focus_monitor_at_cursor": false, "message": { "type": "NewWorkspace" } } }"#,
        );
        assert_eq!(
            lines(&restored.action(Input::Extra1Click).unwrap().batch(false)),
            [
                r#"{"type":"MouseFollowsFocus","content":false}"#,
                r#"{"type":"NewWorkspace"}"#,
                r#"{"type":"MouseFollowsFocus","content":false}"#,
            ],
            "mouse-follows-focus goes back to the tiler's own setting"
        );
    }

    #[test]
    fn all_nine_triggers_and_the_thresholds() {
        let mouse = actions(
            r#"{ "on_primary_double_click": "a", "on_secondary_click": "b", "on_middle_click": "c",
                 "on_extra1_click": "d", "on_extra2_click": "e", "on_scroll_up": "f", "on_scroll_down": "g",
                 "on_scroll_left": "h", "on_scroll_right": "i", "vertical_scroll_threshold": 60, "horizontal_scroll_threshold": 500 }"#,
        );
        let inputs = [
            Input::DoubleClick,
            Input::SecondaryClick,
            Input::MiddleClick,
            Input::Extra1Click,
            Input::Extra2Click,
            Input::Scroll(ScrollDirection::Up),
            Input::Scroll(ScrollDirection::Down),
            Input::Scroll(ScrollDirection::Left),
            Input::Scroll(ScrollDirection::Right),
        ];
        let commands: Vec<&Action> = inputs.iter().map(|input| mouse.action(*input).unwrap()).collect();
        let expected: Vec<Action> = "abcdefghi".chars().map(|c| Action::Command(c.to_string())).collect();
        assert_eq!(commands, expected.iter().collect::<Vec<_>>());
        assert!(mouse.action(Input::PrimaryClick).is_none());
        assert_eq!(mouse.thresholds, (300.0, 60.0), "clamped to 10..=300 as komorebi-bar does");
    }
}

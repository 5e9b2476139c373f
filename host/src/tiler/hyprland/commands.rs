//! What komorebi's messages mean to Hyprland: the requests they stand for
//! on its request socket. Monitor and workspace numbers are indices into
//! the tiler state's lists, as the Komorebi widget counts them; a numbered
//! workspace is named to Hyprland by its number, a named one as
//! `name:NAME`.
//!
//! | komorebi message | Hyprland request (hyprlang) |
//! |---|---|
//! | `FocusWorkspaceNumber` n, `FocusWorkspaceNumbers` n | `dispatch workspace <n-th of the focused monitor>` |
//! | `FocusMonitorWorkspaceNumber` m, n | `dispatch workspace <n-th of monitor m>` |
//! | `FocusNamedWorkspace` name | `dispatch workspace name:<name>` |
//! | `CycleFocusWorkspace` Next / Previous | `dispatch workspace m+1` / `m-1` (the monitor's open ones) |
//! | `FocusLastWorkspace` | `dispatch workspace previous` |
//! | `FocusMonitorNumber` m | `dispatch focusmonitor <monitor m>` |
//! | `FocusMonitorAtCursor` | `dispatch focusmonitor <the bar's monitor>` (the cursor is on the bar) |
//! | `CycleFocusMonitor` Next / Previous | `dispatch focusmonitor +1` / `-1` |
//! | `FocusWindow` d, `MoveWindow` d | `dispatch movefocus <l/r/u/d>`, `dispatch movewindow <l/r/u/d>` |
//! | `CycleFocusWindow` Next / Previous | `dispatch cyclenext` / `dispatch cyclenext prev` |
//! | `MoveContainerToWorkspaceNumber` n, `SendContainerToWorkspaceNumber` n | `dispatch movetoworkspace <n-th>`, `movetoworkspacesilent <n-th>` |
//! | `MoveContainerToNamedWorkspace`, `SendContainerToNamedWorkspace` | the same, by name |
//! | `ToggleMonocle`, `ToggleMaximize` | `dispatch fullscreen 1` (maximised: the bar stays) |
//! | `ToggleFloat` | `dispatch togglefloating` |
//! | `Close` | `dispatch killactive` |
//! | `ReloadConfiguration` | `reload` |
//! | `MouseFollowsFocus`, `ToggleMouseFollowsFocus` | nothing: Hyprland moves the pointer as its own `cursor:no_warps` says |
//!
//! With a Lua config (Hyprland 0.55 on, which says so in `j/status`), a
//! dispatch is a Lua expression: workspace focus becomes `dispatch
//! hl.dsp.focus({ workspace = "<selector>" })`; the other dispatchers have
//! no documented Lua form yet and are warned about. Every other message has
//! no Hyprland meaning: the client warns about it, once.

use crate::tiler::meaning::{Meaning, Unsendable};
use crate::tiler::{Message, State};

/// Which language Hyprland's config, and so its `dispatch`, speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Hyprlang,
    Lua,
}

/// The requests `message` stands for, or why it cannot be sent.
pub fn translate(message: &Message, state: Option<&State>, dialect: Dialect) -> Result<Meaning, Unsendable> {
    let next = || message.text(0) == "Next";
    let state_now = || state.ok_or(Unsendable::NoState);
    let focus = |selector: String| {
        Ok(Meaning::Commands(vec![match dialect {
            Dialect::Hyprlang => format!("dispatch workspace {selector}"),
            Dialect::Lua => format!("dispatch hl.dsp.focus({{ workspace = {} }})", lua_string(&selector)),
        }]))
    };
    let dispatch = |dispatcher: String| match dialect {
        Dialect::Hyprlang => Ok(Meaning::Commands(vec![format!("dispatch {dispatcher}")])),
        Dialect::Lua => Ok(Meaning::Unknown),
    };
    match message.name {
        "FocusWorkspaceNumber" | "FocusWorkspaceNumbers" => {
            let state = state_now()?;
            focus(selector(state, state.focused_monitor, message.number(0))?)
        }
        "FocusMonitorWorkspaceNumber" => focus(selector(state_now()?, message.number(0), message.number(1))?),
        "FocusNamedWorkspace" => focus(format!("name:{}", message.text(0))),
        "CycleFocusWorkspace" => focus(if next() { "m+1" } else { "m-1" }.into()),
        "FocusLastWorkspace" => focus("previous".into()),
        "FocusMonitorNumber" => dispatch(format!("focusmonitor {}", monitor_name(state, Some(message.number(0)))?)),
        "FocusMonitorAtCursor" => {
            dispatch(format!("focusmonitor {}", monitor_name(state, state.and_then(|state| state.bar_monitor))?))
        }
        "CycleFocusMonitor" => dispatch(format!("focusmonitor {}", if next() { "+1" } else { "-1" })),
        "FocusWindow" => dispatch(format!("movefocus {}", direction(message.text(0))?)),
        "MoveWindow" => dispatch(format!("movewindow {}", direction(message.text(0))?)),
        "CycleFocusWindow" => dispatch(if next() { "cyclenext" } else { "cyclenext prev" }.into()),
        "MoveContainerToWorkspaceNumber" | "SendContainerToWorkspaceNumber" => {
            let state = state_now()?;
            let target = selector(state, state.focused_monitor, message.number(0))?;
            dispatch(format!("{} {target}", moving(message.name)))
        }
        "MoveContainerToNamedWorkspace" | "SendContainerToNamedWorkspace" => {
            dispatch(format!("{} name:{}", moving(message.name), message.text(0)))
        }
        "ToggleMonocle" | "ToggleMaximize" => dispatch("fullscreen 1".into()),
        "ToggleFloat" => dispatch("togglefloating".into()),
        "Close" => dispatch("killactive".into()),
        // A request of its own, not a dispatcher: the same in both dialects.
        "ReloadConfiguration" => Ok(Meaning::Commands(vec!["reload".into()])),
        "MouseFollowsFocus" | "ToggleMouseFollowsFocus" => Ok(Meaning::Nothing),
        _ => Ok(Meaning::Unknown),
    }
}

/// Whether the window moves with the user (`Move...`) or without (`Send...`).
fn moving(name: &str) -> &'static str {
    if name.starts_with("Move") { "movetoworkspace" } else { "movetoworkspacesilent" }
}

/// The `workspace`-th workspace of monitor `monitor`, as Hyprland selects
/// it: its number, or `name:NAME` for a named one.
fn selector(state: &State, monitor: usize, workspace: usize) -> Result<String, Unsendable> {
    let found = state.monitors.get(monitor).and_then(|monitor| monitor.workspaces.get(workspace));
    let name = &found.ok_or_else(|| Unsendable::NoWorkspace { monitor: monitor.to_string(), workspace })?.name;
    Ok(match name.parse::<i64>() {
        Ok(number) if number > 0 => number.to_string(),
        _ => format!("name:{name}"),
    })
}

fn monitor_name(state: Option<&State>, monitor: Option<usize>) -> Result<String, Unsendable> {
    let state = state.ok_or(Unsendable::NoState)?;
    let index = monitor.ok_or(Unsendable::NoBarMonitor)?;
    state.monitors.get(index).map(|monitor| monitor.name.clone()).ok_or(Unsendable::NoMonitor(index))
}

/// komorebi's direction as Hyprland's letter.
fn direction(direction: &str) -> Result<&'static str, Unsendable> {
    match direction {
        "Left" => Ok("l"),
        "Right" => Ok("r"),
        "Up" => Ok("u"),
        "Down" => Ok("d"),
        other => Err(Unsendable::NotADirection(other.to_owned())),
    }
}

/// `text` as a Lua string literal.
fn lua_string(text: &str) -> String {
    let escaped: String = text
        .chars()
        .flat_map(|c| match c {
            '\\' | '"' => vec!['\\', c],
            '\n' => vec!['\\', 'n'],
            c if c.is_control() => Vec::new(),
            c => vec![c],
        })
        .collect();
    format!("\"{escaped}\"")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiler::{Kind, Monitor, Workspace};
    use serde_json::{Value, json};

    fn state() -> State {
        let workspace = |name: &str| Workspace { name: name.into(), ..Workspace::default() };
        State {
            monitors: vec![
                Monitor {
                    name: "DP-1".into(),
                    area: None,
                    workspaces: vec![workspace("1"), workspace("web")],
                    focused_workspace: 0,
                },
                Monitor { name: "HDMI-A-1".into(), area: None, workspaces: vec![workspace("4")], focused_workspace: 0 },
            ],
            bar_monitor: Some(1),
            ..State::empty(Kind::Hyprland)
        }
    }

    fn requests(name: &str, content: Option<Value>, dialect: Dialect) -> Meaning {
        let message = match content {
            Some(content) => Message::with(name, content),
            None => Message::unit(name),
        };
        translate(&message, Some(&state()), dialect).unwrap()
    }

    fn is(requests: &[&str]) -> Meaning {
        Meaning::Commands(requests.iter().map(|request| (*request).to_owned()).collect())
    }

    #[test]
    fn workspaces_are_focused_by_number_or_by_name() {
        let hyprlang = Dialect::Hyprlang;
        assert_eq!(requests("FocusWorkspaceNumber", Some(json!(0)), hyprlang), is(&["dispatch workspace 1"]));
        assert_eq!(requests("FocusWorkspaceNumber", Some(json!(1)), hyprlang), is(&["dispatch workspace name:web"]));
        assert_eq!(
            requests("FocusMonitorWorkspaceNumber", Some(json!([1, 0])), hyprlang),
            is(&["dispatch workspace 4"])
        );
        assert_eq!(requests("CycleFocusWorkspace", Some(json!("Next")), hyprlang), is(&["dispatch workspace m+1"]));
        assert_eq!(requests("FocusMonitorAtCursor", None, hyprlang), is(&["dispatch focusmonitor HDMI-A-1"]));
        assert_eq!(requests("MouseFollowsFocus", Some(json!(false)), hyprlang), Meaning::Nothing);
        let message = Message::with("FocusWorkspaceNumber", json!(5));
        assert!(translate(&message, Some(&state()), hyprlang).unwrap_err().to_string().contains("no workspace 5"));
    }

    #[test]
    fn a_lua_config_takes_lua_expressions() {
        let lua = Dialect::Lua;
        assert_eq!(
            requests("FocusWorkspaceNumber", Some(json!(1)), lua),
            is(&[r#"dispatch hl.dsp.focus({ workspace = "name:web" })"#])
        );
        assert_eq!(
            requests("CycleFocusWorkspace", Some(json!("Previous")), lua),
            is(&[r#"dispatch hl.dsp.focus({ workspace = "m-1" })"#])
        );
        assert_eq!(requests("ToggleFloat", None, lua), Meaning::Unknown, "no documented Lua form");
        assert_eq!(requests("ReloadConfiguration", None, lua), is(&["reload"]));
        assert_eq!(lua_string("a\"b\\c\n"), r#""a\"b\\c\n""#);
    }

    #[test]
    fn windows_and_the_rest() {
        let hyprlang = Dialect::Hyprlang;
        assert_eq!(requests("FocusWindow", Some(json!("Left")), hyprlang), is(&["dispatch movefocus l"]));
        assert_eq!(
            requests("SendContainerToWorkspaceNumber", Some(json!(1)), hyprlang),
            is(&["dispatch movetoworkspacesilent name:web"])
        );
        assert_eq!(
            requests("MoveContainerToNamedWorkspace", Some(json!("chat")), hyprlang),
            is(&["dispatch movetoworkspace name:chat"])
        );
        assert_eq!(requests("ToggleMonocle", None, hyprlang), is(&["dispatch fullscreen 1"]));
        assert_eq!(requests("TogglePause", None, hyprlang), Meaning::Unknown);
    }
}

//! What komorebi's messages mean to i3 and sway: the commands they stand
//! for. Monitor and workspace numbers are indices into the tiler state's
//! lists (as the Komorebi widget and komorebi itself count them), turned
//! into the names i3 commands take.
//!
//! | komorebi message | i3 / sway command |
//! |---|---|
//! | `FocusWorkspaceNumber` n, `FocusWorkspaceNumbers` n | `workspace "<n-th of the focused monitor>"` |
//! | `FocusMonitorWorkspaceNumber` m, n | `workspace "<n-th of monitor m>"` |
//! | `FocusNamedWorkspace` name | `workspace "<name>"` |
//! | `CycleFocusWorkspace` Next / Previous | `workspace next_on_output` / `prev_on_output` |
//! | `FocusLastWorkspace` | `workspace back_and_forth` |
//! | `FocusMonitorNumber` m | `focus output "<monitor m>"` |
//! | `FocusMonitorAtCursor` | `focus output "<the bar's monitor>"` (the cursor is on the bar) |
//! | `CycleFocusMonitor` Next / Previous | `focus output right` / `left` |
//! | `FocusWindow` d, `MoveWindow` d | `focus <d>`, `move <d>` |
//! | `CycleFocusWindow` Next / Previous | `focus next` / `focus prev` |
//! | `MoveContainerToWorkspaceNumber` n | `move container to workspace "<n-th>"; workspace "<n-th>"` |
//! | `SendContainerToWorkspaceNumber` n | `move container to workspace "<n-th>"` |
//! | `MoveContainerToNamedWorkspace`, `SendContainerToNamedWorkspace` | the same, by name |
//! | `CycleMoveContainerToWorkspace`, `CycleSendContainerToWorkspace` | `move container to workspace next_on_output` (and follow it, for Move) |
//! | `MoveContainerToMonitorNumber` m, `SendContainerToMonitorNumber` m | `move container to output "<m>"` (and follow it, for Move) |
//! | `MoveWorkspaceToMonitorNumber` m | `move workspace to output "<m>"` |
//! | `ChangeLayout` Columns / Rows | `layout splith` / `layout splitv` |
//! | `CycleLayout` Next / Previous | `layout toggle stacking tabbed splith splitv` / the reverse |
//! | `ToggleMonocle`, `ToggleMaximize` | `fullscreen toggle` |
//! | `ToggleFloat` | `floating toggle` |
//! | `ToggleWorkspaceLayer` | `focus mode_toggle` |
//! | `ResizeWindowEdge` d, Increase / Decrease | `resize grow <d>` / `resize shrink <d>` (10 px or 10 ppt) |
//! | `ResizeWindowAxis` axis, Increase / Decrease | `resize grow width` / `height` (both for `HorizontalAndVertical`) |
//! | `Close` | `kill` |
//! | `Minimize` | `move scratchpad` |
//! | `ReloadConfiguration` | `reload` |
//! | `MouseFollowsFocus`, `ToggleMouseFollowsFocus` | nothing: i3 moves the pointer as its own `mouse_warping` says |
//!
//! Every other message has no i3 meaning: the client warns about it, once.

use crate::tiler::meaning::{Meaning, Unsendable};
use crate::tiler::{Message, State};

/// The i3 commands `message` stands for, or why it cannot be sent (an
/// index with no monitor or workspace behind it).
pub fn translate(message: &Message, state: Option<&State>) -> Result<Meaning, Unsendable> {
    let next = || message.text(0) == "Next";
    let direction = || message.text(0).to_lowercase();
    let one = |command: String| Ok(Meaning::Commands(vec![command]));
    let on_focused_monitor = |workspace: usize| {
        let state = state.ok_or(Unsendable::NoState)?;
        workspace_name(state, state.focused_monitor, workspace)
    };
    match message.name {
        "FocusWorkspaceNumber" | "FocusWorkspaceNumbers" => {
            one(format!("workspace {}", quote(&on_focused_monitor(message.number(0))?)))
        }
        "FocusMonitorWorkspaceNumber" => {
            let state = state.ok_or(Unsendable::NoState)?;
            one(format!("workspace {}", quote(&workspace_name(state, message.number(0), message.number(1))?)))
        }
        "FocusNamedWorkspace" => one(format!("workspace {}", quote(message.text(0)))),
        "CycleFocusWorkspace" => one(format!("workspace {}", if next() { "next_on_output" } else { "prev_on_output" })),
        "FocusLastWorkspace" => one("workspace back_and_forth".into()),
        "FocusMonitorNumber" => one(format!("focus output {}", quote(&monitor_name(state, Some(message.number(0)))?))),
        "FocusMonitorAtCursor" => {
            one(format!("focus output {}", quote(&monitor_name(state, state.and_then(|state| state.bar_monitor))?)))
        }
        "CycleFocusMonitor" => one(format!("focus output {}", if next() { "right" } else { "left" })),
        "FocusWindow" => one(format!("focus {}", direction())),
        "MoveWindow" => one(format!("move {}", direction())),
        "CycleFocusWindow" => one(format!("focus {}", if next() { "next" } else { "prev" })),
        "MoveContainerToWorkspaceNumber" | "SendContainerToWorkspaceNumber" => {
            let name = quote(&on_focused_monitor(message.number(0))?);
            let follow = message.name.starts_with("Move");
            Ok(Meaning::Commands(moved(
                format!("move container to workspace {name}"),
                follow.then(|| format!("workspace {name}")),
            )))
        }
        "MoveContainerToNamedWorkspace" | "SendContainerToNamedWorkspace" => {
            let name = quote(message.text(0));
            let follow = message.name.starts_with("Move");
            Ok(Meaning::Commands(moved(
                format!("move container to workspace {name}"),
                follow.then(|| format!("workspace {name}")),
            )))
        }
        "CycleMoveContainerToWorkspace" | "CycleSendContainerToWorkspace" => {
            let target = if next() { "next_on_output" } else { "prev_on_output" };
            let follow = message.name.starts_with("CycleMove");
            Ok(Meaning::Commands(moved(
                format!("move container to workspace {target}"),
                follow.then(|| format!("workspace {target}")),
            )))
        }
        "MoveContainerToMonitorNumber" | "SendContainerToMonitorNumber" => {
            let name = quote(&monitor_name(state, Some(message.number(0)))?);
            let follow = message.name.starts_with("Move");
            Ok(Meaning::Commands(moved(
                format!("move container to output {name}"),
                follow.then(|| format!("focus output {name}")),
            )))
        }
        "MoveWorkspaceToMonitorNumber" => {
            one(format!("move workspace to output {}", quote(&monitor_name(state, Some(message.number(0)))?)))
        }
        "ChangeLayout" => match message.text(0) {
            "Columns" => one("layout splith".into()),
            "Rows" => one("layout splitv".into()),
            _ => Ok(Meaning::Unknown),
        },
        "CycleLayout" if next() => one("layout toggle stacking tabbed splith splitv".into()),
        "CycleLayout" => one("layout toggle splitv splith tabbed stacking".into()),
        "ToggleMonocle" | "ToggleMaximize" => one("fullscreen toggle".into()),
        "ToggleFloat" => one("floating toggle".into()),
        "ToggleWorkspaceLayer" => one("focus mode_toggle".into()),
        "ResizeWindowEdge" => one(format!("resize {} {} 10 px or 10 ppt", grow(message.text(1)), direction())),
        "ResizeWindowAxis" => {
            let grow = grow(message.text(1));
            let axes: &[&str] = match message.text(0) {
                "Horizontal" => &["width"],
                "Vertical" => &["height"],
                _ => &["width", "height"],
            };
            Ok(Meaning::Commands(axes.iter().map(|axis| format!("resize {grow} {axis} 10 px or 10 ppt")).collect()))
        }
        "Close" => one("kill".into()),
        "Minimize" => one("move scratchpad".into()),
        "ReloadConfiguration" => one("reload".into()),
        "MouseFollowsFocus" | "ToggleMouseFollowsFocus" => Ok(Meaning::Nothing),
        _ => Ok(Meaning::Unknown),
    }
}

fn moved(command: String, follow: Option<String>) -> Vec<String> {
    std::iter::once(command).chain(follow).collect()
}

fn grow(sizing: &str) -> &'static str {
    if sizing == "Increase" { "grow" } else { "shrink" }
}

fn workspace_name(state: &State, monitor: usize, workspace: usize) -> Result<String, Unsendable> {
    let monitor = state.monitors.get(monitor).ok_or(Unsendable::NoMonitor(monitor))?;
    monitor
        .workspaces
        .get(workspace)
        .map(|workspace| workspace.name.clone())
        .ok_or_else(|| Unsendable::NoWorkspace { monitor: monitor.name.clone(), workspace })
}

fn monitor_name(state: Option<&State>, monitor: Option<usize>) -> Result<String, Unsendable> {
    let state = state.ok_or(Unsendable::NoState)?;
    let index = monitor.ok_or(Unsendable::NoBarMonitor)?;
    state.monitors.get(index).map(|monitor| monitor.name.clone()).ok_or(Unsendable::NoMonitor(index))
}

/// `name` as one argument of an i3 command.
fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiler::{Kind, Monitor, Workspace};
    use serde_json::{Value, json};

    fn state() -> State {
        let workspaces = |names: &[&str]| {
            names.iter().map(|name| Workspace { name: (*name).into(), ..Workspace::default() }).collect()
        };
        State {
            monitors: vec![
                Monitor {
                    name: "DP-1".into(),
                    area: None,
                    workspaces: workspaces(&["1", "2: web"]),
                    focused_workspace: 0,
                },
                Monitor {
                    name: "HDMI-1".into(),
                    area: None,
                    workspaces: workspaces(&["3", "say \"hi\""]),
                    focused_workspace: 0,
                },
            ],
            focused_monitor: 0,
            bar_monitor: Some(1),
            ..State::empty(Kind::I3)
        }
    }

    fn commands(name: &str, content: Option<Value>) -> Meaning {
        let message = match content {
            Some(content) => Message::with(name, content),
            None => Message::unit(name),
        };
        translate(&message, Some(&state())).unwrap()
    }

    fn is(commands: &[&str]) -> Meaning {
        Meaning::Commands(commands.iter().map(|command| (*command).to_owned()).collect())
    }

    #[test]
    fn workspaces_are_focused_by_their_names() {
        assert_eq!(commands("FocusWorkspaceNumber", Some(json!(1))), is(&["workspace \"2: web\""]));
        assert_eq!(commands("FocusMonitorWorkspaceNumber", Some(json!([1, 1]))), is(&[r#"workspace "say \"hi\"""#]));
        assert_eq!(commands("CycleFocusWorkspace", Some(json!("Next"))), is(&["workspace next_on_output"]));
        assert_eq!(commands("CycleFocusWorkspace", Some(json!("Previous"))), is(&["workspace prev_on_output"]));
        let missing = translate(&Message::with("FocusMonitorWorkspaceNumber", json!([0, 9])), Some(&state()));
        assert_eq!(missing.unwrap_err().to_string(), "monitor DP-1 has no workspace 9");
    }

    #[test]
    fn the_cursor_is_on_the_bar_so_its_monitor_is_focused() {
        assert_eq!(commands("FocusMonitorAtCursor", None), is(&["focus output \"HDMI-1\""]));
        assert_eq!(commands("MouseFollowsFocus", Some(json!(false))), Meaning::Nothing);
    }

    #[test]
    fn layouts_windows_and_containers() {
        assert_eq!(commands("ChangeLayout", Some(json!("Rows"))), is(&["layout splitv"]));
        assert_eq!(commands("ChangeLayout", Some(json!("BSP"))), Meaning::Unknown);
        assert_eq!(commands("CycleLayout", Some(json!("Next"))), is(&["layout toggle stacking tabbed splith splitv"]));
        assert_eq!(commands("ToggleMonocle", None), is(&["fullscreen toggle"]));
        assert_eq!(commands("FocusWindow", Some(json!("Left"))), is(&["focus left"]));
        assert_eq!(
            commands("MoveContainerToWorkspaceNumber", Some(json!(1))),
            is(&["move container to workspace \"2: web\"", "workspace \"2: web\""])
        );
        assert_eq!(
            commands("SendContainerToWorkspaceNumber", Some(json!(1))),
            is(&["move container to workspace \"2: web\""])
        );
        assert_eq!(
            commands("ResizeWindowAxis", Some(json!(["HorizontalAndVertical", "Decrease"]))),
            is(&["resize shrink width 10 px or 10 ppt", "resize shrink height 10 px or 10 ppt"])
        );
        assert_eq!(commands("TogglePause", None), Meaning::Unknown);
    }
}

//! What komorebi's messages mean to niri: the actions they stand for, as
//! niri's IPC writes them. Monitor and workspace numbers are indices into
//! the tiler state's lists; a workspace is named to niri by its id, which
//! also focuses its output, or by its name.
//!
//! | komorebi message | niri action |
//! |---|---|
//! | `FocusWorkspaceNumber` n, `FocusWorkspaceNumbers` n | `FocusWorkspace` `{ "Id": <n-th of the focused monitor> }` |
//! | `FocusMonitorWorkspaceNumber` m, n | `FocusWorkspace` `{ "Id": <n-th of monitor m> }` |
//! | `FocusNamedWorkspace` name | `FocusWorkspace` `{ "Name": <name> }` |
//! | `CycleFocusWorkspace` Next / Previous | `FocusWorkspaceDown` / `FocusWorkspaceUp` (niri stacks workspaces top to bottom) |
//! | `FocusLastWorkspace` | `FocusWorkspacePrevious` |
//! | `FocusMonitorAtCursor`, `MouseFollowsFocus`, `ToggleMouseFollowsFocus` | nothing: focusing a workspace by id focuses its output |
//!
//! Every other message has no documented niri action: the client warns
//! about it, once.

use crate::tiler::meaning::{Meaning, Unsendable};
use crate::tiler::{Message, State};
use serde_json::{Value, json};

/// The requests (a JSON line each) `message` stands for; `ids` gives each
/// workspace's niri id, by monitor and index as the state lists them.
pub fn translate(
    message: &Message,
    state: Option<&State>,
    ids: &dyn Fn(usize, usize) -> Option<u64>,
) -> Result<Meaning, Unsendable> {
    let action = |action: Value| Ok(Meaning::Commands(vec![json!({ "Action": action }).to_string()]));
    let by_id = |monitor: usize, workspace: usize| {
        let id = ids(monitor, workspace)
            .ok_or_else(|| Unsendable::NoWorkspace { monitor: monitor.to_string(), workspace })?;
        action(json!({ "FocusWorkspace": { "reference": { "Id": id } } }))
    };
    match message.name {
        "FocusWorkspaceNumber" | "FocusWorkspaceNumbers" => {
            by_id(state.ok_or(Unsendable::NoState)?.focused_monitor, message.number(0))
        }
        "FocusMonitorWorkspaceNumber" => by_id(message.number(0), message.number(1)),
        "FocusNamedWorkspace" => {
            let name = message.arg(0).and_then(Value::as_str).unwrap_or_default();
            action(json!({ "FocusWorkspace": { "reference": { "Name": name } } }))
        }
        "CycleFocusWorkspace" => match message.arg(0).and_then(Value::as_str) {
            Some("Next") => action(json!({ "FocusWorkspaceDown": {} })),
            _ => action(json!({ "FocusWorkspaceUp": {} })),
        },
        "FocusLastWorkspace" => action(json!({ "FocusWorkspacePrevious": {} })),
        "FocusMonitorAtCursor" | "MouseFollowsFocus" | "ToggleMouseFollowsFocus" => Ok(Meaning::Nothing),
        _ => Ok(Meaning::Unknown),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn requests(message: Message) -> Meaning {
        let ids = |monitor: usize, workspace: usize| match (monitor, workspace) {
            (0, 0) => Some(3),
            (0, 1) => Some(5),
            (1, 0) => Some(9),
            _ => None,
        };
        let state = State::empty(crate::tiler::Kind::Niri);
        translate(&message, Some(&state), &ids).unwrap()
    }

    fn is(request: &str) -> Meaning {
        Meaning::Commands(vec![request.to_owned()])
    }

    #[test]
    fn workspaces_are_focused_by_id_or_name() {
        assert_eq!(
            requests(Message::with("FocusWorkspaceNumber", json!(1))),
            is(r#"{"Action":{"FocusWorkspace":{"reference":{"Id":5}}}}"#)
        );
        assert_eq!(
            requests(Message::with("FocusMonitorWorkspaceNumber", json!([1, 0]))),
            is(r#"{"Action":{"FocusWorkspace":{"reference":{"Id":9}}}}"#)
        );
        assert_eq!(
            requests(Message::with("FocusNamedWorkspace", json!("web"))),
            is(r#"{"Action":{"FocusWorkspace":{"reference":{"Name":"web"}}}}"#)
        );
        assert_eq!(
            requests(Message::with("CycleFocusWorkspace", json!("Next"))),
            is(r#"{"Action":{"FocusWorkspaceDown":{}}}"#)
        );
        assert_eq!(requests(Message::unit("FocusMonitorAtCursor")), Meaning::Nothing);
        assert_eq!(requests(Message::unit("ToggleFloat")), Meaning::Unknown);
    }
}

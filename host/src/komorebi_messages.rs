//! komorebi's socket messages: the name of each and the types of its payload,
//! in order, as komorebi's `SocketMessage` declares them; the check that a
//! message (in a `mouse` trigger, or from a widget) is one komorebi can read,
//! with the place and the reason when it is not; and the bytes komorebi-bar
//! would send for it.
//!
//! A message is adjacently tagged: `{"type":"Name"}` without a payload,
//! `{"type":"Name","content":value}` with one, and an array as the content
//! when the payload has several values.

use serde_json::Value;
use std::fmt::Write;

/// Every message komorebi reads: its name and its payload's types.
pub const MESSAGES: &[(&str, &[&str])] = &[
    ("FocusWindow", &["OperationDirection"]),
    ("MoveWindow", &["OperationDirection"]),
    ("PreselectDirection", &["OperationDirection"]),
    ("CancelPreselect", &[]),
    ("CycleFocusWindow", &["CycleDirection"]),
    ("CycleMoveWindow", &["CycleDirection"]),
    ("StackWindow", &["OperationDirection"]),
    ("UnstackWindow", &[]),
    ("CycleStack", &["CycleDirection"]),
    ("CycleStackIndex", &["CycleDirection"]),
    ("FocusStackWindow", &["usize"]),
    ("StackAll", &[]),
    ("UnstackAll", &[]),
    ("ResizeWindowEdge", &["OperationDirection", "Sizing"]),
    ("ResizeWindowAxis", &["Axis", "Sizing"]),
    ("MoveContainerToLastWorkspace", &[]),
    ("SendContainerToLastWorkspace", &[]),
    ("MoveContainerToMonitorNumber", &["usize"]),
    ("CycleMoveContainerToMonitor", &["CycleDirection"]),
    ("MoveContainerToWorkspaceNumber", &["usize"]),
    ("MoveContainerToNamedWorkspace", &["String"]),
    ("CycleMoveContainerToWorkspace", &["CycleDirection"]),
    ("SendContainerToMonitorNumber", &["usize"]),
    ("CycleSendContainerToMonitor", &["CycleDirection"]),
    ("SendContainerToWorkspaceNumber", &["usize"]),
    ("CycleSendContainerToWorkspace", &["CycleDirection"]),
    ("SendContainerToMonitorWorkspaceNumber", &["usize", "usize"]),
    ("MoveContainerToMonitorWorkspaceNumber", &["usize", "usize"]),
    ("SendContainerToNamedWorkspace", &["String"]),
    ("CycleMoveWorkspaceToMonitor", &["CycleDirection"]),
    ("MoveWorkspaceToMonitorNumber", &["usize"]),
    ("SwapWorkspacesToMonitorNumber", &["usize"]),
    ("ForceFocus", &[]),
    ("Close", &[]),
    ("Minimize", &[]),
    ("Promote", &[]),
    ("PromoteSwap", &[]),
    ("PromoteFocus", &[]),
    ("PromoteWindow", &["OperationDirection"]),
    ("EagerFocus", &["String"]),
    ("LockMonitorWorkspaceContainer", &["usize", "usize", "usize"]),
    ("UnlockMonitorWorkspaceContainer", &["usize", "usize", "usize"]),
    ("ToggleLock", &[]),
    ("ToggleFloat", &[]),
    ("ToggleMonocle", &[]),
    ("ToggleMaximize", &[]),
    ("ToggleWindowContainerBehaviour", &[]),
    ("ToggleFloatOverride", &[]),
    ("WindowHidingBehaviour", &["HidingBehaviour"]),
    ("ToggleCrossMonitorMoveBehaviour", &[]),
    ("CrossMonitorMoveBehaviour", &["MoveBehaviour"]),
    ("ToggleMonocleFocusBehaviour", &[]),
    ("MonocleFocusBehaviour", &["MonocleFocusBehaviour"]),
    ("UnmanagedWindowOperationBehaviour", &["OperationBehaviour"]),
    ("ManageFocusedWindow", &[]),
    ("UnmanageFocusedWindow", &[]),
    ("AdjustContainerPadding", &["Sizing", "i32"]),
    ("AdjustWorkspacePadding", &["Sizing", "i32"]),
    ("ChangeLayout", &["DefaultLayout"]),
    ("CycleLayout", &["CycleDirection"]),
    ("LayoutRatios", &["Option<Vec<f32>>", "Option<Vec<f32>>"]),
    ("ScrollingLayoutColumns", &["NonZeroUsize"]),
    ("ChangeLayoutCustom", &["PathBuf"]),
    ("FlipLayout", &["Axis"]),
    ("ToggleWorkspaceWindowContainerBehaviour", &[]),
    ("ToggleWorkspaceFloatOverride", &[]),
    ("MonitorIndexPreference", &["usize", "i32", "i32", "i32", "i32"]),
    ("DisplayIndexPreference", &["usize", "String"]),
    ("EnsureWorkspaces", &["usize", "usize"]),
    ("EnsureNamedWorkspaces", &["usize", "Vec<String>"]),
    ("NewWorkspace", &[]),
    ("ToggleTiling", &[]),
    ("Stop", &[]),
    ("StopIgnoreRestore", &[]),
    ("TogglePause", &[]),
    ("Retile", &[]),
    ("RetileWithResizeDimensions", &[]),
    ("QuickSave", &[]),
    ("QuickLoad", &[]),
    ("Save", &["PathBuf"]),
    ("Load", &["PathBuf"]),
    ("CycleFocusMonitor", &["CycleDirection"]),
    ("CycleFocusWorkspace", &["CycleDirection"]),
    ("CycleFocusEmptyWorkspace", &["CycleDirection"]),
    ("FocusMonitorNumber", &["usize"]),
    ("FocusMonitorAtCursor", &[]),
    ("FocusLastWorkspace", &[]),
    ("CloseWorkspace", &[]),
    ("FocusWorkspaceNumber", &["usize"]),
    ("FocusWorkspaceNumbers", &["usize"]),
    ("FocusMonitorWorkspaceNumber", &["usize", "usize"]),
    ("FocusNamedWorkspace", &["String"]),
    ("ContainerPadding", &["usize", "usize", "i32"]),
    ("NamedWorkspaceContainerPadding", &["String", "i32"]),
    ("FocusedWorkspaceContainerPadding", &["i32"]),
    ("WorkspacePadding", &["usize", "usize", "i32"]),
    ("NamedWorkspacePadding", &["String", "i32"]),
    ("FocusedWorkspacePadding", &["i32"]),
    ("WorkspaceTiling", &["usize", "usize", "bool"]),
    ("NamedWorkspaceTiling", &["String", "bool"]),
    ("WorkspaceName", &["usize", "usize", "String"]),
    ("WorkspaceLayout", &["usize", "usize", "DefaultLayout"]),
    ("NamedWorkspaceLayout", &["String", "DefaultLayout"]),
    ("WorkspaceLayoutCustom", &["usize", "usize", "PathBuf"]),
    ("NamedWorkspaceLayoutCustom", &["String", "PathBuf"]),
    ("WorkspaceLayoutRule", &["usize", "usize", "usize", "DefaultLayout"]),
    ("NamedWorkspaceLayoutRule", &["String", "usize", "DefaultLayout"]),
    ("WorkspaceLayoutCustomRule", &["usize", "usize", "usize", "PathBuf"]),
    ("NamedWorkspaceLayoutCustomRule", &["String", "usize", "PathBuf"]),
    ("ClearWorkspaceLayoutRules", &["usize", "usize"]),
    ("ClearNamedWorkspaceLayoutRules", &["String"]),
    ("ToggleWorkspaceLayer", &[]),
    ("ReloadConfiguration", &[]),
    ("ReplaceConfiguration", &["PathBuf"]),
    ("ReloadStaticConfiguration", &["PathBuf"]),
    ("WatchConfiguration", &["bool"]),
    ("CompleteConfiguration", &[]),
    ("AltFocusHack", &["bool"]),
    ("Theme", &["Box<KomorebiTheme>"]),
    ("Animation", &["bool", "Option<AnimationPrefix>"]),
    ("AnimationDuration", &["u64", "Option<AnimationPrefix>"]),
    ("AnimationFps", &["u64"]),
    ("AnimationStyle", &["AnimationStyle", "Option<AnimationPrefix>"]),
    ("Border", &["bool"]),
    ("BorderColour", &["WindowKind", "u32", "u32", "u32"]),
    ("BorderStyle", &["BorderStyle"]),
    ("BorderWidth", &["i32"]),
    ("BorderOffset", &["i32"]),
    ("BorderImplementation", &["BorderImplementation"]),
    ("Transparency", &["bool"]),
    ("ToggleTransparency", &[]),
    ("TransparencyAlpha", &["u8"]),
    ("InvisibleBorders", &["Rect"]),
    ("StackbarMode", &["StackbarMode"]),
    ("StackbarLabel", &["StackbarLabel"]),
    ("StackbarFocusedTextColour", &["u32", "u32", "u32"]),
    ("StackbarUnfocusedTextColour", &["u32", "u32", "u32"]),
    ("StackbarBackgroundColour", &["u32", "u32", "u32"]),
    ("StackbarHeight", &["i32"]),
    ("StackbarTabWidth", &["i32"]),
    ("StackbarFontSize", &["i32"]),
    ("StackbarFontFamily", &["Option<String>"]),
    ("WorkAreaOffset", &["Rect"]),
    ("MonitorWorkAreaOffset", &["usize", "Rect"]),
    ("WorkspaceWorkAreaOffset", &["usize", "usize", "Rect"]),
    ("ToggleWindowBasedWorkAreaOffset", &[]),
    ("ResizeDelta", &["i32"]),
    ("InitialWorkspaceRule", &["ApplicationIdentifier", "String", "usize", "usize"]),
    ("InitialNamedWorkspaceRule", &["ApplicationIdentifier", "String", "String"]),
    ("WorkspaceRule", &["ApplicationIdentifier", "String", "usize", "usize"]),
    ("NamedWorkspaceRule", &["ApplicationIdentifier", "String", "String"]),
    ("ClearWorkspaceRules", &["usize", "usize"]),
    ("ClearNamedWorkspaceRules", &["String"]),
    ("ClearAllWorkspaceRules", &[]),
    ("EnforceWorkspaceRules", &[]),
    ("SessionFloatRule", &[]),
    ("SessionFloatRules", &[]),
    ("ClearSessionFloatRules", &[]),
    ("IgnoreRule", &["ApplicationIdentifier", "String"]),
    ("ManageRule", &["ApplicationIdentifier", "String"]),
    ("IdentifyObjectNameChangeApplication", &["ApplicationIdentifier", "String"]),
    ("IdentifyTrayApplication", &["ApplicationIdentifier", "String"]),
    ("IdentifyLayeredApplication", &["ApplicationIdentifier", "String"]),
    ("IdentifyBorderOverflowApplication", &["ApplicationIdentifier", "String"]),
    ("State", &[]),
    ("GlobalState", &[]),
    ("VisibleWindows", &[]),
    ("MonitorInformation", &[]),
    ("Query", &["StateQuery"]),
    ("FocusFollowsMouse", &["FocusFollowsMouseImplementation", "bool"]),
    ("ToggleFocusFollowsMouse", &["FocusFollowsMouseImplementation"]),
    ("MouseFollowsFocus", &["bool"]),
    ("ToggleMouseFollowsFocus", &[]),
    ("RemoveTitleBar", &["ApplicationIdentifier", "String"]),
    ("ToggleTitleBars", &[]),
    ("AddSubscriberSocket", &["String"]),
    ("AddSubscriberSocketWithOptions", &["String", "SubscribeOptions"]),
    ("RemoveSubscriberSocket", &["String"]),
    ("AddSubscriberPipe", &["String"]),
    ("RemoveSubscriberPipe", &["String"]),
    ("ApplicationSpecificConfigurationSchema", &[]),
    ("NotificationSchema", &[]),
    ("SocketSchema", &[]),
    ("StaticConfigSchema", &[]),
    ("GenerateStaticConfig", &[]),
    ("DebugWindow", &["isize"]),
    ("ApplyState", &["State"]),
];

/// The values of the enums that message payloads use, as komorebi spells them.
const ENUMS: &[(&str, &[&str])] = &[
    ("ApplicationIdentifier", &["Exe", "Class", "Title", "Path"]),
    ("Axis", &["Horizontal", "Vertical", "HorizontalAndVertical"]),
    ("BorderImplementation", &["Komorebi", "Windows"]),
    ("BorderStyle", &["System", "Rounded", "Square"]),
    ("CycleDirection", &["Previous", "Next"]),
    (
        "DefaultLayout",
        &[
            "BSP",
            "Columns",
            "Rows",
            "VerticalStack",
            "HorizontalStack",
            "UltrawideVerticalStack",
            "Grid",
            "RightMainVerticalStack",
            "Scrolling",
        ],
    ),
    ("FocusFollowsMouseImplementation", &["Komorebi", "Windows"]),
    ("HidingBehaviour", &["Hide", "Minimize", "Cloak"]),
    ("MoveBehaviour", &["Swap", "Insert", "NoOp"]),
    ("OperationBehaviour", &["Op", "NoOp"]),
    ("OperationDirection", &["Left", "Right", "Up", "Down"]),
    ("Sizing", &["Increase", "Decrease"]),
    ("StackbarLabel", &["Process", "Title"]),
    ("StackbarMode", &["Always", "Never", "OnStack"]),
    (
        "StateQuery",
        &[
            "FocusedMonitorIndex",
            "FocusedWorkspaceIndex",
            "FocusedContainerIndex",
            "FocusedWindowIndex",
            "FocusedWorkspaceName",
            "FocusedWorkspaceLayout",
            "FocusedContainerKind",
            "Version",
        ],
    ),
    ("WindowKind", &["Single", "Stack", "Monocle", "Unfocused", "UnfocusedLocked", "Floating"]),
    ("AnimationPrefix", &["movement", "transparency"]),
    (
        "AnimationStyle",
        &[
            "Linear",
            "EaseInSine",
            "EaseOutSine",
            "EaseInOutSine",
            "EaseInQuad",
            "EaseOutQuad",
            "EaseInOutQuad",
            "EaseInCubic",
            "EaseOutCubic",
            "EaseInOutCubic",
            "EaseInQuart",
            "EaseOutQuart",
            "EaseInOutQuart",
            "EaseInQuint",
            "EaseOutQuint",
            "EaseInOutQuint",
            "EaseInExpo",
            "EaseOutExpo",
            "EaseInOutExpo",
            "EaseInCirc",
            "EaseOutCirc",
            "EaseInOutCirc",
            "EaseInBack",
            "EaseOutBack",
            "EaseInOutBack",
            "EaseInElastic",
            "EaseOutElastic",
            "EaseInOutElastic",
            "EaseInBounce",
            "EaseOutBounce",
            "EaseInOutBounce",
        ],
    ),
];

/// A message komorebi can read, in the form komorebi-bar writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub name: &'static str,
    /// The payload: one value, or an array of the values when there are several.
    pub content: Option<Value>,
}

/// Why a message cannot be sent: `at` is where in the message (`"type"`,
/// `"content[1]"`, or empty for the message itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    pub at: String,
    pub reason: String,
}

impl Message {
    /// A message without a payload.
    pub fn unit(name: &str) -> Message {
        Message::checked(name, None).expect("a message komorebi knows")
    }

    /// A message with a payload (an array when it has several values).
    pub fn with(name: &str, content: Value) -> Message {
        Message::checked(name, Some(content)).expect("a message komorebi knows, with its payload")
    }

    /// The `index`-th value of the payload: of its array, or the payload
    /// itself when it is one value.
    pub fn arg(&self, index: usize) -> Option<&Value> {
        match self.content.as_ref()? {
            Value::Array(values) => values.get(index),
            single if index == 0 => Some(single),
            _ => None,
        }
    }

    /// The `index`-th value as a count (an index, a size), 0 when it is none.
    pub fn number(&self, index: usize) -> usize {
        self.arg(index).and_then(Value::as_u64).unwrap_or(0) as usize
    }

    /// The `index`-th value as text, empty when it is none.
    pub fn text(&self, index: usize) -> &str {
        self.arg(index).and_then(Value::as_str).unwrap_or_default()
    }

    /// Reads `{"type": ..., "content": ...}`, checking the name and the payload's shape.
    pub fn parse(value: &Value) -> Result<Message, Invalid> {
        let invalid = |at: &str, reason: String| Invalid { at: at.into(), reason };
        let Some(object) = value.as_object() else {
            return Err(invalid("", format!("expected a komorebi message {{ \"type\": ... }}, found {value}")));
        };
        if let Some(unknown) = object.keys().find(|key| !matches!(key.as_str(), "type" | "content")) {
            return Err(invalid(unknown, format!("unknown field `{unknown}`; a message has `type` and `content`")));
        }
        let name = match object.get("type") {
            Some(Value::String(name)) => name,
            Some(other) => return Err(invalid("type", format!("expected a message name, found {other}"))),
            None => return Err(invalid("", "missing field `type`".into())),
        };
        Message::checked(name, object.get("content").cloned())
    }

    fn checked(name: &str, content: Option<Value>) -> Result<Message, Invalid> {
        let Some(&(name, types)) = MESSAGES.iter().find(|(known, _)| *known == name) else {
            let hint = crate::suggest::did_you_mean(name, MESSAGES.iter().map(|(known, _)| *known))
                .map(|close| format!("; did you mean `{close}`?"))
                .unwrap_or_default();
            return Err(Invalid { at: "type".into(), reason: format!("`{name}` is not a komorebi message{hint}") });
        };
        let content = content.filter(|content| !(types.is_empty() && content.is_null()));
        match (types, &content) {
            ([], None) => {}
            ([], Some(_)) => {
                return Err(Invalid { at: "content".into(), reason: format!("`{name}` takes no content") });
            }
            (_, None) => {
                return Err(Invalid { at: "".into(), reason: format!("`{name}` needs its content: {}", shape(types)) });
            }
            ([single], Some(value)) => {
                check_value(single, value).map_err(|reason| Invalid { at: "content".into(), reason })?
            }
            (several, Some(value)) => {
                let values = value.as_array().filter(|values| values.len() == several.len()).ok_or_else(|| {
                    Invalid { at: "content".into(), reason: format!("expected {}, found {value}", shape(several)) }
                })?;
                for (index, (ty, value)) in several.iter().zip(values).enumerate() {
                    check_value(ty, value).map_err(|reason| Invalid { at: format!("content[{index}]"), reason })?;
                }
            }
        }
        Ok(Message { name, content })
    }

    /// The JSON komorebi-bar sends for this message: compact, `type` first,
    /// a rectangle's sides in komorebi's order.
    pub fn to_json(&self) -> String {
        let mut json = format!("{{\"type\":{}", Value::from(self.name));
        if let Some(content) = &self.content {
            json.push_str(",\"content\":");
            let types = MESSAGES.iter().find(|(name, _)| *name == self.name).map_or(&[][..], |(_, types)| *types);
            match (types, content) {
                ([single], value) => write_value(&mut json, single, value),
                (several, Value::Array(values)) => {
                    json.push('[');
                    for (index, (ty, value)) in several.iter().zip(values).enumerate() {
                        if index > 0 {
                            json.push(',');
                        }
                        write_value(&mut json, ty, value);
                    }
                    json.push(']');
                }
                (_, value) => json.push_str(&value.to_string()),
            }
        }
        json.push('}');
        json
    }
}

/// "a CycleDirection", or "[usize, Rect]" for several values.
fn shape(types: &[&str]) -> String {
    match types {
        [single] => format!("a {single}"),
        several => format!("an array [{}]", several.join(", ")),
    }
}

/// Whether `value` is a `ty` as komorebi reads it.
fn check_value(ty: &str, value: &Value) -> Result<(), String> {
    let found = || format!("expected a {ty}, found {value}");
    let integer = |low: i128, high: i128| {
        let number = value.as_i64().map(i128::from).or_else(|| value.as_u64().map(i128::from));
        match number {
            Some(number) if (low..=high).contains(&number) => Ok(()),
            Some(number) => Err(format!("{number} is outside {low}..={high} for a {ty}")),
            None => Err(found()),
        }
    };
    let string_list = |value: &Value| value.as_array().is_some_and(|items| items.iter().all(Value::is_string));
    match ty {
        "usize" | "u64" => integer(0, u64::MAX as i128),
        "NonZeroUsize" => integer(1, u64::MAX as i128),
        "u32" => integer(0, u32::MAX as i128),
        "u8" => integer(0, u8::MAX as i128),
        "i32" => integer(i32::MIN as i128, i32::MAX as i128),
        "isize" => integer(i64::MIN as i128, i64::MAX as i128),
        "bool" => value.is_boolean().then_some(()).ok_or_else(found),
        "String" | "PathBuf" | "MonocleFocusBehaviour" => value.is_string().then_some(()).ok_or_else(found),
        "Option<String>" => (value.is_string() || value.is_null()).then_some(()).ok_or_else(found),
        "Vec<String>" => string_list(value).then_some(()).ok_or_else(found),
        "Option<Vec<f32>>" => {
            let numbers = value.as_array().is_some_and(|items| items.iter().all(Value::is_number));
            (value.is_null() || numbers).then_some(()).ok_or_else(found)
        }
        "Option<AnimationPrefix>" if value.is_null() => Ok(()),
        "Option<AnimationPrefix>" => check_value("AnimationPrefix", value),
        "Rect" => {
            let sides = value.as_object().filter(|sides| {
                sides.len() == 4 && RECT_SIDES.iter().all(|side| sides.get(*side).is_some_and(|n| n.is_i64()))
            });
            sides.map(drop).ok_or_else(|| {
                format!("expected a Rect {{ \"left\", \"top\", \"right\", \"bottom\" }} of integers, found {value}")
            })
        }
        "SubscribeOptions" => {
            let options = value.as_object().filter(|options| {
                options.len() == 1 && options.get("filter_state_changes").is_some_and(Value::is_boolean)
            });
            options
                .map(drop)
                .ok_or_else(|| format!("expected {{ \"filter_state_changes\": true|false }}, found {value}"))
        }
        "AnimationStyle" if value.is_object() => {
            let bezier = value.get("CubicBezier").and_then(Value::as_array);
            let well_formed = value.as_object().is_some_and(|object| object.len() == 1)
                && bezier.is_some_and(|points| points.len() == 4 && points.iter().all(Value::is_number));
            well_formed.then_some(()).ok_or_else(|| {
                format!("expected an AnimationStyle name or {{ \"CubicBezier\": [x1, y1, x2, y2] }}, found {value}")
            })
        }
        // A whole theme or state: komorebi checks these itself.
        "Box<KomorebiTheme>" | "State" => value.is_object().then_some(()).ok_or_else(found),
        enumeration => {
            let values = ENUMS
                .iter()
                .find(|(name, _)| *name == enumeration)
                .map(|(_, values)| *values)
                .unwrap_or_else(|| panic!("the payload type {enumeration} has no check"));
            match value.as_str() {
                Some(name) if values.contains(&name) => Ok(()),
                _ => Err(format!("expected a {ty}, one of {}; found {value}", values.join(", "))),
            }
        }
    }
}

/// komorebi's `Rect`, in the order of its fields.
const RECT_SIDES: [&str; 4] = ["left", "top", "right", "bottom"];

fn write_value(json: &mut String, ty: &str, value: &Value) {
    if ty == "Rect" {
        json.push('{');
        for (index, side) in RECT_SIDES.iter().enumerate() {
            let _ = write!(json, "{}\"{side}\":{}", if index > 0 { "," } else { "" }, value[side]);
        }
        json.push('}');
    } else {
        json.push_str(&value.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_payload_type_has_a_check() {
        // No payload type is a list of lists of booleans: each check refuses it,
        // and one without a check panics.
        let nonsense = json!([[true]]);
        for ty in MESSAGES.iter().flat_map(|(_, types)| types.iter()) {
            let refused = check_value(ty, &nonsense).expect_err(ty);
            assert!(refused.contains("expected") || refused.contains("outside"), "{ty}: {refused}");
        }
        assert_eq!(check_value("CycleDirection", &json!("Next")), Ok(()));
        assert_eq!(check_value("Rect", &json!({ "left": 0, "top": 0, "right": 10, "bottom": 20 })), Ok(()));
    }

    #[test]
    fn messages_are_written_as_komorebi_bar_writes_them() {
        let focus = Message::parse(&json!({ "content": "Next", "type": "CycleFocusWorkspace" })).unwrap();
        assert_eq!(focus.to_json(), r#"{"type":"CycleFocusWorkspace","content":"Next"}"#);
        assert_eq!(Message::unit("TogglePause").to_json(), r#"{"type":"TogglePause"}"#);
        let offset =
            Message::with("MonitorWorkAreaOffset", json!([0, { "bottom": 40, "top": 40, "right": 0, "left": 0 }]));
        assert_eq!(
            offset.to_json(),
            r#"{"type":"MonitorWorkAreaOffset","content":[0,{"left":0,"top":40,"right":0,"bottom":40}]}"#
        );
        assert_eq!(
            Message::with("MouseFollowsFocus", json!(false)).to_json(),
            r#"{"type":"MouseFollowsFocus","content":false}"#
        );
    }

    #[test]
    fn a_wrong_message_says_where_and_why() {
        let unknown = Message::parse(&json!({ "type": "CycleFocusWorkspaces", "content": "Next" })).unwrap_err();
        assert_eq!(unknown.at, "type");
        assert!(unknown.reason.contains("did you mean `CycleFocusWorkspace`?"), "{unknown:?}");
        let sideways = Message::parse(&json!({ "type": "CycleFocusWorkspace", "content": "Sideways" })).unwrap_err();
        assert_eq!(sideways.at, "content");
        assert!(sideways.reason.contains("one of Previous, Next"), "{sideways:?}");
        let short = Message::parse(&json!({ "type": "FocusMonitorWorkspaceNumber", "content": [1] })).unwrap_err();
        assert!(short.reason.contains("[usize, usize]"), "{short:?}");
        let negative =
            Message::parse(&json!({ "type": "FocusMonitorWorkspaceNumber", "content": [0, -1] })).unwrap_err();
        assert_eq!(negative.at, "content[1]");
        let missing = Message::parse(&json!({ "type": "ChangeLayout" })).unwrap_err();
        assert!(missing.reason.contains("needs its content: a DefaultLayout"), "{missing:?}");
        let extra = Message::parse(&json!({ "type": "TogglePause", "content": 1 })).unwrap_err();
        assert!(extra.reason.contains("takes no content"), "{extra:?}");
        assert!(Message::parse(&json!({ "type": "TogglePause", "content": null })).is_ok());
        assert!(Message::parse(&json!({ "type": "LayoutRatios", "content": [[0.3, 0.4], null] })).is_ok());
    }
}

//! An item's menu (com.canonical.dbusmenu), read with `GetLayout` and
//! flattened depth first into entries a widget can draw in the bar.
//! Entries a menu hides are left out; labels lose their mnemonic marks.

use serde::Deserialize;
use std::collections::HashMap;
use zbus::zvariant::{OwnedValue, Type, Value};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MenuEntry {
    pub id: i32,
    /// 0 for the top level, 1 inside a submenu of it ...
    pub depth: u32,
    pub label: String,
    pub enabled: bool,
    /// Its check mark or radio state, when it has one.
    pub toggled: Option<bool>,
    pub separator: bool,
    /// It opens the entries that follow it at the next depth.
    pub submenu: bool,
}

/// The menu's root as `GetLayout` answers it (after the layout's revision).
#[derive(Debug, Deserialize, Type)]
pub struct MenuLayout {
    /// The root's own id and properties: the menu's, which shows nothing.
    pub _id: i32,
    pub _properties: HashMap<String, OwnedValue>,
    pub children: Vec<OwnedValue>,
}

/// A menu's entries: the root is the menu itself, its children the top level.
pub fn read_layout(layout: &MenuLayout) -> Vec<MenuEntry> {
    let mut entries = Vec::new();
    for child in &layout.children {
        flatten(child, 0, &mut entries);
    }
    entries
}

/// What a value holds, out of the variants it is wrapped in.
fn unwrapped<'a, 'v>(mut value: &'a Value<'v>) -> &'a Value<'v> {
    while let Value::Value(inner) = value {
        value = inner;
    }
    value
}

fn flatten(value: &Value<'_>, depth: u32, entries: &mut Vec<MenuEntry>) {
    let Value::Structure(node) = unwrapped(value) else { return };
    let [Value::I32(id), Value::Dict(properties), Value::Array(children)] = node.fields() else { return };
    let property = |name: &str| {
        let (_, value) =
            properties.iter().find(|(key, _)| matches!(unwrapped(key), Value::Str(key) if key.as_str() == name))?;
        Some(unwrapped(value))
    };
    let text = |name: &str| match property(name) {
        Some(Value::Str(text)) => Some(text.as_str().to_owned()),
        _ => None,
    };
    let flag = |name: &str, default: bool| match property(name) {
        Some(Value::Bool(flag)) => *flag,
        _ => default,
    };
    if !flag("visible", true) {
        return;
    }
    let toggled = match (text("toggle-type").as_deref(), property("toggle-state")) {
        (Some("checkmark" | "radio"), Some(Value::I32(state))) => Some(*state == 1),
        (Some("checkmark" | "radio"), _) => Some(false),
        _ => None,
    };
    entries.push(MenuEntry {
        id: *id,
        depth,
        label: text("label").map(|label| without_mnemonics(&label)).unwrap_or_default(),
        enabled: flag("enabled", true),
        toggled,
        separator: text("type").as_deref() == Some("separator"),
        submenu: text("children-display").as_deref() == Some("submenu") || !children.is_empty(),
    });
    for child in children.iter() {
        flatten(child, depth + 1, entries);
    }
}

/// "_Open" is "Open"; "__" is a plain "_".
fn without_mnemonics(label: &str) -> String {
    let mut plain = String::with_capacity(label.len());
    let mut chars = label.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '_' {
            if chars.peek() == Some(&'_') {
                plain.push('_');
                chars.next();
            }
        } else {
            plain.push(c);
        }
    }
    plain
}

#[cfg(test)]
mod tests {
    use super::*;
    use zbus::zvariant::{Array, Dict, Signature, StructureBuilder};

    fn node(id: i32, properties: &[(&str, Value<'static>)], children: Vec<Value<'static>>) -> Value<'static> {
        let properties: HashMap<String, Value<'static>> =
            properties.iter().map(|(key, value)| ((*key).to_owned(), Value::Value(Box::new(value.clone())))).collect();
        let mut array = Array::new(&Signature::Variant);
        for child in children {
            array.append(Value::Value(Box::new(child))).unwrap();
        }
        let structure = StructureBuilder::new()
            .add_field(id)
            .append_field(Value::Dict(Dict::from(properties)))
            .append_field(Value::Array(array))
            .build()
            .unwrap();
        Value::Structure(structure)
    }

    #[test]
    fn a_menu_is_flattened_depth_first_with_what_it_hides_left_out() {
        let quit = node(4, &[("label", Value::from("_Quit"))], vec![]);
        let wifi = node(
            3,
            &[
                ("label", Value::from("Wi-Fi")),
                ("toggle-type", Value::from("checkmark")),
                ("toggle-state", Value::from(1)),
            ],
            vec![],
        );
        let hidden = node(5, &[("label", Value::from("Secret")), ("visible", Value::from(false))], vec![]);
        let settings = node(
            2,
            &[("label", Value::from("Set__tings")), ("children-display", Value::from("submenu"))],
            vec![wifi, hidden],
        );
        let separator = node(6, &[("type", Value::from("separator"))], vec![]);
        let children = [settings, separator, quit].map(|child| OwnedValue::try_from(child).unwrap()).to_vec();
        let entries = read_layout(&MenuLayout { _id: 0, _properties: HashMap::new(), children });
        let entry = |id, depth, label: &str, toggled, separator, submenu| MenuEntry {
            id,
            depth,
            label: label.into(),
            enabled: true,
            toggled,
            separator,
            submenu,
        };
        assert_eq!(
            entries,
            [
                entry(2, 0, "Set_tings", None, false, true),
                entry(3, 1, "Wi-Fi", Some(true), false, false),
                entry(6, 0, "", None, true, false),
                entry(4, 0, "Quit", None, false, false),
            ]
        );
    }
}

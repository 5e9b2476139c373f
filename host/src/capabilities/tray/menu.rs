//! An item's menu (com.canonical.dbusmenu), read with `GetLayout` and
//! flattened depth first into entries a widget can draw in the bar.
//! Entries a menu hides are left out; labels lose their mnemonic marks.
//! Only the properties drawn are read, in place: an entry's icon, or
//! anything else a menu sends, costs nothing.

use crate::capabilities::bus_properties::{Loose, PassedOver};
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use std::collections::HashMap;
use std::fmt;
use zbus::zvariant::{OwnedValue, Signature, Type};

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

/// The properties of an entry the tray reads, asked for by name: a menu
/// sends no icons nobody draws.
pub const PROPERTIES: [&str; 7] =
    ["label", "visible", "enabled", "toggle-type", "toggle-state", "type", "children-display"];

/// Entries read of a menu at most; the rest are left out.
pub const MOST_ENTRIES: usize = 256;

/// A node of the layout `GetLayout` answers (after the layout's revision):
/// the root is the menu itself, which shows nothing, and its children the
/// top level.
#[derive(Debug, serde::Deserialize, Type)]
pub struct MenuLayout {
    pub id: i32,
    pub properties: Properties,
    /// Each in a variant; one that holds no node is nothing.
    pub children: Vec<Loose<MenuLayout>>,
}

/// What the tray reads of an entry's properties, whatever else it has.
#[derive(Debug, Default)]
pub struct Properties {
    label: Option<String>,
    visible: Option<bool>,
    enabled: Option<bool>,
    toggle_type: Option<String>,
    toggle_state: Option<i32>,
    kind: Option<String>,
    children_display: Option<String>,
}

impl Type for Properties {
    const SIGNATURE: &'static Signature = <HashMap<String, OwnedValue> as Type>::SIGNATURE;
}

impl<'de> Deserialize<'de> for Properties {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(PropertiesVisitor)
    }
}

struct PropertiesVisitor;

impl<'de> Visitor<'de> for PropertiesVisitor {
    type Value = Properties;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a dictionary of properties")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Properties, A::Error> {
        let mut read = Properties::default();
        while let Some(key) = map.next_key::<&str>()? {
            match key {
                "label" => read.label = map.next_value::<Loose<String>>()?.0,
                "visible" => read.visible = map.next_value::<Loose<bool>>()?.0,
                "enabled" => read.enabled = map.next_value::<Loose<bool>>()?.0,
                "toggle-type" => read.toggle_type = map.next_value::<Loose<String>>()?.0,
                "toggle-state" => read.toggle_state = map.next_value::<Loose<i32>>()?.0,
                "type" => read.kind = map.next_value::<Loose<String>>()?.0,
                "children-display" => read.children_display = map.next_value::<Loose<String>>()?.0,
                _ => {
                    map.next_value::<PassedOver>()?;
                }
            }
        }
        Ok(read)
    }
}

/// A menu's entries, the first [`MOST_ENTRIES`] of them.
pub fn read_layout(layout: &MenuLayout) -> Vec<MenuEntry> {
    let mut entries = Vec::new();
    for child in layout.children.iter().filter_map(|child| child.0.as_ref()) {
        flatten(child, 0, &mut entries);
    }
    entries
}

fn flatten(node: &MenuLayout, depth: u32, entries: &mut Vec<MenuEntry>) {
    let properties = &node.properties;
    if !properties.visible.unwrap_or(true) || entries.len() == MOST_ENTRIES {
        return;
    }
    let toggled = match properties.toggle_type.as_deref() {
        Some("checkmark" | "radio") => Some(properties.toggle_state == Some(1)),
        _ => None,
    };
    entries.push(MenuEntry {
        id: node.id,
        depth,
        label: properties.label.as_deref().map(without_mnemonics).unwrap_or_default(),
        enabled: properties.enabled.unwrap_or(true),
        toggled,
        separator: properties.kind.as_deref() == Some("separator"),
        submenu: properties.children_display.as_deref() == Some("submenu") || !node.children.is_empty(),
    });
    for child in node.children.iter().filter_map(|child| child.0.as_ref()) {
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
    use zbus::zvariant::{Array, Dict, LE, StructureBuilder, Value, serialized::Context, to_bytes};

    fn node(id: i32, properties: &[(&str, Value<'static>)], children: Vec<Value<'static>>) -> Value<'static> {
        let properties: HashMap<String, Value<'static>> =
            properties.iter().map(|(key, value)| ((*key).to_owned(), value.clone())).collect();
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

    /// The layout of a menu of `children`, as a peer sends it and the tray reads it.
    fn layout(children: Vec<Value<'static>>) -> MenuLayout {
        let root = node(0, &[], children);
        let bytes = to_bytes(Context::new_dbus(LE, 0), &root).unwrap();
        bytes.deserialize::<Loose<MenuLayout>>().unwrap().0.0.unwrap()
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
        let icon = node(7, &[("icon-data", Value::from(vec![0u8; 1 << 20])), ("visible", Value::from("no"))], vec![]);
        let entries = read_layout(&layout(vec![settings, separator, quit, icon]));
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
                entry(7, 0, "", None, false, false),
            ]
        );
    }
}

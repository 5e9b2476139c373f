//! sway's input devices (`GET_INPUTS`, sway's own message): the keyboard
//! layout in use, which the bar shows on Wayland, where there is no XKB
//! server to ask. The keyboard is the first with more than one layout to
//! switch between, else the first with a layout at all (power buttons and
//! other keys call themselves keyboards too, and some have no keymap).

use crate::tiler::KeyboardLayout;
use serde::Deserialize;

#[derive(Deserialize)]
struct Device {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    xkb_layout_names: Vec<String>,
    #[serde(default)]
    xkb_active_layout_name: Option<String>,
}

/// The keyboard layout in use, from `GET_INPUTS`' reply; none when no
/// keyboard has one or the reply cannot be read.
pub fn keyboard_layout(reply: &[u8]) -> Option<KeyboardLayout> {
    let devices: Vec<Device> = serde_json::from_slice(reply).ok()?;
    let keyboards =
        devices.iter().filter(|device| device.kind == "keyboard" && device.xkb_active_layout_name.is_some());
    let chosen =
        keyboards.clone().find(|device| device.xkb_layout_names.len() > 1).or_else(|| keyboards.clone().next())?;
    Some(KeyboardLayout {
        name: chosen.xkb_active_layout_name.clone()?,
        // sway names layouts by their description alone.
        short_name: String::new(),
        all: chosen.xkb_layout_names.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keyboard_with_layouts_to_switch_between_is_taken() {
        let reply = br#"[
            { "identifier": "0:1:Power_Button", "type": "keyboard", "xkb_layout_names": ["English (US)"], "xkb_active_layout_name": "English (US)" },
            { "identifier": "1:2:pointer", "type": "pointer" },
            { "identifier": "3:4:virtual", "type": "keyboard", "xkb_layout_names": [] },
            { "identifier": "1:1:AT", "type": "keyboard", "xkb_layout_names": ["English (US)", "German"], "xkb_active_layout_index": 1, "xkb_active_layout_name": "German" }
        ]"#;
        let layout = keyboard_layout(reply).unwrap();
        assert_eq!(
            (layout.name.as_str(), layout.all.as_slice()),
            ("German", ["English (US)".to_owned(), "German".to_owned()].as_slice())
        );
        let single = br#"[{ "type": "keyboard", "xkb_layout_names": ["French"], "xkb_active_layout_name": "French" }]"#;
        assert_eq!(keyboard_layout(single).unwrap().name, "French");
        assert_eq!(keyboard_layout(br#"[{ "type": "pointer" }]"#), None);
        assert_eq!(keyboard_layout(b"not json"), None);
    }
}

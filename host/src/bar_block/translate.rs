//! A `bar { }` block as the config beneath the user's: its edge, height
//! and font; its colours as the theme (the background, the status line's
//! text, the separator as the muted colour, the focused and urgent
//! workspaces' fills and text); the workspace buttons and the binding
//! mode on the left, the status command and the tray on the right.

use super::{BarBlock, Position};
use crate::colour::Rgba;
use crate::import::palette::Roles;
use serde_json::{Map, Value, json};

/// sway's and i3's font when a block names none: `monospace 10`.
const DEFAULT_FONT: &str = "monospace 10";

/// Pixels to a point, at the 96 dots an inch Pango assumes.
const PIXELS_PER_POINT: f64 = 96.0 / 72.0;

/// The words of a Pango font description that are its style, not its family.
const STYLE_WORDS: &[&str] = &[
    "normal",
    "roman",
    "oblique",
    "italic",
    "small-caps",
    "thin",
    "ultra-light",
    "extra-light",
    "light",
    "semi-light",
    "demi-light",
    "book",
    "regular",
    "medium",
    "semi-bold",
    "demi-bold",
    "bold",
    "ultra-bold",
    "extra-bold",
    "heavy",
    "black",
    "ultra-black",
    "extra-black",
    "ultra-condensed",
    "extra-condensed",
    "condensed",
    "semi-condensed",
    "semi-expanded",
    "expanded",
    "extra-expanded",
    "ultra-expanded",
];

/// The config `block` describes for its bar on the output named `output`
/// (none: not known yet), the first or another, as `komorebi.bar.json`'s
/// keys.
pub fn config(block: &BarBlock, output: Option<&str>, first: bool) -> Value {
    let mut keys = Map::new();
    let font = Font::read(block.font.as_deref().unwrap_or(DEFAULT_FONT))
        .or_else(|| Font::read(DEFAULT_FONT))
        .expect("the default font reads");
    if let Some(family) = &font.family {
        keys.insert("font_family".into(), family.clone().into());
    }
    keys.insert("font_size".into(), round(font.pixels).into());
    // As tall as the font needs, with a little room, where the block says nothing.
    let height = block.height.filter(|height| *height > 0).map_or_else(|| round(font.pixels * 1.6 + 2.0), f64::from);
    keys.insert("height".into(), height.into());
    if block.position == Position::Bottom {
        keys.insert("edge".into(), "Bottom".into());
    }
    keys.insert("margin".into(), margin(block));
    keys.insert("padding".into(), json!({ "top": 1, "bottom": 1, "left": 3, "right": 3 }));
    let roles = roles(block);
    if !roles.is_empty() {
        keys.insert("theme".into(), roles.theme());
    }
    let alpha = roles.background.map_or(255, |Rgba(.., alpha)| alpha);
    keys.insert("transparency_alpha".into(), alpha.into());
    let mut workspaces = json!({ "enable": block.workspace_buttons, "hide_empty_workspaces": false });
    let states = ["focused", "active", "inactive", "urgent"];
    let colours: Map<String, Value> = states
        .into_iter()
        .filter_map(|state| Some((state.to_owned(), button(block, &format!("{state}_workspace"))?)))
        .collect();
    if !colours.is_empty() {
        workspaces["colours"] = colours.into();
    }
    // With both, i3bar shows the number: the name is stripped last.
    if block.strip_workspace_name {
        workspaces["strip"] = "Names".into();
    } else if block.strip_workspace_numbers {
        workspaces["strip"] = "Numbers".into();
    }
    let mut binding_mode = json!({ "enable": block.binding_mode_indicator });
    if let Some(colours) = button(block, "binding_mode") {
        binding_mode["colours"] = colours;
    }
    let workspaces = json!({ "Komorebi": { "workspaces": workspaces, "binding_mode": binding_mode } });
    keys.insert("left_widgets".into(), json!([workspaces]));
    let mut right = Vec::new();
    if let Some(command) = block.status_command.as_deref().filter(|command| !command.trim().is_empty()) {
        right.push(json!({ "StatusCommand": { "enable": true, "command": command } }));
    }
    if has_tray(block, output, first) {
        right.push(json!({ "Systray": { "enable": true } }));
    }
    keys.insert("right_widgets".into(), right.into());
    say_what_is_not_carried_over(block);
    Value::Object(keys)
}

/// Logs each of the block's settings Obi does not draw. Its colours are
/// not among them: the tiler gives every one, set or not.
fn say_what_is_not_carried_over(block: &BarBlock) {
    let id = &block.id;
    let said = [(block.separator_symbol.is_some(), "separator_symbol", "Obi draws a line between status blocks")];
    for (_, what, why) in said.into_iter().filter(|(said, ..)| *said) {
        tracing::warn!("bar {id}: `{what}` is not carried over: {why}");
    }
}

/// sway's `gaps` around the bar, as the room between the window's edges
/// and the bar's background.
fn margin(block: &BarBlock) -> Value {
    let side = |name: &str| {
        let pixels = block.gaps.as_ref().and_then(|gaps| gaps.get(name)).and_then(Value::as_f64).unwrap_or(0.0);
        pixels.clamp(0.0, MAX_GAP)
    };
    json!({ "top": side("top"), "right": side("right"), "bottom": side("bottom"), "left": side("left") })
}

/// The most room around the bar taken from a block: wider is a mistake.
const MAX_GAP: f64 = 1000.0;

/// The colours of the block's button `name` (`focused_workspace`,
/// `binding_mode`), as its `_border`, `_bg` and `_text`; none when it gives
/// none of them.
fn button(block: &BarBlock, name: &str) -> Option<Value> {
    let mut colours = Map::new();
    for (suffix, key) in [("border", "border"), ("bg", "background"), ("text", "text")] {
        if let Some(hex) = block.colors.get(&format!("{name}_{suffix}")).filter(|hex| colour(hex).is_some()) {
            colours.insert(key.to_owned(), hex.clone().into());
        }
    }
    (!colours.is_empty()).then_some(Value::Object(colours))
}

/// Whether the bar on `output` shows the tray: on every output unless the
/// block lists some (`tray_output`; `primary`, i3's word for the primary
/// monitor, is taken for the first), or says `none`. An output not known
/// yet has it unless the block says `none`.
fn has_tray(block: &BarBlock, output: Option<&str>, first: bool) -> bool {
    let Some(listed) = &block.tray_outputs else { return true };
    let names = |output: &str| listed.iter().any(|listed| listed == output || listed == "*");
    match output {
        _ if listed.iter().any(|listed| listed == "none") => false,
        Some(output) => names(output) || (first && names("primary")),
        None => true,
    }
}

/// The block's colours in the roles Obi's theme gives them.
fn roles(block: &BarBlock) -> Roles {
    let colour = |key: &str| block.colors.get(key).and_then(|hex| colour(hex));
    Roles {
        background: colour("background"),
        text: colour("statusline"),
        muted: colour("separator"),
        selected_fill: colour("focused_workspace_bg"),
        selected_text: colour("focused_workspace_text"),
        urgent: colour("urgent_workspace_bg"),
    }
}

/// `#rrggbb` or `#rrggbbaa`.
fn colour(hex: &str) -> Option<Rgba> {
    let hex = hex.strip_prefix('#')?;
    let channel = |at: usize| hex.get(at..at + 2).and_then(|pair| u8::from_str_radix(pair, 16).ok());
    let alpha = match hex.len() {
        6 => 255,
        8 => channel(6)?,
        _ => return None,
    };
    Some(Rgba(channel(0)?, channel(2)?, channel(4)?, alpha))
}

fn round(pixels: f64) -> f64 {
    (pixels * 10.0).round() / 10.0
}

/// A Pango font description, read: `[pango:]FAMILY[, FAMILY…] [STYLE…] SIZE[px]`.
#[derive(Debug, PartialEq)]
struct Font {
    /// The first family it names; none for an X core font (`-misc-fixed-…`).
    family: Option<String>,
    pixels: f64,
}

impl Font {
    fn read(description: &str) -> Option<Font> {
        let description = description.trim();
        let Some(pango) = description.strip_prefix("pango:").or((!description.starts_with('-')).then_some(description))
        else {
            // An X core font: its pixel size is its seventh field.
            let pixels = description.split('-').nth(7).and_then(|size| size.parse::<f64>().ok());
            return Some(Font { family: None, pixels: pixels.filter(|pixels| *pixels > 0.0)? });
        };
        let mut words: Vec<&str> = pango.split_whitespace().collect();
        let size = words.last().and_then(|last| match last.strip_suffix("px") {
            Some(pixels) => pixels.parse::<f64>().ok(),
            None => last.parse::<f64>().ok().map(|points| points * PIXELS_PER_POINT),
        });
        if size.is_some() {
            words.pop();
        }
        while words.last().is_some_and(|word| STYLE_WORDS.contains(&word.to_lowercase().as_str())) {
            words.pop();
        }
        let families = words.join(" ");
        let family = families.split(',').next().map(str::trim).filter(|family| !family.is_empty());
        let pixels = size.filter(|pixels| pixels.is_finite() && *pixels > 0.0).unwrap_or(10.0 * PIXELS_PER_POINT);
        Some(Font { family: family.map(str::to_owned), pixels })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bar_block::{HiddenState, Mode};
    use crate::config::BarConfig;

    fn block() -> BarBlock {
        BarBlock {
            id: "bar-0".into(),
            mode: Mode::Dock,
            hidden_state: HiddenState::Hide,
            position: Position::Bottom,
            status_command: Some("i3status".into()),
            font: Some("pango:DejaVu Sans Mono Bold 12".into()),
            height: None,
            workspace_buttons: true,
            strip_workspace_numbers: false,
            strip_workspace_name: false,
            binding_mode_indicator: true,
            colors: [
                ("background", "#10203080"),
                ("statusline", "#f0f0f0"),
                ("separator", "#666666"),
                ("focused_workspace_bg", "#285577"),
                ("focused_workspace_text", "#ffffff"),
                ("urgent_workspace_bg", "#900000"),
            ]
            .into_iter()
            .map(|(key, colour)| (key.to_owned(), colour.to_owned()))
            .collect(),
            tray_outputs: None,
            outputs: None,
            separator_symbol: None,
            gaps: None,
        }
    }

    #[test]
    fn fonts_as_pango_and_x_describe_them() {
        let font = |description| Font::read(description).unwrap();
        assert_eq!(
            font("pango:DejaVu Sans Mono Bold 12"),
            Font { family: Some("DejaVu Sans Mono".into()), pixels: 16.0 }
        );
        assert_eq!(font("monospace 10").family.as_deref(), Some("monospace"));
        assert_eq!(font("Noto Sans, FontAwesome 14px"), Font { family: Some("Noto Sans".into()), pixels: 14.0 });
        assert_eq!(
            font("-misc-fixed-medium-r-normal--13-120-75-75-C-70-iso10646-1"),
            Font { family: None, pixels: 13.0 }
        );
        assert_eq!(font("pango:Terminus").pixels, 10.0 * PIXELS_PER_POINT, "no size: Pango's 10 points");
    }

    #[test]
    fn the_block_is_a_config_obi_reads() {
        let config = config(&block(), None, true);
        let loaded = BarConfig::parse(&config.to_string(), "bar-0").unwrap().config;
        assert_eq!((loaded.font_family(), loaded.font_size(), loaded.height()), (Some("DejaVu Sans Mono"), 16.0, 27.6));
        assert_eq!(loaded.edge(), crate::config::model::Edge::Bottom);
        assert_eq!(loaded.transparency_alpha(), 0x80);
        let theme = crate::theme::Theme::from_config(loaded.model.theme.as_ref(), 255);
        assert_eq!(
            (theme.background, theme.text, theme.muted),
            (Rgba(0x10, 0x20, 0x30, 255), Rgba(0xf0, 0xf0, 0xf0, 255), Rgba(0x66, 0x66, 0x66, 255))
        );
        assert_eq!((theme.selected_fill, theme.urgent), (Rgba(0x28, 0x55, 0x77, 255), Rgba(0x90, 0, 0, 255)));
        assert_eq!(theme.selected_text, Rgba(0xff, 0xff, 0xff, 255));
        let kinds = |side: &[crate::config::model::WidgetConfig]| side.iter().map(|w| w.kind()).collect::<Vec<_>>();
        assert_eq!(kinds(&loaded.model.left_widgets), ["Komorebi"]);
        let workspaces = &config["left_widgets"][0]["Komorebi"]["workspaces"];
        assert_eq!(workspaces["colours"]["focused"], json!({ "background": "#285577", "text": "#ffffff" }));
        assert_eq!(workspaces["colours"].get("inactive"), None, "the block gives none");
        assert_eq!(kinds(&loaded.model.right_widgets), ["StatusCommand", "Systray"]);
    }

    #[test]
    fn a_block_without_a_tray_or_a_status_command_has_neither() {
        let bare =
            BarBlock { status_command: None, tray_outputs: Some(vec!["none".into()]), height: Some(30), ..block() };
        let config = config(&bare, Some("HDMI-1"), true);
        assert_eq!(config["right_widgets"], json!([]));
        assert_eq!(config["height"], json!(30.0));
        let top = config_of(BarBlock { position: Position::Top, ..block() });
        assert_eq!(top.get("edge"), None);
        let gapped =
            config_of(BarBlock { gaps: Some(json!({ "top": 4, "right": 8, "bottom": 0, "left": 8 })), ..block() });
        assert_eq!(gapped["margin"], json!({ "top": 4.0, "right": 8.0, "bottom": 0.0, "left": 8.0 }));
        let stripped = config_of(BarBlock { strip_workspace_numbers: true, ..block() });
        assert_eq!(stripped["left_widgets"][0]["Komorebi"]["workspaces"]["strip"], "Numbers");
    }

    fn config_of(block: BarBlock) -> Value {
        config(&block, None, true)
    }

    #[test]
    fn the_tray_is_on_the_outputs_the_block_lists() {
        let on = |outputs: Option<Vec<&str>>, output: Option<&str>, first: bool| {
            let block = BarBlock {
                tray_outputs: outputs.map(|outputs| outputs.into_iter().map(Into::into).collect()),
                ..block()
            };
            config(&block, output, first)["right_widgets"]
                .as_array()
                .unwrap()
                .iter()
                .any(|widget| widget.get("Systray").is_some())
        };
        assert!(on(None, Some("DP-1"), false), "on every output by default");
        assert!(on(Some(vec!["DP-1"]), Some("DP-1"), false) && !on(Some(vec!["DP-1"]), Some("HDMI-1"), true));
        assert!(!on(Some(vec!["none"]), None, true));
        assert!(on(Some(vec!["primary"]), Some("HDMI-1"), true) && !on(Some(vec!["primary"]), Some("DP-1"), false));
    }
}

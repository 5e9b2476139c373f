//! Another bar's colours as Obi's theme: a custom Base16 palette with each
//! colour in the role Obi's theme gives it (background `base_01`, text
//! `base_05`, muted `base_03`, selected fill `base_0d`, urgent `base_08`,
//! the selected text `base_07`), the rest of the palette in between. What
//! the other bar does not say is Obi's default (Catppuccin Mocha).

use crate::colour::Rgba;
use serde_json::{Map, Value, json};

/// The colours another bar gives, by the role each plays.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Roles {
    pub background: Option<Rgba>,
    pub text: Option<Rgba>,
    /// Faded things, and separators; halfway from the background to the
    /// text when not given.
    pub muted: Option<Rgba>,
    pub selected_fill: Option<Rgba>,
    pub selected_text: Option<Rgba>,
    pub urgent: Option<Rgba>,
}

impl Roles {
    pub fn is_empty(&self) -> bool {
        *self == Roles::default()
    }

    /// The `theme` of Obi's config that draws in these colours.
    pub fn theme(&self) -> Value {
        let default = crate::theme::Theme::from_config(None, 255);
        let opaque = |colour: Option<Rgba>, default: Rgba| colour.unwrap_or(default).with_alpha(255);
        let background = opaque(self.background, default.background);
        let text = opaque(self.text, default.text);
        let selected_fill = opaque(self.selected_fill, default.accent);
        let selected_text = opaque(self.selected_text, default.selected_text);
        let urgent = opaque(self.urgent, default.urgent);
        let muted = opaque(self.muted, between(background, text, 0.5));
        let hex = |Rgba(red, green, blue, _): Rgba| format!("#{red:02x}{green:02x}{blue:02x}");
        let palette = [
            background,
            background,
            between(background, text, 0.2),
            muted,
            between(background, text, 0.8),
            text,
            text,
            selected_text,
            urgent,
            urgent,
            selected_fill,
            selected_fill,
            selected_fill,
            selected_fill,
            selected_fill,
            urgent,
        ];
        let mut colours = Map::new();
        for (index, colour) in palette.into_iter().enumerate() {
            colours.insert(format!("base_0{index:x}"), hex(colour).into());
        }
        json!({ "palette": "Custom", "colours": colours, "auto_select_text": "Base07" })
    }
}

/// `share` of the way from `from` to `to`, opaque.
fn between(from: Rgba, to: Rgba, share: f32) -> Rgba {
    let [red, green, blue, _] = mix([from.0, from.1, from.2, 255], [to.0, to.1, to.2, 255], share);
    Rgba(red, green, blue, 255)
}

/// `share` (0 to 1) of the way from `from` to `to`, channel by channel,
/// as GTK's `mix()` has it.
pub fn mix(from: [u8; 4], to: [u8; 4], share: f32) -> [u8; 4] {
    let share = share.clamp(0.0, 1.0);
    std::array::from_fn(|index| (f32::from(from[index]) * (1.0 - share) + f32::from(to[index]) * share).round() as u8)
}

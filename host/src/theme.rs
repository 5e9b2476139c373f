//! Colours the bar is drawn with, from the config's `theme`: a Catppuccin
//! flavour (the `catppuccin` crate), one of the 269 named Base16 palettes
//! (carried in `assets/base16-palettes.json`), or a custom Base16 palette.
//!
//! | role | Catppuccin | Base16 and Custom |
//! |---|---|---|
//! | background (at `transparency_alpha`) | `base` | `Base01` |
//! | text | `text` | `Base05` |
//! | accent | `accent` (default `Blue`) | `accent` (default `Base0D`) |
//! | selected item fill | `auto_select_fill` (default: the accent) | `auto_select_fill` (default: the accent) |
//! | selected item text | `auto_select_text` (default `crust`) | `auto_select_text` (default `Base01`) |
//! | muted item text (an empty workspace) | `overlay1` | `Base03` |
//! | urgent item fill (its text: the selected text) | `red` | `Base08` |
//! | failed widget | `red` | `Base08` |
//!
//! Without a `theme`, the bar uses Catppuccin Mocha with the defaults above.

use crate::colour::{Rgba, base16_palette, parse_hex};
use crate::config::model::{Base16Value, Catppuccin, CatppuccinValue, Colour, KomobarTheme};

#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    pub background: Rgba,
    pub text: Rgba,
    pub accent: Rgba,
    pub selected_fill: Rgba,
    pub selected_text: Rgba,
    /// Items that are there but idle.
    pub muted: Rgba,
    /// The fill of items that ask for attention.
    pub urgent: Rgba,
    pub error: Rgba,
}

impl Theme {
    /// The theme of a config; a Base16 name or custom colour the config
    /// check did not catch falls back to the default rather than failing.
    pub fn from_config(theme: Option<&KomobarTheme>, transparency_alpha: u8) -> Theme {
        let theme = match theme {
            None => catppuccin(Catppuccin::Mocha, None, None, None),
            Some(KomobarTheme::Catppuccin(theme)) => {
                catppuccin(theme.name, theme.accent, theme.auto_select_fill, theme.auto_select_text)
            }
            Some(KomobarTheme::Base16(theme)) => match base16_palette(&theme.name) {
                Some(palette) => base16(&palette, theme.accent, theme.auto_select_fill, theme.auto_select_text),
                None => catppuccin(Catppuccin::Mocha, None, None, None),
            },
            Some(KomobarTheme::Custom(theme)) => {
                let colours = &theme.colours;
                let palette = [
                    &colours.base_00,
                    &colours.base_01,
                    &colours.base_02,
                    &colours.base_03,
                    &colours.base_04,
                    &colours.base_05,
                    &colours.base_06,
                    &colours.base_07,
                    &colours.base_08,
                    &colours.base_09,
                    &colours.base_0a,
                    &colours.base_0b,
                    &colours.base_0c,
                    &colours.base_0d,
                    &colours.base_0e,
                    &colours.base_0f,
                ]
                .map(|colour| colour_rgba(colour).unwrap_or(Rgba::rgb(0, 0, 0)));
                base16(&palette, theme.accent, theme.auto_select_fill, theme.auto_select_text)
            }
        };
        Theme { background: theme.background.with_alpha(transparency_alpha), ..theme }
    }
}

/// A config colour; `None` for a malformed hex string.
pub fn colour_rgba(colour: &Colour) -> Option<Rgba> {
    match colour {
        Colour::Rgb(rgb) => Some(Rgba::rgb(rgb.r, rgb.g, rgb.b)),
        Colour::Hex(hex) => parse_hex(hex),
    }
}

fn base16(
    palette: &[Rgba; 16],
    accent: Option<Base16Value>,
    fill: Option<Base16Value>,
    text: Option<Base16Value>,
) -> Theme {
    let pick = |value: Base16Value| palette[value as usize];
    let accent = pick(accent.unwrap_or(Base16Value::Base0D));
    Theme {
        background: pick(Base16Value::Base01),
        text: pick(Base16Value::Base05),
        accent,
        selected_fill: fill.map_or(accent, pick),
        selected_text: pick(text.unwrap_or(Base16Value::Base01)),
        muted: pick(Base16Value::Base03),
        urgent: pick(Base16Value::Base08),
        error: pick(Base16Value::Base08),
    }
}

fn catppuccin(
    flavour: Catppuccin,
    accent: Option<CatppuccinValue>,
    fill: Option<CatppuccinValue>,
    text: Option<CatppuccinValue>,
) -> Theme {
    let palette = &catppuccin::PALETTE;
    let colours = match flavour {
        Catppuccin::Frappe => &palette.frappe.colors,
        Catppuccin::Latte => &palette.latte.colors,
        Catppuccin::Macchiato => &palette.macchiato.colors,
        Catppuccin::Mocha => &palette.mocha.colors,
    };
    let pick = |value: CatppuccinValue| {
        use CatppuccinValue::*;
        let colour = match value {
            Rosewater => &colours.rosewater,
            Flamingo => &colours.flamingo,
            Pink => &colours.pink,
            Mauve => &colours.mauve,
            Red => &colours.red,
            Maroon => &colours.maroon,
            Peach => &colours.peach,
            Yellow => &colours.yellow,
            Green => &colours.green,
            Teal => &colours.teal,
            Sky => &colours.sky,
            Sapphire => &colours.sapphire,
            Blue => &colours.blue,
            Lavender => &colours.lavender,
            Text => &colours.text,
            Subtext1 => &colours.subtext1,
            Subtext0 => &colours.subtext0,
            Overlay2 => &colours.overlay2,
            Overlay1 => &colours.overlay1,
            Overlay0 => &colours.overlay0,
            Surface2 => &colours.surface2,
            Surface1 => &colours.surface1,
            Surface0 => &colours.surface0,
            Base => &colours.base,
            Mantle => &colours.mantle,
            Crust => &colours.crust,
        };
        Rgba::rgb(colour.rgb.r, colour.rgb.g, colour.rgb.b)
    };
    let accent = pick(accent.unwrap_or(CatppuccinValue::Blue));
    Theme {
        background: pick(CatppuccinValue::Base),
        text: pick(CatppuccinValue::Text),
        accent,
        selected_fill: fill.map_or(accent, pick),
        selected_text: pick(text.unwrap_or(CatppuccinValue::Crust)),
        muted: pick(CatppuccinValue::Overlay1),
        urgent: pick(CatppuccinValue::Red),
        error: pick(CatppuccinValue::Red),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn theme(json: &str) -> Theme {
        Theme::from_config(Some(&serde_json::from_str(json).unwrap()), 255)
    }

    #[test]
    fn catppuccin_roles() {
        let mocha = theme(r#"{ "palette": "Catppuccin", "name": "Mocha" }"#);
        assert_eq!(mocha.background, Rgba::rgb(0x1e, 0x1e, 0x2e));
        assert_eq!(mocha.text, Rgba::rgb(0xcd, 0xd6, 0xf4));
        assert_eq!(mocha.accent, Rgba::rgb(0x89, 0xb4, 0xfa));
        let latte = theme(r#"{ "palette": "Pastel", "name": "Latte", "accent": "Mauve", "auto_select_text": "Base" }"#);
        assert_eq!(latte.background, Rgba::rgb(0xef, 0xf1, 0xf5));
        assert_eq!(latte.accent, Rgba::rgb(0x88, 0x39, 0xef));
        assert_eq!(latte.selected_fill, latte.accent);
        assert_eq!(latte.selected_text, latte.background);
    }

    #[test]
    fn base16_roles() {
        let nord = theme(r#"{ "palette": "Base16", "name": "Nord", "auto_select_fill": "Base08" }"#);
        assert_eq!(nord.background, parse_hex("#3b4252").unwrap());
        assert_eq!(nord.text, parse_hex("#e5e9f0").unwrap());
        assert_eq!(nord.accent, parse_hex("#81a1c1").unwrap());
        assert_eq!(nord.selected_fill, nord.error);
    }

    #[test]
    fn custom_palettes_take_rgb_and_hex() {
        let mut colours = serde_json::Map::new();
        for index in 0..16 {
            let key = format!("base_0{index:x}");
            let value = if index % 2 == 0 {
                serde_json::json!(format!("#0{index:x}0{index:x}0{index:x}"))
            } else {
                serde_json::json!({ "r": index, "g": 0, "b": 0 })
            };
            colours.insert(key, value);
        }
        let custom = theme(&serde_json::json!({ "palette": "Custom", "colours": colours }).to_string());
        assert_eq!(custom.background, Rgba::rgb(1, 0, 0));
        assert_eq!(custom.text, Rgba::rgb(5, 0, 0));
        assert_eq!(custom.accent, Rgba::rgb(13, 0, 0));
    }

    #[test]
    fn the_default_is_catppuccin_mocha_at_the_configured_alpha() {
        let default = Theme::from_config(None, 200);
        assert_eq!(default.background, Rgba(0x1e, 0x1e, 0x2e, 200));
    }
}

//! Colours as the config writes them: RGBA, hex strings (`#rrggbb`,
//! `#rgb`), and the 269 Base16 palettes by the names the config uses,
//! carried over from the Base16 project's scheme files into
//! `assets/base16-palettes.json`. Which colour plays which role in the bar
//! is the theme's business ([`crate::theme`]).

use std::collections::BTreeMap;
use std::sync::LazyLock;

/// An RGBA colour, 8 bits a channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rgba(pub u8, pub u8, pub u8, pub u8);

impl Rgba {
    pub const fn rgb(r: u8, g: u8, b: u8) -> Rgba {
        Rgba(r, g, b, 255)
    }

    pub fn with_alpha(self, alpha: u8) -> Rgba {
        Rgba(self.0, self.1, self.2, alpha)
    }
}

const BASE16_PALETTES_JSON: &str = include_str!("../assets/base16-palettes.json");

static PALETTES: LazyLock<BTreeMap<String, [Rgba; 16]>> = LazyLock::new(|| {
    let files: BTreeMap<String, BTreeMap<String, String>> =
        serde_json::from_str(BASE16_PALETTES_JSON).expect("the embedded Base16 palettes are JSON");
    files
        .into_iter()
        .map(|(name, colours)| {
            let palette = std::array::from_fn(|index| {
                let key = format!("base{index:02X}");
                let hex = colours.get(&key).unwrap_or_else(|| panic!("Base16 palette {name} lacks {key}"));
                parse_hex(hex).unwrap_or_else(|| panic!("Base16 palette {name} has a bad {key}: {hex}"))
            });
            (name, palette)
        })
        .collect()
});

/// Every palette name, in order.
pub static BASE16_NAMES: LazyLock<Vec<&'static str>> = LazyLock::new(|| PALETTES.keys().map(String::as_str).collect());

/// `Base00` .. `Base0F` of the palette called `name`.
pub fn base16_palette(name: &str) -> Option<[Rgba; 16]> {
    PALETTES.get(name).copied()
}

/// `#rrggbb`, `rrggbb`, `#rgb` or `rgb`.
pub fn parse_hex(text: &str) -> Option<Rgba> {
    let digits = text.strip_prefix('#').unwrap_or(text);
    if !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let channel = |range: std::ops::Range<usize>| u8::from_str_radix(&digits[range], 16).ok();
    match digits.len() {
        6 => Some(Rgba::rgb(channel(0..2)?, channel(2..4)?, channel(4..6)?)),
        3 => {
            let short = |index: usize| channel(index..index + 1).map(|value| value * 17);
            Some(Rgba::rgb(short(0)?, short(1)?, short(2)?))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_269_palettes_resolve() {
        assert_eq!(BASE16_NAMES.len(), 269);
        for name in BASE16_NAMES.iter() {
            assert!(base16_palette(name).is_some(), "{name}");
        }
        assert_eq!(base16_palette("3024").unwrap()[0], Rgba::rgb(0x09, 0x03, 0x00));
    }

    #[test]
    fn hex_forms() {
        assert_eq!(parse_hex("#1e1e2e"), Some(Rgba::rgb(0x1e, 0x1e, 0x2e)));
        assert_eq!(parse_hex("fff"), Some(Rgba::rgb(255, 255, 255)));
        assert_eq!(parse_hex("#12345"), None);
        assert_eq!(parse_hex("#gg0000"), None);
    }
}

//! Colours the bar is drawn with. Until the `theme` property is read, every
//! bar uses the dark default: Catppuccin Mocha, accent Blue.
//!
//! | role                 | Catppuccin Mocha      |
//! |----------------------|-----------------------|
//! | background           | `base` at `transparency_alpha` |
//! | text                 | `text`                |
//! | accent / selected fill | `blue`              |
//! | selected text        | `crust`               |
//! | failed widget        | `red`                 |

/// The 269 Base16 palettes by the names the config uses, as carried over
/// from the Base16 project's scheme files (`assets/base16-palettes.json`).
pub const BASE16_PALETTES_JSON: &str = include_str!("../../assets/base16-palettes.json");

/// The names of the Base16 palettes, in file order.
pub static BASE16_NAMES: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    let palettes: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(BASE16_PALETTES_JSON).expect("the embedded Base16 palettes are JSON");
    palettes.keys().map(|name| &*name.clone().leak()).collect()
});

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

#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    pub background: Rgba,
    pub text: Rgba,
    pub accent: Rgba,
    pub selected_text: Rgba,
    pub error: Rgba,
}

impl Theme {
    pub fn default_dark(transparency_alpha: u8) -> Theme {
        Theme {
            background: Rgba::rgb(0x1e, 0x1e, 0x2e).with_alpha(transparency_alpha),
            text: Rgba::rgb(0xcd, 0xd6, 0xf4),
            accent: Rgba::rgb(0x89, 0xb4, 0xfa),
            selected_text: Rgba::rgb(0x11, 0x11, 0x1b),
            error: Rgba::rgb(0xf3, 0x8b, 0xa8),
        }
    }
}

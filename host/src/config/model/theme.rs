//! `theme`: a Catppuccin flavour, a named Base16 palette, or a custom
//! 16-colour palette, with the accent and selection colour roles.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "palette")]
pub enum KomobarTheme {
    #[serde(alias = "Pastel")]
    Catppuccin(CatppuccinTheme),
    Base16(Base16Theme),
    Custom(CustomTheme),
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CatppuccinTheme {
    pub name: Catppuccin,
    pub accent: Option<CatppuccinValue>,
    pub auto_select_fill: Option<CatppuccinValue>,
    pub auto_select_text: Option<CatppuccinValue>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Base16Theme {
    /// One of the 269 palette names (`Ashes`, `Nord`, `3024`, ...).
    pub name: String,
    pub accent: Option<Base16Value>,
    pub auto_select_fill: Option<Base16Value>,
    pub auto_select_text: Option<Base16Value>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CustomTheme {
    pub colours: Box<Base16ColourPalette>,
    pub accent: Option<Base16Value>,
    pub auto_select_fill: Option<Base16Value>,
    pub auto_select_text: Option<Base16Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Catppuccin {
    Frappe,
    Latte,
    Macchiato,
    Mocha,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum CatppuccinValue {
    Rosewater,
    Flamingo,
    Pink,
    Mauve,
    Red,
    Maroon,
    Peach,
    Yellow,
    Green,
    Teal,
    Sky,
    Sapphire,
    Blue,
    Lavender,
    Text,
    Subtext1,
    Subtext0,
    Overlay2,
    Overlay1,
    Overlay0,
    Surface2,
    Surface1,
    Surface0,
    Base,
    Mantle,
    Crust,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Base16Value {
    Base00,
    Base01,
    Base02,
    Base03,
    Base04,
    Base05,
    Base06,
    Base07,
    Base08,
    Base09,
    #[serde(alias = "Base0a")]
    Base0A,
    #[serde(alias = "Base0b")]
    Base0B,
    #[serde(alias = "Base0c")]
    Base0C,
    #[serde(alias = "Base0d")]
    Base0D,
    #[serde(alias = "Base0e")]
    Base0E,
    #[serde(alias = "Base0f")]
    Base0F,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Base16ColourPalette {
    pub base_00: Colour,
    pub base_01: Colour,
    pub base_02: Colour,
    pub base_03: Colour,
    pub base_04: Colour,
    pub base_05: Colour,
    pub base_06: Colour,
    pub base_07: Colour,
    pub base_08: Colour,
    pub base_09: Colour,
    pub base_0a: Colour,
    pub base_0b: Colour,
    pub base_0c: Colour,
    pub base_0d: Colour,
    pub base_0e: Colour,
    pub base_0f: Colour,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged, expecting = "a colour: an object with r, g and b, or a hex string like \"#1e1e2e\"")]
pub enum Colour {
    Rgb(Rgb),
    Hex(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Rgb {
    pub r: u8,
    pub g: u8,
    pub b: u8,
}

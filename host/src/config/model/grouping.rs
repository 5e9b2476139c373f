//! `grouping`: whether widgets are drawn on shared rounded backgrounds, and how.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind")]
pub enum Grouping {
    None,
    /// The whole bar is one group.
    Bar(GroupingConfig),
    /// Left, centre and right are a group each.
    Alignment(GroupingConfig),
    /// Every widget is its own group.
    Widget(GroupingConfig),
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct GroupingConfig {
    pub style: Option<GroupingStyle>,
    pub transparency_alpha: Option<u8>,
    pub rounding: Option<RoundingConfig>,
}

/// The shadow and glow styles encode blur, offset and spread in their
/// names: `DefaultWithShadowB4O1S3` is blur 4, offset 1, spread 3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum GroupingStyle {
    #[serde(alias = "CtByte")]
    Default,
    #[serde(alias = "CtByteWithShadow", alias = "DefaultWithShadow")]
    DefaultWithShadowB4O1S3,
    DefaultWithShadowB4O0S3,
    DefaultWithShadowB0O1S3,
    DefaultWithGlowB3O1S2,
    DefaultWithGlowB3O0S2,
    DefaultWithGlowB0O1S2,
}

/// One radius for all corners, or four in the schema's order: NW, NE, SW, SE
/// (top-left, top-right, bottom-left, bottom-right).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged, expecting = "a number, or an array of four numbers (one per corner)")]
pub enum RoundingConfig {
    Same(f32),
    Individual([f32; 4]),
}

//! Where the bar sits and how much room it leaves: `padding` / `margin`
//! (SpacingKind), `position`, `frame`, `monitor`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// `padding` and `margin`: one number for all sides, one per side, or
/// grouped by axis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged, expecting = "a number, an object with top/bottom/left/right, or an object with horizontal/vertical")]
pub enum SpacingKind {
    All(f32),
    Individual(IndividualSpacingConfig),
    Grouped(GroupedSpacingConfig),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct IndividualSpacingConfig {
    pub top: f32,
    pub bottom: f32,
    pub left: f32,
    pub right: f32,
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GroupedSpacingConfig {
    pub horizontal: Option<GroupedSpacingOptions>,
    pub vertical: Option<GroupedSpacingOptions>,
}

/// One value for both sides of an axis, or two (left/right, top/bottom).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged, expecting = "a number or an array of two numbers")]
pub enum GroupedSpacingOptions {
    Symmetrical(f32),
    Split([f32; 2]),
}

impl SpacingKind {
    /// (top, bottom, left, right)
    pub fn sides(&self) -> (f32, f32, f32, f32) {
        match self {
            SpacingKind::All(all) => (*all, *all, *all, *all),
            SpacingKind::Individual(sides) => (sides.top, sides.bottom, sides.left, sides.right),
            SpacingKind::Grouped(grouped) => {
                let pair = |options: &Option<GroupedSpacingOptions>| match options {
                    None => (0.0, 0.0),
                    Some(GroupedSpacingOptions::Symmetrical(both)) => (*both, *both),
                    Some(GroupedSpacingOptions::Split([first, second])) => (*first, *second),
                };
                let (left, right) = pair(&grouped.horizontal);
                let (top, bottom) = pair(&grouped.vertical);
                (top, bottom, left, right)
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

/// The edge of its monitor the bar runs along, where `position` does not
/// place it (an Obi extension of the format, as Waybar's and swaybar's
/// `position` has it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub enum Edge {
    #[default]
    Top,
    Bottom,
}

/// The bar's start (top-left) and end (its size), in monitor coordinates.
/// komorebi-bar still reads the older `position` / `inner_size` names.
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PositionConfig {
    #[serde(alias = "position")]
    pub start: Option<Position>,
    #[serde(alias = "inner_size")]
    pub end: Option<Position>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FrameConfig {
    pub inner_margin: Position,
}

// An amount for each side, as komorebi's `Rect` holds them (a work area
// offset), named apart from the rectangles the bar is laid out in. (Not a
// doc comment: it would become the schema's description.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "Rect")]
pub struct Sides {
    pub left: i32,
    pub top: i32,
    pub right: i32,
    pub bottom: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged, expecting = "a monitor index, or an object with `index` and optionally `work_area_offset`")]
pub enum MonitorConfigOrIndex {
    Index(usize),
    Config(MonitorConfig),
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MonitorConfig {
    pub index: usize,
    pub work_area_offset: Option<Sides>,
}

impl MonitorConfigOrIndex {
    pub fn index(&self) -> usize {
        match self {
            MonitorConfigOrIndex::Index(index) => *index,
            MonitorConfigOrIndex::Config(config) => config.index,
        }
    }
}

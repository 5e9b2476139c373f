//! The idle inhibitor's config (an Obi extension of the format, after
//! Waybar's `idle_inhibitor`).

use crate::LabelPrefix;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// A switch that holds idling off while on (the screen does not blank or
/// lock): click to switch it; an open eye while on:
/// `{ "IdleInhibitor": { "enable": true, "start_activated": false } }`
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct IdleInhibitorConfig {
    pub enable: bool,
    pub label_prefix: Option<LabelPrefix>,
    /// On from the start, as Waybar's `start-activated` (default false).
    pub start_activated: Option<bool>,
}

//! The privacy indicator's config (an Obi extension of the format, after
//! Waybar's `privacy`).

use crate::LabelPrefix;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// Shows while an application records from a microphone, or the compositor
/// captures the screen (Hyprland, niri), naming who and what in the
/// tooltip; nothing otherwise:
/// `{ "Privacy": { "enable": true } }`
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PrivacyConfig {
    pub enable: bool,
    /// `Icon` (the default) shows a microphone; the others say which
    /// applications record.
    pub label_prefix: Option<LabelPrefix>,
    /// Applications whose recording is not shown (a visualiser listening
    /// to the microphone, say), by the name the tooltip gives them, in
    /// any case. Waybar's `ignore` entries of type `audio-in`.
    pub ignore: Option<Vec<String>>,
}

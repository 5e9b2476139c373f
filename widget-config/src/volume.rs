//! The volume's config (an Obi extension of the format): how it is
//! labelled, and how far a scroll tick moves it.

use crate::LabelPrefix;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The default output's volume and mute state, from the sound server
/// (PulseAudio or PipeWire): scroll to change it, click to mute, secondary
/// click for a slider, the outputs to choose from and each application's
/// own volume; with `microphone`, the default input beside it likewise:
/// `{ "Volume": { "enable": true, "label_prefix": "IconAndText", "step": 5, "microphone": true } }`
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct VolumeConfig {
    pub enable: bool,
    pub label_prefix: Option<LabelPrefix>,
    /// Percent a scroll tick moves the volume (default 5, 1 to 100).
    pub step: Option<u8>,
    /// The default input (a microphone) shown too, as its own item (default false).
    pub microphone: Option<bool>,
}

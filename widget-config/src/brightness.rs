//! The brightness's config (an Obi extension of the format): how it is
//! labelled, and how far a scroll tick moves it.

use crate::LabelPrefix;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The screen's backlight (Linux's backlight class), set through logind:
/// scroll to change it, click for a slider; hidden without a backlight:
/// `{ "Brightness": { "enable": true, "label_prefix": "IconAndText", "step": 5 } }`
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BrightnessConfig {
    pub enable: bool,
    pub label_prefix: Option<LabelPrefix>,
    /// Percent a scroll tick moves the brightness (default 5, 1 to 100).
    pub step: Option<u8>,
}

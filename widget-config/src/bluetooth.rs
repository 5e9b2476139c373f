//! The Bluetooth widget's config (an Obi extension of the format, after
//! Waybar's `bluetooth`).

use crate::LabelPrefix;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// BlueZ's adapter: its icon shows whether it is on and how many devices
/// are connected; a click opens the paired devices to connect or
/// disconnect, with their batteries, and the radio's switch:
/// `{ "Bluetooth": { "enable": true, "label_prefix": "IconAndText" } }`
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BluetoothConfig {
    pub enable: bool,
    pub label_prefix: Option<LabelPrefix>,
}

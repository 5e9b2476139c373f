//! The Wi-Fi widget's config (an Obi extension of the format, after
//! Waybar's `network` with its menu).

use crate::LabelPrefix;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// NetworkManager's Wi-Fi: its icon shows the connected network's
/// strength, its text the network; a click opens the networks in range to
/// join or leave, Wi-Fi's switch and the VPN connections:
/// `{ "Wifi": { "enable": true, "label_prefix": "IconAndText" } }`
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WifiConfig {
    pub enable: bool,
    pub label_prefix: Option<LabelPrefix>,
}

//! The weather's config (an Obi extension of the format): where, in which
//! units, how often, and the Open-Meteo server asked.

use crate::LabelPrefix;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The current temperature and weather from Open-Meteo (no key needed), the
/// day's forecast in its tooltip:
/// `{ "Weather": { "enable": true, "latitude": 52.52, "longitude": 13.41 } }`
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WeatherConfig {
    pub enable: bool,
    /// Degrees north (negative: south), -90 to 90.
    pub latitude: f64,
    /// Degrees east (negative: west), -180 to 180.
    pub longitude: f64,
    /// `Metric` (°C, the default) or `Imperial` (°F).
    pub units: Option<WeatherUnits>,
    /// Seconds between two readings (default 1800, at least 60).
    pub data_refresh_interval: Option<u64>,
    pub label_prefix: Option<LabelPrefix>,
    /// The Open-Meteo server's address (default `https://api.open-meteo.com`;
    /// a self-hosted one, say). `OBI_OPEN_METEO_URL` in the bar's
    /// environment replaces it.
    pub open_meteo_url: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum WeatherUnits {
    #[default]
    Metric,
    Imperial,
}

//! Glyphs of the icon font the host embeds (Phosphor Regular, MIT), by name.
//! A widget puts one in an icon piece; the host draws it scaled by `icon_scale`.

pub const CPU: &str = "\u{e610}";
pub const MEMORY: &str = "\u{e9c4}";
pub const HARD_DRIVES: &str = "\u{e2a0}";
pub const CLOCK: &str = "\u{e19a}";
pub const CALENDAR: &str = "\u{e10a}";
pub const WARNING: &str = "\u{e4e0}";
pub const CLOCK_AFTERNOON: &str = "\u{e19c}";
pub const SUN_HORIZON: &str = "\u{e5b6}";
pub const MOON: &str = "\u{e330}";
pub const MOON_STARS: &str = "\u{e58e}";
pub const BATTERY_CHARGING: &str = "\u{e0ba}";
pub const BATTERY_FULL: &str = "\u{e0c0}";
pub const BATTERY_HIGH: &str = "\u{e0c2}";
pub const BATTERY_MEDIUM: &str = "\u{e0c6}";
pub const BATTERY_LOW: &str = "\u{e0c4}";
pub const BATTERY_EMPTY: &str = "\u{e0be}";
pub const ARROW_DOWN: &str = "\u{e518}";
pub const ARROW_UP: &str = "\u{e52e}";
pub const ARROW_LINES_DOWN: &str = "\u{e524}";
pub const ARROW_LINES_UP: &str = "\u{e52a}";
pub const WIFI: &str = "\u{e4ea}";
pub const WIFI_OFF: &str = "\u{e4f2}";
pub const NETWORK: &str = "\u{edde}";
pub const UPDATE: &str = "\u{e030}";
pub const APP_WINDOW: &str = "\u{e5da}";

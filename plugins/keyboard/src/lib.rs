//! # Keyboard
//!
//! The keyboard layout in use (XKB's group on X11, sway's word under sway). The host pushes every
//! switch, so the widget follows at once; `data_refresh_interval` only
//! bounds how stale it could be were an event missed.
//!
//! | key                     | values                                  | default       |
//! |-------------------------|-----------------------------------------|---------------|
//! | `enable`                | `true` / `false`                        | required      |
//! | `data_refresh_interval` | seconds between two readings            | `10`          |
//! | `label_prefix`          | `None`, `Icon`, `Text`, `IconAndText`   | `IconAndText` |
//!
//! The label is the layout's name ("English (US)"); with a text prefix,
//! "KB: English (US)". The tooltip names its symbols ("us") and the layouts
//! to switch between. Where the host cannot tell the layout (no X server),
//! the widget shows nothing.
//!
//! ```json
//! { "Keyboard": { "enable": true, "label_prefix": "Icon" } }
//! ```

use obi_sdk::config::KeyboardConfig as Config;
use obi_sdk::{LabelPrefix, Piece, Schedule, View, Widget, icons, item, keyboard};

pub struct Keyboard {
    label_prefix: LabelPrefix,
}

impl Widget for Keyboard {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let label_prefix = config.label_prefix.unwrap_or(LabelPrefix::IconAndText);
        Ok((Keyboard { label_prefix }, Schedule::data_refresh_interval(config.data_refresh_interval)))
    }

    fn refresh(&mut self) -> View {
        let Some(layout) = keyboard::layout() else { return View::empty() };
        // sway names a layout by its description alone.
        let mut tooltip = match layout.short_name.as_str() {
            "" => layout.name.clone(),
            short => format!("{} ({short})", layout.name),
        };
        if layout.all.len() > 1 {
            tooltip.push_str(&format!("\nLayouts: {}", layout.all.join(", ")));
        }
        View::of([item("layout")
            .maybe(self.label_prefix.shows_icon().then(|| Piece::Icon(icons::KEYBOARD.into())))
            .text(self.label_prefix.label("KB", &layout.name))
            .tooltip(tooltip)])
    }
}

obi_sdk::export!(Keyboard);

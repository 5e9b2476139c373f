//! # Applications
//!
//! A button per configured application; a click asks the bar to run its
//! command, which the bar declared for this widget from the same config
//! (by the item's position): the widget names commands, it never writes
//! one. The bar runs it through the platform's shell (`sh -c`, `cmd /C`),
//! which resolves environment variables in it, and logs one that fails.
//!
//! | key                     | values                                                   | default |
//! |-------------------------|----------------------------------------------------------|---------|
//! | `enable`                | `true` / `false`                                         | required |
//! | `items`                 | the applications, in order (below)                       | required |
//! | `display`               | `Icon`, `Text`, `IconAndText`                            | `Icon`  |
//! | `show_command_on_hover` | the tooltip shows the command instead of the name        | `false` |
//! | `spacing`               | pixels between two buttons                               | the theme's gap |
//!
//! Each item: `name`, `command` (required), `icon` (a path to a PNG, which
//! the bar finds relative to the config file, or a glyph drawn in the bar's
//! `font_family`; the bar's app icon when absent),
//! and `display`, `enable`, `show_command_on_hover` overriding the widget's.
//!
//! ```json
//! { "Applications": { "enable": true, "display": "IconAndText", "spacing": 8, "items": [
//!     { "name": "Terminal", "command": "alacritty", "icon": "/usr/share/icons/hicolor/48x48/apps/Alacritty.png" },
//!     { "name": "Notes", "command": "$EDITOR ~/notes.md", "show_command_on_hover": true } ] } }
//! ```

use obi_sdk::config::{ApplicationsConfig as Config, ApplicationsDisplayFormat as Display};
use obi_sdk::log::{self, Level};
use obi_sdk::{Image, Input, Inputs, Piece, Schedule, View, Widget, commands, icons, item};

struct App {
    /// Its position in `items`: the id the bar declared its command under.
    id: String,
    name: String,
    icon: Piece,
    display: Display,
    tooltip: String,
}

pub struct Applications {
    apps: Vec<App>,
    spacing: Option<f32>,
}

/// A path names an image file; anything else is a glyph of the bar's font.
fn icon(icon: Option<String>) -> Piece {
    match icon {
        None => Piece::Icon(icons::APP_WINDOW.into()),
        Some(path) if path.contains(['/', '\\']) => Piece::Image(Image::Path(path)),
        Some(glyph) => Piece::Text(glyph),
    }
}

impl Widget for Applications {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let apps = config
            .items
            .into_iter()
            .enumerate()
            .filter(|(_, app)| app.enable.unwrap_or(true))
            .map(|(index, app)| {
                let show_command = app.show_command_on_hover.or(config.show_command_on_hover).unwrap_or(false);
                App {
                    tooltip: if show_command { app.command.clone() } else { app.name.clone() },
                    display: app.display.or(config.display).unwrap_or(Display::Icon),
                    icon: icon(app.icon),
                    name: app.name,
                    id: index.to_string(),
                }
            })
            .collect();
        let spacing = config.spacing.map(|spacing| spacing.max(0.0));
        // What it shows changes only with its config: refreshed after input alone.
        Ok((Applications { apps, spacing }, Schedule { interval_ms: 0, align_to_wall_clock: false }))
    }

    fn refresh(&mut self) -> View {
        let buttons = self.apps.iter().map(|app| {
            let shows_icon = app.display != Display::Text;
            let shows_name = app.display != Display::Icon;
            item(&app.id)
                .takes(Inputs::PRIMARY_CLICK)
                .maybe(shows_icon.then(|| app.icon.clone()))
                .maybe(shows_name.then(|| Piece::Text(app.name.clone())))
                .tooltip(&app.tooltip)
        });
        let view = View::of(buttons);
        match self.spacing {
            Some(spacing) => view.item_spacing(spacing),
            None => view,
        }
    }

    fn on_input(&mut self, key: &str, input: Input) {
        let Some(app) = self.apps.iter().find(|app| app.id == key) else { return };
        if input == Input::PrimaryClick
            && let Err(error) = commands::launch(&app.id)
        {
            log::log(Level::Error, &format!("cannot start {}: {error}", app.name));
        }
    }
}

obi_sdk::export!(Applications);

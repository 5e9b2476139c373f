//! Applications' icons for their streams: the icon the application names
//! (`application.icon_name`, else its program's name) looked up once in
//! the icon theme and held while a stream shows it, so one application's
//! streams share one image and a stream read again keeps its handle.

use crate::capabilities::tray::icons::HeldIcons;
use crate::view::images::HeldImages;
use std::collections::{HashMap, HashSet};

pub struct AppIcons {
    held: HeldIcons,
    /// Each icon name shown, and its handle (none: the theme has no such icon).
    by_name: HashMap<String, Option<u64>>,
}

impl AppIcons {
    pub fn new(images: HeldImages) -> AppIcons {
        AppIcons { held: HeldIcons::new("application icon", images), by_name: HashMap::new() }
    }

    /// The handle of the icon `name`.
    pub fn icon(&mut self, name: &str) -> Option<u64> {
        if let Some(handle) = self.by_name.get(name) {
            return *handle;
        }
        let pixels = self.held.named(name, "");
        let handle = self.held.set(name, pixels);
        self.by_name.insert(name.to_owned(), handle);
        handle
    }

    /// Lets go of the icons not named in `shown`.
    pub fn keep_only(&mut self, shown: &HashSet<String>) {
        self.by_name.retain(|name, _| shown.contains(name));
        self.held.keep_only(shown);
    }
}

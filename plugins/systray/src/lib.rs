//! # Systray
//!
//! The desktop's status icons (StatusNotifierItems; the bar is their host).
//! The host pushes every change; the widget refreshes on its own only to
//! sweep away items whose program has gone without saying so.
//!
//! | key                          | values                                                     | default |
//! |------------------------------|------------------------------------------------------------|---------|
//! | `enable`                     | `true` / `false`                                           | required |
//! | `hidden_icons`               | rules; the items they match go to the overflow (`rules`)   | none    |
//! | `overflow_toggle_position`   | `Left`, `Right`: where the button that shows them sits     | `Right` |
//! | `info_button`                | `Visible`, `Overflow`: a button listing every item's id, title and executable (to write rules; a click logs them) | none |
//! | `refresh_button`             | `Visible`, `Overflow`: a button that reads every item again, dropping those whose program is gone | none |
//! | `shortcuts_button`           | `Visible`, `Overflow`: a button whose tooltip says what each click does | none |
//! | `stale_icons_check_interval` | seconds between sweeps for items whose program is gone (30–600; 0 never) | `60` |
//!
//! Each item shows its icon (its first letter when it has none) and its
//! tooltip. A left click activates it (shows its menu when it is only a
//! menu), a middle click is its secondary activation, a scroll scrolls it,
//! and a right click opens its menu in the bar, after it (a submenu opens
//! in place; choosing an entry closes the menu), or asks the item to show
//! its own when it has none here. Entries it disables are muted.
//!
//! ```json
//! { "Systray": { "enable": true, "hidden_icons": [ "blueman-applet", { "tooltip": { "value": "Updates", "matching_strategy": "StartsWith" } } ],
//!                "refresh_button": "Overflow" } }
//! ```

mod rules;

use obi_sdk::config::{ButtonPosition, OverflowTogglePosition as TogglePosition, SystrayConfig as Config};
use obi_sdk::log::{self, Level};
use obi_sdk::tray::{self, TrayItem};
use obi_sdk::{
    Emphasis, Input, Inputs, Item, ItemBuilder, Piece, Schedule, ScrollDirection, View, Widget, clock, icons, item,
    limits,
};
use rules::{Compiled, Fields};
use std::collections::HashSet;

pub struct Systray {
    hidden: Vec<Compiled>,
    info: Option<ButtonPosition>,
    refresh: Option<ButtonPosition>,
    shortcuts: Option<ButtonPosition>,
    toggle: TogglePosition,
    /// Seconds between sweeps; none: never.
    sweep_every: Option<u64>,
    /// When the last sweep was, in seconds since the epoch.
    swept_at: i64,
    overflow_open: bool,
    /// The item whose menu is open, and the submenus opened in it.
    menu: Option<(String, HashSet<i32>)>,
    /// The items as last shown, for input.
    items: Vec<TrayItem>,
}

const SHORTCUTS: &str =
    "Left click: activate (or its menu)\nRight click: its menu\nMiddle click: its other action\nScroll: scroll it";

impl Widget for Systray {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let sweep_every = config.stale_icons_check_interval();
        let hidden_icons = config.hidden_icons.unwrap_or_default();
        let hidden = hidden_icons.into_iter().map(rules::compile).collect::<Result<Vec<_>, _>>()?;
        let widget = Systray {
            hidden,
            info: config.info_button,
            refresh: config.refresh_button,
            shortcuts: config.shortcuts_button,
            toggle: config.overflow_toggle_position.unwrap_or(TogglePosition::Right),
            sweep_every,
            swept_at: clock::now().seconds,
            overflow_open: false,
            menu: None,
            items: Vec::new(),
        };
        // The host pushes changes; the schedule is for the sweep alone.
        let schedule =
            Schedule { interval_ms: sweep_every.map_or(0, |seconds| seconds * 1000), align_to_wall_clock: false };
        Ok((widget, schedule))
    }

    fn refresh(&mut self) -> View {
        self.sweep_when_due();
        self.items = tray::items();
        let (mut shown, mut overflow) = (Vec::new(), Vec::new());
        for tray_item in &self.items {
            let fields = Fields { exe: &tray_item.exe, tooltip: &tray_item.tooltip, guid: &tray_item.id };
            let entries = self.with_menu(tray_item, icon_item(tray_item));
            if self.hidden.iter().any(|rule| rule.matches(&fields)) {
                overflow.extend(entries);
            } else {
                shown.extend(entries);
            }
        }
        let mut buttons = (Vec::new(), Vec::new());
        for (position, button) in
            [(self.info, self.info_button()), (self.refresh, refresh_button()), (self.shortcuts, shortcuts_button())]
        {
            match position {
                Some(ButtonPosition::Visible) => buttons.0.push(button),
                Some(ButtonPosition::Overflow) => buttons.1.push(button),
                None => {}
            }
        }
        // A view holds so many items: the widget's own buttons (and the
        // overflow's toggle) always show, and the tray's entries fill the rest.
        let toggle = usize::from(!overflow.is_empty() || !buttons.1.is_empty());
        let room = limits::ITEMS - buttons.0.len() - buttons.1.len() - toggle;
        shown.truncate(room);
        overflow.truncate(room - shown.len());
        shown.extend(buttons.0);
        overflow.extend(buttons.1);
        if overflow.is_empty() {
            return View::of(shown);
        }
        let glyph = match (self.toggle, self.overflow_open) {
            (TogglePosition::Right, false) | (TogglePosition::Left, true) => icons::CARET_LEFT,
            _ => icons::CARET_RIGHT,
        };
        let toggle = item("overflow")
            .icon(glyph)
            .takes(Inputs::PRIMARY_CLICK)
            .tooltip(if self.overflow_open { "Hide the hidden icons" } else { "Show the hidden icons" })
            .build();
        let opened = if self.overflow_open { overflow } else { Vec::new() };
        let items = match self.toggle {
            TogglePosition::Right => shown.into_iter().chain([toggle]).chain(opened).collect::<Vec<_>>(),
            TogglePosition::Left => opened.into_iter().chain([toggle]).chain(shown).collect(),
        };
        View::of(items)
    }

    fn on_input(&mut self, key: &str, input: Input) {
        let result = match key.split_once(':') {
            None => {
                match key {
                    "overflow" => self.overflow_open = !self.overflow_open,
                    "info" => log::log(Level::Info, &self.describe()),
                    "refresh" => tray::sweep(),
                    _ => {}
                }
                Ok(())
            }
            Some(("item", item_key)) => self.item_input(item_key, input),
            Some(("entry", entry)) => self.entry_input(entry),
            Some(_) => Ok(()),
        };
        if let Err(why) = result {
            log::log(Level::Warn, &why);
        }
    }
}

impl Systray {
    fn sweep_when_due(&mut self) {
        let Some(every) = self.sweep_every else { return };
        let now = clock::now().seconds;
        if now - self.swept_at >= every as i64 {
            self.swept_at = now;
            tray::sweep();
        }
    }

    fn item_input(&mut self, key: &str, input: Input) -> Result<(), String> {
        let Some(tray_item) = self.items.iter().find(|item| item.key == key) else { return Ok(()) };
        let has_menu = !tray_item.menu.is_empty();
        match input {
            Input::PrimaryClick if tray_item.item_is_menu && has_menu => self.toggle_menu(key),
            Input::PrimaryClick => tray::activate(key)?,
            Input::SecondaryClick if has_menu => self.toggle_menu(key),
            Input::SecondaryClick => tray::context_menu(key)?,
            Input::MiddleClick => tray::secondary_activate(key)?,
            Input::Scroll(direction) => {
                let (delta, horizontal) = match direction {
                    ScrollDirection::Up => (-1, false),
                    ScrollDirection::Down => (1, false),
                    ScrollDirection::Left => (-1, true),
                    ScrollDirection::Right => (1, true),
                };
                tray::scroll(key, delta, horizontal)?
            }
            _ => {}
        }
        Ok(())
    }

    fn toggle_menu(&mut self, key: &str) {
        let open = self.menu.as_ref().is_some_and(|(open, _)| open == key);
        self.menu = if open { None } else { Some((key.to_owned(), HashSet::new())) };
    }

    /// A click on a menu entry: a submenu opens or closes; any other entry
    /// is chosen, and the menu closes.
    fn entry_input(&mut self, entry: &str) -> Result<(), String> {
        let Some((key, id)) = entry.rsplit_once(':').and_then(|(key, id)| Some((key, id.parse::<i32>().ok()?))) else {
            return Ok(());
        };
        let Some((_, opened)) = &mut self.menu else { return Ok(()) };
        let submenu = self
            .items
            .iter()
            .find(|item| item.key == key)
            .and_then(|item| item.menu.iter().find(|entry| entry.id == id))
            .is_some_and(|entry| entry.submenu);
        if submenu {
            if !opened.remove(&id) {
                opened.insert(id);
            }
            return Ok(());
        }
        self.menu = None;
        tray::choose(key, id)
    }

    /// The item, and its menu's entries after it when its menu is open: the
    /// top level, and the entries of each submenu opened.
    fn with_menu(&self, tray_item: &TrayItem, shown: Item) -> Vec<Item> {
        let mut items = vec![shown];
        let Some((_, opened)) = self.menu.as_ref().filter(|(key, _)| *key == tray_item.key) else { return items };
        // An entry shows while every submenu it is in is open.
        let mut open_depth = 0;
        for entry in &tray_item.menu {
            if entry.depth > open_depth {
                continue;
            }
            open_depth = entry.depth + u32::from(entry.submenu && opened.contains(&entry.id));
            if entry.separator {
                continue;
            }
            let indent = "  ".repeat(entry.depth as usize);
            let marked = match entry.toggled {
                Some(true) => Some(Piece::Icon(icons::CHECK.into())),
                _ => None,
            };
            let opener = entry.submenu.then(|| {
                let glyph = if opened.contains(&entry.id) { icons::CARET_DOWN } else { icons::CARET_RIGHT };
                Piece::Icon(glyph.into())
            });
            let menu_entry = item(format!("entry:{}:{}", tray_item.key, entry.id))
                .text(format!("{indent}{}", entry.label))
                .maybe(marked)
                .maybe(opener);
            items.push(if entry.enabled {
                menu_entry.takes(Inputs::PRIMARY_CLICK).build()
            } else {
                menu_entry.emphasis(Emphasis::Muted).build()
            });
        }
        items
    }

    fn info_button(&self) -> Item {
        item("info").icon(icons::INFO).takes(Inputs::PRIMARY_CLICK).tooltip(self.describe()).build()
    }

    /// Every item's id, title and executable: what `hidden_icons` rules match.
    fn describe(&self) -> String {
        if self.items.is_empty() {
            return "No tray items".into();
        }
        let lines: Vec<String> =
            self.items.iter().map(|item| format!("{}: {} ({})", item.id, item.title, item.exe)).collect();
        limits::fit(lines.join("\n"))
    }
}

/// A tray item: its icon, or its first letter.
fn icon_item(tray_item: &TrayItem) -> Item {
    let picture = match tray_item.icon {
        Some(handle) => Piece::HeldImage(handle),
        None => Piece::Text(
            tray_item.title.chars().chain(tray_item.id.chars()).next().unwrap_or('?').to_uppercase().to_string(),
        ),
    };
    let tooltip =
        [&tray_item.tooltip, &tray_item.title, &tray_item.id].into_iter().find(|text| !text.is_empty()).cloned();
    let shown: ItemBuilder = item(format!("item:{}", tray_item.key))
        .maybe(Some(picture))
        .emphasis(if tray_item.status == tray::ItemStatus::NeedsAttention {
            Emphasis::Urgent
        } else {
            Emphasis::Normal
        })
        .takes(Inputs::PRIMARY_CLICK | Inputs::SECONDARY_CLICK | Inputs::MIDDLE_CLICK | Inputs::SCROLL);
    match tooltip {
        Some(tooltip) => shown.tooltip(tooltip),
        None => shown,
    }
    .build()
}

fn refresh_button() -> Item {
    item("refresh")
        .icon(icons::ARROWS_CLOCKWISE)
        .takes(Inputs::PRIMARY_CLICK)
        .tooltip("Read the tray again, dropping items whose program is gone")
        .build()
}

fn shortcuts_button() -> Item {
    item("shortcuts").icon(icons::QUESTION).tooltip(SHORTCUTS).build()
}

obi_sdk::export!(Systray);

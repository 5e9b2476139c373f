//! Waybar's modules as Obi's widgets: each module of `modules-left`,
//! `modules-center` and `modules-right` becomes the widget entry that
//! shows the same thing (`clock` a Time with its pattern, `sway/workspaces`
//! the Komorebi widget's workspaces, `custom/*` a Custom with its keys), a
//! `group/*` its members in their place. What a module says that its widget
//! cannot carry, and a module Obi has no widget for, is a note naming the
//! key where it was written.

use super::files::WaybarBar;
use crate::config::aliases::WAYBAR_SPELLINGS;
use crate::import::Note;
use serde_json::{Map, Value, json};

/// Groups within groups past this are a loop.
const GROUP_DEPTH: usize = 8;

/// The widget entries of the modules a side lists at `side` (a key of
/// the bar: `modules-left`), with what could not be carried.
pub fn side(bar: &WaybarBar, side: &str, notes: &mut Vec<Note>) -> Vec<Value> {
    let mut widgets = Vec::new();
    add_modules(bar, side, &names(bar.keys.get(side)), 0, &mut widgets, notes);
    widgets
}

/// Every module a side lists, within groups too.
pub fn listed(bar: &WaybarBar) -> Vec<String> {
    let mut listed = Vec::new();
    let mut next: Vec<String> = SIDES.iter().flat_map(|side| names(bar.keys.get(*side))).collect();
    while let Some(name) = next.pop() {
        if listed.contains(&name) {
            continue;
        }
        if name.starts_with("group/") {
            next.extend(names(bar.keys.get(&name).and_then(|group| group.get("modules"))));
        }
        listed.push(name);
    }
    listed
}

/// The keys of a bar that list its modules.
pub const SIDES: [&str; 3] = ["modules-left", "modules-center", "modules-right"];

fn names(list: Option<&Value>) -> Vec<String> {
    list.and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default()
}

fn add_modules(
    bar: &WaybarBar,
    listed_at: &str,
    names: &[String],
    depth: usize,
    widgets: &mut Vec<Value>,
    notes: &mut Vec<Note>,
) {
    for (index, name) in names.iter().enumerate() {
        let config = bar.keys.get(name).and_then(Value::as_object).cloned().unwrap_or_default();
        let module = Module { bar, name, config: &config, listed_at: format!("{listed_at}[{index}]") };
        let kind = name.split('#').next().unwrap_or(name);
        if kind.starts_with("group/") {
            if depth >= GROUP_DEPTH {
                notes.push(
                    bar.note(&module.listed_at, format!("`{name}`: groups within groups this deep are left out")),
                );
                continue;
            }
            module.not_carried(&["modules"], "Obi groups a bar's widgets by its `grouping`, not by module", notes);
            add_modules(
                bar,
                &format!("{name}.modules"),
                &self::names(config.get("modules")),
                depth + 1,
                widgets,
                notes,
            );
            continue;
        }
        match module.widget(kind, notes) {
            Some(widget) => widgets.push(widget),
            None => notes.push(
                bar.note(&module.listed_at, format!("`{name}`: Obi has no widget that shows this; it is left out")),
            ),
        }
    }
}

/// One module as the bar configures it.
struct Module<'a> {
    bar: &'a WaybarBar,
    /// As listed, `clock#utc`.
    name: &'a str,
    config: &'a Map<String, Value>,
    /// Where it is listed (`modules-left[2]`), for a module not configured.
    listed_at: String,
}

impl Module<'_> {
    /// The widget entry for a module of `kind`; none when Obi has none.
    fn widget(&self, kind: &str, notes: &mut Vec<Note>) -> Option<Value> {
        let shows_its_own = |kind: &str| format!("Obi's {kind} shows its own label and tooltip");
        Some(match kind {
            "clock" => return Some(self.clock(notes)),
            "cpu" | "memory" | "disk" => {
                let obi = match kind {
                    "cpu" => "Cpu",
                    "memory" => "Memory",
                    _ => "Storage",
                };
                let mut widget = json!({ obi: { "enable": true } });
                self.interval(&mut widget, obi, notes);
                let reason = match kind {
                    "disk" => format!("{}; it lists every disk", shows_its_own(obi)),
                    _ => shows_its_own(obi),
                };
                self.not_carried(&["interval"], &reason, notes);
                widget
            }
            "network" => {
                // Any of its formats (`format-wifi`, `format-ethernet` …) that shows the rates.
                let formats: Vec<&str> = self
                    .config
                    .iter()
                    .filter(|(key, _)| key.starts_with("format"))
                    .filter_map(|(_, format)| format.as_str())
                    .collect();
                let shows = |what: &[&str]| formats.iter().any(|format| what.iter().any(|word| format.contains(word)));
                let shows_rates = shows(&["{bandwidth"]);
                // The Wi-Fi network and its strength, and no rates: what the Wifi widget shows.
                if !shows_rates && shows(&["{essid}", "{signalStrength}", "{signaldBm}"]) {
                    return Some(self.simple("Wifi", notes));
                }
                let mut widget = json!({ "Network": { "enable": true, "show_activity": shows_rates, "show_total_activity": false } });
                self.interval(&mut widget, "Network", notes);
                self.not_carried(&["interval"], &shows_its_own("Network"), notes);
                widget
            }
            "battery" => {
                let mut widget = json!({ "Battery": { "enable": true } });
                self.interval(&mut widget, "Battery", notes);
                let states = self.config.get("states").and_then(Value::as_object);
                let low = states.and_then(|states| states.get("critical").or_else(|| states.get("warning")));
                if let Some(percent) = low.and_then(Value::as_u64) {
                    widget["Battery"]["auto_select_under"] = percent.min(100).into();
                }
                self.not_carried(&["interval", "states"], &shows_its_own("Battery"), notes);
                widget
            }
            "pulseaudio" | "wireplumber" => {
                let mut widget = self.simple("Volume", notes);
                // Waybar shows the default input where a format says `{format_source}`.
                let formats = self.config.iter().filter(|(key, _)| key.starts_with("format"));
                if formats.filter_map(|(_, format)| format.as_str()).any(|format| format.contains("{format_source}")) {
                    widget["Volume"]["microphone"] = true.into();
                }
                widget
            }
            "bluetooth" => self.simple("Bluetooth", notes),
            "privacy" => self.privacy(notes),
            "idle_inhibitor" => {
                let mut widget = json!({ "IdleInhibitor": { "enable": true } });
                if let Some(on) = self.config.get("start-activated").and_then(Value::as_bool) {
                    widget["IdleInhibitor"]["start_activated"] = on.into();
                }
                self.not_carried(&["start-activated"], &shows_its_own("IdleInhibitor"), notes);
                widget
            }
            "backlight" => {
                let mut widget = json!({ "Brightness": { "enable": true } });
                // Waybar's is a float, 1.0 by default; Obi's a whole percent.
                let step = self.config.get("scroll-step").and_then(Value::as_f64);
                if let Some(step) = step.filter(|step| step.is_finite()) {
                    widget["Brightness"]["step"] = (step.round().clamp(1.0, 100.0) as u8).into();
                }
                self.not_carried(&["scroll-step"], &shows_its_own("Brightness"), notes);
                widget
            }
            "tray" => self.simple("Systray", notes),
            "mpris" => self.simple("Media", notes),
            "sway/language" | "hyprland/language" | "niri/language" => self.simple("Keyboard", notes),
            "sway/workspaces" | "hyprland/workspaces" | "niri/workspaces" => {
                self.not_carried(&[], "Obi's workspaces show the tiler's names, the focused one selected", notes);
                // The mode has a module of its own in Waybar: shown where that is.
                json!({ "Komorebi": {
                    "workspaces": { "enable": true, "hide_empty_workspaces": false, "display": "Text" },
                    "binding_mode": { "enable": false } } })
            }
            "sway/window" | "hyprland/window" | "niri/window" => {
                self.not_carried(&[], "Obi's focused container shows the window's icon and title", notes);
                json!({ "Komorebi": { "focused_container": { "enable": true, "display": "IconAndText" } } })
            }
            "sway/mode" | "hyprland/submap" => {
                self.not_carried(&[], "Obi shows the mode's name in the theme's urgent colour", notes);
                json!({ "Komorebi": { "binding_mode": { "enable": true } } })
            }
            kind if kind.starts_with("custom/") => return self.custom(notes),
            _ => return None,
        })
    }

    /// The module's `interval` as the widget's `data_refresh_interval`,
    /// when it is whole seconds (a widget reads no faster).
    fn interval(&self, widget: &mut Value, kind: &str, notes: &mut Vec<Note>) {
        let Some(interval) = self.config.get("interval") else { return };
        match interval.as_u64().filter(|seconds| *seconds > 0) {
            Some(seconds) => widget[kind]["data_refresh_interval"] = seconds.into(),
            None => {
                let path = format!("{}.interval", self.name);
                let what = format!("`{path}` is not carried over: {interval} is not whole seconds");
                notes.push(self.bar.note(&path, what));
            }
        }
    }

    /// A widget that takes nothing of the module's config.
    fn simple(&self, kind: &str, notes: &mut Vec<Note>) -> Value {
        self.not_carried(&[], &format!("Obi's {kind} shows its own label and tooltip"), notes);
        json!({ kind: { "enable": true } })
    }

    /// `privacy` as Privacy, with the applications whose recording it
    /// `ignore`s (entries of type `audio-in`). Obi always leaves out what
    /// `ignore-monitor` (on by default) does.
    fn privacy(&self, notes: &mut Vec<Note>) -> Value {
        let entries = self.config.get("ignore").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        let (recordings, others): (Vec<&Value>, Vec<&Value>) =
            entries.iter().partition(|entry| entry.get("type").and_then(Value::as_str) == Some("audio-in"));
        let ignored: Vec<&str> = recordings.iter().filter_map(|entry| entry.get("name")?.as_str()).collect();
        let mut widget = json!({ "Privacy": { "enable": true } });
        if !ignored.is_empty() {
            widget["Privacy"]["ignore"] = ignored.into();
        }
        if !others.is_empty() {
            let path = format!("{}.ignore", self.name);
            let why = "Obi ignores recordings (`audio-in`) by name, nothing else";
            notes.push(
                self.bar.note(&path, format!("`{path}`: the entries of other types are not carried over: {why}")),
            );
        }
        if self.config.get("ignore-monitor").and_then(Value::as_bool) == Some(false) {
            let path = format!("{}.ignore-monitor", self.name);
            let why = "Obi never counts what records an output or only measures a level";
            notes.push(self.bar.note(&path, format!("`{path}` is not carried over: {why}")));
        }
        self.not_carried(&["ignore", "ignore-monitor"], "Obi's Privacy shows its own label and tooltip", notes);
        widget
    }

    /// `clock` as a Time with its pattern: `{:%H:%M}` (or `{:L…}`, in the
    /// locale's words) is the pattern, the text around it kept.
    fn clock(&self, notes: &mut Vec<Note>) -> Value {
        let format = self.config.get("format").and_then(Value::as_str).unwrap_or("{:%H:%M}");
        let (pattern, dropped) = strftime_of(format);
        if !dropped.is_empty() {
            let note = format!(
                "`{}.format`: {} not carried over (a Time shows the time alone)",
                self.name,
                dropped.join(", ")
            );
            notes.push(self.bar.note(&format!("{}.format", self.name), note));
        }
        let mut time = json!({ "enable": true, "format": { "Custom": pattern }, "label_prefix": "None" });
        let zone = self.config.get("timezone").or_else(|| self.config.get("timezones").and_then(|zones| zones.get(0)));
        match zone.and_then(Value::as_str).filter(|zone| !zone.is_empty()) {
            Some(zone) if crate::time_zones::named(zone).is_ok() => time["timezone"] = zone.into(),
            Some(zone) => {
                let path = format!("{}.timezone", self.name);
                notes.push(
                    self.bar.note(&path, format!("`{path}` is not carried over: no time zone is named {zone:?}")),
                );
            }
            None => {}
        }
        let reason = "a secondary click on Obi's Time opens the month's calendar";
        self.not_carried(&["format", "timezone", "timezones"], reason, notes);
        json!({ "Time": time })
    }

    /// `custom/<name>` as a Custom named `<name>`, with every key Obi's
    /// Custom reads (Waybar's spellings as they are).
    fn custom(&self, notes: &mut Vec<Note>) -> Option<Value> {
        let name = self.name.trim_start_matches("custom/");
        let mut custom = Map::new();
        custom.insert("enable".into(), true.into());
        custom.insert("name".into(), name.into());
        for (key, value) in self.config {
            let own = if WAYBAR_SPELLINGS.contains(&key.as_str()) { key.replace('-', "_") } else { key.clone() };
            if !CUSTOM_KEYS.contains(&own.as_str()) {
                continue;
            }
            // A value Obi's Custom would refuse (an `interval` of 0.5) makes a
            // config Obi would not read: named instead.
            let alone = json!({ "enable": true, own.as_str(): value });
            match serde_json::from_value::<crate::config::model::CustomConfig>(alone) {
                Ok(_) => _ = custom.insert(own, value.clone()),
                Err(error) => {
                    let path = format!("{}.{key}", self.name);
                    notes.push(self.bar.note(
                        &path,
                        format!("`{path}` is not carried over: {value} is not a value Obi's Custom takes ({error})"),
                    ));
                }
            }
        }
        self.not_carried(
            &CUSTOM_KEYS.iter().copied().chain(WAYBAR_SPELLINGS.iter().copied()).collect::<Vec<_>>(),
            "Obi's Custom does not read it",
            notes,
        );
        if !custom.contains_key("exec") && !custom.contains_key("format") {
            notes.push(
                self.bar
                    .note(&self.listed_at, format!("`{}`: neither `exec` nor `format`: it showed nothing", self.name)),
            );
            return None;
        }
        Some(json!({ "Custom": custom }))
    }

    /// A note for each of the module's keys but `carried`.
    fn not_carried(&self, carried: &[&str], why: &str, notes: &mut Vec<Note>) {
        for key in self.config.keys().filter(|key| !carried.contains(&key.as_str())) {
            let path = format!("{}.{key}", self.name);
            notes.push(self.bar.note(&path, format!("`{path}` is not carried over: {why}")));
        }
    }
}

/// The keys of Obi's Custom, in its own spelling.
const CUSTOM_KEYS: &[&str] = &[
    "exec",
    "exec_if",
    "exec_on_event",
    "interval",
    "restart_interval",
    "signal",
    "return_type",
    "format",
    "format_icons",
    "tooltip_format",
    "tooltip",
    "hide_empty_text",
    "on_click",
    "on_click_right",
    "on_click_middle",
    "on_scroll_up",
    "on_scroll_down",
    "max_length",
    "min_length",
    "escape",
];

/// The strftime pattern a clock's `format` shows, and the parts of it
/// that a pattern cannot (`{calendar}`, `{tz_list}`, markup).
fn strftime_of(format: &str) -> (String, Vec<String>) {
    let plain = obi_markup::plain_text(format);
    let mut dropped = Vec::new();
    if plain != format {
        dropped.push("its markup".to_owned());
    }
    let mut pattern = String::new();
    let mut rest = plain.as_str();
    while let Some(at) = rest.find(['{', '}', '%']) {
        pattern.push_str(&rest[..at]);
        rest = &rest[at..];
        if let Some(after) = rest.strip_prefix("{{").or_else(|| rest.strip_prefix("}}")) {
            pattern.push_str(&rest[..1]);
            rest = after;
        } else if let Some(after) = rest.strip_prefix('%') {
            pattern.push_str("%%");
            rest = after;
        } else if let Some(inside_and_after) = rest.strip_prefix('{') {
            let Some(end) = inside_and_after.find('}') else { break };
            let (inside, after) = (&inside_and_after[..end], &inside_and_after[end + 1..]);
            match inside.split_once(':') {
                Some(("", spec)) => pattern.push_str(spec.strip_prefix('L').unwrap_or(spec)),
                None if inside.is_empty() => pattern.push_str("%H:%M"),
                _ => dropped.push(format!("`{{{inside}}}`")),
            }
            rest = after;
        } else {
            // A lone `}`: {fmt} refuses it; it is text here.
            pattern.push('}');
            rest = &rest[1..];
        }
    }
    pattern.push_str(rest);
    (pattern, dropped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clocks_format_is_its_pattern_with_the_text_around_it() {
        assert_eq!(strftime_of("{:%H:%M}"), ("%H:%M".into(), vec![]));
        assert_eq!(strftime_of(" {:L%A %d %B}  100%"), (" %A %d %B  100%%".into(), vec![]));
        assert_eq!(strftime_of("{}"), ("%H:%M".into(), vec![]));
        let (pattern, dropped) = strftime_of("<span color='#fff'>{:%R}</span> {calendar}");
        assert_eq!(pattern, "%R ");
        assert_eq!(dropped, ["its markup", "`{calendar}`"]);
    }
}

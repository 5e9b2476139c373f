//! A Waybar setup as Obi's configs: each bar of its config (`config.jsonc`,
//! `config.json` or `config` in a folder, or the file named) becomes a
//! `komorebi.bar.json` with its modules as widgets ([`modules`]), its
//! `height`, `spacing` and `margin`, and the font, colours and rounding of
//! the `style.css` beside it ([`style`]); every key and rule that does not
//! carry over is a note naming the file and line it was written on.

mod css;
mod files;
mod modules;
mod style;

use super::{Imported, Note};
use anyhow::Context;
use files::WaybarBar;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

/// The names Waybar looks for its config under, in its order.
const CONFIG_NAMES: [&str; 3] = ["config.jsonc", "config.json", "config"];

/// The bar keys carried over; the sides and `include` are read.
const CARRIED: &[&str] = &[
    "modules-left",
    "modules-center",
    "modules-right",
    "include",
    "height",
    "spacing",
    "margin",
    "margin-top",
    "margin-right",
    "margin-bottom",
    "margin-left",
];

/// Waybar's config at `path` (a file, or the folder that holds it; none:
/// `$XDG_CONFIG_HOME/waybar`), as Obi's configs.
pub fn import(path: Option<&Path>) -> anyhow::Result<Imported> {
    let config = config_file(path)?;
    let bars = files::read_bars(&config)?;
    let mut notes = Vec::new();
    let mut configs: Vec<Value> = bars.iter().map(|bar| bar_config(bar, &mut notes)).collect();
    let style = config.with_file_name("style.css");
    if style.is_file() {
        match style::config_keys(&style, &mut notes) {
            Ok(keys) => {
                configs.iter_mut().filter_map(Value::as_object_mut).for_each(|config| config.extend(keys.clone()))
            }
            Err(error) => {
                notes.push(Note { place: super::Place { file: style, at: None }, what: format!("not read: {error:#}") })
            }
        }
    }
    // In the order of the files' lines, as a compiler lists what it found.
    notes.sort_by(|one, other| (&one.place.file, one.place.at).cmp(&(&other.place.file, other.place.at)));
    Ok(Imported { source: config, configs, notes })
}

/// The config file `path` names, or the one Waybar reads in it.
fn config_file(path: Option<&Path>) -> anyhow::Result<PathBuf> {
    let folder = match path {
        Some(path) if !path.is_dir() => return Ok(path.to_owned()),
        Some(folder) => folder.to_owned(),
        None => std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")))
            .context("neither XDG_CONFIG_HOME nor HOME is set")?
            .join("waybar"),
    };
    CONFIG_NAMES
        .iter()
        .map(|name| folder.join(name))
        .find(|path| path.is_file())
        .with_context(|| format!("{} holds no Waybar config ({})", folder.display(), CONFIG_NAMES.join(", ")))
}

fn bar_config(bar: &WaybarBar, notes: &mut Vec<Note>) -> Value {
    let mut config = Map::new();
    if let Some(height) = bar.keys.get("height").and_then(Value::as_f64) {
        config.insert("height".into(), height.into());
    }
    if let Some(spacing) = bar.keys.get("spacing").and_then(Value::as_f64) {
        config.insert("widget_spacing".into(), spacing.into());
    }
    if let Some(margin) = margin(bar) {
        config.insert("margin".into(), margin);
    }
    for (side, obi) in
        [("modules-left", "left_widgets"), ("modules-center", "center_widgets"), ("modules-right", "right_widgets")]
    {
        config.insert(obi.into(), modules::side(bar, side, notes).into());
    }
    for key in bar.keys.keys() {
        // A module's object is read where a side lists it.
        let is_module = bar.keys.get(key).is_some_and(Value::is_object);
        if CARRIED.contains(&key.as_str()) || is_module {
            continue;
        }
        let why = match key.as_str() {
            "output" => {
                "Obi places a bar by its monitor's number (`monitor`), or on every monitor with `obi --every-monitor`"
            }
            "position" => "Obi's bar is at the top of its monitor unless `position` places it in pixels",
            _ => "Obi has no such setting",
        };
        notes.push(bar.note(key, format!("`{key}` is not carried over: {why}")));
    }
    Value::Object(config)
}

/// Waybar's `margin` (a number, or CSS's one to four lengths) and its
/// `margin-<side>`s, as Obi's `margin`.
fn margin(bar: &WaybarBar) -> Option<Value> {
    let shorthand: Option<[f64; 4]> = match bar.keys.get("margin") {
        Some(Value::Number(number)) => number.as_f64().map(|all| [all; 4]),
        Some(Value::String(lengths)) => {
            let lengths: Vec<f64> =
                lengths.split_whitespace().filter_map(|length| length.trim_end_matches("px").parse().ok()).collect();
            match lengths[..] {
                [all] => Some([all; 4]),
                [vertical, horizontal] => Some([vertical, horizontal, vertical, horizontal]),
                [top, horizontal, bottom] => Some([top, horizontal, bottom, horizontal]),
                [top, right, bottom, left] => Some([top, right, bottom, left]),
                _ => None,
            }
        }
        _ => None,
    };
    let side = |name: &str| bar.keys.get(&format!("margin-{name}")).and_then(Value::as_f64);
    let sides = ["top", "right", "bottom", "left"].map(side);
    if shorthand.is_none() && sides.iter().all(Option::is_none) {
        return None;
    }
    let [top, right, bottom, left] =
        std::array::from_fn(|index| sides[index].or(shorthand.map(|all| all[index])).unwrap_or(0.0));
    Some(json!({ "top": top, "bottom": bottom, "left": left, "right": right }))
}

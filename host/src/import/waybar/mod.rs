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
    "output",
    "modules-left",
    "modules-center",
    "modules-right",
    "include",
    "position",
    "height",
    "spacing",
    "margin",
    "margin-top",
    "margin-right",
    "margin-bottom",
    "margin-left",
];

/// Waybar's config at `path` (a file, or the folder that holds it; none:
/// `$XDG_CONFIG_HOME/waybar`), as Obi's configs; a bar's `output` is found
/// among `monitors` (their names, in Obi's order) when it names one.
pub fn import(path: Option<&Path>, monitors: &[String]) -> anyhow::Result<Imported> {
    let config = config_file(path)?;
    let bars = files::read_bars(&config)?;
    let mut notes = Vec::new();
    let mut configs: Vec<Value> = bars.iter().map(|bar| bar_config(bar, monitors, &mut notes)).collect();
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
        None => crate::config::config_home()?.join("waybar"),
    };
    CONFIG_NAMES
        .iter()
        .map(|name| folder.join(name))
        .find(|path| path.is_file())
        .with_context(|| format!("{} holds no Waybar config ({})", folder.display(), CONFIG_NAMES.join(", ")))
}

fn bar_config(bar: &WaybarBar, monitors: &[String], notes: &mut Vec<Note>) -> Value {
    let mut config = Map::new();
    if let Some(output) = bar.keys.get("output") {
        match monitor(output, monitors) {
            Ok(index) => _ = config.insert("monitor".into(), index.into()),
            Err(why) => notes.push(bar.note("output", format!("`output` is not carried over: {why}"))),
        }
    }
    for (waybar, obi) in [("height", "height"), ("spacing", "widget_spacing")] {
        if let Some(pixels) = pixels(bar, waybar, notes) {
            config.insert(obi.into(), pixels.into());
        }
    }
    if let Some(margin) = margin(bar, notes) {
        config.insert("margin".into(), margin);
    }
    match bar.keys.get("position").and_then(Value::as_str) {
        None | Some("top") => {}
        Some("bottom") => _ = config.insert("edge".into(), "Bottom".into()),
        Some(_) => notes.push(
            bar.note(
                "position",
                "`position` is not carried over: Obi's bar runs along the top or the \
            bottom edge of its monitor"
                    .to_owned(),
            ),
        ),
    }
    for (side, obi) in modules::SIDES.into_iter().zip(["left_widgets", "center_widgets", "right_widgets"]) {
        config.insert(obi.into(), modules::side(bar, side, notes).into());
    }
    let listed = modules::listed(bar);
    for key in bar.keys.keys() {
        if CARRIED.contains(&key.as_str()) || listed.contains(key) {
            continue;
        }
        if bar.keys.get(key).is_some_and(Value::is_object) {
            let what = format!("`{key}` is listed on no side: Waybar does not show it, nor does Obi");
            notes.push(bar.note(key, what));
            continue;
        }
        notes.push(bar.note(key, format!("`{key}` is not carried over: Obi has no such setting")));
    }
    Value::Object(config)
}

/// The number of the monitor a bar's `output` names, among `monitors`;
/// why there is none.
fn monitor(output: &Value, monitors: &[String]) -> Result<usize, String> {
    let Some(name) = output.as_str().filter(|name| !name.starts_with('!')) else {
        return Err(format!(
            "{output} is more than one monitor: Obi puts a bar on one monitor by its number (`monitor`), or on every \
             one with `obi --every-monitor`"
        ));
    };
    monitors.iter().position(|monitor| monitor == name).ok_or_else(|| {
        let connected = if monitors.is_empty() { "none could be listed".to_owned() } else { monitors.join(", ") };
        format!(
            "no monitor named {name:?} is connected now (connected: {connected}); set `monitor` to its number, as \
             `obi check` lists them"
        )
    })
}

/// The longest length Obi takes (as its config reads one).
const LONGEST: f64 = 16384.0;

/// The bar's `key` as pixels Obi takes; a note when it is none.
fn pixels(bar: &WaybarBar, key: &str, notes: &mut Vec<Note>) -> Option<f64> {
    let value = bar.keys.get(key)?;
    let pixels = value.as_f64().filter(|pixels| (0.0..=LONGEST).contains(pixels));
    if pixels.is_none() {
        notes.push(bar.note(key, format!("`{key}` is not carried over: {value} is not a length in pixels Obi takes")));
    }
    pixels
}

/// Waybar's `margin` (a number, or CSS's one to four lengths) and its
/// `margin-<side>`s, as Obi's `margin`; a note for what is not a length.
fn margin(bar: &WaybarBar, notes: &mut Vec<Note>) -> Option<Value> {
    let shorthand: Option<[f64; 4]> = match bar.keys.get("margin") {
        Some(Value::Number(number)) => number.as_f64().map(|all| [all; 4]),
        Some(Value::String(written)) => {
            let lengths: Vec<f64> =
                written.split_whitespace().filter_map(|length| length.trim_end_matches("px").parse().ok()).collect();
            // Every length read, none (`auto`, `1em`) left out.
            let read = written.split_whitespace().count() == lengths.len();
            match lengths[..] {
                [all] if read => Some([all; 4]),
                [vertical, horizontal] if read => Some([vertical, horizontal, vertical, horizontal]),
                [top, horizontal, bottom] if read => Some([top, horizontal, bottom, horizontal]),
                [top, right, bottom, left] if read => Some([top, right, bottom, left]),
                _ => None,
            }
        }
        _ => None,
    };
    let shorthand = shorthand.filter(|lengths| lengths.iter().all(|length| (0.0..=LONGEST).contains(length)));
    if let (Some(margin), None) = (bar.keys.get("margin"), shorthand) {
        let what = format!("`margin` is not carried over: {margin} is not one to four lengths in pixels Obi takes");
        notes.push(bar.note("margin", what));
    }
    let sides = ["top", "right", "bottom", "left"].map(|side| pixels(bar, &format!("margin-{side}"), notes));
    if shorthand.is_none() && sides.iter().all(Option::is_none) {
        return None;
    }
    let [top, right, bottom, left] =
        std::array::from_fn(|index| sides[index].or(shorthand.map(|all| all[index])).unwrap_or(0.0));
    Some(json!({ "top": top, "bottom": bottom, "left": left, "right": right }))
}

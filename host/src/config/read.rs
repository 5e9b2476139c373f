//! Reading a config file into the model, finding every problem in one pass.
//!
//! serde stops at the first error, so after each one the offending part is
//! set aside (a widget entry is replaced by a disabled one, so later indices
//! stay right; a root property is dropped) and the rest is read again, until
//! it reads cleanly. Properties the model does not know (what it did not
//! keep when written back) are warned about, not refused, so newer komorebi
//! configs still load; values komorebi-bar clamps are clamped with a warning.

use super::diagnostics::{Diagnostic, Severity, explain_serde_message};
use super::jsonc;
use super::model::{BarModel, Grouping, KomobarTheme, MouseMessage, RoundingConfig, WidgetConfig};
use crate::komorebi_messages::Message;
use crate::suggest::did_you_mean;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::ops::RangeInclusive;
use std::sync::LazyLock;

/// More errors than this in one file are not worth listing one by one.
const MAX_ERRORS: usize = 50;

const WIDGET_LISTS: [&str; 3] = ["left_widgets", "center_widgets", "right_widgets"];

pub fn read(text: &str, origin: &str) -> Result<(BarModel, Vec<Diagnostic>), Vec<Diagnostic>> {
    let document = jsonc::parse(text).map_err(|error| {
        vec![Diagnostic {
            severity: Severity::Error,
            origin: origin.into(),
            at: error.at,
            path: String::new(),
            message: error.message,
        }]
    })?;
    let report =
        |severity, path: String, message: String, at| Diagnostic { severity, origin: origin.into(), at, path, message };
    let locations = &document.locations;
    let mut value = document.value;
    if !value.is_object() {
        return Err(vec![report(
            Severity::Error,
            String::new(),
            "a bar config is a JSON object".into(),
            locations.value(""),
        )]);
    }

    let mut errors = Vec::new();
    let model = loop {
        match serde_path_to_error::deserialize::<_, BarModel>(&value) {
            Ok(model) => break Some(model),
            Err(error) => {
                let path = error_path(error.path());
                let message = explain_serde_message(&error.inner().to_string(), &path);
                // An unknown widget kind is best shown at its key.
                let at = match message.strip_prefix("unknown variant `").and_then(|rest| rest.split('`').next()) {
                    Some(variant) => locations.key(&format!("{path}.{variant}")),
                    None => locations.value(&path),
                };
                errors.push(report(Severity::Error, path.clone(), message, at));
                if errors.len() >= MAX_ERRORS || !set_aside(&mut value, &path) {
                    break None;
                }
            }
        }
    };

    // What the model did not keep is what it does not know. Parts set aside
    // after an error are compared as set aside, so they are not reported twice.
    let unknown = match &model {
        Some(model) => super::aliases::dropped(&value, &serde_json::to_value(model).unwrap_or_default()),
        None => Vec::new(),
    };
    let mut warnings: Vec<Diagnostic> = unknown
        .iter()
        .map(|path| {
            let name = path.rsplit(['.', '[']).next().unwrap_or(path);
            let hint = did_you_mean(name, KNOWN_PROPERTIES.iter().map(String::as_str))
                .map(|close| format!("; did you mean `{close}`?"))
                .unwrap_or_default();
            report(
                Severity::Warning,
                path.clone(),
                format!("unknown property `{name}` is ignored{hint}"),
                locations.key(path),
            )
        })
        .collect();
    if let Some(model) = &model {
        for (severity, path, message) in check(model) {
            let diagnostic = report(severity, path.clone(), message, locations.value(&path));
            match severity {
                Severity::Error => errors.push(diagnostic),
                Severity::Warning => warnings.push(diagnostic),
            }
        }
    }
    warnings.sort_by_key(|warning| warning.at);
    match model {
        Some(model) if errors.is_empty() => Ok((model, warnings)),
        _ => {
            errors.sort_by_key(|error| error.at);
            errors.extend(warnings);
            Err(errors)
        }
    }
}

/// Takes the part of the file that holds `path` out of the next reading.
/// Returns false when nothing could be set aside (the error is at the root).
fn set_aside(value: &mut Value, path: &str) -> bool {
    let root = value.as_object_mut().expect("checked to be an object");
    let property = path.split(['.', '[']).next().unwrap_or_default();
    if property.is_empty() {
        return false;
    }
    if WIDGET_LISTS.contains(&property) {
        if let Some(index) = path
            .strip_prefix(property)
            .and_then(|rest| rest.strip_prefix('['))
            .and_then(|rest| rest.split(']').next())
            .and_then(|index| index.parse::<usize>().ok())
            && let Some(entry) = root.get_mut(property).and_then(|list| list.get_mut(index))
        {
            *entry = json!({ "Plugin": { "enable": false, "path": "" } });
            return true;
        }
        // The list itself is wrong: an empty one keeps the required key present.
        root.insert(property.into(), json!([]));
        return true;
    }
    root.remove(property).is_some()
}

/// What the config enables that does nothing on this platform: Obi is the
/// notification server (and the Notifications widget shows it) where there
/// is a freedesktop session bus, and the on-screen displays read the sound
/// server and the backlight as Linux has them. On Windows the Action
/// Center's notifications are readable only by packaged apps, which Obi is
/// not.
fn unsupported_here(model: &BarModel, has_session_bus: bool, is_linux: bool) -> Vec<(Severity, String, String)> {
    let mut found = Vec::new();
    if !has_session_bus {
        if model.notifications.as_ref().is_some_and(|notifications| notifications.enable) {
            found.push((
                Severity::Warning,
                "notifications".into(),
                "Obi serves notifications on Linux only; here nothing is shown".into(),
            ));
        }
        let widgets = model.entries().filter(|(_, widget)| widget.kind() == "Notifications" && widget.enabled());
        for (at, widget) in widgets {
            let message =
                "the Notifications widget shows Obi's notification server, which runs on Linux only; here it says so";
            found.push((Severity::Warning, format!("{at}.{}", widget.kind()), message.into()));
        }
    }
    if !is_linux && model.osd.as_ref().is_some_and(|osd| osd.enable) {
        found.push((
            Severity::Warning,
            "osd".into(),
            "on-screen displays are shown on Linux only; here none is".into(),
        ));
    }
    if !is_linux {
        let linux_only = |kind: &str| match kind {
            "Brightness" => Some("the Brightness widget reads Linux's backlight class; here it shows nothing"),
            "Bluetooth" => Some("the Bluetooth widget reads BlueZ, which runs on Linux; here it shows nothing"),
            "Privacy" => {
                Some("the Privacy widget reads the sound server, which Obi reads on Linux; here it shows nothing")
            }
            "Wifi" => Some("the Wifi widget reads NetworkManager, which runs on Linux; here it shows nothing"),
            "Volume" => {
                Some("the Volume widget reads PulseAudio or PipeWire, which Obi reads on Linux; here it shows nothing")
            }
            _ => None,
        };
        for (at, widget) in model.entries().filter(|(_, widget)| widget.enabled()) {
            if let Some(message) = linux_only(widget.kind()) {
                found.push((Severity::Warning, format!("{at}.{}", widget.kind()), message.into()));
            }
        }
    }
    found
}

/// Checks that types cannot express: names that must exist, and the ranges
/// komorebi-bar clamps to.
fn check(model: &BarModel) -> Vec<(Severity, String, String)> {
    let mut found = Vec::new();
    check_numbers(model, &mut found);
    found.extend(unsupported_here(model, cfg!(free_unix), cfg!(target_os = "linux")));
    if let Some(scale) = model.icon_scale
        && !(1.0..=2.0).contains(&scale)
    {
        found.push((
            Severity::Warning,
            "icon_scale".into(),
            format!("{scale} is outside 1.0..=2.0; using {}", scale.clamp(1.0, 2.0)),
        ));
    }
    if let Some(mouse) = &model.mouse {
        for (trigger, message) in mouse.messages() {
            if let MouseMessage::Tiler(tiler) = message {
                let path = format!("mouse.{trigger}.message");
                if let Err(invalid) = Message::parse(&tiler.message) {
                    let at = if invalid.at.is_empty() || invalid.at.starts_with('[') {
                        format!("{path}{}", invalid.at)
                    } else {
                        format!("{path}.{}", invalid.at)
                    };
                    found.push((Severity::Error, at, invalid.reason));
                }
                check_ratios(&tiler.message, &path, &mut found);
            }
        }
        for (name, threshold) in [
            ("vertical_scroll_threshold", mouse.vertical_scroll_threshold),
            ("horizontal_scroll_threshold", mouse.horizontal_scroll_threshold),
        ] {
            if let Some(threshold) = threshold.filter(|threshold| !(10.0..=300.0).contains(threshold)) {
                found.push((
                    Severity::Warning,
                    format!("mouse.{name}"),
                    format!("{threshold} is outside 10..=300; using {}", threshold.clamp(10.0, 300.0)),
                ));
            }
        }
    }
    if let Some(KomobarTheme::Custom(theme)) = &model.theme {
        let colours = serde_json::to_value(&theme.colours).unwrap_or_default();
        for (key, colour) in colours.as_object().into_iter().flatten() {
            if let Some(hex) = colour.as_str().filter(|hex| crate::colour::parse_hex(hex).is_none()) {
                found.push((
                    Severity::Error,
                    format!("theme.colours.{key}"),
                    format!("{hex:?} is not a colour: write \"#rrggbb\" or {{ \"r\": 0, \"g\": 0, \"b\": 0 }}"),
                ));
            }
        }
    }
    if let Some(KomobarTheme::Base16(theme)) = &model.theme
        && !crate::colour::BASE16_NAMES.contains(&theme.name.as_str())
    {
        let hint = did_you_mean(&theme.name, crate::colour::BASE16_NAMES.iter().copied())
            .map(|close| format!("; did you mean `{close}`?"))
            .unwrap_or_default();
        found.push((Severity::Error, "theme.name".into(), format!("unknown Base16 palette `{}`{hint}", theme.name)));
    }
    for (at, widget) in model.entries() {
        if let WidgetConfig::Komorebi(komorebi) = widget
            && let Some(workspaces) = komorebi.workspaces.as_ref().filter(|w| w.hide_empty_workspaces.is_none())
        {
            // komorebi-bar refuses the file; a part that is off is let through with a warning.
            let severity = if workspaces.enable { Severity::Error } else { Severity::Warning };
            found.push((
                severity,
                format!("{at}.Komorebi.workspaces"),
                "missing field `hide_empty_workspaces` (true or false), which komorebi-bar requires".into(),
            ));
        }
        let timezone = match widget {
            WidgetConfig::Date(date) => date.timezone.as_deref(),
            WidgetConfig::Time(time) => time.timezone.as_deref(),
            _ => None,
        };
        if let WidgetConfig::Systray(systray) = widget {
            // 0 turns the check off; anything else komorebi-bar clamps.
            if let Some(seconds) =
                systray.stale_icons_check_interval.filter(|&seconds| seconds != 0 && !(30..=600).contains(&seconds))
            {
                found.push((
                    Severity::Warning,
                    format!("{at}.Systray.stale_icons_check_interval"),
                    format!(
                        "{seconds} s is outside 30..=600 (0 turns the check off); using {}",
                        seconds.clamp(30, 600)
                    ),
                ));
            }
        }
        if let Some(zone) = timezone.filter(|zone| crate::time_zones::named(zone).is_err()) {
            let known: Vec<String> = crate::time_zones::known().collect();
            let hint = did_you_mean(zone, known.iter().map(String::as_str))
                .map(|close| format!("; did you mean `{close}`?"))
                .unwrap_or_default();
            found.push((
                Severity::Error,
                format!("{at}.{}.timezone", widget.kind()),
                format!("unknown time zone `{zone}`{hint}"),
            ));
        }
    }
    found
}

/// No monitor is this many pixels across; a length beyond it is a mistake.
const LONGEST: f32 = 16_384.0;
/// Screen coordinates reach no further than this, monitors side by side.
const FURTHEST: f32 = 100_000.0;
/// A widget's memory cap: 32-bit WebAssembly addresses 4 GiB.
const MOST_MEMORY_MB: usize = 4096;
/// A widget's longest call deadline: a minute.
const LONGEST_DEADLINE_MS: u64 = 60_000;

/// Numbers that cannot make sense, which would otherwise be clamped,
/// overflow or become infinite on the way to the screen (`1e300` is an
/// infinite `f32`).
fn check_numbers(model: &BarModel, found: &mut Vec<(Severity, String, String)>) {
    // Shown as written: an f32 widened to f64 would gain digits.
    let mut out_of_range = |path: &str, value: f64, shown: &dyn Written, range: RangeInclusive<f64>, why| {
        if !range.contains(&value) {
            let shown = match value {
                value if !value.is_finite() => "a number this large".to_owned(),
                value if value.abs() >= 1e9 => format!("{shown:e}"),
                _ => shown.to_string(),
            };
            let (low, high) = (range.start(), range.end());
            found.push((Severity::Error, path.to_owned(), format!("{shown} is {why}; expected {low}..={high}")));
        }
    };
    let mut lengths: Vec<(String, f32)> = Vec::new();
    let mut length = |path: &str, value: Option<f32>| lengths.extend(value.map(|value| (path.to_owned(), value)));
    length("font_size", model.font_size);
    length("max_label_width", model.max_label_width);
    length("widget_spacing", model.widget_spacing);
    for (name, spacing) in [("margin", &model.margin), ("padding", &model.padding)] {
        if let Some(spacing) = spacing {
            let (top, bottom, left, right) = spacing.sides();
            [top, bottom, left, right].into_iter().for_each(|side| length(name, Some(side)));
        }
    }
    if let Some(frame) = &model.frame {
        length("frame.inner_margin.x", Some(frame.inner_margin.x));
        length("frame.inner_margin.y", Some(frame.inner_margin.y));
    }
    if let Some(end) = model.position.as_ref().and_then(|position| position.end) {
        length("position.end.x", Some(end.x));
        length("position.end.y", Some(end.y));
    }
    let grouping = match &model.grouping {
        Some(Grouping::Bar(config) | Grouping::Alignment(config) | Grouping::Widget(config)) => Some(config),
        _ => None,
    };
    match grouping.and_then(|config| config.rounding.as_ref()) {
        Some(RoundingConfig::Same(radius)) => length("grouping.rounding", Some(*radius)),
        Some(RoundingConfig::Individual(radii)) => {
            radii.iter().for_each(|radius| length("grouping.rounding", Some(*radius)))
        }
        None => {}
    }
    for (path, value) in lengths {
        let limit = f64::from(LONGEST);
        out_of_range(&path, f64::from(value), &value, -limit..=limit, "longer than any monitor is wide or tall");
    }
    if let Some(height) = model.height {
        out_of_range("height", f64::from(height), &height, 1.0..=f64::from(LONGEST), "no height a bar can have");
    }
    if let Some(start) = model.position.as_ref().and_then(|position| position.start) {
        let limit = f64::from(FURTHEST);
        for (axis, value) in [("x", start.x), ("y", start.y)] {
            let path = format!("position.start.{axis}");
            out_of_range(&path, f64::from(value), &value, -limit..=limit, "beyond any screen");
        }
    }
    if let Some(notifications) = &model.notifications {
        use super::model as limits;
        let mut count = |name: &str, value: Option<u32>, range: RangeInclusive<u32>, why| {
            if let Some(value) = value {
                let path = format!("notifications.{name}");
                let range = f64::from(*range.start())..=f64::from(*range.end());
                out_of_range(&path, f64::from(value), &value, range, why);
            }
        };
        count("max_visible", notifications.max_visible, 1..=limits::MOST_VISIBLE, "more than a screen can stack");
        count("history", notifications.history, 0..=limits::MOST_HISTORY, "more than the history keeps");
        count("timeout_ms", notifications.timeout_ms, 1..=limits::LONGEST_TIMEOUT_MS, "not a timeout");
        if let Some(width) = notifications.width {
            let range = f64::from(limits::NARROWEST)..=f64::from(limits::WIDEST);
            out_of_range("notifications.width", f64::from(width), &width, range, "no width a notification can have");
        }
    }
    if let Some(osd) = &model.osd {
        use super::model as limits;
        if let Some(timeout) = osd.timeout_ms {
            let range = f64::from(limits::SHORTEST_OSD_MS)..=f64::from(limits::LONGEST_OSD_MS);
            out_of_range("osd.timeout_ms", f64::from(timeout), &timeout, range, "no time an on-screen display stays");
        }
        if let Some(width) = osd.width {
            let range = f64::from(limits::NARROWEST)..=f64::from(limits::WIDEST);
            out_of_range("osd.width", f64::from(width), &width, range, "no width an on-screen display can have");
        }
    }
    for (at, widget) in model.entries() {
        let WidgetConfig::Plugin(plugin) = widget else { continue };
        if let Some(megabytes) = plugin.memory_limit_mb {
            let path = format!("{at}.Plugin.memory_limit_mb");
            let most = MOST_MEMORY_MB as f64;
            out_of_range(&path, megabytes as f64, &megabytes, 1.0..=most, "more than a widget can address");
        }
        if let Some(milliseconds) = plugin.call_deadline_ms {
            let path = format!("{at}.Plugin.call_deadline_ms");
            let longest = LONGEST_DEADLINE_MS as f64;
            out_of_range(&path, milliseconds as f64, &milliseconds, 1.0..=longest, "not a call's deadline");
        }
    }
}

/// A number as the file wrote it, plainly or with an exponent.
trait Written: std::fmt::Display + std::fmt::LowerExp {}
impl<T: std::fmt::Display + std::fmt::LowerExp> Written for T {}

/// Layout ratios inside tiler messages are arrays of exactly five entries
/// (numbers, or null for "no ratio"), as komorebi reads them.
fn check_ratios(value: &Value, path: &str, found: &mut Vec<(Severity, String, String)>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let child_path = super::aliases::join(path, key);
                if matches!(key.as_str(), "column_ratios" | "row_ratios") && !child.is_null() {
                    let well_formed = child.as_array().is_some_and(|ratios| {
                        ratios.len() == RATIOS && ratios.iter().all(|ratio| ratio.is_null() || ratio.is_number())
                    });
                    if !well_formed {
                        found.push((
                            Severity::Error,
                            child_path.clone(),
                            format!("expected an array of {RATIOS} numbers (or nulls), found {child}"),
                        ));
                    }
                }
                check_ratios(child, &child_path, found);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                check_ratios(item, &format!("{path}[{index}]"), found);
            }
        }
        _ => {}
    }
}

/// komorebi's MAX_RATIOS.
const RATIOS: usize = 5;

fn error_path(path: &serde_path_to_error::Path) -> String {
    let mut out = String::new();
    for segment in path.iter() {
        match segment {
            serde_path_to_error::Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            serde_path_to_error::Segment::Map { key } => push_key(&mut out, key),
            serde_path_to_error::Segment::Enum { variant } => push_key(&mut out, variant),
            serde_path_to_error::Segment::Unknown => {}
        }
    }
    out
}

fn push_key(out: &mut String, key: &str) {
    *out = super::aliases::join(out, key);
}

/// Every property name the model knows, for "did you mean" on unknown ones.
static KNOWN_PROPERTIES: LazyLock<Vec<String>> = LazyLock::new(|| {
    let schema = serde_json::to_value(schemars::schema_for!(BarModel)).unwrap_or_default();
    let mut names = BTreeSet::new();
    collect_property_names(&schema, &mut names);
    names.into_iter().collect()
});

fn collect_property_names(schema: &Value, names: &mut BTreeSet<String>) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::Object(properties)) = map.get("properties") {
                names.extend(properties.keys().cloned());
            }
            map.values().for_each(|child| collect_property_names(child, names));
        }
        Value::Array(items) => items.iter().for_each(|child| collect_property_names(child, names)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_runs_on_linux_only_is_named_elsewhere() {
        let model: BarModel = serde_json::from_str(
            r#"{ "left_widgets": [ { "Notifications": { "enable": true } }, { "Notifications": { "enable": false } } ],
                 "right_widgets": [ { "Brightness": { "enable": true } }, { "Bluetooth": { "enable": true } },
                                    { "Privacy": { "enable": true } }, { "Volume": { "enable": true } } ],
                 "notifications": { "enable": true }, "osd": { "enable": true } }"#,
        )
        .unwrap();
        assert!(unsupported_here(&model, true, true).is_empty(), "Linux has them all");
        let paths = |found: Vec<(Severity, String, String)>| -> Vec<String> {
            assert!(found.iter().all(|(severity, ..)| *severity == Severity::Warning), "{found:?}");
            found.into_iter().map(|(_, path, _)| path).collect()
        };
        assert_eq!(
            paths(unsupported_here(&model, true, false)),
            [
                "osd",
                "right_widgets[0].Brightness",
                "right_widgets[1].Bluetooth",
                "right_widgets[2].Privacy",
                "right_widgets[3].Volume"
            ],
            "a BSD serves notifications"
        );
        assert_eq!(
            paths(unsupported_here(&model, false, false)),
            [
                "notifications",
                "left_widgets[0].Notifications",
                "osd",
                "right_widgets[0].Brightness",
                "right_widgets[1].Bluetooth",
                "right_widgets[2].Privacy",
                "right_widgets[3].Volume"
            ],
            "Windows and macOS have none of them, and a disabled widget is not named"
        );
    }
}

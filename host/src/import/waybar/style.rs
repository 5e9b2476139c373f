//! What of Waybar's `style.css` Obi's config can say: the font (`*` or
//! `window#waybar`'s `font-family` and `font-size`), the bar's background
//! and text (`window#waybar`), the focused workspace's fill and text
//! (`#workspaces button.focused` or `.active`), an urgent one's fill, and
//! the corner radius (of the bar, its sides or its modules, as Obi's
//! `grouping`). They become a custom theme in which the rest keeps Obi's
//! default colours; every other declaration is a note at its rule.

use super::css::{Rule, StyleSheet};
use crate::colour::Rgba;
use crate::import::palette::Roles;
use crate::import::{Note, Place};
use serde_json::{Map, Value, json};
use std::path::Path;

/// What the style sheet says of the bar, read.
#[derive(Debug, Default, PartialEq)]
struct Look {
    font_family: Option<String>,
    font_size: Option<f64>,
    background: Option<[u8; 4]>,
    text: Option<[u8; 4]>,
    selected_fill: Option<[u8; 4]>,
    selected_text: Option<[u8; 4]>,
    urgent: Option<[u8; 4]>,
    /// The radius, and whom it rounds: `Bar`, `Alignment` or `Widget`.
    rounding: Option<(&'static str, f64)>,
}

/// The keys of Obi's config that `style.css` at `path` gives (`font_family`,
/// `theme` …); a note for each rule that holds more.
pub fn config_keys(path: &Path, notes: &mut Vec<Note>) -> anyhow::Result<Map<String, Value>> {
    let sheet = StyleSheet::read(path)?;
    let mut look = Look::default();
    for rule in &sheet.rules {
        let not_carried = read_rule(&sheet, rule, &mut look);
        if !not_carried.is_empty() {
            let what = format!(
                "`{}` {{ {} }} is not carried over: Obi draws it by its theme and layout",
                rule.selectors.join(", "),
                not_carried.join("; ")
            );
            notes.push(Note { place: Place { file: rule.file.clone(), at: Some(rule.at) }, what });
        }
    }
    for (file, at, what) in &sheet.skipped {
        notes.push(Note {
            place: Place { file: file.clone(), at: Some(*at) },
            what: format!("`{what}` is not carried over"),
        });
    }
    Ok(look.config_keys())
}

/// Takes what Obi can say of `rule` into `look`; the declarations it cannot.
fn read_rule(sheet: &StyleSheet, rule: &Rule, look: &mut Look) -> Vec<String> {
    let mut not_carried = Vec::new();
    for declaration in rule.declarations.iter().filter(|declaration| !declaration.property.starts_with("--")) {
        let (property, value) = (declaration.property.as_str(), declaration.value.as_str());
        let carried = rule.selectors.iter().any(|selector| {
            let selector = selector.as_str();
            let bar = matches!(selector, "window#waybar" | "#waybar" | "window");
            let focused = matches!(selector, "#workspaces button.focused" | "#workspaces button.active");
            let colour = || sheet.colour(value);
            match property {
                "font-family" if bar || selector == "*" => {
                    set(&mut look.font_family, first_family(&sheet.resolved(value)))
                }
                "font-size" if bar || selector == "*" => set(&mut look.font_size, pixels(&sheet.resolved(value))),
                "background" | "background-color" if bar => set(&mut look.background, colour()),
                "color" if bar || selector == "*" => set(&mut look.text, colour()),
                "background" | "background-color" if focused => set(&mut look.selected_fill, colour()),
                "color" if focused => set(&mut look.selected_text, colour()),
                "background" | "background-color" if selector == "#workspaces button.urgent" => {
                    set(&mut look.urgent, colour())
                }
                // Rounded where something is drawn: a side's or a module's
                // corners show only on a background of their own.
                "border-radius" => {
                    let whom = match selector {
                        _ if bar => "Bar",
                        _ if !has_background(sheet, rule) => return false,
                        ".modules-left" | ".modules-center" | ".modules-right" => "Alignment",
                        _ if selector.starts_with('#') && !selector.contains(' ') => "Widget",
                        _ => return false,
                    };
                    let radius = pixels(sheet.resolved(value).split_whitespace().next().unwrap_or_default());
                    match (radius, &look.rounding) {
                        // Obi rounds one of them: the most particular.
                        (Some(_), Some(kept)) if rank(kept.0) > rank(whom) => false,
                        (radius, _) => set(&mut look.rounding, radius.map(|radius| (whom, radius))),
                    }
                }
                _ => false,
            }
        });
        if !carried {
            not_carried.push(format!("{property}: {value}"));
        }
    }
    not_carried
}

/// Whether `rule` fills what it selects with a colour that shows.
fn has_background(sheet: &StyleSheet, rule: &Rule) -> bool {
    let fills = |property: &str| property == "background" || property == "background-color";
    rule.declarations
        .iter()
        .filter(|declaration| fills(&declaration.property))
        .any(|declaration| sheet.colour(&declaration.value).is_some_and(|[.., alpha]| alpha > 0))
}

/// The most particular rounding wins: a module's over a side's over the bar's.
fn rank(whom: &str) -> u8 {
    match whom {
        "Widget" => 2,
        "Alignment" => 1,
        _ => 0,
    }
}

/// Sets `slot` to `value` when there is one (a later rule wins, as in
/// CSS); whether there was.
fn set<T>(slot: &mut Option<T>, value: Option<T>) -> bool {
    match value {
        Some(value) => {
            *slot = Some(value);
            true
        }
        None => false,
    }
}

/// The first family of a `font-family` list, unquoted.
fn first_family(value: &str) -> Option<String> {
    let first = value.split(',').next()?.trim().trim_matches(['"', '\'']).trim();
    (!first.is_empty()).then(|| first.to_owned())
}

/// A length in pixels: `13px`, `10pt` (4/3 of a pixel), `1.2rem` (of 16).
fn pixels(value: &str) -> Option<f64> {
    let value = value.trim();
    let (number, scale) = if let Some(number) = value.strip_suffix("px") {
        (number, 1.0)
    } else if let Some(number) = value.strip_suffix("pt") {
        (number, 4.0 / 3.0)
    } else if let Some(number) = value.strip_suffix("rem").or_else(|| value.strip_suffix("em")) {
        (number, 16.0)
    } else {
        (value, 1.0)
    };
    let pixels = number.trim().parse::<f64>().ok()? * scale;
    (pixels.is_finite() && pixels >= 0.0).then(|| (pixels * 100.0).round() / 100.0)
}

impl Look {
    fn config_keys(&self) -> Map<String, Value> {
        let mut keys = Map::new();
        if let Some(family) = &self.font_family {
            keys.insert("font_family".into(), family.clone().into());
        }
        if let Some(size) = self.font_size.filter(|size| *size > 0.0) {
            keys.insert("font_size".into(), size.into());
        }
        if let Some((whom, radius)) = self.rounding {
            keys.insert("grouping".into(), json!({ "kind": whom, "rounding": radius }));
        }
        let colours = [self.background, self.text, self.selected_fill, self.selected_text, self.urgent];
        if colours.iter().any(Option::is_some) {
            keys.insert("theme".into(), self.theme());
            if let Some(alpha) = self.background.map(|[.., alpha]| alpha).filter(|alpha| *alpha < 255) {
                keys.insert("transparency_alpha".into(), alpha.into());
            }
        }
        keys
    }

    /// The sheet's colours as Obi's theme (see [`Roles`]).
    fn theme(&self) -> Value {
        let rgba = |colour: Option<[u8; 4]>| colour.map(|[red, green, blue, alpha]| Rgba(red, green, blue, alpha));
        let roles = Roles {
            background: rgba(self.background),
            text: rgba(self.text),
            muted: None,
            selected_fill: rgba(self.selected_fill),
            selected_text: rgba(self.selected_text),
            urgent: rgba(self.urgent),
        };
        roles.theme()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_in_the_units_bars_write() {
        assert_eq!(pixels("13px"), Some(13.0));
        assert_eq!(pixels("12pt"), Some(16.0));
        assert_eq!(pixels("0.75rem"), Some(12.0));
        assert_eq!(pixels("14"), Some(14.0));
        assert_eq!(pixels("large"), None);
        assert_eq!(first_family("\"JetBrainsMono Nerd Font\", monospace"), Some("JetBrainsMono Nerd Font".into()));
    }
}

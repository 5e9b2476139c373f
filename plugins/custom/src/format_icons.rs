//! Which of `format_icons` `{icon}` shows, as Waybar chooses: by `alt`
//! from an object (its `default` for any other), then by percentage from
//! a list (the first for 0, the last for 100 and past it).

use obi_sdk::config::{AltIcons, FormatIcons};

pub fn icon_for(icons: &FormatIcons, percentage: i64, alt: &str) -> String {
    let by_level = |levels: &[String]| by_level(levels, percentage);
    match icons {
        FormatIcons::ByLevel(levels) => by_level(levels),
        FormatIcons::ByAlt(by_alt) => {
            let chosen = by_alt.get(alt).filter(|_| !alt.is_empty()).or_else(|| by_alt.get("default"));
            match chosen {
                Some(AltIcons::One(icon)) => icon.clone(),
                Some(AltIcons::ByLevel(levels)) => by_level(levels),
                None => String::new(),
            }
        }
    }
}

/// Each icon stands for an equal share of 0–100, in whole percents.
fn by_level(levels: &[String], percentage: i64) -> String {
    let Some(last) = levels.len().checked_sub(1) else { return String::new() };
    let share = (100 / levels.len()).max(1) as i64;
    let index = (percentage.max(0) / share).min(last as i64) as usize;
    levels[index].clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn levels(icons: &[&str]) -> Vec<String> {
        icons.iter().map(|icon| icon.to_string()).collect()
    }

    #[test]
    fn a_list_is_chosen_by_the_percentage() {
        let icons = FormatIcons::ByLevel(levels(&["low", "mid", "high"]));
        let chosen: Vec<String> = [0, 32, 33, 65, 66, 100, 250, -5].map(|at| icon_for(&icons, at, "")).into();
        assert_eq!(chosen, ["low", "low", "mid", "mid", "high", "high", "high", "low"]);
        assert_eq!(icon_for(&FormatIcons::ByLevel(Vec::new()), 50, ""), "");
        let many = FormatIcons::ByLevel((0..150).map(|index| index.to_string()).collect());
        assert_eq!(icon_for(&many, 100, ""), "100", "more icons than percents");
    }

    #[test]
    fn an_object_is_chosen_by_alt_then_default() {
        let icons = FormatIcons::ByAlt(BTreeMap::from([
            ("muted".to_owned(), AltIcons::One("M".into())),
            ("default".to_owned(), AltIcons::ByLevel(levels(&["a", "b"]))),
        ]));
        assert_eq!(icon_for(&icons, 90, "muted"), "M");
        assert_eq!(icon_for(&icons, 90, "other"), "b");
        assert_eq!(icon_for(&icons, 10, ""), "a");
        let without_default = FormatIcons::ByAlt(BTreeMap::from([("on".to_owned(), AltIcons::One("I".into()))]));
        assert_eq!(icon_for(&without_default, 10, "off"), "");
    }
}

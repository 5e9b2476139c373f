//! `hidden_icons`: which tray items go to the overflow. A rule is a string,
//! which matches the item's executable (case-insensitive, exact), or an
//! object of `exe`, `tooltip` and `guid` (on Linux, the item's id), each a
//! string (equal) or `{ "value", "matching_strategy" }`; every field given
//! must match. Executables are compared without regard to case, as on
//! Windows, where these rules come from; tooltips and ids as written.
//! `Legacy` is komorebi's: equal for `exe` and `guid`, contained for `tooltip`.

use obi_sdk::config::{FieldMatch, HiddenIconFields, HiddenIconRule as Rule, MatchingStrategy as Strategy};

/// What a rule looks at in an item.
pub struct Fields<'a> {
    pub exe: &'a str,
    pub tooltip: &'a str,
    pub guid: &'a str,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    Exe,
    Tooltip,
    Guid,
}

/// A rule read from the config, its regular expressions compiled.
pub struct Compiled {
    checks: Vec<(Field, Check)>,
}

enum Check {
    Text { value: String, strategy: Strategy },
    Regex(regex_lite::Regex),
}

/// The rule ready to match; a regular expression that does not read is an
/// error naming it.
pub fn compile(rule: Rule) -> Result<Compiled, String> {
    let fields = match rule {
        Rule::Exe(exe) => {
            vec![(Field::Exe, FieldMatch::Strategy { value: exe, matching_strategy: Strategy::Equals })]
        }
        Rule::Fields(HiddenIconFields { exe, tooltip, guid }) => {
            [(Field::Exe, exe), (Field::Tooltip, tooltip), (Field::Guid, guid)]
                .into_iter()
                .filter_map(|(field, found)| Some((field, found?)))
                .collect()
        }
    };
    let checks = fields
        .into_iter()
        .map(|(field, found)| {
            let (value, strategy) = match found {
                FieldMatch::Exact(value) => (value, Strategy::Equals),
                FieldMatch::Strategy { value, matching_strategy } => (value, matching_strategy),
            };
            let check = match strategy {
                Strategy::Regex => Check::Regex(
                    regex_lite::Regex::new(&value).map_err(|error| format!("hidden_icons: {value:?}: {error}"))?,
                ),
                strategy => Check::Text { value, strategy },
            };
            Ok((field, check))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Compiled { checks })
}

impl Compiled {
    /// Whether every field of the rule matches `item`.
    pub fn matches(&self, item: &Fields<'_>) -> bool {
        !self.checks.is_empty() && self.checks.iter().all(|(field, check)| check.matches(*field, item))
    }
}

impl Check {
    fn matches(&self, field: Field, item: &Fields<'_>) -> bool {
        let found = match field {
            Field::Exe => item.exe,
            Field::Tooltip => item.tooltip,
            Field::Guid => item.guid,
        };
        let Check::Text { value, strategy } = self else {
            let Check::Regex(regex) = self else { unreachable!() };
            return regex.is_match(found);
        };
        // Executables are compared without regard to case.
        let (found, value) = if field == Field::Exe {
            (found.to_lowercase(), value.to_lowercase())
        } else {
            (found.to_owned(), value.clone())
        };
        match strategy {
            Strategy::Legacy if field == Field::Tooltip => found.contains(&value),
            Strategy::Legacy | Strategy::Equals => found == value,
            Strategy::StartsWith => found.starts_with(&value),
            Strategy::EndsWith => found.ends_with(&value),
            Strategy::Contains => found.contains(&value),
            Strategy::DoesNotEndWith => !found.ends_with(&value),
            Strategy::DoesNotStartWith => !found.starts_with(&value),
            Strategy::DoesNotEqual => found != value,
            Strategy::DoesNotContain => !found.contains(&value),
            Strategy::Regex => unreachable!("compiled as a regular expression"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NM: Fields<'static> = Fields { exe: "nm-applet", tooltip: "Wired connection 1", guid: "nm-applet" };

    fn rule(json: &str) -> Compiled {
        compile(serde_json::from_str::<Rule>(json).unwrap()).unwrap()
    }

    #[test]
    fn a_string_is_the_executable_in_any_case() {
        assert!(rule(r#""NM-Applet""#).matches(&NM));
        assert!(!rule(r#""nm""#).matches(&NM));
    }

    #[test]
    fn every_strategy() {
        let cases = [
            (r#"{ "tooltip": { "value": "Wired connection 1", "matching_strategy": "Legacy" } }"#, true),
            (r#"{ "tooltip": { "value": "Wired", "matching_strategy": "Legacy" } }"#, true),
            (r#"{ "exe": { "value": "nm", "matching_strategy": "Legacy" } }"#, false),
            (r#"{ "exe": { "value": "NM-APPLET", "matching_strategy": "Equals" } }"#, true),
            (r#"{ "tooltip": { "value": "Wired", "matching_strategy": "StartsWith" } }"#, true),
            (r#"{ "tooltip": { "value": "1", "matching_strategy": "EndsWith" } }"#, true),
            (r#"{ "tooltip": { "value": "connection", "matching_strategy": "Contains" } }"#, true),
            (r#"{ "tooltip": { "value": "^Wired .* \\d$", "matching_strategy": "Regex" } }"#, true),
            (r#"{ "tooltip": { "value": "1", "matching_strategy": "DoesNotEndWith" } }"#, false),
            (r#"{ "tooltip": { "value": "Wireless", "matching_strategy": "DoesNotStartWith" } }"#, true),
            (r#"{ "guid": { "value": "nm-applet", "matching_strategy": "DoesNotEqual" } }"#, false),
            (r#"{ "guid": { "value": "blue", "matching_strategy": "DoesNotContain" } }"#, true),
            (r#"{ "tooltip": "wired connection 1" }"#, false),
            (r#"{ "guid": "nm-applet" }"#, true),
        ];
        for (json, expected) in cases {
            assert_eq!(rule(json).matches(&NM), expected, "{json}");
        }
    }

    #[test]
    fn every_field_given_must_match() {
        assert!(rule(r#"{ "exe": "nm-applet", "guid": "nm-applet" }"#).matches(&NM));
        assert!(!rule(r#"{ "exe": "nm-applet", "guid": "blueman" }"#).matches(&NM));
        assert!(!rule("{}").matches(&NM), "a rule with no field hides nothing");
        let bad = serde_json::from_str::<Rule>(r#"{ "exe": { "value": "(", "matching_strategy": "Regex" } }"#).unwrap();
        assert!(compile(bad).err().unwrap().contains("hidden_icons"));
    }
}

//! Characters that neither the text's own fonts nor the system's fallback
//! for their script have: an icon font's glyphs in the private-use area
//! (Font Awesome, Nerd Fonts, Material Design Icons), which belong to no
//! script, or a script the fallback lists leave out. Each is looked for
//! once in every installed family; a family found is tried after the
//! text's own fonts from then on. A character no font has is drawn as the
//! missing-glyph box and logged once, with what to install.

use fontique::{Collection, FamilyId, QueryFamily, QueryStatus, SourceCache};
use std::collections::{HashMap, HashSet};
use unicode_script::{Script, UnicodeScript};

/// How many characters are looked for, and logged, at most: a stream of
/// unknown characters (a title of random code points) costs a bounded scan.
const LOOKED_FOR: usize = 4096;

#[derive(Default)]
pub struct Coverage {
    /// Families found for characters, in the order they were found.
    families: Vec<FamilyId>,
    /// Characters looked for, with the family found for each (if any).
    looked_for: HashMap<char, Option<FamilyId>>,
    /// Characters no font has that have been logged.
    logged: HashSet<char>,
}

impl Coverage {
    /// The families found for characters so far, to be tried after a
    /// text's own fonts.
    pub fn families(&self) -> &[FamilyId] {
        &self.families
    }

    /// Looks in every family of `collection` for the `missing` characters
    /// not looked for before; whether a family was found for one of them
    /// (the text is then shaped again).
    pub fn look_for(&mut self, missing: &[char], collection: &mut Collection, source_cache: &mut SourceCache) -> bool {
        let fresh: Vec<char> = missing.iter().copied().filter(|c| !self.looked_for.contains_key(c)).collect();
        if fresh.is_empty() || self.looked_for.len() >= LOOKED_FOR {
            return false;
        }
        let families: Vec<FamilyId> = collection.family_ids().collect();
        let mut query = collection.query(source_cache);
        query.set_families(families.iter().copied().map(QueryFamily::Id));
        let mut found_any = false;
        for character in fresh {
            let mut found = None;
            query.matches_with(|font| match font.charmap().and_then(|charmap| charmap.map(character)) {
                Some(glyph) if glyph != 0 => {
                    found = Some(font.family.0);
                    QueryStatus::Stop
                }
                _ => QueryStatus::Continue,
            });
            if let Some(family) = found
                && !self.families.contains(&family)
            {
                self.families.push(family);
                found_any = true;
            }
            self.looked_for.insert(character, found);
        }
        found_any
    }

    /// Logs, once each, the `missing` characters no installed font has.
    pub fn log_missing(&mut self, missing: &[char]) {
        for &character in missing {
            if self.logged.len() < LOOKED_FOR && self.logged.insert(character) {
                tracing::warn!(
                    "no installed font has U+{:04X} ({}): it is drawn as a box; {}",
                    character as u32,
                    script_name(character),
                    install_hint(character)
                );
            }
        }
    }
}

fn script_name(character: char) -> &'static str {
    match character.script() {
        Script::Unknown if is_private_use(character) => "private use: an icon font's",
        script => script.full_name(),
    }
}

fn is_private_use(character: char) -> bool {
    matches!(character as u32, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

fn is_emoji(character: char) -> bool {
    matches!(character as u32, 0x1F000..=0x1FAFF | 0x2600..=0x27BF)
}

/// What to install for `character`'s script.
fn install_hint(character: char) -> &'static str {
    let cjk = matches!(
        character.script(),
        Script::Han | Script::Hiragana | Script::Katakana | Script::Hangul | Script::Bopomofo
    );
    if cfg!(windows) {
        return if is_private_use(character) {
            "install the icon font it is from (Font Awesome, a Nerd Font)"
        } else {
            "add the fonts of its language (Settings > Apps > Optional features > Add a feature)"
        };
    }
    if is_private_use(character) {
        "install the icon font it is from (on Debian: fonts-font-awesome, or a Nerd Font)"
    } else if cjk {
        "on Debian: fonts-noto-cjk"
    } else if is_emoji(character) {
        "on Debian: fonts-noto-color-emoji"
    } else {
        "on Debian: fonts-noto-core (or fonts-noto for every script)"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hint_names_the_script_and_what_to_install() {
        assert_eq!(script_name('한'), "Hangul");
        assert_eq!(script_name('\u{F0E0}'), "private use: an icon font's");
        if cfg!(not(windows)) {
            assert_eq!(install_hint('한'), "on Debian: fonts-noto-cjk");
            assert!(install_hint('\u{F0E0}').contains("fonts-font-awesome"));
            assert!(install_hint('🛸').contains("fonts-noto-color-emoji"));
            assert!(install_hint('ᚠ').contains("fonts-noto-core"));
        }
    }
}

//! Text as the bar draws it. Each character is taken from the first font
//! that has it: the bar's text font (for icons, the embedded icon font
//! first), then the system's fallback for its script and language, found by
//! fontique; emoji from the system's emoji font; and what no fallback list
//! names (an icon font's private-use glyphs) from any installed font that
//! has it ([`coverage`]). parley orders each text (bidi) and shapes it into
//! runs of glyphs ([`ShapedText`]), which the painter draws: outlines with
//! femtovg, colour glyphs as the images [`colour`] paints.
//!
//! Texts are shaped in the bar's own fonts until one needs another: the
//! system's fonts are listed then, once ([`system_fonts`]).

pub mod colour;
mod coverage;
mod cut;
mod shaped;
mod system_fonts;

pub use cut::{ELLIPSIS, cut};
pub use shaped::{ShapedGlyph, ShapedRun, ShapedText};

use super::FontData;
use coverage::Coverage;
use fontique::{Blob, Collection, CollectionOptions, GenericFamily, Language};
use parley::{FontContext, FontFamily, FontFamilyName, LayoutContext, StyleProperty};
use skrifa::MetadataProvider;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

/// Shaped texts kept: labels come and go (titles, rates), so past this the
/// engine starts over rather than grow without bound.
const SHAPED_TEXTS: usize = 1024;

/// Whether a text is a label or an icon (drawn in the icon font first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextKind {
    Label,
    Icon,
}

/// A font of the bar's own (its text fonts, the icon font), registered
/// with the font context under its family name.
struct OwnFont {
    family: String,
    /// Shared with the context, so that each run names it by one blob.
    blob: Blob<u8>,
    index: u32,
}

pub struct TextEngine {
    fonts: FontContext,
    layouts: LayoutContext<()>,
    has_system_fonts: bool,
    /// By their faces' keys ([`FontData::key`]).
    own: HashMap<u64, OwnFont>,
    icon_font: u64,
    locale: Option<Language>,
    coverage: Coverage,
    shaped: HashMap<(u64, TextKind, u32), HashMap<String, Arc<ShapedText>>>,
    /// Counts the times the fonts a text may be drawn in changed (and
    /// texts shaped before may now be shaped otherwise).
    generation: u64,
}

impl TextEngine {
    /// An engine drawing icons in `icon_font`.
    pub fn new(icon_font: &FontData) -> TextEngine {
        let collection = system_fonts::listed();
        let has_system_fonts = collection.is_some();
        // The bar's own fonts alone until the system's are listed (fontique
        // would list them here, on the painter's thread, by default).
        let own_only = CollectionOptions { shared: false, system_fonts: false };
        let collection = collection.unwrap_or_else(|| Collection::new(own_only));
        let mut engine = TextEngine {
            fonts: FontContext { collection, source_cache: Default::default() },
            layouts: LayoutContext::new(),
            has_system_fonts,
            own: HashMap::new(),
            icon_font: icon_font.key(),
            locale: locale_from_environment(),
            coverage: Coverage::default(),
            shaped: HashMap::new(),
            generation: 0,
        };
        engine.add_font(icon_font);
        engine
    }

    /// Makes `font` one to shape with ([`TextEngine::shape`] names it by its key).
    pub fn add_font(&mut self, font: &FontData) {
        if self.own.contains_key(&font.key()) {
            return;
        }
        let blob = Blob::new(Arc::new(font.bytes.clone()));
        let family = register(&mut self.fonts.collection, &blob, font.index);
        self.own.insert(font.key(), OwnFont { family, blob, index: font.index });
    }

    /// Bumped whenever texts may shape otherwise than before: widths
    /// measured before are to be measured again.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// `text` shaped at `size` in the font `font` (a key of a font added),
    /// or in the icon font first for an icon.
    pub fn shape(&mut self, text: &str, kind: TextKind, font: u64, size: f32) -> Arc<ShapedText> {
        if !self.has_system_fonts
            && let Some(listed) = system_fonts::listed()
        {
            self.adopt(listed);
        }
        let key = (font, kind, size.to_bits());
        if let Some(shaped) = self.shaped.get(&key).and_then(|texts| texts.get(text)) {
            return shaped.clone();
        }
        let (mut shaped, mut missing) = self.shape_now(text, kind, font, size);
        if !missing.is_empty() && !self.has_system_fonts {
            self.adopt(system_fonts::list());
            (shaped, missing) = self.shape_now(text, kind, font, size);
        }
        if !missing.is_empty() {
            let FontContext { collection, source_cache } = &mut self.fonts;
            if self.coverage.look_for(&missing, collection, source_cache) {
                self.fonts_changed();
                (shaped, missing) = self.shape_now(text, kind, font, size);
            }
            self.coverage.log_missing(&missing);
        }
        let shaped = Arc::new(shaped);
        if self.shaped.values().map(HashMap::len).sum::<usize>() >= SHAPED_TEXTS {
            self.shaped.clear();
        }
        self.shaped.entry(key).or_default().insert(text.to_owned(), shaped.clone());
        shaped
    }

    fn shape_now(&mut self, text: &str, kind: TextKind, font: u64, size: f32) -> (ShapedText, Vec<char>) {
        let text_family = self.own.get(&font).map(|own| own.family.clone()).unwrap_or_default();
        let icon_family = self.own.get(&self.icon_font).map(|own| own.family.clone()).unwrap_or_default();
        let mut families: Vec<FontFamilyName<'static>> = Vec::new();
        if kind == TextKind::Icon {
            families.push(FontFamilyName::Named(Cow::Owned(icon_family)));
        }
        families.push(FontFamilyName::Named(Cow::Owned(text_family.clone())));
        let collection = &mut self.fonts.collection;
        for &family in self.coverage.families() {
            if let Some(name) = collection.family_name(family) {
                families.push(FontFamilyName::Named(Cow::Owned(name.to_owned())));
            }
        }
        let emoji = FontFamily::List(Cow::Owned(vec![
            FontFamilyName::Generic(GenericFamily::Emoji),
            FontFamilyName::Named(Cow::Owned(text_family)),
        ]));
        let mut builder = self.layouts.ranged_builder(&mut self.fonts, text, 1.0, true);
        builder.push_default(StyleProperty::FontSize(size));
        builder.push_default(StyleProperty::FontFamily(FontFamily::List(Cow::Owned(families))));
        builder.push_default(StyleProperty::Locale(self.locale));
        for range in shaped::emoji_ranges(text) {
            builder.push(StyleProperty::FontFamily(emoji.clone()), range);
        }
        let mut layout = builder.build(text);
        layout.break_all_lines(None);
        let first = self.own.get(if kind == TextKind::Icon { &self.icon_font } else { &font });
        let (ascent, descent) = first.map(|own| metrics(own, size)).unwrap_or((size * 0.8, -size * 0.2));
        ShapedText::from_layout(&layout, text, ascent, descent)
    }

    /// Shapes with the system's fonts from now on (the bar's own first).
    fn adopt(&mut self, mut collection: Collection) {
        for own in self.own.values_mut() {
            own.family = register(&mut collection, &own.blob, own.index);
        }
        self.fonts.collection = collection;
        self.has_system_fonts = true;
        self.fonts_changed();
    }

    fn fonts_changed(&mut self) {
        self.shaped.clear();
        self.generation += 1;
    }
}

/// Registers the faces of `blob` with `collection`; the family name of
/// its face `index`.
fn register(collection: &mut Collection, blob: &Blob<u8>, index: u32) -> String {
    let families = collection.register_fonts(blob.clone(), None);
    let family = families
        .iter()
        .find(|(_, faces)| faces.iter().any(|face| face.index() == index))
        .or(families.first())
        .map(|(family, _)| *family);
    family.and_then(|family| collection.family_name(family)).unwrap_or_default().to_owned()
}

/// The ascent and descent (negative) of `font` at `size`.
fn metrics(font: &OwnFont, size: f32) -> (f32, f32) {
    match skrifa::FontRef::from_index(font.blob.as_ref(), font.index) {
        Ok(face) => {
            let metrics = face.metrics(skrifa::instance::Size::new(size), skrifa::instance::LocationRef::default());
            (metrics.ascent, metrics.descent)
        }
        Err(_) => (size * 0.8, -size * 0.2),
    }
}

/// The user's language, as the locale names it (`LC_ALL`, `LC_CTYPE`,
/// `LANG`): Han characters take its forms (Japanese, Simplified or
/// Traditional Chinese, Korean).
fn locale_from_environment() -> Option<Language> {
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|value| !value.is_empty())?;
    language_of(&locale)
}

/// `ja_JP.UTF-8` as `ja-JP`; none for the C and POSIX locales.
fn language_of(locale: &str) -> Option<Language> {
    let tag = locale.split(['.', '@']).next()?.replace('_', "-");
    if tag.is_empty() || tag == "C" || tag == "POSIX" {
        return None;
    }
    Language::parse(&tag).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_language_comes_from_the_locale() {
        assert_eq!(language_of("ja_JP.UTF-8"), Language::parse("ja-JP").ok());
        assert_eq!(language_of("zh_TW"), Language::parse("zh-TW").ok());
        assert_eq!(language_of("C.UTF-8"), None);
        assert_eq!(language_of("POSIX"), None);
    }
}

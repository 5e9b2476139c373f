//! Text as the bar draws it. Each character is taken from the first font
//! that has it: the bar's text font (for icons, the embedded icon font
//! first), then the system's fallback for its script and language, found by
//! fontique; emoji from the system's emoji font; and what no fallback list
//! names (an icon font's private-use glyphs) from any installed font that
//! has it ([`coverage`]). parley orders each text (bidi) and shapes it into
//! runs of glyphs ([`ShapedText`]), which the painter draws: outlines with
//! femtovg, colour glyphs as the images [`colour`] paints.
//!
//! A styled text is shaped the same way, as one text: each span's family
//! comes before the others for its characters, and parley picks the face
//! of its weight and slant (or says how to make one up). What parley does
//! not lay out (colours, fills, a raised baseline) rides on each run.
//!
//! Texts are shaped in the bar's own fonts until one needs another, holds
//! an emoji, or a styled text names a family or a face: the system's fonts
//! are listed then, once ([`system_fonts`]), or before, on a thread of
//! their own, when a widget first shows such a text ([`ListAhead`]).

mod ahead;
pub mod colour;
mod coverage;
mod cut;
mod shaped;
mod system_fonts;
pub mod wrap;

pub use ahead::ListAhead;
pub use cut::{ELLIPSIS, cut, cut_spans};
pub use shaped::{RunPaint, ShapedGlyph, ShapedRun, ShapedText};

use super::FontData;
use crate::view::{Span, SpanStyle};
use coverage::Coverage;
use fontique::{Blob, Collection, CollectionOptions, FontStyle, FontWeight, GenericFamily, Language};
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

/// What a shaped text was shaped as, for the cache: a plain text of a kind,
/// or a styled text (cached by its spans as written out).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Shaping {
    Plain(TextKind),
    Styled,
}

/// A collection of the bar's own fonts alone: fontique's default options
/// would list the system's fonts when the collection is made.
const OWN_FONTS_ONLY: CollectionOptions = CollectionOptions { shared: false, system_fonts: false };

/// How much larger or smaller than its item's text a span may be.
const SPAN_SIZES: std::ops::RangeInclusive<f32> = 0.25..=4.0;

/// A font of the bar's own (its text fonts, the icon font), shaped with
/// under its family's name: the system's family of that name once the
/// system's fonts are listed and have it (so that its other faces, bold
/// and italic, are there for styled text), else the font registered alone.
struct OwnFont {
    family: String,
    /// Shared with the context, so that each run names it by one blob.
    blob: Blob<u8>,
    index: u32,
}

pub struct TextEngine {
    fonts: FontContext,
    /// Each run's brush is its span's place in a styled text, plus one
    /// (0 for a plain text).
    layouts: LayoutContext<u16>,
    has_system_fonts: bool,
    /// By their faces' keys ([`FontData::key`]).
    own: HashMap<u64, OwnFont>,
    icon_font: u64,
    locale: Option<Language>,
    coverage: Coverage,
    shaped: HashMap<(u64, Shaping, u32), HashMap<String, Arc<ShapedText>>>,
    /// Counts the times the fonts a text may be drawn in changed (and
    /// texts shaped before may now be shaped otherwise).
    generation: u64,
}

impl TextEngine {
    /// An engine drawing icons in `icon_font`.
    pub fn new(icon_font: &FontData) -> TextEngine {
        let collection = system_fonts::listed();
        let has_system_fonts = collection.is_some();
        // The bar's own fonts alone until the system's are listed.
        let collection = collection.unwrap_or_else(|| Collection::new(OWN_FONTS_ONLY));
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
        // Its family's name, as fontique reads it, from a collection of its own.
        let name = register(&mut Collection::new(OWN_FONTS_ONLY), &blob, font.index);
        let mut own = OwnFont { family: name, blob, index: font.index };
        own.family = family_for(&mut self.fonts.collection, &own);
        self.own.insert(font.key(), own);
    }

    /// Bumped whenever texts may shape otherwise than before: widths
    /// measured before are to be measured again.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// `text` shaped at `size` in the font `font` (a key of a font added),
    /// or in the icon font first for an icon.
    pub fn shape(&mut self, text: &str, kind: TextKind, font: u64, size: f32) -> Arc<ShapedText> {
        let key = (font, Shaping::Plain(kind), size.to_bits());
        let needs_system_fonts = !self.has_system_fonts && shaped::has_emoji(text);
        self.cached_or_shaped(key, text, needs_system_fonts, |engine| engine.shape_now(text, kind, font, size, &[]))
    }

    /// `spans` shaped as one text at `size` in the font `font`, each span
    /// in its own style.
    pub fn shape_styled(&mut self, spans: &[Span], font: u64, size: f32) -> Arc<ShapedText> {
        let key = (font, Shaping::Styled, size.to_bits());
        let needs_system_fonts = !self.has_system_fonts && needs_system_fonts(spans);
        self.cached_or_shaped(key, &format!("{spans:?}"), needs_system_fonts, |engine| {
            let text: String = spans.iter().map(|span| span.text.as_str()).collect();
            engine.shape_now(&text, TextKind::Label, font, size, spans)
        })
    }

    /// The text cached under `key` and `id`, else shaped by `shape_now` —
    /// again with the system's fonts when the bar's own lack a character
    /// (or at once when `needs_system_fonts`: an emoji, which the bar's
    /// font may have in black and white, or a face named), and again with
    /// any font that has what the fallbacks did not find.
    fn cached_or_shaped(
        &mut self,
        key: (u64, Shaping, u32),
        id: &str,
        needs_system_fonts: bool,
        shape_now: impl Fn(&mut TextEngine) -> (ShapedText, Vec<char>),
    ) -> Arc<ShapedText> {
        if !self.has_system_fonts {
            if let Some(listed) = system_fonts::listed() {
                self.adopt(listed);
            } else if needs_system_fonts {
                self.adopt(system_fonts::list());
            }
        }
        if let Some(shaped) = self.shaped.get(&key).and_then(|texts| texts.get(id)) {
            return shaped.clone();
        }
        let (mut shaped, mut missing) = shape_now(self);
        if !missing.is_empty() && !self.has_system_fonts {
            self.adopt(system_fonts::list());
            (shaped, missing) = shape_now(self);
        }
        if !missing.is_empty() {
            let FontContext { collection, source_cache } = &mut self.fonts;
            if self.coverage.look_for(&missing, collection, source_cache) {
                self.fonts_changed();
                (shaped, missing) = shape_now(self);
            }
            self.coverage.log_missing(&missing);
        }
        let shaped = Arc::new(shaped);
        if self.shaped.values().map(HashMap::len).sum::<usize>() >= SHAPED_TEXTS {
            self.shaped.clear();
        }
        self.shaped.entry(key).or_default().insert(id.to_owned(), shaped.clone());
        shaped
    }

    /// `text` shaped now; when `spans` are given, `text` is theirs joined
    /// and each is shaped in its style.
    fn shape_now(
        &mut self,
        text: &str,
        kind: TextKind,
        font: u64,
        size: f32,
        spans: &[Span],
    ) -> (ShapedText, Vec<char>) {
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
        builder.push_default(StyleProperty::FontFamily(FontFamily::List(Cow::Owned(families.clone()))));
        builder.push_default(StyleProperty::Locale(self.locale));
        let mut start = 0;
        for (index, span) in spans.iter().enumerate() {
            let range = start..start + span.text.len();
            start = range.end;
            let brush = u16::try_from(index + 1).unwrap_or(u16::MAX);
            builder.push(StyleProperty::Brush(brush), range.clone());
            for property in span_properties(&span.style, size, &families) {
                builder.push(property, range.clone());
            }
        }
        for range in shaped::emoji_ranges(text) {
            builder.push(StyleProperty::FontFamily(emoji.clone()), range);
        }
        let mut layout = builder.build(text);
        layout.break_all_lines(None);
        let first = self.own.get(if kind == TextKind::Icon { &self.icon_font } else { &font });
        let metrics = first.map(|own| metrics(own, size)).unwrap_or((size * 0.8, -size * 0.2));
        let styles: Vec<&SpanStyle> = spans.iter().map(|span| &span.style).collect();
        ShapedText::from_layout(&layout, text, metrics, &styles, size)
    }

    /// Shapes with the system's fonts from now on (the bar's own first).
    fn adopt(&mut self, mut collection: Collection) {
        for own in self.own.values_mut() {
            own.family = family_for(&mut collection, own);
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

/// Whether `spans` need the system's fonts before they are shaped at
/// all: one names a family or a face other than the bar's regular one,
/// or holds an emoji.
fn needs_system_fonts(spans: &[Span]) -> bool {
    spans.iter().any(|span| {
        let style = &span.style;
        style.family.is_some()
            || style.italic
            || style.weight.is_some_and(|weight| weight != 400)
            || shaped::has_emoji(&span.text)
    })
}

/// What parley lays out of a span's `style` in a text of `size` whose
/// fonts are `families`: its family first, then theirs.
fn span_properties(
    style: &SpanStyle,
    size: f32,
    families: &[FontFamilyName<'static>],
) -> Vec<StyleProperty<'static, u16>> {
    let mut properties = Vec::new();
    if let Some(family) = &style.family {
        let first = match family.as_str() {
            "monospace" => FontFamilyName::Generic(GenericFamily::Monospace),
            "sans-serif" => FontFamilyName::Generic(GenericFamily::SansSerif),
            "serif" => FontFamilyName::Generic(GenericFamily::Serif),
            named => FontFamilyName::Named(Cow::Owned(named.to_owned())),
        };
        let list = std::iter::once(first).chain(families.iter().cloned()).collect();
        properties.push(StyleProperty::FontFamily(FontFamily::List(Cow::Owned(list))));
    }
    if let Some(span_size) = style.size {
        let scale = shaped::pixels(span_size, size) / size;
        let scale = if scale.is_finite() { scale.clamp(*SPAN_SIZES.start(), *SPAN_SIZES.end()) } else { 1.0 };
        properties.push(StyleProperty::FontSize(size * scale));
    }
    if let Some(weight) = style.weight {
        properties.push(StyleProperty::FontWeight(FontWeight::new(f32::from(weight.clamp(1, 1000)))));
    }
    if style.italic {
        properties.push(StyleProperty::FontStyle(FontStyle::Italic));
    }
    if style.underline {
        properties.push(StyleProperty::Underline(true));
    }
    if style.strikethrough {
        properties.push(StyleProperty::Strikethrough(true));
    }
    properties
}

/// The family `own` is shaped with in `collection`: one of its name that
/// the collection has, else its own faces registered.
fn family_for(collection: &mut Collection, own: &OwnFont) -> String {
    if collection.family_id(&own.family).is_some() {
        return own.family.clone();
    }
    register(collection, &own.blob, own.index)
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

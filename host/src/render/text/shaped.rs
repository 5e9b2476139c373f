//! A text as shaped for drawing: runs of glyphs, each run in one font at one
//! size, placed from the text's start along its baseline, and the text's
//! width. The baseline and the height the text is centred by are its first
//! font's (the bar's text font, or the icon font), whatever other fonts
//! its characters come from, so no fallback glyph moves or grows a line.
//! A styled text's runs also carry what their span asks beyond glyphs
//! ([`RunPaint`]): a colour, a fill, lines, a raised baseline.

use crate::colour::Rgba;
use crate::view::{Length, SpanStyle};
use parley::{FontData, Layout, PositionedLayoutItem};

#[derive(Debug, Clone, Default)]
pub struct ShapedText {
    /// The advance of the whole text, trailing spaces included.
    pub width: f32,
    /// The first font's ascent and descent (negative, below the baseline).
    pub ascent: f32,
    pub descent: f32,
    pub runs: Vec<ShapedRun>,
}

#[derive(Debug, Clone)]
pub struct ShapedRun {
    pub font: FontData,
    pub size: f32,
    /// Where the font's variation axes are set (empty for a static font).
    pub coords: Vec<i16>,
    pub glyphs: Vec<ShapedGlyph>,
    /// Where the run starts, from the text's start, and its advance.
    pub x: f32,
    pub advance: f32,
    pub paint: RunPaint,
}

/// How a run is drawn beyond its glyphs' outlines; the default, a plain
/// text's, adds nothing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunPaint {
    /// Its glyphs' colour; the item's when none.
    pub colour: Option<Rgba>,
    /// A fill behind the run, as tall as the text's first font.
    pub background: Option<Rgba>,
    /// Lines under or through it: how far below the baseline, how thick.
    pub lines: Vec<(f32, f32)>,
    /// Its font has no face this heavy: its outlines are drawn heavier.
    pub embolden: bool,
    /// Its font has no italic face: its outlines are slanted this many degrees.
    pub skew: Option<f32>,
}

/// A glyph `x` from the text's start and `y` below its baseline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShapedGlyph {
    pub id: u32,
    pub x: f32,
    pub y: f32,
    pub advance: f32,
}

impl ShapedText {
    /// The runs of `layout` (one line), with the first font's `ascent` and
    /// `descent`; and the characters whose clusters no font had a glyph for.
    /// A run whose brush is n > 0 is of span n - 1 of `spans`, a text of
    /// `size`.
    pub fn from_layout(
        layout: &Layout<u16>,
        text: &str,
        (ascent, descent): (f32, f32),
        spans: &[&SpanStyle],
        size: f32,
    ) -> (ShapedText, Vec<char>) {
        let mut shaped = ShapedText { width: layout.full_width(), ascent, descent, runs: Vec::new() };
        let mut missing = Vec::new();
        for line in layout.lines() {
            for item in line.items() {
                let PositionedLayoutItem::GlyphRun(glyph_run) = item else { continue };
                let run = glyph_run.run();
                let style = glyph_run.style();
                let span = usize::from(style.brush).checked_sub(1).and_then(|index| spans.get(index));
                let rise = span.and_then(|span| span.rise).map_or(0.0, |rise| pixels(rise, size).clamp(-size, size));
                let baseline = glyph_run.baseline() + rise;
                let glyphs = glyph_run
                    .positioned_glyphs()
                    .map(|glyph| ShapedGlyph {
                        id: glyph.id,
                        x: glyph.x,
                        y: glyph.y - baseline,
                        advance: glyph.advance,
                    })
                    .collect();
                let metrics = run.font_metrics();
                let line_at = |offset: f32, thickness: f32| (-offset - rise, thickness.max(1.0));
                let synthesis = run.synthesis();
                let paint = RunPaint {
                    colour: span.and_then(|span| span.colour).map(|[r, g, b, a]| Rgba(r, g, b, a)),
                    background: span.and_then(|span| span.background).map(|[r, g, b, a]| Rgba(r, g, b, a)),
                    lines: [
                        style.underline.is_some().then(|| line_at(metrics.underline_offset, metrics.underline_size)),
                        style
                            .strikethrough
                            .is_some()
                            .then(|| line_at(metrics.strikethrough_offset, metrics.strikethrough_size)),
                    ]
                    .into_iter()
                    .flatten()
                    .collect(),
                    embolden: synthesis.embolden(),
                    skew: synthesis.skew(),
                };
                for cluster in run.clusters().filter(|cluster| cluster.glyphs().any(|glyph| glyph.id == 0)) {
                    let characters = text.get(cluster.text_range()).unwrap_or_default().chars();
                    missing.extend(characters.filter(|c| !is_invisible(*c)));
                }
                shaped.runs.push(ShapedRun {
                    font: run.font().clone(),
                    size: run.font_size(),
                    coords: run.normalized_coords().iter().map(|coord| coord.to_bits()).collect(),
                    glyphs,
                    x: glyph_run.offset(),
                    advance: glyph_run.advance(),
                    paint,
                });
            }
        }
        missing.sort_unstable();
        missing.dedup();
        (shaped, missing)
    }
}

/// `length` in pixels, in a text of `size` pixels (a point is 4/3 of a
/// pixel at the bar's scale, as at 96 DPI).
pub fn pixels(length: Length, size: f32) -> f32 {
    match length {
        Length::Ems(ems) => ems * size,
        Length::Points(points) => points * 4.0 / 3.0,
    }
}

/// Characters that join or select, drawn as nothing whether a font has them or not.
pub(super) fn is_invisible(character: char) -> bool {
    matches!(character, '\u{200B}'..='\u{200F}' | '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}')
        || character.is_whitespace()
        || character.is_control()
}

/// The byte ranges of `text` that are emoji as a reader sees them: a
/// cluster of pictographs, or one asking for colour (VS16, a skin tone, a
/// keycap, a flag's letters, a joined sequence). Digits, `#`, `*`, `©` and
/// `®` on their own are text: they are never taken from an emoji font.
pub fn emoji_ranges(text: &str) -> Vec<std::ops::Range<usize>> {
    use unicode_segmentation::UnicodeSegmentation;
    if text.is_ascii() {
        return Vec::new();
    }
    let mut ranges: Vec<std::ops::Range<usize>> = Vec::new();
    for (start, cluster) in text.grapheme_indices(true) {
        if !is_emoji_cluster(cluster) {
            continue;
        }
        let end = start + cluster.len();
        match ranges.last_mut() {
            Some(last) if last.end == start => last.end = end,
            _ => ranges.push(start..end),
        }
    }
    ranges
}

/// Whether `text` holds an emoji (drawn from the system's emoji font).
pub fn has_emoji(text: &str) -> bool {
    use unicode_segmentation::UnicodeSegmentation;
    !text.is_ascii() && text.graphemes(true).any(is_emoji_cluster)
}

fn is_emoji_cluster(cluster: &str) -> bool {
    cluster.chars().any(|c| {
        matches!(c as u32,
            0xFE0F | 0x20E3 | 0x1F3FB..=0x1F3FF | 0x1F1E6..=0x1F1FF
            | 0x1F300..=0x1F5FF | 0x1F600..=0x1F64F | 0x1F680..=0x1F6FF | 0x1F900..=0x1FAFF)
    }) || (cluster.contains('\u{200D}') && cluster.chars().count() > 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emoji_are_told_from_text() {
        let text = "a 1 # © 👍🏽 ❤️ x 👨\u{200D}👩\u{200D}👧🇯🇵 ❤ 1️⃣";
        let emoji: Vec<&str> = emoji_ranges(text).into_iter().map(|range| &text[range]).collect();
        assert_eq!(emoji, ["👍🏽", "❤️", "👨\u{200D}👩\u{200D}👧🇯🇵", "1️⃣"]);
    }
}

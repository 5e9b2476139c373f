//! Cutting a text to a width: the longest beginning that fits with an
//! ellipsis, cut between grapheme clusters (what a reader takes as one
//! character), never inside an emoji sequence or before a combining mark.
//! The ellipsis ends the text in reading order, so in a right-to-left text
//! it shows on the left.

use crate::view::Span;
pub use obi_markup::ELLIPSIS;
use obi_markup::spans_showing;
use unicode_segmentation::UnicodeSegmentation;

/// `text` as it fits in `max_width`, measured by `width_of`, and its width.
pub fn cut(text: &str, max_width: f32, mut width_of: impl FnMut(&str) -> f32) -> (String, f32) {
    let width = width_of(text);
    if width <= max_width {
        return (text.to_owned(), width);
    }
    // Where each cluster ends: a beginning of `ends[n]` bytes holds n + 1 clusters.
    let ends: Vec<usize> = text.grapheme_indices(true).map(|(start, cluster)| start + cluster.len()).collect();
    let shortened = |clusters: usize| {
        let kept = if clusters == 0 { "" } else { &text[..ends[clusters - 1]] };
        format!("{}{ELLIPSIS}", kept.trim_end())
    };
    // The most clusters that fit beside the ellipsis, by bisection.
    let (mut low, mut high) = (0, ends.len().saturating_sub(1));
    while low < high {
        let middle = (low + high).div_ceil(2);
        if width_of(&shortened(middle)) <= max_width { low = middle } else { high = middle - 1 }
    }
    let cut = shortened(low);
    let width = width_of(&cut);
    (cut, width)
}

/// `spans` as they fit in `max_width`, cut as their text joined would be
/// (the ellipsis in the style of the last span kept), and their width.
pub fn cut_spans(spans: &[Span], max_width: f32, mut width_of: impl FnMut(&[Span]) -> f32) -> (Vec<Span>, f32) {
    let text: String = spans.iter().map(|span| span.text.as_str()).collect();
    let (fitted, width) = cut(&text, max_width, |candidate| width_of(&spans_showing(spans, &text, candidate)));
    (spans_showing(spans, &text, &fitted), width)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A width of one per character (code point), so that a cut inside a
    /// cluster would be the cheaper one.
    fn chars(text: &str) -> f32 {
        text.chars().count() as f32
    }

    #[test]
    fn a_text_that_fits_is_kept() {
        assert_eq!(cut("abc", 3.0, chars), ("abc".to_owned(), 3.0));
    }

    #[test]
    fn a_cut_falls_between_clusters() {
        // A family (five code points joined), then a letter and its combining accent.
        let family = "👨\u{200D}👩\u{200D}👧";
        let text = format!("ab{family}e\u{301}f");
        for max_width in 1..12 {
            let (fitted, width) = cut(&text, max_width as f32, chars);
            assert!(width <= max_width as f32 || fitted == ELLIPSIS, "{fitted:?} in {max_width}");
            let kept = fitted.strip_suffix(ELLIPSIS).unwrap_or(&fitted);
            assert!(text.starts_with(kept), "{fitted:?}");
            assert!(!kept.ends_with('\u{200D}') && !kept.ends_with('👨') && !kept.ends_with('👩'), "{fitted:?}");
            assert!(!kept.ends_with('e'), "an accent was cut off in {fitted:?}");
        }
        assert_eq!(cut(&text, 9.0, chars).0, format!("ab{family}{ELLIPSIS}"));
    }

    #[test]
    fn styled_spans_are_cut_as_their_text_and_keep_their_styles() {
        use crate::view::SpanStyle;
        let bold = SpanStyle { weight: Some(700), ..SpanStyle::default() };
        let spans = [
            Span { text: "hot ".into(), style: SpanStyle { colour: Some([255, 128, 0, 255]), ..SpanStyle::default() } },
            Span { text: "bold".into(), style: bold.clone() },
        ];
        let joined = |spans: &[Span]| spans.iter().map(|span| span.text.as_str()).collect::<String>();
        let width = |spans: &[Span]| chars(&joined(spans));
        assert_eq!(cut_spans(&spans, 8.0, width), (spans.to_vec(), 8.0));
        let (fitted, fitted_width) = cut_spans(&spans, 6.0, width);
        assert_eq!(joined(&fitted), format!("hot b{ELLIPSIS}"));
        assert_eq!(fitted_width, 6.0);
        assert_eq!(fitted[1].style, bold, "the ellipsis takes the last kept span's style");
        let (fitted, _) = cut_spans(&spans, 4.0, width);
        assert_eq!((fitted.len(), joined(&fitted)), (1, format!("hot{ELLIPSIS}")));
        assert_eq!(joined(&cut_spans(&spans, 0.5, width).0), ELLIPSIS);
    }

    #[test]
    fn the_ellipsis_follows_the_text_in_reading_order() {
        let (fitted, _) = cut("שלום עולם", 6.0, chars);
        assert_eq!(fitted, format!("שלום{ELLIPSIS}"));
    }
}

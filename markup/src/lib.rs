//! Pango markup, as the bar reads it. Markup reaches the bar from programs
//! written for bars that draw it: i3 and sway name a binding mode declared
//! `mode --pango_markup` in it (`<b>resize</b>`), and Waybar's custom
//! scripts print it (`<span color='red'>3</span> &amp; more`). It is read
//! into styled [`spans`], or into the [`plain_text`] it shows.
//!
//! Also here: text cut to fit the bytes a view may hold ([`cut`]), for the
//! text other programs hand the bar, which no widget chose the length of;
//! and spans cut as their joined text was ([`spans_showing`]), for whoever
//! cuts a styled text by its text.

mod spans;

pub use spans::{Length, Span, SpanStyle, colour, escape, plain_text, spans};

/// What a cut text ends with in place of what is left out.
pub const ELLIPSIS: &str = "…";

/// `text` in at most `most` bytes: cut at a character, with "…" in place
/// of what is left out (the ellipsis counted in).
pub fn cut(mut text: String, most: usize) -> String {
    if text.len() <= most {
        return text;
    }
    let mut end = most.saturating_sub(ELLIPSIS.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    if most >= ELLIPSIS.len() {
        text.push_str(ELLIPSIS);
    }
    text
}

/// `spans`, whose text joined is `text`, showing `shown`, a cut of that
/// text (its beginning, perhaps with [`ELLIPSIS`] after it): all of them
/// when nothing was cut; else as many as the beginning holds, the last one
/// cut, with the ellipsis in the style of the last span kept (of the first
/// span when none is). Nothing when `shown` is empty.
pub fn spans_showing(spans: &[Span], text: &str, shown: &str) -> Vec<Span> {
    if shown == text {
        return spans.to_vec();
    }
    let (kept_text, ellipsis) = match shown.strip_suffix(ELLIPSIS) {
        Some(kept) => (kept, ELLIPSIS),
        None => (shown, ""),
    };
    let mut kept_bytes = kept_text.len();
    let mut kept = Vec::new();
    for span in spans {
        if kept_bytes == 0 {
            break;
        }
        let take = kept_bytes.min(span.text.len());
        kept.push(Span { text: span.text[..take].to_owned(), style: span.style.clone() });
        kept_bytes -= take;
    }
    match kept.last_mut() {
        Some(last) => last.text.push_str(ellipsis),
        None if !ellipsis.is_empty() => kept.push(Span {
            text: ellipsis.to_owned(),
            style: spans.first().map(|span| span.style.clone()).unwrap_or_default(),
        }),
        None => {}
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_show_a_cut_of_their_text_in_their_styles() {
        let bold = SpanStyle { weight: Some(700), ..SpanStyle::default() };
        let spans = [Span { text: "ab".into(), style: SpanStyle::default() }, Span { text: "cd".into(), style: bold }];
        let texts = |spans: Vec<Span>| spans.into_iter().map(|span| span.text).collect::<Vec<_>>();
        assert_eq!(spans_showing(&spans, "abcd", "abcd"), spans);
        assert_eq!(texts(spans_showing(&spans, "abcd", "abc…")), ["ab", "c…"]);
        assert_eq!(spans_showing(&spans, "abcd", "abc…")[1].style.weight, Some(700));
        assert_eq!(texts(spans_showing(&spans, "abcd", "a…")), ["a…"]);
        assert_eq!(spans_showing(&spans, "abcd", "…"), [Span { text: "…".into(), style: SpanStyle::default() }]);
        assert!(spans_showing(&spans, "abcd", "").is_empty());
    }

    #[test]
    fn text_is_cut_at_a_character_with_an_ellipsis() {
        assert_eq!(cut("short".into(), 5), "short");
        assert_eq!(cut("a longer text".into(), 8), "a lon…");
        let cut_japanese = cut("日本語のタイトル".into(), 10);
        assert_eq!(cut_japanese, "日本…", "never inside a character");
        assert!(cut("x".repeat(5000), 4096).len() <= 4096);
        assert_eq!(cut("abcdef".into(), 2), "", "no room for the ellipsis: nothing");
    }
}

//! Pango markup, as the bar reads it. Markup reaches the bar from programs
//! written for bars that draw it: i3 and sway name a binding mode declared
//! `mode --pango_markup` in it (`<b>resize</b>`), and Waybar's custom
//! scripts print it (`<span color='red'>3</span> &amp; more`). It is read
//! into styled [`spans`], or into the [`plain_text`] it shows.
//!
//! Also here: text cut to fit the bytes a view may hold ([`cut`]), for the
//! text other programs hand the bar, which no widget chose the length of.

mod spans;

pub use spans::{Length, Span, SpanStyle, escape, plain_text, spans};

/// `text` in at most `most` bytes: cut at a character, with "…" in place
/// of what is left out (the ellipsis counted in).
pub fn cut(mut text: String, most: usize) -> String {
    const ELLIPSIS: &str = "…";
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

#[cfg(test)]
mod tests {
    use super::*;

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

//! Pango markup read as the text it shows. The bar draws plain text, and
//! markup reaches it from programs written for bars that draw markup: i3
//! and sway name a binding mode declared `mode --pango_markup` in it
//! (`<b>resize</b>`), and Waybar's custom scripts print it
//! (`<span color='red'>3</span> &amp; more`). Shown, it loses its tags, and
//! its entities are the characters they stand for.
//!
//! Also here: text cut to fit the bytes a view may hold ([`cut`]), for the
//! text other programs hand the bar, which no widget chose the length of.

/// `markup` without its tags, its entities read; an entity the bar does
/// not know is kept as written.
pub fn plain_text(markup: &str) -> String {
    let mut text = String::with_capacity(markup.len());
    let mut rest = markup;
    while let Some(at) = rest.find(['<', '&']) {
        text.push_str(&rest[..at]);
        rest = &rest[at..];
        if rest.starts_with('<') {
            rest = rest.find('>').map_or("", |end| &rest[end + 1..]);
            continue;
        }
        match rest.find(';').and_then(|end| Some((entity(&rest[1..end])?, end))) {
            Some((character, end)) => {
                text.push(character);
                rest = &rest[end + 1..];
            }
            None => {
                text.push('&');
                rest = &rest[1..];
            }
        }
    }
    text.push_str(rest);
    text
}

/// The character an entity's name (between `&` and `;`) stands for.
fn entity(name: &str) -> Option<char> {
    let number = |digits: &str, radix| u32::from_str_radix(digits, radix).ok().and_then(char::from_u32);
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        _ => match name.strip_prefix('#')? {
            hex if hex.starts_with(['x', 'X']) => number(&hex[1..], 16),
            decimal => number(decimal, 10),
        },
    }
}

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

    #[test]
    fn tags_go_and_entities_are_read() {
        assert_eq!(plain_text("<b>resize</b>"), "resize");
        let system = r#"<span foreground="red">System</span> (l)ock &amp; (e)xit &lt;3 &#x2192; &#8594;"#;
        assert_eq!(plain_text(system), "System (l)ock & (e)xit <3 → →");
        assert_eq!(plain_text("plain"), "plain");
    }

    #[test]
    fn what_is_not_markup_is_kept_as_written() {
        assert_eq!(plain_text("fish & chips"), "fish & chips");
        assert_eq!(plain_text("&unknown; &#xZZ; &"), "&unknown; &#xZZ; &");
        assert_eq!(plain_text("cut <b"), "cut ", "an unclosed tag is cut off");
    }
}

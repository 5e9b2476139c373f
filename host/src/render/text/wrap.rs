//! Styled text broken into lines no wider than a width, at spaces and at
//! the line breaks it has: a notification's body, which is written as
//! sentences rather than as a label. A word wider than a line has a line
//! of its own (and is cut when drawn); past the last line allowed, the
//! rest of the text joins the last line, so that cutting it to the width
//! ends it with an ellipsis.

use crate::view::Span;

/// `spans` in at most `most_lines` lines of at most `max_width` (as
/// `width_of` measures spans), each line's spans in reading order.
pub fn wrap_spans(
    spans: &[Span],
    max_width: f32,
    most_lines: usize,
    mut width_of: impl FnMut(&[Span]) -> f32,
) -> Vec<Vec<Span>> {
    let mut lines: Vec<Vec<Span>> = Vec::new();
    let mut line: Vec<Span> = Vec::new();
    for word in words(spans) {
        let last_allowed = lines.len() + 1 >= most_lines.max(1);
        match word {
            Word::Break if last_allowed => push(&mut line, Span { text: " ".into(), style: Default::default() }),
            Word::Break => lines.push(std::mem::take(&mut line)),
            Word::Text(word) => {
                if line.is_empty() || last_allowed {
                    push(&mut line, word);
                    continue;
                }
                let mut candidate = line.clone();
                push(&mut candidate, word.clone());
                if width_of(&trimmed(&candidate)) <= max_width {
                    line = candidate;
                } else {
                    lines.push(std::mem::take(&mut line));
                    push(&mut line, Span { text: word.text.trim_start().to_owned(), style: word.style });
                }
            }
        }
    }
    lines.push(line);
    let mut lines: Vec<Vec<Span>> = lines.iter().map(|line| trimmed(line)).collect();
    while lines.last().is_some_and(Vec::is_empty) && lines.len() > 1 {
        lines.pop();
    }
    lines
}

enum Word {
    /// A word with the spaces after it, in its span's style.
    Text(Span),
    Break,
}

/// The words of `spans` (a word that crosses spans is split in two, each
/// in its own style) and their line breaks.
fn words(spans: &[Span]) -> impl Iterator<Item = Word> + '_ {
    spans.iter().flat_map(|span| {
        let mut words = Vec::new();
        for (index, line) in span.text.split('\n').enumerate() {
            if index > 0 {
                words.push(Word::Break);
            }
            let mut rest = line;
            while !rest.is_empty() {
                let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
                let spaces = rest[word_end..].find(|c: char| !c.is_whitespace()).unwrap_or(rest.len() - word_end);
                let (word, after) = rest.split_at(word_end + spaces);
                words.push(Word::Text(Span { text: word.to_owned(), style: span.style.clone() }));
                rest = after;
            }
        }
        words
    })
}

/// Adds `span` to `line`, joining it to the last span when they share a style.
fn push(line: &mut Vec<Span>, span: Span) {
    match line.last_mut() {
        Some(last) if last.style == span.style => last.text.push_str(&span.text),
        _ => line.push(span),
    }
}

/// `line` without the spaces at its ends, and without spans left empty.
fn trimmed(line: &[Span]) -> Vec<Span> {
    let mut line = line.to_vec();
    if let Some(first) = line.first_mut() {
        first.text = first.text.trim_start().to_owned();
    }
    if let Some(last) = line.last_mut() {
        last.text = last.text.trim_end().to_owned();
    }
    line.retain(|span| !span.text.is_empty());
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::SpanStyle;

    fn plain(text: &str) -> Vec<Span> {
        vec![Span { text: text.into(), style: SpanStyle::default() }]
    }

    /// Ten pixels a character.
    fn width(spans: &[Span]) -> f32 {
        spans.iter().map(|span| span.text.chars().count() as f32 * 10.0).sum()
    }

    fn texts(lines: &[Vec<Span>]) -> Vec<String> {
        lines.iter().map(|line| line.iter().map(|span| span.text.as_str()).collect()).collect()
    }

    #[test]
    fn words_fill_each_line_and_breaks_are_kept() {
        let lines = wrap_spans(&plain("the quick brown fox jumps\nover"), 110.0, 5, width);
        assert_eq!(texts(&lines), ["the quick", "brown fox", "jumps", "over"]);
    }

    #[test]
    fn past_the_last_line_the_rest_joins_it_to_be_cut_when_drawn() {
        let lines = wrap_spans(&plain("one two three four\nfive"), 80.0, 2, width);
        assert_eq!(texts(&lines), ["one two", "three four five"]);
    }

    #[test]
    fn a_word_wider_than_a_line_has_one_of_its_own_and_styles_are_kept() {
        let bold = SpanStyle { weight: Some(700), ..SpanStyle::default() };
        let spans = vec![
            Span { text: "a ".into(), style: SpanStyle::default() },
            Span { text: "enormousword b".into(), style: bold.clone() },
        ];
        let lines = wrap_spans(&spans, 50.0, 4, width);
        assert_eq!(texts(&lines), ["a", "enormousword", "b"]);
        assert_eq!(lines[2][0].style, bold);
        assert!(wrap_spans(&plain(""), 50.0, 4, width).iter().all(Vec::is_empty), "nothing is one empty line");
    }
}

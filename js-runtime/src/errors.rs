//! A JS error as a widget's author reads it: where it was thrown (file,
//! line and column), then what it says, then the functions it passed
//! through: `pomodoro.js:7:27: Error: boom (in helper, from refresh)`.
//!
//! Boa writes a thrown error as its message with where it was made, then
//! one `at FUNCTION (FILE:LINE:COLUMN)` line per frame, innermost first; a
//! syntax error's message ends with `at line L, col C`.

use boa_engine::JsError;

/// `error`, thrown by the script in `file`.
pub fn describe(error: &JsError, file: &str) -> String {
    let text = error.to_string();
    let mut lines = text.lines();
    // Boa marks an error the engine made itself (a syntax error) `(native)`.
    let first = lines.next().unwrap_or_default().trim_end_matches(" (native)");
    let frames: Vec<(&str, &str)> = lines.filter_map(|line| frame(line.trim())).collect();
    let (message, made_at) = split_position(first);
    if let Some((message, line, column)) = syntax_position(message) {
        return format!("{file}:{line}:{column}: {message}");
    }
    let message = if error.as_native().is_some() || message.contains("Error") {
        message.to_owned()
    } else {
        // A thrown value that is not an Error: `throw "late"`.
        format!("uncaught {message}")
    };
    match frames.split_first() {
        Some(((function, position), callers)) => {
            let mut trail: Vec<&str> = vec![function];
            trail.extend(callers.iter().map(|(caller, _)| *caller));
            let trail: Vec<String> = trail
                .iter()
                .enumerate()
                .map(|(index, name)| match index {
                    0 => format!("in {name}"),
                    _ => format!("from {name}"),
                })
                .collect();
            format!("{position}: {message} ({})", trail.join(", "))
        }
        None => match made_at {
            Some(position) => format!("{position}: {message}"),
            None => format!("{file}: {message}"),
        },
    }
}

/// `error`, met parsing `source` from `file`: where Boa gives no line (a
/// script that ends inside a block: "abrupt end"), its end is the place.
pub fn describe_parse(error: &JsError, file: &str, source: &str) -> String {
    let described = describe(error, file);
    match described.strip_prefix(&format!("{file}: ")) {
        Some(message) => {
            let line = source.lines().count().max(1) + usize::from(source.ends_with('\n'));
            let column = if source.ends_with('\n') {
                1
            } else {
                source.lines().last().map_or(0, |last| last.chars().count()) + 1
            };
            format!("{file}:{line}:{column}: {message}")
        }
        None => described,
    }
}

/// The line and column (from 1) of the first whole word `word` in
/// `source`, where the script names it.
pub fn place_of(source: &str, word: &str) -> Option<(usize, usize)> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    source.lines().enumerate().find_map(|(index, line)| {
        let found = line.match_indices(word).find(|(start, _)| {
            let before = line[..*start].chars().next_back();
            let after = line[start + word.len()..].chars().next();
            !before.is_some_and(is_word) && !after.is_some_and(is_word)
        })?;
        Some((index + 1, line[..found.0].chars().count() + 1))
    })
}

/// `at helper (pomodoro.js:7:27)` as the function and its position.
fn frame(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix("at ")?;
    let (function, position) = rest.split_once(" (")?;
    Some((function, position.strip_suffix(')')?))
}

/// `Error: boom (pomodoro.js:4:11)` as the message and where it was made.
fn split_position(line: &str) -> (&str, Option<&str>) {
    match line.rsplit_once(" (") {
        Some((message, position)) if position.ends_with(')') && position.contains(':') => {
            (message, Some(&position[..position.len() - 1]))
        }
        _ => (line, None),
    }
}

/// A syntax error's message without its `at line L, col C`, and L and C.
fn syntax_position(message: &str) -> Option<(&str, u32, u32)> {
    let (message, position) = message.rsplit_once(" at line ")?;
    let (line, column) = position.split_once(", col ")?;
    Some((message, line.trim().parse().ok()?, column.trim().parse().ok()?))
}

//! Messages about a config file: each names the file, the line and column,
//! the JSON path (`right_widgets[3].Battery.label_prefix`) and what was
//! expected, with a "did you mean" when a name is close to a known one
//! ([`crate::suggest`]).

use super::jsonc::LineColumn;
use crate::suggest::did_you_mean;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// The file (or `<embedded default config>`).
    pub origin: String,
    pub at: LineColumn,
    /// Empty for the file as a whole.
    pub path: String,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{}:{}:{}: {severity}: ", self.origin, self.at.line, self.at.column)?;
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        f.write_str(&self.message)
    }
}

/// serde's message for the value at `path`, in the user's terms: a "did
/// you mean" after "unknown variant `X`, expected one of `A`, `B`", and what
/// to write instead of a bare widget name.
pub fn explain_serde_message(message: &str, path: &str) -> String {
    let message = strip_serde_position(message);
    if message.starts_with("invalid type: unit variant, expected newtype variant") {
        let name = path.rsplit('.').next().unwrap_or(path);
        return format!(
            "`{name}` needs its settings as an object: write {{ \"{name}\": {{ \"enable\": true, ... }} }}"
        );
    }
    if !message.starts_with("unknown variant") {
        return message.to_owned();
    }
    let quoted: Vec<&str> = message.split('`').skip(1).step_by(2).collect();
    match quoted.split_first() {
        Some((unknown, known)) => match did_you_mean(unknown, known.iter().copied()) {
            Some(close) => format!("{message}; did you mean `{close}`?"),
            None => message.to_owned(),
        },
        None => message.to_owned(),
    }
}

/// serde_json appends " at line L column C" positions of the value being
/// read; ours come from the file instead.
fn strip_serde_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(cut) if message[cut..].contains(" column ") => &message[..cut],
        _ => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_variant_errors_get_a_suggestion() {
        let explained = explain_serde_message(
            "unknown variant `Icn`, expected one of `None`, `Icon`, `Text`, `IconAndText`",
            "label_prefix",
        );
        assert!(explained.ends_with("did you mean `Icon`?"), "{explained}");
    }
}

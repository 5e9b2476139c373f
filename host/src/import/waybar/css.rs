//! GTK CSS as Waybar's `style.css` writes it, read as far as a bar's look
//! goes: its rules (selectors and declarations, each with its line), the
//! colours `@define-color` names and the variables (`--name: value`) a
//! rule sets, and the files `@import` brings in, in order. A colour is
//! `#rgb` … `#rrggbbaa`, `rgb()`/`rgba()`, a name, `transparent`, a name
//! defined (`@bg`), a variable (`var(--bg)`), or GTK's `alpha()`,
//! `shade()`, `mix()`, `lighter()` and `darker()` of colours.

use crate::config::LineColumn;
use anyhow::{Context, bail};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A style sheet larger than this is not one a bar has.
const STYLE_BYTES: u64 = 1 << 20;
/// `@import`s within `@import`s past this are a loop, or a mistake.
const IMPORT_DEPTH: usize = 8;
/// Files one style sheet brings in all told: each may import several.
const FILES: usize = 64;
/// Names that name names past this are a loop.
const RESOLVE_DEPTH: usize = 16;

/// A rule, or an at-rule Obi skips, as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    pub file: PathBuf,
    pub at: LineColumn,
    /// Each of its comma-separated selectors, its spaces made single.
    pub selectors: Vec<String>,
    pub declarations: Vec<Declaration>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Declaration {
    pub property: String,
    pub value: String,
}

/// A style sheet and what it imports, read.
#[derive(Debug, Default)]
pub struct StyleSheet {
    pub rules: Vec<Rule>,
    /// At-rules that hold no colour or rule Obi reads (`@keyframes`), with
    /// where they are.
    pub skipped: Vec<(PathBuf, LineColumn, String)>,
    colours: HashMap<String, String>,
    variables: HashMap<String, String>,
    files_read: usize,
}

impl StyleSheet {
    /// The style sheet at `path`, with what it imports.
    pub fn read(path: &Path) -> anyhow::Result<StyleSheet> {
        let mut sheet = StyleSheet::default();
        sheet.add_file(path, 0)?;
        Ok(sheet)
    }

    fn add_file(&mut self, path: &Path, depth: usize) -> anyhow::Result<()> {
        if depth > IMPORT_DEPTH {
            bail!("{}: imports within imports this deep make a loop", path.display());
        }
        self.files_read += 1;
        if self.files_read > FILES {
            bail!("{}: more than {FILES} files imported in all", path.display());
        }
        let bytes =
            crate::files::read_regular(path, STYLE_BYTES).with_context(|| format!("reading {}", path.display()))?;
        let text = String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8", path.display()))?;
        let text = without_comments(&text);
        let mut reader = Reader { text: &text, offset: 0 };
        while let Some((start, statement)) = reader.next_statement() {
            let at = line_column(&text, start);
            match statement {
                Statement::At { keyword, prelude, block } => match keyword.as_str() {
                    "define-color" => {
                        let (name, value) =
                            prelude.trim().split_once(char::is_whitespace).unwrap_or((prelude.trim(), ""));
                        self.colours.insert(name.to_owned(), value.trim().to_owned());
                    }
                    "import" => {
                        let named = prelude.trim().trim_start_matches("url(").trim_end_matches(')');
                        let named = named.trim().trim_matches(['"', '\'']);
                        let imported = path.parent().unwrap_or(Path::new(".")).join(named);
                        self.add_file(&imported, depth + 1)
                            .with_context(|| format!("imported by {}", path.display()))?;
                    }
                    _ => {
                        let prelude = prelude.split_whitespace().collect::<Vec<_>>().join(" ");
                        let head =
                            if prelude.is_empty() { format!("@{keyword}") } else { format!("@{keyword} {prelude}") };
                        let what = if block.is_some() { format!("{head} {{ … }}") } else { head };
                        self.skipped.push((path.to_owned(), at, what));
                    }
                },
                Statement::Rule { selectors, block } => {
                    let declarations = declarations(&block);
                    for declaration in declarations.iter().filter(|declaration| declaration.property.starts_with("--"))
                    {
                        self.variables.insert(declaration.property.clone(), declaration.value.clone());
                    }
                    let selectors = selectors
                        .split(',')
                        .map(|selector| selector.split_whitespace().collect::<Vec<_>>().join(" "))
                        .filter(|selector| !selector.is_empty())
                        .collect();
                    self.rules.push(Rule { file: path.to_owned(), at, selectors, declarations });
                }
            }
        }
        Ok(())
    }

    /// The colour `value` says, its names and variables resolved; none for
    /// what is not one (a gradient, an image).
    pub fn colour(&self, value: &str) -> Option<[u8; 4]> {
        self.colour_within(value, 0)
    }

    fn colour_within(&self, value: &str, depth: usize) -> Option<[u8; 4]> {
        let value = value.trim().trim_end_matches("!important").trim();
        if depth > RESOLVE_DEPTH {
            return None;
        }
        if let Some(name) = value.strip_prefix('@') {
            return self.colour_within(self.colours.get(name)?, depth + 1);
        }
        if value.eq_ignore_ascii_case("transparent") {
            return Some([0, 0, 0, 0]);
        }
        let Some((function, arguments)) = value.strip_suffix(')').and_then(|value| value.split_once('(')) else {
            return obi_markup::colour(value);
        };
        let arguments = split_arguments(arguments);
        let colour = |index: usize| arguments.get(index).and_then(|argument| self.colour_within(argument, depth + 1));
        let number_at = |index: usize| arguments.get(index).and_then(|argument| number(argument));
        match function.trim() {
            "var" => self.colour_within(self.variables.get(arguments.first()?.as_str())?, depth + 1),
            "rgb" | "rgba" => {
                let channels: Vec<&str> = arguments
                    .iter()
                    .flat_map(|argument| argument.split(['/', ' ']))
                    .filter(|part| !part.is_empty())
                    .collect();
                let channel = |index: usize| channels.get(index).and_then(|part| byte(part));
                let alpha = channels.get(3).map_or(Some(255), |alpha| number(alpha).map(unit_byte))?;
                Some([channel(0)?, channel(1)?, channel(2)?, alpha])
            }
            "alpha" => {
                let [red, green, blue, alpha] = colour(0)?;
                Some([red, green, blue, unit_byte(number_at(1)? * f32::from(alpha) / 255.0)])
            }
            "shade" => {
                let factor = number_at(1)?;
                let [red, green, blue, alpha] = colour(0)?;
                let shaded = |channel: u8| (f32::from(channel) * factor).round().clamp(0.0, 255.0) as u8;
                Some([shaded(red), shaded(green), shaded(blue), alpha])
            }
            "lighter" => self.colour_within(&format!("shade({}, 1.3)", arguments.first()?), depth + 1),
            "darker" => self.colour_within(&format!("shade({}, 0.7)", arguments.first()?), depth + 1),
            "mix" => Some(crate::import::palette::mix(colour(0)?, colour(1)?, number_at(2)?)),
            _ => None,
        }
    }

    /// `value` with its variables resolved (for a length, a family).
    pub fn resolved(&self, value: &str) -> String {
        let mut value = value.trim().trim_end_matches("!important").trim().to_owned();
        for _ in 0..RESOLVE_DEPTH {
            let Some(start) = value.find("var(") else { break };
            let Some(end) = value[start..].find(')').map(|end| start + end) else { break };
            let name = value[start + 4..end].split(',').next().unwrap_or_default().trim().to_owned();
            let replacement = self.variables.get(&name).cloned().unwrap_or_default();
            value.replace_range(start..=end, &replacement);
        }
        value
    }
}

/// A CSS number, or a percentage as a fraction.
fn number(text: &str) -> Option<f32> {
    let text = text.trim();
    match text.strip_suffix('%') {
        Some(percent) => percent.trim().parse::<f32>().ok().map(|percent| percent / 100.0),
        None => text.parse().ok(),
    }
    .filter(|number| number.is_finite())
}

/// A channel of 0–255, or a percentage of it.
fn byte(text: &str) -> Option<u8> {
    let text = text.trim();
    let value = match text.strip_suffix('%') {
        Some(percent) => percent.trim().parse::<f32>().ok()? * 2.55,
        None => text.parse::<f32>().ok()?,
    };
    value.is_finite().then(|| value.round().clamp(0.0, 255.0) as u8)
}

fn unit_byte(fraction: f32) -> u8 {
    (fraction.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// The arguments of a function, split at its own commas (not those of the
/// functions inside it).
fn split_arguments(arguments: &str) -> Vec<String> {
    let (mut parts, mut current, mut depth) = (Vec::new(), String::new(), 0usize);
    for char in arguments.chars() {
        match char {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(current.trim().to_owned());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(char);
    }
    parts.push(current.trim().to_owned());
    parts
}

/// The declarations of a block: `property: value;` each.
fn declarations(block: &str) -> Vec<Declaration> {
    block
        .split(';')
        .filter_map(|declaration| declaration.split_once(':'))
        .map(|(property, value)| Declaration {
            property: property.trim().to_ascii_lowercase(),
            value: value.trim().to_owned(),
        })
        .filter(|declaration| !declaration.property.is_empty())
        .collect()
}

/// `text` with its comments made spaces, its lines kept where they were.
fn without_comments(text: &str) -> String {
    let mut kept = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        kept.push_str(&rest[..start]);
        let comment_end = rest[start + 2..].find("*/").map_or(rest.len(), |end| start + 2 + end + 2);
        kept.extend(rest[start..comment_end].chars().map(|char| if char == '\n' { '\n' } else { ' ' }));
        rest = &rest[comment_end..];
    }
    kept.push_str(rest);
    kept
}

fn line_column(text: &str, offset: usize) -> LineColumn {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or_default().chars().count() + 1;
    LineColumn { line, column }
}

enum Statement {
    At { keyword: String, prelude: String, block: Option<String> },
    Rule { selectors: String, block: String },
}

struct Reader<'a> {
    text: &'a str,
    offset: usize,
}

impl Reader<'_> {
    /// The next statement and where it starts; none at the end.
    fn next_statement(&mut self) -> Option<(usize, Statement)> {
        let rest = &self.text[self.offset..];
        let start = self.offset + (rest.len() - rest.trim_start().len());
        let rest = &self.text[start..];
        if rest.is_empty() {
            return None;
        }
        // Up to the first `;` or `{` of the statement, whichever comes first.
        let end = rest.find([';', '{']).unwrap_or(rest.len());
        let head = &rest[..end];
        let (block, after) = match rest[end..].chars().next() {
            Some('{') => {
                let block_start = end + 1;
                let block_end = matching_brace(&rest[block_start..]).map_or(rest.len(), |close| block_start + close);
                (Some(rest[block_start..block_end].to_owned()), (block_end + 1).min(rest.len()))
            }
            Some(_) => (None, end + 1),
            None => (None, rest.len()),
        };
        self.offset = start + after;
        let statement = match head.strip_prefix('@') {
            Some(at_rule) => {
                let keyword: String =
                    at_rule.chars().take_while(|char| char.is_alphanumeric() || *char == '-').collect();
                let prelude = at_rule[keyword.len()..].to_owned();
                Statement::At { keyword, prelude, block }
            }
            None => Statement::Rule { selectors: head.to_owned(), block: block.unwrap_or_default() },
        };
        Some((start, statement))
    }
}

/// Where the `}` that closes a block starting here is, blocks within it
/// (`@keyframes`' steps) counted.
fn matching_brace(block: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (at, char) in block.char_indices() {
        match char {
            '{' => depth += 1,
            '}' if depth == 0 => return Some(at),
            '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet(css: &str) -> StyleSheet {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("style.css");
        std::fs::write(&path, css).unwrap();
        StyleSheet::read(&path).unwrap()
    }

    #[test]
    fn rules_come_with_their_lines_and_comments_go() {
        let sheet = sheet(
            "/* a\n comment */\n* { font-family: \"JetBrains Mono\", monospace; }\n\nwindow#waybar,\n  #clock   .x { color: #fff; padding: 0 4px }\n@keyframes blink { to { color: red; } }\n",
        );
        assert_eq!(sheet.rules.len(), 2);
        assert_eq!((sheet.rules[0].at.line, sheet.rules[0].selectors.clone()), (3, vec!["*".to_owned()]));
        assert_eq!(sheet.rules[0].declarations[0].value, "\"JetBrains Mono\", monospace");
        assert_eq!(sheet.rules[1].selectors, ["window#waybar", "#clock .x"]);
        assert_eq!(sheet.rules[1].at.line, 5);
        assert_eq!(sheet.rules[1].declarations.len(), 2);
        assert_eq!(
            sheet.skipped.iter().map(|(_, at, what)| (at.line, what.as_str())).collect::<Vec<_>>(),
            [(7, "@keyframes blink { … }")]
        );
    }

    #[test]
    fn colours_in_every_form_gtk_writes_them() {
        let sheet = sheet(
            "@define-color bg #1e1e2e;\n@define-color fg @text;\n@define-color text rgb(205, 214, 244);\n:root { --accent: #89b4fa; }\n",
        );
        assert_eq!(sheet.colour("@bg"), Some([0x1e, 0x1e, 0x2e, 255]));
        assert_eq!(sheet.colour("@fg"), Some([205, 214, 244, 255]), "a name naming a name");
        assert_eq!(sheet.colour("var(--accent)"), Some([0x89, 0xb4, 0xfa, 255]));
        assert_eq!(sheet.colour("rgba(30, 30, 46, 0.5)"), Some([30, 30, 46, 128]));
        assert_eq!(sheet.colour("rgba(100%, 0%, 0%, 50%)"), Some([255, 0, 0, 128]));
        assert_eq!(sheet.colour("alpha(@bg, 0.8)"), Some([0x1e, 0x1e, 0x2e, 204]));
        assert_eq!(sheet.colour("shade(#808080, 0.5)"), Some([64, 64, 64, 255]));
        assert_eq!(sheet.colour("mix(#000000, #ffffff, 0.5)"), Some([128, 128, 128, 255]));
        assert_eq!(sheet.colour("transparent"), Some([0, 0, 0, 0]));
        assert_eq!(sheet.colour("#ff0000 !important"), Some([255, 0, 0, 255]));
        assert_eq!(sheet.colour("linear-gradient(#000, #fff)"), None);
        assert_eq!(sheet.colour("@undefined"), None);
        assert_eq!(sheet.resolved("var(--accent)"), "#89b4fa");
    }

    #[test]
    fn a_loop_of_names_or_imports_ends() {
        let looping = sheet("@define-color a @b;\n@define-color b @a;\n");
        assert_eq!(looping.colour("@a"), None);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("style.css");
        std::fs::write(&path, "@import \"style.css\";\n").unwrap();
        let error = format!("{:#}", StyleSheet::read(&path).unwrap_err());
        assert!(error.contains("make a loop"), "{error}");
    }

    /// Each file importing two more, eight deep, would be hundreds of reads.
    #[test]
    fn imports_are_bounded_in_all() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("style.css");
        std::fs::write(&path, "@import \"style.css\";\n@import \"style.css\";\n").unwrap();
        let error = format!("{:#}", StyleSheet::read(&path).unwrap_err());
        assert!(error.contains("more than 64 files") || error.contains("make a loop"), "{error}");
    }

    #[test]
    fn an_import_brings_its_colours_first() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("colors.css"), "@define-color bg #000000;\n").unwrap();
        let path = dir.path().join("style.css");
        std::fs::write(&path, "@import url(\"colors.css\");\nwindow#waybar { background: @bg; }\n").unwrap();
        let sheet = StyleSheet::read(&path).unwrap();
        assert_eq!(sheet.colour(&sheet.rules[0].declarations[0].value), Some([0, 0, 0, 255]));
    }
}

//! Reads config text the way komorebi-bar does: JSON with `//` and `/* */`
//! comments and trailing commas, nothing looser. Besides the value, it keeps
//! where every value and key stands in the text, by JSON path, so that any
//! later error can name its line and column.

use jsonc_parser::ast;
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, ParseOptions, parse_to_ast};
use serde_json::{Map, Number, Value};
use std::collections::HashMap;

/// A parsed file: its value, and where each part of it is.
#[derive(Debug, Clone)]
pub struct Document {
    pub value: Value,
    pub locations: Locations,
}

/// A 1-based line and column (in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineColumn {
    pub line: usize,
    pub column: usize,
}

/// Byte offsets of values and object keys by path (`right_widgets[3].Cpu.enable`).
#[derive(Debug, Clone, Default)]
pub struct Locations {
    values: HashMap<String, usize>,
    keys: HashMap<String, usize>,
    line_starts: Vec<usize>,
    text: String,
}

/// A syntax error, already located.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub at: LineColumn,
    pub message: String,
}

/// `line:column: message`, to follow the file's name.
impl std::fmt::Display for SyntaxError {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "{}:{}: {}", self.at.line, self.at.column, self.message)
    }
}

impl std::error::Error for SyntaxError {}

pub fn parse(text: &str) -> Result<Document, SyntaxError> {
    let options = ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let mut locations = Locations {
        line_starts: std::iter::once(0).chain(text.match_indices('\n').map(|(index, _)| index + 1)).collect(),
        text: text.to_owned(),
        ..Locations::default()
    };
    let parsed = parse_to_ast(text, &CollectOptions::default(), &options).map_err(|error| SyntaxError {
        at: locations.line_column(error.range().start),
        message: error.kind().to_string(),
    })?;
    let root = parsed.value.ok_or_else(|| SyntaxError {
        at: LineColumn { line: 1, column: 1 },
        message: "the file is empty; a bar config is a JSON object".into(),
    })?;
    let value = convert(&root, String::new(), &mut locations)
        .map_err(|(offset, message)| SyntaxError { at: locations.line_column(offset), message })?;
    Ok(Document { value, locations })
}

fn convert(node: &ast::Value, path: String, locations: &mut Locations) -> Result<Value, (usize, String)> {
    locations.values.insert(path.clone(), node.range().start);
    Ok(match node {
        ast::Value::NullKeyword(_) => Value::Null,
        ast::Value::BooleanLit(boolean) => Value::Bool(boolean.value),
        ast::Value::StringLit(string) => Value::String(string.value.to_string()),
        ast::Value::NumberLit(number) => Value::Number(
            number
                .value
                .parse::<Number>()
                .map_err(|_| (number.range.start, format!("{} is not a number JSON can hold", number.value)))?,
        ),
        ast::Value::Array(array) => Value::Array(
            array
                .elements
                .iter()
                .enumerate()
                .map(|(index, element)| convert(element, format!("{path}[{index}]"), locations))
                .collect::<Result<_, _>>()?,
        ),
        ast::Value::Object(object) => {
            let mut map = Map::new();
            for property in &object.properties {
                let key = property.name.as_str();
                let child = if path.is_empty() { key.to_owned() } else { format!("{path}.{key}") };
                if map.contains_key(key) {
                    return Err((property.range.start, format!("the key {key:?} appears twice in this object")));
                }
                locations.keys.insert(child.clone(), property.range.start);
                map.insert(key.to_owned(), convert(&property.value, child, locations)?);
            }
            Value::Object(map)
        }
    })
}

impl Locations {
    fn line_column(&self, offset: usize) -> LineColumn {
        let line = self.line_starts.partition_point(|&start| start <= offset).max(1);
        let start = self.line_starts[line - 1];
        let column = self.text.get(start..offset).map_or(1, |prefix| prefix.chars().count() + 1);
        LineColumn { line, column }
    }

    /// Where the value at `path` starts; for a path that does not exist
    /// (a missing property), where its nearest existing parent starts.
    pub fn value(&self, path: &str) -> LineColumn {
        self.nearest(&self.values, path)
    }

    /// Whether the file has a property at `path`.
    pub fn has_key(&self, path: &str) -> bool {
        self.keys.contains_key(path)
    }

    /// Where the key of the property at `path` starts (for unknown keys).
    pub fn key(&self, path: &str) -> LineColumn {
        match self.keys.get(path) {
            Some(&offset) => self.line_column(offset),
            None => self.value(path),
        }
    }

    fn nearest(&self, table: &HashMap<String, usize>, path: &str) -> LineColumn {
        let mut path = path;
        loop {
            if let Some(&offset) = table.get(path) {
                return self.line_column(offset);
            }
            match path.rfind(['.', '[']) {
                Some(cut) => path = &path[..cut],
                None => return self.line_column(table.get("").copied().unwrap_or(0)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "{\n  // a comment\n  \"height\": 40, /* another */\n  \"right_widgets\": [\n    { \"Cpu\": { \"enable\": true, } },\n  ],\n}\n";

    #[test]
    fn comments_and_trailing_commas_are_read() {
        let document = parse(TEXT).unwrap();
        assert_eq!(document.value["height"], 40);
        assert_eq!(document.value["right_widgets"][0]["Cpu"]["enable"], true);
    }

    #[test]
    fn every_value_and_key_is_located() {
        let locations = parse(TEXT).unwrap().locations;
        assert_eq!(locations.value("height"), LineColumn { line: 3, column: 13 });
        assert_eq!(locations.key("height"), LineColumn { line: 3, column: 3 });
        assert_eq!(locations.value("right_widgets[0].Cpu.enable"), LineColumn { line: 5, column: 26 });
        // A missing property is reported where its object is.
        assert_eq!(locations.value("right_widgets[0].Cpu.label_prefix"), LineColumn { line: 5, column: 14 });
    }

    #[test]
    fn looser_syntax_is_an_error_with_its_position() {
        let error = parse("{\n  height: 40\n}").unwrap_err();
        assert_eq!(error.at.line, 2, "{error:?}");
        assert!(parse("{ \"a\": 'x' }").is_err());
        assert!(parse("{ \"a\": 0x10 }").is_err());
    }

    #[test]
    fn duplicate_keys_and_empty_files_are_errors() {
        let error = parse("{ \"height\": 1,\n \"height\": 2 }").unwrap_err();
        assert_eq!(error.at.line, 2);
        assert!(error.message.contains("twice"));
        assert!(parse("  // nothing\n").unwrap_err().message.contains("empty"));
    }
}

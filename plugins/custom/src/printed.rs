//! What a Custom's command printed, read as Waybar reads it: with
//! `return_type` `json`, a line `{"text", "alt", "tooltip", "class",
//! "percentage"}`; otherwise the text, the tooltip and the class on three
//! lines. A run that failed is told by how it ended and what it said last.

use obi_sdk::commands::Output;

/// What a run printed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Printed {
    pub text: String,
    pub alt: String,
    pub tooltip: Option<String>,
    /// A class that shows the item selected.
    pub selected: bool,
    /// A JSON line's `percentage`.
    pub percentage: Option<f64>,
}

/// The classes that show the item selected, as Waybar's styles mark them.
const SELECTING: [&str; 3] = ["critical", "urgent", "selected"];

/// A run's output, as `json` says; how it failed, when it did.
pub fn read_output(output: &Output, json: bool) -> Result<Printed, String> {
    if output.code != Some(0) {
        return Err(how_it_ended(output));
    }
    let mut lines = output.stdout.lines();
    if !json {
        let text = lines.next().unwrap_or_default().to_owned();
        let tooltip = lines.next().filter(|line| !line.is_empty()).map(str::to_owned);
        let selected = lines.next().is_some_and(|class| SELECTING.contains(&class.trim()));
        return Ok(Printed { text, tooltip, selected, ..Printed::default() });
    }
    let Some(first) = lines.find(|line| !line.trim().is_empty()) else { return Ok(Printed::default()) };
    read_json_line(first)
}

/// "exited with 2: what it said last on stderr", or "was ended by a signal".
pub fn how_it_ended(output: &Output) -> String {
    let said = output.stderr.lines().rev().find(|line| !line.trim().is_empty()).unwrap_or_default();
    let ended = match output.code {
        Some(code) => format!("exited with {code}"),
        None => "was ended by a signal".to_owned(),
    };
    if said.is_empty() { ended } else { format!("{ended}: {said}") }
}

/// A line of JSON: `{"text", "alt", "tooltip", "class", "percentage"}`.
pub fn read_json_line(line: &str) -> Result<Printed, String> {
    let value: serde_json::Value = serde_json::from_str(line).map_err(|error| format!("printed no JSON: {error}"))?;
    let text_of = |key: &str| match value.get(key) {
        Some(serde_json::Value::String(text)) => Some(text.clone()),
        Some(serde_json::Value::Number(number)) => Some(number.to_string()),
        _ => None,
    };
    let classes: Vec<&str> = match value.get("class") {
        Some(serde_json::Value::String(class)) => vec![class.as_str()],
        Some(serde_json::Value::Array(classes)) => classes.iter().filter_map(|class| class.as_str()).collect(),
        _ => Vec::new(),
    };
    Ok(Printed {
        text: text_of("text").unwrap_or_default(),
        alt: text_of("alt").unwrap_or_default(),
        tooltip: text_of("tooltip").filter(|tooltip| !tooltip.is_empty()),
        selected: classes.iter().any(|class| SELECTING.contains(class)),
        percentage: value.get("percentage").and_then(serde_json::Value::as_f64),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn output(code: Option<i32>, stdout: &str, stderr: &str) -> Output {
        Output { code, stdout: stdout.into(), stderr: stderr.into() }
    }

    #[test]
    fn text_lines_are_text_tooltip_and_class() {
        let printed = read_output(&output(Some(0), "3 new\n3 unread mails\nurgent\n", ""), false).unwrap();
        let expected = Printed {
            text: "3 new".into(),
            tooltip: Some("3 unread mails".into()),
            selected: true,
            ..Printed::default()
        };
        assert_eq!(printed, expected);
        assert_eq!(read_output(&output(Some(0), "", ""), false).unwrap(), Printed::default());
    }

    #[test]
    fn a_json_line_with_a_class_or_a_list_of_them() {
        let line =
            r#"{"text": "42%", "alt": "disk", "tooltip": "sda", "class": ["low", "critical"], "percentage": 42}"#;
        let printed = read_output(&output(Some(0), line, ""), true).unwrap();
        let expected = Printed {
            text: "42%".into(),
            alt: "disk".into(),
            tooltip: Some("sda".into()),
            selected: true,
            percentage: Some(42.0),
        };
        assert_eq!(printed, expected);
        let plain = read_output(&output(Some(0), r#"{"text": 7, "class": "ok"}"#, ""), true).unwrap();
        assert_eq!((plain.text.as_str(), plain.selected), ("7", false));
        assert!(read_output(&output(Some(0), "7 new", ""), true).unwrap_err().starts_with("printed no JSON"));
    }

    #[test]
    fn a_failure_says_how_it_ended_and_its_last_words() {
        let failed = read_output(&output(Some(2), "", "warming up\nno such mailbox\n"), false).unwrap_err();
        assert_eq!(failed, "exited with 2: no such mailbox");
        assert_eq!(read_output(&output(None, "", ""), false).unwrap_err(), "was ended by a signal");
    }
}

//! # Custom
//!
//! What a command prints, on the bar (an Obi extension of the format, after
//! Waybar's `custom` module, whose scripts carry over). The command runs
//! every `interval` seconds, or once (`"once"`), and again after a click
//! and on `obi msg refresh NAME`; the bar runs it off the widgets' thread,
//! for at most 60 seconds. Without an `interval` the command keeps running
//! and each line it prints is an update; the bar starts it again when it
//! ends (after 1 s, then longer while it keeps ending soon after it starts).
//!
//! | key | values | default |
//! |-----|--------|---------|
//! | `enable` | `true` / `false` | required |
//! | `name` | its name in logs and for `obi msg refresh NAME` | `Custom` |
//! | `exec` | the command line | required |
//! | `interval` | seconds, or `"once"` | none: the command keeps running |
//! | `return_type` | `json`, or `text` | `text` |
//! | `on_click`, `on_click_right`, `on_click_middle` | command lines run on those clicks | none |
//! | `max_length` | the longest text, in characters (cut with "…") | none |
//! | `auto_select_over` | with JSON: select the item while its `percentage` is over this | none |
//! | `escape` | `true`: show the text and tooltip as printed, not as markup | `false` |
//!
//! Its output: with `return_type` `json`, the first line is an object with
//! `text`, `tooltip`, `class` (a string or a list; `critical`, `urgent` or
//! `selected` shows the item selected), `percentage` and `alt`; otherwise
//! the first line is the text, the second the tooltip, the third the class;
//! of a command that keeps running, each line is read so (as JSON, or as
//! the text). The text and tooltip are Pango markup, as Waybar reads them:
//! the text is drawn with its spans' colours, background, weight, slant,
//! size, family, rise and lines (`<span foreground='#ff8000'>hot</span>
//! <b>3</b> &amp; more`); the tooltip, drawn plain, drops the tags; both
//! read the entities. An empty text hides the item.
//! A command that fails (a non-zero exit, no JSON where JSON was asked
//! for) shows what went wrong in its place, urgent, until a run succeeds
//! (or, kept running, until it prints again). Waybar's hyphenated keys
//! (`return-type`, `on-click`, `max-length`, ...) are read too.
//!
//! ```json
//! { "Custom": { "enable": true, "exec": "~/bin/mail-count", "interval": 60, "return_type": "json",
//!               "on_click": "thunderbird" } }
//! ```

use obi_sdk::command_lines;
use obi_sdk::commands::{self, Output, RunState};
use obi_sdk::config::{CustomConfig as Config, CustomInterval, CustomReturnType};
use obi_sdk::log::{self, Level};
use obi_sdk::{Emphasis, Input, Inputs, Piece, Schedule, Span, View, Widget, clock, icons, item};
use obi_sdk::{limits, markup};

/// What the last run gave.
#[derive(Debug, Clone, PartialEq, Default)]
struct Shown {
    text: String,
    tooltip: Option<String>,
    selected: bool,
    /// A JSON line's `percentage`, for `auto_select_over`.
    percentage: Option<f64>,
}

/// A run that went wrong, shown in the item's place.
#[derive(Debug, Clone, PartialEq)]
struct Failure(String);

/// The classes that show the item selected, as Waybar's styles mark them.
const SELECTING: [&str; 3] = ["critical", "urgent", "selected"];

/// Reads a run's output as `return_type` says.
fn read_output(output: &Output, json: bool) -> Result<Shown, Failure> {
    if output.code != Some(0) {
        let said = output.stderr.lines().rev().find(|line| !line.trim().is_empty()).unwrap_or_default();
        let ended = match output.code {
            Some(code) => format!("exited with {code}"),
            None => "was ended by a signal".to_owned(),
        };
        return Err(Failure(if said.is_empty() { ended } else { format!("{ended}: {said}") }));
    }
    let mut lines = output.stdout.lines();
    if !json {
        let text = lines.next().unwrap_or_default().to_owned();
        let tooltip = lines.next().filter(|line| !line.is_empty()).map(str::to_owned);
        let selected = lines.next().is_some_and(|class| SELECTING.contains(&class.trim()));
        return Ok(Shown { text, tooltip, selected, percentage: None });
    }
    let Some(first) = lines.find(|line| !line.trim().is_empty()) else { return Ok(Shown::default()) };
    read_json_line(first)
}

/// A line of JSON: `{"text", "tooltip", "class", "percentage", "alt"}`.
fn read_json_line(first: &str) -> Result<Shown, Failure> {
    let value: serde_json::Value =
        serde_json::from_str(first).map_err(|error| Failure(format!("printed no JSON: {error}")))?;
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
    Ok(Shown {
        text: text_of("text").unwrap_or_default(),
        tooltip: text_of("tooltip").filter(|tooltip| !tooltip.is_empty()),
        selected: classes.iter().any(|class| SELECTING.contains(class)),
        percentage: value.get("percentage").and_then(serde_json::Value::as_f64),
    })
}

/// `text` cut to `most` characters, the last of them "…".
fn cut(text: &str, most: Option<usize>) -> String {
    match most {
        Some(most) if text.chars().count() > most => {
            text.chars().take(most.saturating_sub(1)).chain(most.checked_sub(1).map(|_| '…')).collect()
        }
        _ => text.to_owned(),
    }
}

/// `spans` holding at most `most` characters, as [`cut`] cuts their text
/// joined: the ellipsis in the last kept span's style.
fn cut_spans(spans: Vec<markup::Span>, most: Option<usize>) -> Vec<markup::Span> {
    let joined: String = spans.iter().map(|span| span.text.as_str()).collect();
    markup::spans_showing(&spans, &joined, &cut(&joined, most))
}

/// The piece showing `spans` (plain text when none is styled); none when
/// they hold no text.
fn text_piece(spans: Vec<markup::Span>) -> Option<Piece> {
    let holds_text = spans.iter().any(|span| !span.text.is_empty());
    holds_text.then(|| obi_sdk::styled(spans.into_iter().map(Span::from)))
}

/// When the command runs.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Runs {
    Every(i64),
    Once,
    /// It keeps running, printing a line per update.
    Continuously,
}

pub struct Custom {
    json: bool,
    runs: Runs,
    max_length: Option<usize>,
    auto_select_over: Option<f64>,
    /// The text and tooltip are shown as printed, not read as markup.
    escape: bool,
    /// The clicks it answers, with the id of the command each runs.
    clicks: Vec<(Input, Inputs, &'static str)>,
    /// When the next run is due, in seconds since the epoch.
    next_run: i64,
    running: bool,
    shown: Result<Shown, Failure>,
}

impl Custom {
    /// What the command printed, as the bar shows its text: the spans of its
    /// markup, unless it is to be shown as printed.
    fn as_spans(&self, printed: &str) -> Vec<markup::Span> {
        match self.escape {
            true => vec![markup::Span { text: printed.to_owned(), style: markup::SpanStyle::default() }],
            false => markup::spans(printed),
        }
    }

    /// What the command printed, as the bar shows a tooltip: markup read as
    /// the text it shows, unless it is to be shown as printed.
    fn as_shown(&self, printed: &str) -> String {
        // What a command prints has the length it chose: cut to what a view holds.
        limits::fit(if self.escape { printed.to_owned() } else { markup::plain_text(printed) })
    }

    fn run(&mut self, now: i64) {
        let ended = match commands::run("exec") {
            RunState::Pending => {
                self.running = true;
                return;
            }
            RunState::Done(output) => read_output(&output, self.json),
            RunState::Failed(why) => Err(Failure(why)),
        };
        self.running = false;
        self.next_run = match self.runs {
            Runs::Every(seconds) => now + seconds,
            Runs::Once | Runs::Continuously => i64::MAX,
        };
        if let Err(Failure(why)) = &ended {
            log::log(Level::Warn, &format!("the command {why}"));
        }
        self.shown = ended;
    }

    /// What the command kept running said last.
    fn follow(&mut self) {
        self.shown = match command_lines::follow("exec") {
            Err(why) => Err(Failure(why)),
            Ok(followed) => match (followed.failure, followed.last_line) {
                (Some(failure), _) => Err(Failure(failure)),
                (None, None) => Ok(Shown::default()),
                (None, Some(line)) if self.json => read_json_line(&line),
                (None, Some(line)) => Ok(Shown { text: line, ..Shown::default() }),
            },
        };
    }
}

impl Widget for Custom {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let runs = match config.interval {
            Some(CustomInterval::Seconds(seconds)) => Runs::Every(seconds.max(1) as i64),
            Some(CustomInterval::Once(_)) => Runs::Once,
            None => Runs::Continuously,
        };
        let clicks = [
            (Input::PrimaryClick, Inputs::PRIMARY_CLICK, "on_click", &config.on_click),
            (Input::SecondaryClick, Inputs::SECONDARY_CLICK, "on_click_right", &config.on_click_right),
            (Input::MiddleClick, Inputs::MIDDLE_CLICK, "on_click_middle", &config.on_click_middle),
        ];
        let clicks =
            clicks.into_iter().filter(|click| click.3.is_some()).map(|(input, takes, id, _)| (input, takes, id));
        let custom = Custom {
            json: config.return_type == Some(CustomReturnType::Json),
            runs,
            max_length: config.max_length,
            auto_select_over: config.auto_select_over.map(f64::from),
            escape: config.escape.unwrap_or(false),
            clicks: clicks.collect(),
            next_run: i64::MIN,
            running: false,
            shown: Ok(Shown::default()),
        };
        let schedule = match runs {
            Runs::Every(seconds) => Schedule::every_secs(seconds as u64),
            // Run at the start (the first refresh) and after clicks alone,
            // or refreshed at each line the command prints.
            Runs::Once | Runs::Continuously => Schedule { interval_ms: 0, align_to_wall_clock: false },
        };
        Ok((custom, schedule))
    }

    fn refresh(&mut self) -> View {
        let now = clock::now().seconds;
        if self.runs == Runs::Continuously {
            self.follow();
        } else if self.running || now >= self.next_run {
            self.run(now);
        }
        let takes = self.clicks.iter().fold(Inputs::empty(), |takes, (_, click, _)| takes | *click);
        match &self.shown {
            Ok(shown) => {
                let Some(text) = text_piece(cut_spans(self.as_spans(&shown.text), self.max_length)) else {
                    return View::empty();
                };
                let over = matches!((shown.percentage, self.auto_select_over), (Some(at), Some(over)) if at > over);
                let item = item("custom").maybe(Some(text)).selected(shown.selected || over).takes(takes);
                View::of([match &shown.tooltip {
                    Some(tooltip) => item.tooltip(self.as_shown(tooltip)),
                    None => item,
                }])
            }
            Err(Failure(why)) => View::of([item("custom")
                .maybe(Some(Piece::Icon(icons::WARNING.into())))
                .text(cut(why, self.max_length.or(Some(40))))
                .emphasis(Emphasis::Urgent)
                .tooltip(limits::fit(format!("The command {why}")))
                .takes(takes)]),
        }
    }

    fn on_input(&mut self, _key: &str, input: Input) {
        let Some((_, _, id)) = self.clicks.iter().find(|(click, _, _)| *click == input) else { return };
        if let Err(error) = commands::launch(id) {
            log::log(Level::Error, &format!("cannot run {id}: {error}"));
        }
        // What the click changed shows at once, as Waybar runs the command again.
        self.next_run = i64::MIN;
    }

    fn on_refresh_requested(&mut self) {
        self.next_run = i64::MIN;
    }
}

obi_sdk::export!(Custom);

#[cfg(test)]
mod tests {
    use super::*;

    fn output(code: Option<i32>, stdout: &str, stderr: &str) -> Output {
        Output { code, stdout: stdout.into(), stderr: stderr.into() }
    }

    #[test]
    fn text_lines_are_text_tooltip_and_class() {
        let shown = read_output(&output(Some(0), "3 new\n3 unread mails\nurgent\n", ""), false).unwrap();
        let expected =
            Shown { text: "3 new".into(), tooltip: Some("3 unread mails".into()), selected: true, percentage: None };
        assert_eq!(shown, expected);
        assert_eq!(read_output(&output(Some(0), "", ""), false).unwrap(), Shown::default());
    }

    #[test]
    fn a_json_line_with_a_class_or_a_list_of_them() {
        let line = r#"{"text": "42%", "tooltip": "disk", "class": ["low", "critical"], "percentage": 42}"#;
        let shown = read_output(&output(Some(0), line, ""), true).unwrap();
        let expected =
            Shown { text: "42%".into(), tooltip: Some("disk".into()), selected: true, percentage: Some(42.0) };
        assert_eq!(shown, expected);
        let plain = read_output(&output(Some(0), r#"{"text": 7, "class": "ok"}"#, ""), true).unwrap();
        assert_eq!((plain.text.as_str(), plain.selected), ("7", false));
        assert!(read_output(&output(Some(0), "7 new", ""), true).unwrap_err().0.starts_with("printed no JSON"));
    }

    #[test]
    fn a_failure_says_how_it_ended_and_its_last_words() {
        let failed = read_output(&output(Some(2), "", "warming up\nno such mailbox\n"), false).unwrap_err();
        assert_eq!(failed, Failure("exited with 2: no such mailbox".into()));
        assert_eq!(read_output(&output(None, "", ""), false).unwrap_err().0, "was ended by a signal");
    }

    #[test]
    fn styled_text_is_cut_as_its_text_joined() {
        let spans = markup::spans("<b>abc</b>def");
        let texts = |spans: &[markup::Span]| spans.iter().map(|span| span.text.clone()).collect::<Vec<_>>();
        assert_eq!(texts(&cut_spans(spans.clone(), Some(5))), ["abc", "d…"]);
        assert_eq!(texts(&cut_spans(spans.clone(), Some(3))), ["ab…"]);
        assert_eq!(cut_spans(spans.clone(), Some(3))[0].style.weight, Some(700));
        assert_eq!(cut_spans(spans.clone(), Some(6)), spans);
        assert!(cut_spans(spans.clone(), Some(0)).is_empty());
        assert_eq!(texts(&cut_spans(spans.clone(), Some(1))), ["…"], "as a plain text is cut");
    }

    #[test]
    fn long_text_is_cut_with_an_ellipsis() {
        assert_eq!(cut("abcdef", Some(4)), "abc…");
        assert_eq!(cut("abcd", Some(4)), "abcd");
        assert_eq!(cut("abc", Some(0)), "");
        assert_eq!(cut("abc", None), "abc");
    }
}

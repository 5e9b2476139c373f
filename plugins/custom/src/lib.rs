//! # Custom
//!
//! What a command prints, on the bar (an Obi extension of the format, after
//! Waybar's `custom` module, whose modules carry over whole). The command
//! runs every `interval` seconds, or once (`"once"`), and again after a
//! click or scroll ran its command, on its real-time `signal` (`pkill
//! -RTMIN+8 obi`) and on `obi msg refresh NAME`; the bar runs it off the
//! widgets' thread, for at most 60 seconds. With a `signal` and no
//! `interval` it runs at the start and on the signal alone. Without either
//! the command keeps running and each line it prints is an update; the bar
//! starts it again when it ends (after `restart_interval` seconds, or after
//! 1 s, then longer while it keeps ending soon after it starts).
//!
//! | key | values | default |
//! |-----|--------|---------|
//! | `enable` | `true` / `false` | required |
//! | `name` | its name in logs and for `obi msg refresh NAME` | `Custom` |
//! | `exec` | the command line | none: `format` alone is shown |
//! | `exec_if` | a command line run first: while it fails the item is hidden and `exec` not run | none |
//! | `exec_on_event` | `false`: a click or scroll does not run `exec` again | `true` |
//! | `interval` | seconds, or `"once"` | none: the command keeps running |
//! | `restart_interval` | seconds before a command kept running is started again | a growing wait |
//! | `signal` | `N`: `SIGRTMIN+N` (1 to 30) or `obi msg signal N` runs it again | none |
//! | `return_type` | `json`, or `text` | `text` |
//! | `format` | what the item shows: `{}` or `{text}`, `{alt}`, `{percentage}`, `{icon}` | `{}` |
//! | `format_icons` | `{icon}`: a list by `percentage`, or an object by `alt` (`default` for others) | none |
//! | `tooltip_format` | the tooltip, as `format` is written | what the command printed |
//! | `tooltip` | `false`: no tooltip | `true` |
//! | `hide_empty_text` | `true`: hidden while the text is empty, whatever `format` adds | `false` |
//! | `on_click`, `on_click_right`, `on_click_middle`, `on_scroll_up`, `on_scroll_down` | command lines run on those | none |
//! | `max_length` | the longest text, in characters (cut with "…") | none |
//! | `min_length` | the shortest text, in characters (padded with spaces on both sides) | none |
//! | `auto_select_over` | with JSON: select the item while its `percentage` is over this | none |
//! | `escape` | `true`: show what the command printed as printed, not as markup | `false` |
//!
//! Its output: with `return_type` `json`, the first line is an object with
//! `text`, `alt`, `tooltip`, `class` (a string or a list; `critical`,
//! `urgent` or `selected` shows the item selected) and `percentage`;
//! otherwise the first line is the text, the second the tooltip, the third
//! the class; of a command that keeps running, each line is read so (as
//! JSON, or as the text). `format` is written as Waybar's ({fmt}'s syntax,
//! with widths: `{percentage:>3}`), and what it makes is Pango markup, as
//! Waybar reads it: drawn with its spans' colours, background, weight,
//! slant, size, family, rise and lines (`<span foreground='#ff8000'>hot</span>
//! <b>3</b> &amp; more`); the tooltip, drawn plain, drops the tags; both
//! read the entities. An empty text hides the item. `exec_if` is asked
//! before each run of a command run for its output, as Waybar asks it.
//! A command that fails (a non-zero exit, no JSON where JSON was asked
//! for) shows what went wrong in its place, urgent, until a run succeeds
//! (or, kept running, until it prints again). Waybar's hyphenated keys
//! (`return-type`, `exec-if`, `format-icons`, ...) are read too.
//!
//! ```json
//! { "Custom": { "enable": true, "exec": "~/bin/mail-count", "interval": 60, "return_type": "json",
//!               "format": "{icon} {}", "format_icons": ["", ""], "on_click": "thunderbird", "signal": 8 } }
//! ```

mod format_icons;
mod printed;
mod template;

use format_icons::icon_for;
use obi_sdk::command_lines;
use obi_sdk::commands::{self, RunState};
use obi_sdk::config::{CustomConfig as Config, CustomInterval, CustomReturnType, FormatIcons, REAL_TIME_SIGNALS};
use obi_sdk::log::{self, Level};
use obi_sdk::{Emphasis, Input, Inputs, Piece, Schedule, ScrollDirection, Span, View, Widget, clock, icons, item};
use obi_sdk::{limits, markup};
use printed::{Printed, read_json_line, read_output};
use template::{Field, Template, Values};

/// What the item shows.
#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    /// What the last run printed (before the first: nothing).
    Printed(Printed),
    /// `exec_if` failed, or the command printed nothing: the item is
    /// hidden.
    NotNow,
    /// A run that went wrong, shown in the item's place.
    Failed(String),
}

/// When the command runs.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Runs {
    Every(i64),
    /// At the start, and when something asks for it: an event, a signal, a
    /// refresh.
    Once,
    /// It keeps running, printing a line per update.
    Continuously,
}

/// Where a run for output is: asking `exec_if`, then running `exec`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Stage {
    Idle,
    Checking,
    Running,
}

/// The longest `min_length` padded to: a bar shows no more.
const LONGEST_PADDING: usize = 512;

/// How what a command printed is shown.
struct Look {
    format: Template,
    tooltip_format: Option<Template>,
    icons: Option<FormatIcons>,
    tooltips: bool,
    hide_empty_text: bool,
    max_length: Option<usize>,
    min_length: usize,
    auto_select_over: Option<f64>,
    /// What the command printed is shown as printed, not read as markup.
    escape: bool,
}

impl Look {
    fn from_config(config: &Config) -> Result<Look, String> {
        let format =
            Template::parse(config.format.as_deref().unwrap_or("{}")).map_err(|why| format!("`format`: {why}"))?;
        let tooltip_format = config.tooltip_format.as_deref().map(Template::parse).transpose();
        let tooltip_format = tooltip_format.map_err(|why| format!("`tooltip_format`: {why}"))?;
        if config.format_icons.is_none()
            && (format.shows(Field::Icon) || tooltip_format.iter().any(|t| t.shows(Field::Icon)))
        {
            log::log(Level::Warn, "`{icon}` is shown, but no `format_icons` says what it is");
        }
        Ok(Look {
            format,
            tooltip_format,
            icons: config.format_icons.clone(),
            tooltips: config.tooltip.unwrap_or(true),
            hide_empty_text: config.hide_empty_text.unwrap_or(false),
            max_length: config.max_length,
            min_length: config.min_length.unwrap_or(0).min(LONGEST_PADDING),
            auto_select_over: config.auto_select_over.map(f64::from),
            escape: config.escape.unwrap_or(false),
        })
    }

    /// The item's text and tooltip for what was printed; none when hidden.
    fn show(&self, printed: &Printed) -> Option<(Piece, Option<String>, bool)> {
        if self.hide_empty_text && printed.text.is_empty() {
            return None;
        }
        let as_markup = |printed: &str| if self.escape { markup::escape(printed) } else { printed.to_owned() };
        let (text, alt) = (as_markup(&printed.text), as_markup(&printed.alt));
        // Past what an i64 holds is saturated: a percentage is a small number.
        let percentage = printed.percentage.map_or(0, |percentage| percentage.round() as i64);
        let icon = self.icons.as_ref().map(|icons| icon_for(icons, percentage, &printed.alt)).unwrap_or_default();
        let values = Values { text: &text, alt: &alt, icon: &icon, percentage };
        let spans = cut_spans(markup::spans(&self.format.fill(&values)), self.max_length);
        let shown = text_piece(padded(spans, self.min_length))?;
        let tooltip = match (&self.tooltip_format, &printed.tooltip) {
            _ if !self.tooltips => None,
            (Some(format), _) => Some(format.fill(&values)),
            (None, tooltip) => tooltip.as_deref().map(as_markup),
        };
        // What a command prints has the length it chose: cut to what a view holds.
        let tooltip = tooltip.map(|tooltip| limits::fit(markup::plain_text(&tooltip))).filter(|tip| !tip.is_empty());
        let over = matches!((printed.percentage, self.auto_select_over), (Some(at), Some(over)) if at > over);
        Some((shown, tooltip, printed.selected || over))
    }
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

/// `spans` holding at least `least` characters, spaces added on both sides
/// as a label is centred in its width (an empty text stays empty: hidden).
fn padded(mut spans: Vec<markup::Span>, least: usize) -> Vec<markup::Span> {
    let count: usize = spans.iter().map(|span| span.text.chars().count()).sum();
    if count == 0 || count >= least {
        return spans;
    }
    let room = least - count;
    let spaces = |count: usize| markup::Span { text: " ".repeat(count), style: markup::SpanStyle::default() };
    spans.insert(0, spaces(room / 2));
    spans.push(spaces(room - room / 2));
    spans.retain(|span| !span.text.is_empty());
    spans
}

/// The piece showing `spans` (plain text when none is styled); none when
/// they hold no text.
fn text_piece(spans: Vec<markup::Span>) -> Option<Piece> {
    let holds_text = spans.iter().any(|span| !span.text.is_empty());
    holds_text.then(|| obi_sdk::styled(spans.into_iter().map(Span::from)))
}

pub struct Custom {
    json: bool,
    runs: Runs,
    /// `exec_if` is asked before each run.
    checks_first: bool,
    /// Whether there is a command to run (else `format` alone is shown).
    executes: bool,
    /// A click or scroll that ran its command runs `exec` again.
    exec_on_event: bool,
    look: Look,
    /// The inputs it answers, with the id of the command each runs.
    inputs: Vec<(Input, Inputs, &'static str)>,
    /// When the next run is due, in seconds since the epoch.
    next_run: i64,
    stage: Stage,
    outcome: Outcome,
}

impl Custom {
    /// Takes a run for output a step further: `exec_if`, then `exec`; each
    /// answers later, and the widget is refreshed when it has.
    fn run(&mut self, now: i64) {
        if self.stage == Stage::Idle {
            self.stage = if self.checks_first { Stage::Checking } else { Stage::Running };
        }
        if self.stage == Stage::Checking {
            match commands::run("exec_if") {
                RunState::Pending => return,
                RunState::Done(output) if output.code == Some(0) => self.stage = Stage::Running,
                RunState::Done(_) => return self.ran(now, Outcome::NotNow),
                RunState::Failed(why) => return self.ran(now, Outcome::Failed(format!("exec_if {why}"))),
            }
        }
        let outcome = match self.executes.then(|| commands::run("exec")) {
            None => Outcome::Printed(Printed::default()),
            Some(RunState::Pending) => return,
            // Printing nothing hides the item, whatever `format` adds, as in Waybar.
            Some(RunState::Done(output)) if output.code == Some(0) && output.stdout.trim().is_empty() => {
                Outcome::NotNow
            }
            Some(RunState::Done(output)) => {
                read_output(&output, self.json).map_or_else(Outcome::Failed, Outcome::Printed)
            }
            Some(RunState::Failed(why)) => Outcome::Failed(why),
        };
        self.ran(now, outcome);
    }

    fn ran(&mut self, now: i64, outcome: Outcome) {
        self.stage = Stage::Idle;
        self.next_run = match self.runs {
            Runs::Every(seconds) => now + seconds,
            Runs::Once | Runs::Continuously => i64::MAX,
        };
        if let Outcome::Failed(why) = &outcome {
            log::log(Level::Warn, &format!("the command {why}"));
        }
        self.outcome = outcome;
    }

    /// What the command kept running said last.
    fn follow(&mut self) {
        self.outcome = match command_lines::follow("exec") {
            Err(why) => Outcome::Failed(why),
            Ok(followed) => match (followed.failure, followed.last_line) {
                (Some(failure), _) => Outcome::Failed(failure),
                (None, None) => Outcome::NotNow,
                (None, Some(line)) if line.trim().is_empty() => Outcome::NotNow,
                (None, Some(line)) if self.json => read_json_line(&line).map_or_else(Outcome::Failed, Outcome::Printed),
                (None, Some(line)) => Outcome::Printed(Printed { text: line, ..Printed::default() }),
            },
        };
    }
}

impl Widget for Custom {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        if config.exec.is_none() && config.format.is_none() {
            return Err("neither `exec` nor `format` says what to show".into());
        }
        if let Some(signal) = config.signal.filter(|signal| !REAL_TIME_SIGNALS.contains(signal)) {
            let (first, last) = (REAL_TIME_SIGNALS.start(), REAL_TIME_SIGNALS.end());
            return Err(format!("`signal` {signal}: Obi hears SIGRTMIN+{first} to SIGRTMIN+{last}"));
        }
        let signalled_alone = config.signal.is_some() && config.restart_interval.is_none();
        let runs = match config.interval {
            Some(CustomInterval::Seconds(seconds)) => Runs::Every(seconds.max(1) as i64),
            Some(CustomInterval::Once(_)) => Runs::Once,
            None if signalled_alone || config.exec.is_none() => Runs::Once,
            None => Runs::Continuously,
        };
        let declared = [
            (Input::PrimaryClick, Inputs::PRIMARY_CLICK, "on_click", &config.on_click),
            (Input::SecondaryClick, Inputs::SECONDARY_CLICK, "on_click_right", &config.on_click_right),
            (Input::MiddleClick, Inputs::MIDDLE_CLICK, "on_click_middle", &config.on_click_middle),
            (Input::Scroll(ScrollDirection::Up), Inputs::SCROLL, "on_scroll_up", &config.on_scroll_up),
            (Input::Scroll(ScrollDirection::Down), Inputs::SCROLL, "on_scroll_down", &config.on_scroll_down),
        ];
        let inputs =
            declared.into_iter().filter(|input| input.3.is_some()).map(|(input, takes, id, _)| (input, takes, id));
        let custom = Custom {
            json: config.return_type == Some(CustomReturnType::Json),
            runs,
            checks_first: config.exec_if.is_some(),
            executes: config.exec.is_some(),
            exec_on_event: config.exec_on_event.unwrap_or(true),
            look: Look::from_config(&config)?,
            inputs: inputs.collect(),
            next_run: i64::MIN,
            stage: Stage::Idle,
            outcome: Outcome::Printed(Printed::default()),
        };
        let schedule = match runs {
            Runs::Every(seconds) => Schedule::every_secs(seconds as u64),
            // Run at the start (the first refresh) and when asked alone,
            // or refreshed at each line the command prints.
            Runs::Once | Runs::Continuously => Schedule { interval_ms: 0, align_to_wall_clock: false },
        };
        Ok((custom, schedule))
    }

    fn refresh(&mut self) -> View {
        let now = clock::now().seconds;
        if self.runs == Runs::Continuously {
            self.follow();
        } else if self.stage != Stage::Idle || now >= self.next_run {
            self.run(now);
        }
        let takes = self.inputs.iter().fold(Inputs::empty(), |takes, (_, input, _)| takes | *input);
        match &self.outcome {
            Outcome::NotNow => View::empty(),
            Outcome::Printed(printed) => match self.look.show(printed) {
                None => View::empty(),
                Some((text, tooltip, selected)) => {
                    let item = item("custom").maybe(Some(text)).selected(selected).takes(takes);
                    View::of([match tooltip {
                        Some(tooltip) => item.tooltip(tooltip),
                        None => item,
                    }])
                }
            },
            Outcome::Failed(why) => View::of([item("custom")
                .maybe(Some(Piece::Icon(icons::WARNING.into())))
                .text(cut(why, self.look.max_length.or(Some(40))))
                .emphasis(Emphasis::Urgent)
                .tooltip(limits::fit(format!("The command {why}")))
                .takes(takes)]),
        }
    }

    fn on_input(&mut self, _key: &str, input: Input) {
        let Some((_, _, id)) = self.inputs.iter().find(|(declared, _, _)| *declared == input) else { return };
        if let Err(error) = commands::launch(id) {
            log::log(Level::Error, &format!("cannot run {id}: {error}"));
        }
        // What the event changed shows at once, as Waybar runs the command again.
        if self.exec_on_event {
            self.next_run = i64::MIN;
        }
    }

    fn on_refresh_requested(&mut self) {
        self.next_run = i64::MIN;
    }
}

obi_sdk::export!(Custom);

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(texts: &[&str]) -> Vec<markup::Span> {
        texts.iter().map(|text| markup::Span { text: text.to_string(), style: markup::SpanStyle::default() }).collect()
    }

    fn texts(spans: &[markup::Span]) -> Vec<String> {
        spans.iter().map(|span| span.text.clone()).collect()
    }

    #[test]
    fn styled_text_is_cut_as_its_text_joined() {
        let spans = markup::spans("<b>abc</b>def");
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

    #[test]
    fn short_text_is_padded_on_both_sides() {
        assert_eq!(texts(&padded(spans(&["ab"]), 5)), [" ", "ab", "  "]);
        assert_eq!(texts(&padded(spans(&["a", "b"]), 3)), ["a", "b", " "]);
        assert_eq!(texts(&padded(spans(&["abc"]), 2)), ["abc"]);
        assert!(padded(Vec::new(), 4).is_empty(), "nothing to show stays hidden");
    }
}

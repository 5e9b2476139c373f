//! `obi widget test`: runs one widget headless over a script of capability
//! readings and inputs, as a plugin author checks a widget without a bar.
//! The widget runs in the bar's own sandbox, over the scripted
//! capabilities the harness uses; each refresh's view is handed on (printed
//! as JSON, or painted), and a refused config, a trap, a bad view or a view
//! that shows other texts than the script expects ends the run with an
//! error naming the step.
//!
//! ```json
//! { "config": { "work_minutes": 1 }, "grants": [], "now": "2024-03-09T15:04:05Z",
//!   "steps": [ "refresh", { "input": { "key": "pomodoro", "event": "primary_click" } },
//!              { "advance": 1.5 }, "refresh", { "expect": ["00:59"] } ] }
//! ```

use super::{Harness, Script};
use crate::capabilities::audio::Output;
use crate::capabilities::followed::Followed;
use crate::capabilities::{
    AudioStatus, Battery, Capabilities, CommandOutput, Disk, Interface, MemoryUsage, NowPlaying,
};
use crate::tiler::KeyboardLayout;
use crate::tiler::Status;
use crate::view::images::HeldImages;
use crate::view::{BinaryClockStyle, Emphasis, Image, Input, Length, Piece, ScrollDirection, Span, View};
use anyhow::{Context, anyhow};
use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// A script: the widget's config and grants, and what happens, in order.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestScript {
    /// The widget's own config, handed to its `init`.
    #[serde(default)]
    pub config: Value,
    /// Capabilities beyond `log` and `clock`, as a Plugin entry grants them.
    #[serde(default)]
    pub grants: Vec<String>,
    /// Command lines it may run, by id, as a Plugin entry declares them.
    #[serde(default)]
    pub commands: BTreeMap<String, String>,
    /// The bar's monitor, as `init` is told.
    #[serde(default)]
    pub monitor: Option<u32>,
    /// Where the clock starts (1 January 2024 by default).
    #[serde(default = "new_year")]
    pub now: DateTime<Utc>,
    pub steps: Vec<Step>,
}

fn new_year() -> DateTime<Utc> {
    "2024-01-01T00:00:00Z".parse().expect("a date")
}

/// One step of a script. `refresh` and `input` show a view; the others set
/// what the capabilities read from then on.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Step {
    Refresh,
    /// A click or scroll on an item, then a refresh, as the bar does.
    Input {
        key: String,
        event: Input,
    },
    /// The text each item of the last view shows (its text pieces joined),
    /// in order: the run fails when the view shows other texts.
    Expect(Vec<String>),
    /// Seconds the clock moves on.
    Advance(f64),
    Now(DateTime<Utc>),
    Cpu(f32),
    Memory(MemoryUsage),
    Disks(Vec<Disk>),
    Batteries(Vec<Battery>),
    Interfaces(Vec<Interface>),
    Keyboard(Option<KeyboardLayout>),
    Playing(Option<NowPlaying>),
    /// komorebi's `State` as its socket sends it; null: no tiler.
    Tiler(Option<Value>),
    /// The sound server's outputs; null: no sound server.
    Audio(Option<Vec<Output>>),
    /// What `command`, kept running (`command-lines`), has said.
    Followed {
        command: String,
        last_line: Option<String>,
        #[serde(default)]
        failure: Option<String>,
    },
    /// What running `command` for its output gives.
    CommandOutput {
        command: String,
        code: Option<i32>,
        stdout: String,
        stderr: String,
    },
    /// Waits up to this many seconds for an answer the widget waits on (a
    /// command's output, a fetch), as the bar does before refreshing it.
    WaitForWake(f64),
}

impl TestScript {
    pub fn parse(text: &str) -> anyhow::Result<TestScript> {
        serde_json::from_str(text).map_err(|error| anyhow!("the script, line {}: {error}", error.line()))
    }
}

/// Runs the widget at `wasm` through `script`, calling `shown` with each
/// step that showed a view (its index in `steps`) and the view. The images
/// the view names by handle are held in `held`.
pub fn run(
    wasm: &Path,
    script: &TestScript,
    held: HeldImages,
    mut shown: impl FnMut(usize, &View) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut spec = crate::spec::WidgetSpec::file(wasm.to_path_buf(), script.config.to_string(), [])
        .granted(&script.grants, &script.commands)?;
    spec.monitor = script.monitor;
    let readings = Script::at(script.now);
    let name = spec.name.clone();
    let capabilities = Capabilities { held, ..readings.capabilities() };
    let mut widget = Harness::start_with(spec, capabilities).with_context(|| format!("widget `{name}`"))?;
    let mut last = None;
    for (index, step) in script.steps.iter().enumerate() {
        let failed = |failure| anyhow!("step {index}: widget `{name}` {failure}");
        match step {
            Step::Refresh => shown(index, last.insert(widget.refresh().map_err(failed)?))?,
            Step::Input { key, event } => shown(index, last.insert(widget.input(key, *event).map_err(failed)?))?,
            Step::Expect(expected) => {
                let view = last.as_ref().ok_or_else(|| anyhow!("step {index}: no view yet to expect texts of"))?;
                let texts = item_texts(view);
                if texts != *expected {
                    return Err(anyhow!(
                        "step {index}: expected the texts {expected:?}, widget `{name}` shows {texts:?}"
                    ));
                }
            }
            Step::Advance(seconds) => readings.advance(seconds_of(*seconds, index)?),
            Step::Now(now) => readings.set_now(*now),
            Step::Cpu(percent) => readings.set_cpu(*percent),
            Step::Memory(memory) => readings.set_memory(*memory),
            Step::Disks(disks) => readings.set_disks(disks.clone()),
            Step::Batteries(batteries) => readings.set_batteries(batteries.clone()),
            Step::Interfaces(interfaces) => readings.set_interfaces(interfaces.clone()),
            Step::Keyboard(layout) => readings.set_keyboard(layout.clone()),
            Step::Playing(playing) => readings.set_playing(playing.clone()),
            Step::Audio(None) => readings.set_audio(AudioStatus::Unavailable("no sound server in this script".into())),
            Step::Audio(Some(outputs)) => readings.set_audio(AudioStatus::Connected(outputs.clone())),
            Step::Followed { command, last_line, failure } => {
                readings.set_followed(command, Followed { last_line: last_line.clone(), failure: failure.clone() })
            }
            Step::Tiler(None) => readings.set_tiler(Status::Disconnected("no tiler in this script".into())),
            Step::Tiler(Some(state)) => {
                let monitor = script.monitor.map(|monitor| monitor as usize);
                let state = crate::tiler::komorebi::read_state(&state.to_string(), monitor)
                    .with_context(|| format!("step {index}: komorebi's state"))?;
                readings.set_tiler(Status::Connected(state));
            }
            Step::CommandOutput { command, code, stdout, stderr } => {
                let output = CommandOutput { code: *code, stdout: stdout.clone(), stderr: stderr.clone() };
                readings.set_command_output(command, Ok(output));
            }
            Step::WaitForWake(seconds) => {
                widget.wait_for_wake(seconds_of(*seconds, index)?);
            }
        }
    }
    Ok(())
}

/// Each item's text pieces, joined.
fn item_texts(view: &View) -> Vec<String> {
    let text = |piece: &Piece| match piece {
        Piece::Text(text) => Some(text.clone()),
        Piece::Styled(spans) => Some(spans.iter().map(|span| span.text.as_str()).collect()),
        _ => None,
    };
    view.items.iter().map(|item| item.pieces.iter().filter_map(text).collect()).collect()
}

fn seconds_of(seconds: f64, index: usize) -> anyhow::Result<Duration> {
    Duration::try_from_secs_f64(seconds).map_err(|_| anyhow!("step {index}: {seconds} is not a number of seconds"))
}

/// A view as JSON: what a widget author reads in `obi widget test`'s output.
pub fn view_json(view: &View) -> Value {
    let items: Vec<Value> = view
        .items
        .iter()
        .map(|item| {
            let pieces: Vec<Value> = item.pieces.iter().map(piece_json).collect();
            let emphasis = match item.emphasis {
                Emphasis::Normal => "normal",
                Emphasis::Selected => "selected",
                Emphasis::Muted => "muted",
                Emphasis::Urgent => "urgent",
            };
            // Scrolling is taken in every direction or none: it shows as one `scroll`.
            let takes: Vec<&str> = Input::NAMED
                .iter()
                .filter(|(input, _)| !matches!(input, Input::Scroll(_)))
                .chain([&(Input::Scroll(ScrollDirection::Up), "scroll")])
                .filter(|(input, _)| item.takes.takes(*input))
                .map(|(_, name)| *name)
                .collect();
            json!({ "key": item.key, "pieces": pieces, "emphasis": emphasis, "takes": takes, "tooltip": item.tooltip })
        })
        .collect();
    json!({ "items": items, "item_spacing": view.item_spacing })
}

fn piece_json(piece: &Piece) -> Value {
    match piece {
        Piece::Text(text) => json!({ "text": text }),
        Piece::Icon(glyph) => json!({ "icon": glyph }),
        Piece::Image(Image::Path(path)) => json!({ "image": path }),
        Piece::Image(Image::Pixels(pixels)) => json!({ "pixels": [pixels.width, pixels.height] }),
        Piece::HeldImage(handle) => json!({ "held_image": handle }),
        Piece::BinaryClock(clock) => json!({ "binary_clock": {
            "hour": clock.hour, "minute": clock.minute, "second": clock.second,
            "style": if clock.style == BinaryClockStyle::Circle { "circle" } else { "rectangle" } } }),
        Piece::Styled(spans) => json!({ "styled": spans.iter().map(span_json).collect::<Vec<_>>() }),
    }
}

/// A span as its text and the style it sets, no more.
fn span_json(span: &Span) -> Value {
    let style = &span.style;
    let mut json = serde_json::Map::new();
    json.insert("text".into(), json!(span.text));
    let hex = |[red, green, blue, alpha]: [u8; 4]| format!("#{red:02x}{green:02x}{blue:02x}{alpha:02x}");
    let length = |length: Length| match length {
        Length::Ems(ems) => json!({ "ems": ems }),
        Length::Points(points) => json!({ "points": points }),
    };
    let set = [
        ("colour", style.colour.map(|colour| json!(hex(colour)))),
        ("background", style.background.map(|colour| json!(hex(colour)))),
        ("weight", style.weight.map(|weight| json!(weight))),
        ("italic", style.italic.then_some(json!(true))),
        ("size", style.size.map(length)),
        ("family", style.family.as_ref().map(|family| json!(family))),
        ("rise", style.rise.map(length)),
        ("underline", style.underline.then_some(json!(true))),
        ("strikethrough", style.strikethrough.then_some(json!(true))),
    ];
    json.extend(set.into_iter().filter_map(|(name, value)| Some((name.to_owned(), value?))));
    Value::Object(json)
}

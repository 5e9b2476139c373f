//! # StatusCommand
//!
//! A status program's blocks on the bar, as i3bar and swaybar show them
//! (an Obi extension of the format): i3status, i3blocks, i3status-rust,
//! bumblebee-status or any program speaking the i3bar protocol. The bar
//! keeps the program running, reads its header and its status lines, and
//! refreshes the widget at each new one; each block is an item with its
//! own colours, background, border, least width, alignment, separator
//! and room after it, its short text when the bar is too crowded, and its
//! Pango markup drawn with its styles; an urgent block takes the theme's
//! urgent colours. When the program asks for clicks, a click or scroll on
//! a block goes to its stdin as swaybar writes it (button, event code,
//! where it fell). While the bar is hidden (`obi msg hide`) the program is
//! stopped with its header's `stop_signal`, and continued when shown. A
//! program that ends, or prints what is not the protocol, is said in
//! place of its blocks, urgent, and started again after 1 s, then longer.
//!
//! | key | values | default |
//! |-----|--------|---------|
//! | `enable` | `true` / `false` | required |
//! | `command` | the program's command line, run through `sh -c` | required |
//!
//! ```json
//! { "StatusCommand": { "enable": true, "command": "i3status -c ~/.config/i3status/config" } }
//! ```

mod block;
mod click;

use block::Block;
use obi_sdk::config::StatusCommandConfig;
use obi_sdk::log::{self, Level};
use obi_sdk::{Emphasis, Input, Pointer, Schedule, View, Widget, icons, item, limits, status_programs};
use serde_json::Value;

const PROGRAM: &str = StatusCommandConfig::COMMAND_ID;

/// How long a failure is, at most, on the bar (its tooltip says it all).
const FAILURE_CHARS: usize = 60;

#[derive(Default)]
pub struct StatusCommand {
    /// The status line the blocks were read from.
    line: Option<String>,
    /// Its blocks; an item's key is its block's place among them.
    blocks: Vec<Block>,
    /// The program asked for clicks.
    clicks: bool,
    /// How it last ended, or what it printed that is not the protocol.
    failure: Option<String>,
    /// Why its newest status line could not be read.
    unreadable: Option<String>,
}

impl Widget for StatusCommand {
    type Config = StatusCommandConfig;

    fn new(_: StatusCommandConfig) -> Result<(Self, Schedule), String> {
        // Refreshed at its first call, which starts the program, and at each status line.
        Ok((StatusCommand::default(), Schedule { interval_ms: 0, align_to_wall_clock: false }))
    }

    fn refresh(&mut self) -> View {
        match status_programs::read(PROGRAM) {
            Err(why) => self.failure = Some(why),
            Ok(status) => {
                self.clicks = status.click_events;
                self.failure = status.failure;
                if status.line != self.line {
                    self.read(status.line);
                }
            }
        }
        match self.failure.as_ref().or(self.unreadable.as_ref()) {
            Some(failure) => View::of([item("failure")
                .icon(icons::WARNING)
                .text(cut(failure, FAILURE_CHARS))
                .emphasis(Emphasis::Urgent)
                .tooltip(limits::fit(format!("The status program {failure}")))]),
            None => View::of(
                self.blocks.iter().enumerate().filter_map(|(index, block)| block.item(index.to_string(), self.clicks)),
            ),
        }
    }

    fn on_input_at(&mut self, key: &str, input: Input, pointer: Pointer) {
        let Some(block) = key.parse::<usize>().ok().and_then(|index| self.blocks.get(index)) else { return };
        if let Err(why) = status_programs::click(PROGRAM, &click::click_event(block, input, pointer)) {
            log::log(Level::Warn, &format!("a click did not reach the status program: {why}"));
        }
    }
}

impl StatusCommand {
    /// Reads the blocks of the status `line`, at most as many as a view
    /// holds; a line that is not a JSON array is said until the next.
    fn read(&mut self, line: Option<String>) {
        let Some(text) = &line else { return };
        self.unreadable = match serde_json::from_str::<Vec<Value>>(text) {
            Ok(blocks) => {
                self.blocks = blocks.iter().filter_map(Block::read).take(limits::ITEMS).collect();
                None
            }
            Err(error) => Some(format!("printed a status line that is not a JSON array: {error}")),
        };
        self.line = line;
    }
}

/// `text` cut to `chars` characters, with "…" in place of the rest.
fn cut(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

obi_sdk::export!(StatusCommand);

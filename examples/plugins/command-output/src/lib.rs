//! Shows the first line a command prints, as polybar's `custom/script`
//! does, run again every `interval_secs` and on a click. The widget never
//! holds a command line: it names the one the user declared for it in the
//! bar's config, and the bar runs it. A command that fails shows its exit
//! code, muted, with what it said on stderr in the tooltip.
//!
//! ```json
//! { "Plugin": { "enable": true, "path": "obi_example_command_output.wasm",
//!               "commands": { "uptime": "uptime -p" },
//!               "config": { "command": "uptime", "interval_secs": 60 } } }
//! ```

use obi_sdk::commands::{self, Output, RunState};
use obi_sdk::{Emphasis, Input, Inputs, Schedule, View, Widget, item};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The id of the command in the Plugin entry's `commands`.
    command: String,
    /// Seconds between two runs; 0 runs it on clicks alone.
    #[serde(default = "minute")]
    interval_secs: u64,
    /// Shown before the output.
    #[serde(default)]
    prefix: String,
}

fn minute() -> u64 {
    60
}

pub struct CommandOutput {
    config: Config,
    /// What the last run that ended gave.
    shown: Option<Result<Output, String>>,
}

impl CommandOutput {
    /// Runs the command, or reads how its run ended. The bar refreshes the
    /// widget when a run ends, so a pending run needs no polling.
    fn poll(&mut self) {
        match commands::run(&self.config.command) {
            RunState::Pending => {}
            RunState::Done(output) => self.shown = Some(Ok(output)),
            RunState::Failed(error) => self.shown = Some(Err(error)),
        }
    }
}

impl Widget for CommandOutput {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        let schedule = Schedule::every_secs(config.interval_secs);
        Ok((CommandOutput { config, shown: None }, schedule))
    }

    fn refresh(&mut self) -> View {
        self.poll();
        let button = item("output").takes(Inputs::PRIMARY_CLICK);
        let button = match &self.shown {
            None => button.text(format!("{}…", self.config.prefix)).emphasis(Emphasis::Muted),
            Some(Ok(output)) if output.code == Some(0) => {
                let first = output.stdout.lines().next().unwrap_or_default().trim();
                button.text(format!("{}{first}", self.config.prefix)).tooltip(output.stdout.trim())
            }
            Some(Ok(output)) => {
                let code = output.code.map_or_else(|| "a signal".to_owned(), |code| code.to_string());
                button
                    .text(format!("{}exit {code}", self.config.prefix))
                    .emphasis(Emphasis::Muted)
                    .tooltip(output.stderr.trim())
            }
            Some(Err(error)) => {
                button.text(format!("{}!", self.config.prefix)).emphasis(Emphasis::Urgent).tooltip(error)
            }
        };
        View::of([button])
    }

    /// A click runs it again now; the refresh that follows starts it.
    fn on_input(&mut self, _key: &str, _input: Input) {}
}

obi_sdk::export!(CommandOutput);

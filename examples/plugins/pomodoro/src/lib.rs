//! A pomodoro timer: click to start a stretch of work, click again to
//! pause or go on, right-click to start over. When the work is done a break
//! follows, shown urgent, then work again. It needs no capability beyond
//! the clock, and asks to be refreshed on the next second only while it runs.
//!
//! ```json
//! { "Plugin": { "enable": true, "path": "obi_example_pomodoro.wasm",
//!               "config": { "work_minutes": 25, "break_minutes": 5 } } }
//! ```

use obi_sdk::{Emphasis, Input, Inputs, Schedule, View, Widget, clock, item};
use schemars::JsonSchema;
use serde::Deserialize;
use std::time::Duration;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Minutes of a stretch of work.
    #[serde(default = "work")]
    work_minutes: u32,
    /// Minutes of the break after it.
    #[serde(default = "rest")]
    break_minutes: u32,
}

fn work() -> u32 {
    25
}

fn rest() -> u32 {
    5
}

#[derive(Clone, Copy, PartialEq)]
enum Phase {
    Work,
    Break,
}

enum State {
    Running { phase: Phase, ends_at_ms: i64 },
    Paused { phase: Phase, left_ms: i64 },
}

pub struct Pomodoro {
    config: Config,
    state: State,
}

fn now_ms() -> i64 {
    let now = clock::now();
    now.seconds * 1000 + i64::from(now.nanoseconds / 1_000_000)
}

impl Pomodoro {
    fn length_ms(&self, phase: Phase) -> i64 {
        let minutes = match phase {
            Phase::Work => self.config.work_minutes,
            Phase::Break => self.config.break_minutes,
        };
        i64::from(minutes) * 60_000
    }

    /// Moves on to the break (or back to work) once a phase has ended.
    fn advance(&mut self, now: i64) {
        while let State::Running { phase, ends_at_ms } = self.state
            && ends_at_ms <= now
        {
            let next = if phase == Phase::Work { Phase::Break } else { Phase::Work };
            self.state = State::Running { phase: next, ends_at_ms: ends_at_ms + self.length_ms(next).max(1000) };
        }
    }
}

impl Widget for Pomodoro {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        if config.work_minutes == 0 {
            return Err("work_minutes must be at least 1".into());
        }
        let state = State::Paused { phase: Phase::Work, left_ms: i64::from(config.work_minutes) * 60_000 };
        // Refreshed after clicks, and while running on the second it asks for.
        Ok((Pomodoro { config, state }, Schedule { interval_ms: 0, align_to_wall_clock: false }))
    }

    fn refresh(&mut self) -> View {
        let now = now_ms();
        self.advance(now);
        let (phase, left_ms, running) = match self.state {
            State::Running { phase, ends_at_ms } => (phase, ends_at_ms - now, true),
            State::Paused { phase, left_ms } => (phase, left_ms, false),
        };
        // Shown rounded up: "24:59" for the whole of the first second.
        let seconds = (left_ms + 999) / 1000;
        let label = format!("{:02}:{:02}", seconds / 60, seconds % 60);
        let (emphasis, tooltip) = match (phase, running) {
            (Phase::Work, true) => (Emphasis::Normal, "Working: click to pause"),
            (Phase::Break, true) => (Emphasis::Urgent, "Break: click to pause"),
            (_, false) => (Emphasis::Muted, "Paused: click to go on, right-click to start over"),
        };
        View::of([item("pomodoro")
            .text(label)
            .emphasis(emphasis)
            .tooltip(tooltip)
            .takes(Inputs::PRIMARY_CLICK | Inputs::SECONDARY_CLICK)])
    }

    fn on_input(&mut self, _key: &str, input: Input) {
        let now = now_ms();
        self.advance(now);
        self.state = match (input, &self.state) {
            (Input::PrimaryClick, State::Running { phase, ends_at_ms }) => {
                State::Paused { phase: *phase, left_ms: ends_at_ms - now }
            }
            (Input::PrimaryClick, State::Paused { phase, left_ms }) => {
                State::Running { phase: *phase, ends_at_ms: now + left_ms }
            }
            (Input::SecondaryClick, _) => State::Paused { phase: Phase::Work, left_ms: self.length_ms(Phase::Work) },
            _ => return,
        };
    }

    fn next_refresh(&self) -> Option<Duration> {
        match self.state {
            // The moment the shown second changes.
            State::Running { ends_at_ms, .. } => {
                let into_second = (ends_at_ms - now_ms()).rem_euclid(1000);
                Some(Duration::from_millis(if into_second == 0 { 1000 } else { into_second as u64 }))
            }
            State::Paused { .. } => None,
        }
    }

    fn config_schema() -> Option<serde_json::Value> {
        serde_json::to_value(schemars::schema_for!(Config)).ok()
    }
}

obi_sdk::export!(Pomodoro);

//! A widget that misbehaves on purpose, for the runtime's containment tests.
//!
//! Its first refreshes succeed; from refresh number `at_refresh` on it does
//! what `fault` says: `Trap` panics (a wasm trap), `Loop` never returns, `Oom`
//! allocates until the host's memory cap refuses, `BadView` returns a view
//! the host must reject, `HugeLabel` a label of 10 MB, `HugeList` 100 000
//! items, `Chatter` prints 64 KiB to stderr and goes on, `Escape` tries to
//! reach outside its sandbox (files, the directory tree, a TCP socket at
//! `escape_to`, a process, the environment) and shows what it got,
//! `NamedImage` shows the image file `image` names (a FIFO, say), `Hoard`
//! keeps every WASI resource it makes (10 000 timers a refresh),
//! `PushyPopup` gives a popup with every frame, asked or not, `StrayPopup`
//! one beside an item it does not have, `Never` behaves. Its label names the last input it was given, so tests can see
//! input arrive. `init_ms` keeps its `init` busy that long first, `first_refresh_ms` its first refresh.
//!
//! ```json
//! { "Plugin": { "enable": true, "path": "faulty.wasm", "config": { "fault": "Loop", "at_refresh": 2 } } }
//! ```

use obi_sdk::{Image, Input, Popup, Schedule, View, Widget, item, label};
use serde::Deserialize;

#[derive(Deserialize, Clone, Copy)]
pub enum Fault {
    Trap,
    Loop,
    Oom,
    BadView,
    HugeLabel,
    HugeList,
    Chatter,
    Escape,
    NamedImage,
    Hoard,
    PushyPopup,
    StrayPopup,
    Never,
}

#[derive(Deserialize)]
pub struct Config {
    fault: Fault,
    #[serde(default = "second")]
    at_refresh: u32,
    #[serde(default = "one_second")]
    interval_ms: u64,
    /// Where `Escape` tries to connect.
    #[serde(default)]
    escape_to: Option<String>,
    /// The file `NamedImage` shows.
    #[serde(default)]
    image: String,
    /// Milliseconds `init` spends before it returns.
    #[serde(default)]
    init_ms: u64,
    /// Milliseconds the first refresh spends before it returns.
    #[serde(default)]
    first_refresh_ms: u64,
}

fn second() -> u32 {
    2
}

fn one_second() -> u64 {
    1000
}

pub struct Faulty {
    config: Config,
    refreshes: u32,
    last_input: Option<String>,
}

impl Widget for Faulty {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        busy_for(config.init_ms);
        let schedule = Schedule { interval_ms: config.interval_ms, align_to_wall_clock: false };
        Ok((Faulty { config, refreshes: 0, last_input: None }, schedule))
    }

    fn refresh(&mut self) -> View {
        self.refreshes += 1;
        if self.refreshes == 1 {
            busy_for(self.config.first_refresh_ms);
        }
        if self.refreshes >= self.config.at_refresh {
            match self.config.fault {
                Fault::Trap => panic!("faulty widget traps on refresh {}", self.refreshes),
                Fault::Loop => loop {
                    std::hint::black_box(self.refreshes);
                },
                Fault::Oom => {
                    let mut hoard: Vec<Vec<u8>> = Vec::new();
                    loop {
                        hoard.push(vec![1; 1 << 20]);
                        std::hint::black_box(&hoard);
                    }
                }
                Fault::BadView => {
                    return View::of((0..3).map(|n| item("same-key").text(n.to_string())));
                }
                Fault::HugeLabel => return View::of([item("huge").text("x".repeat(10 << 20))]),
                Fault::HugeList => return View::of((0..100_000).map(|n| item(n.to_string()).text("x"))),
                Fault::Chatter => eprintln!("{}", "chatter ".repeat(8 << 10)),
                Fault::Escape => return View::of([item("escape").text(self.escape())]),
                Fault::NamedImage => {
                    return View::of([item("image").image(Image::Path(self.config.image.clone())).text("image")]);
                }
                Fault::Hoard => hoard(),
                Fault::PushyPopup | Fault::StrayPopup | Fault::Never => {}
            }
        }
        match &self.last_input {
            Some(input) => View::of([item("faulty").text(input.clone())]),
            None => View::of([item("faulty").text(format!("refresh {}", self.refreshes))]),
        }
    }

    fn on_input(&mut self, key: &str, input: Input) {
        self.last_input = Some(format!("{key}: {input:?}"));
    }

    fn popup(&mut self) -> Option<Popup> {
        let beside = match self.config.fault {
            _ if self.refreshes < self.config.at_refresh => return None,
            Fault::PushyPopup => "faulty",
            Fault::StrayPopup => "nowhere",
            _ => return None,
        };
        Some(Popup::beside(beside).line(label("pushed")))
    }

    fn on_popup_closed(&mut self, item_key: &str) {
        self.last_input = Some(format!("popup closed beside {item_key}"));
    }
}

impl Faulty {
    /// What each way out of the sandbox gave: "denied", or what it reached.
    fn escape(&self) -> String {
        let outcome = |reached: bool| if reached { "REACHED" } else { "denied" };
        let file = std::fs::read("/etc/passwd").is_ok() || std::fs::read("/proc/self/environ").is_ok();
        let tree = std::fs::read_dir("/").is_ok() || std::fs::read_dir(".").is_ok();
        let socket =
            self.config.escape_to.as_deref().is_some_and(|address| std::net::TcpStream::connect(address).is_ok());
        let process = std::process::Command::new("/bin/sh").arg("-c").arg("true").status().is_ok();
        let environment = std::env::vars().count() > 0;
        format!(
            "file {} tree {} socket {} process {} environment {}",
            outcome(file),
            outcome(tree),
            outcome(socket),
            outcome(process),
            outcome(environment)
        )
    }
}

obi_sdk::export!(Faulty);

/// Makes WASI timers and keeps them: each is an entry in the host's table
/// of the widget's resources.
#[cfg(target_arch = "wasm32")]
fn hoard() {
    use std::sync::Mutex;
    static HOARD: Mutex<Vec<wasip2::io::poll::Pollable>> = Mutex::new(Vec::new());
    let mut hoard = HOARD.lock().unwrap();
    for _ in 0..10_000 {
        hoard.push(wasip2::clocks::monotonic_clock::subscribe_duration(1_000_000_000));
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn hoard() {}

/// Keeps the widget busy for `milliseconds`.
fn busy_for(milliseconds: u64) {
    let since = std::time::Instant::now();
    while since.elapsed() < std::time::Duration::from_millis(milliseconds) {
        std::hint::black_box(&since);
    }
}

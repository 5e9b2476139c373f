//! The soak: the release bar with every stock widget, refreshing each
//! second, under a simulated komorebi that sends ten notifications a second
//! (the focus moving, window titles changing), for ten minutes by default.
//! Reports the bar's memory each minute and its growth after four minutes
//! of warm-up (see [`WARM_UP`]), and fails when the private memory grew by 1 MB or more, when
//! anything was logged as an error, or when the bar ended.
//!
//! `cargo bench -p obi --bench soak [-- --minutes N]`; needs Xvfb and dbus-daemon.

mod desktop;

use obi_test_support::{komorebi_simulator, release_feed, session_bus};

use desktop::{Memory, Running, Xvfb, memory, require};
use komorebi_simulator::{Simulator, state, window, workspace};
use serde_json::json;
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const NOTIFICATIONS_PER_SECOND: u64 = 10;
/// Long enough for the caches that fill with each new label to be full:
/// femtovg keeps the shaping of the last 1000 text runs and 1000 words,
/// which ten new window titles a second (and a clock) fill in about three
/// minutes. Growth after the first minute is reported too.
const WARM_UP: Duration = Duration::from_secs(240);
const FIRST_MINUTE: Duration = Duration::from_secs(60);
const SAMPLE_EVERY: Duration = Duration::from_secs(10);
const ALLOWED_GROWTH_KB: u64 = 1024;

fn main() -> ExitCode {
    let minutes = minutes_from_arguments();
    require(&["Xvfb", "dbus-daemon"]);
    // The bar, its X server and its bus end with `soak`, before the verdict.
    let failures = soak(minutes);
    if failures.is_empty() {
        return ExitCode::SUCCESS;
    }
    eprintln!("soak failed: {}", failures.join("; "));
    ExitCode::FAILURE
}

/// Runs the soak; what went wrong, if anything.
fn soak(minutes: u64) -> Vec<String> {
    let xvfb = Xvfb::start(1);
    let bus = session_bus::SessionBus::start().expect("starting dbus-daemon");
    let dir = tempfile::tempdir().unwrap();
    let simulator = Simulator::start(dir.path(), komorebi_state(0));
    let config = dir.path().join("komorebi.bar.json");
    std::fs::write(&config, every_stock_widget(&release_feed::newer_release_feed())).unwrap();
    let log_path = dir.path().join("obi.log");

    let bar = Running(
        bar_command()
            .args(["--tiler", "komorebi", "--config"])
            .arg(&config)
            .env("DISPLAY", &xvfb.display)
            .env("DBUS_SESSION_BUS_ADDRESS", &bus.address)
            .env("OBI_KOMOREBI_DIR", dir.path())
            .env("OBI_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log_path).unwrap())
            .spawn()
            .expect("starting obi"),
    );
    if !simulator.wait_for_subscriber(Duration::from_secs(20)) {
        let log = std::fs::read_to_string(&log_path).unwrap_or_default();
        panic!("the bar never subscribed to komorebi; it logged:\n{log}");
    }

    let stop = Arc::new(AtomicBool::new(false));
    let notifier = {
        let stop = stop.clone();
        std::thread::spawn(move || notify(&simulator, &stop))
    };

    let started = Instant::now();
    let end = started + Duration::from_secs(minutes * 60);
    let mut after_warm_up: Option<Memory> = None;
    let mut after_a_minute: Option<Memory> = None;
    let mut peak = Memory::default();
    let mut last = Memory::default();
    println!(
        "soak: {minutes} min, every stock widget at 1 s, {NOTIFICATIONS_PER_SECOND} komorebi notifications a second"
    );
    while Instant::now() < end {
        std::thread::sleep(SAMPLE_EVERY);
        last = memory(bar.pid());
        peak.rss_kb = peak.rss_kb.max(last.rss_kb);
        peak.private_kb = peak.private_kb.max(last.private_kb);
        let elapsed = started.elapsed();
        if after_a_minute.is_none() && elapsed >= FIRST_MINUTE {
            after_a_minute = Some(last);
        }
        if after_warm_up.is_none() && elapsed >= WARM_UP {
            after_warm_up = Some(last);
        }
        if std::env::var_os("OBI_SOAK_VERBOSE").is_some() || elapsed.as_secs() % 60 < SAMPLE_EVERY.as_secs() {
            println!("{:>4} s  RSS {:>7} kB  private {:>7} kB", elapsed.as_secs(), last.rss_kb, last.private_kb);
        }
        if last.rss_kb == 0 {
            break;
        }
    }
    stop.store(true, Ordering::Relaxed);
    let sent = notifier.join().unwrap();

    let mut bar = bar;
    let ended = bar.0.try_wait().unwrap();
    let log = std::fs::read_to_string(&log_path).unwrap_or_default();
    let errors: Vec<&str> = log.lines().filter(|line| line.contains("ERROR")).collect();
    let warnings: Vec<&str> = log.lines().filter(|line| line.contains("WARN")).collect();
    let warm = after_warm_up.unwrap_or(last);
    let minute = after_a_minute.unwrap_or(last);
    let growth = |now: u64, then: u64| now as i64 - then as i64;
    println!(
        "after {} s of warm-up: RSS {} kB, private {} kB; at the end: RSS {} kB ({:+} kB), private {} kB ({:+} kB); \
         since the first minute {:+} kB private; peak RSS {} kB",
        WARM_UP.as_secs(),
        warm.rss_kb,
        warm.private_kb,
        last.rss_kb,
        growth(last.rss_kb, warm.rss_kb),
        last.private_kb,
        growth(last.private_kb, warm.private_kb),
        growth(last.private_kb, minute.private_kb),
        peak.rss_kb
    );
    println!("{sent} notifications sent; {} errors and {} warnings logged", errors.len(), warnings.len());
    for line in errors.iter().chain(&warnings) {
        println!("  {line}");
    }

    let mut failures = Vec::new();
    if let Some(status) = ended {
        failures.push(format!("the bar ended ({status})"));
    }
    if after_warm_up.is_none() {
        println!("the run was no longer than the warm-up: growth is not judged");
    } else if growth(last.private_kb, warm.private_kb) >= ALLOWED_GROWTH_KB as i64 {
        failures.push(format!("private memory grew by {ALLOWED_GROWTH_KB} kB or more after warm-up"));
    }
    if !errors.is_empty() {
        failures.push("errors were logged".into());
    }
    failures
}

/// The bar, or the bar under `$OBI_SOAK_WRAP` (say `heaptrack -o
/// /tmp/obi`, to see what grows; the figures are then the wrapper's).
fn bar_command() -> Command {
    let wrapper = std::env::var("OBI_SOAK_WRAP").unwrap_or_default();
    let mut words = wrapper.split_whitespace();
    let Some(program) = words.next() else { return Command::new(env!("CARGO_BIN_EXE_obi")) };
    let mut command = Command::new(program);
    command.args(words).arg(env!("CARGO_BIN_EXE_obi"));
    command
}

fn minutes_from_arguments() -> u64 {
    let arguments: Vec<String> = std::env::args().collect();
    match arguments.iter().position(|argument| argument == "--minutes") {
        Some(at) => arguments.get(at + 1).and_then(|minutes| minutes.parse().ok()).expect("--minutes N"),
        None => 10,
    }
}

/// Ten notifications a second until `stop`: the focus walks the
/// workspaces and the focused window's title changes each time, as in a
/// busy session. Returns how many were sent.
fn notify(simulator: &Simulator, stop: &AtomicBool) -> u64 {
    let mut sent = 0;
    let period = Duration::from_millis(1000 / NOTIFICATIONS_PER_SECOND);
    let mut next = Instant::now();
    while !stop.load(Ordering::Relaxed) {
        simulator.set_state(komorebi_state(sent));
        simulator.notify(json!({ "type": "FocusChange", "content": ["SystemForeground", { "hwnd": sent }] }));
        sent += 1;
        next += period;
        std::thread::sleep(next.saturating_duration_since(Instant::now()));
    }
    sent
}

fn komorebi_state(tick: u64) -> serde_json::Value {
    let title = format!("notes — edited {tick} times");
    let stacks = [
        vec![window(&title, "code.exe"), window("terminal", "wt.exe")],
        vec![window("mail", "thunderbird.exe")],
        vec![window(&format!("page {}", tick % 97), "firefox.exe")],
    ];
    let stacks: Vec<&[serde_json::Value]> = stacks.iter().map(Vec::as_slice).collect();
    let workspaces =
        (0..5).map(|index| workspace(Some(&format!("ws{index}")), &stacks[..index % 4], 0, "BSP")).collect();
    state(workspaces, (tick / 10 % 5) as usize)
}

/// Every stock widget, each refreshing its data every second.
fn every_stock_widget(feed: &str) -> String {
    format!(
        r#"{{
  "height": 40, "font_size": 14,
  "left_widgets": [
    {{ "Komorebi": {{ "workspaces": {{ "enable": true, "hide_empty_workspaces": false }},
                     "layout": {{ "enable": true }}, "focused_container": {{ "enable": true }} }} }},
    {{ "Applications": {{ "enable": true, "items": [ {{ "name": "Terminal", "command": "true" }} ] }} }},
    {{ "Media": {{ "enable": true }} }}
  ],
  "center_widgets": [
    {{ "Date": {{ "enable": true, "format": "DayDateMonthYear" }} }},
    {{ "Time": {{ "enable": true, "format": "TwentyFourHour" }} }}
  ],
  "right_widgets": [
    {{ "Cpu": {{ "enable": true, "data_refresh_interval": 1 }} }},
    {{ "Memory": {{ "enable": true, "data_refresh_interval": 1 }} }},
    {{ "Storage": {{ "enable": true, "data_refresh_interval": 1 }} }},
    {{ "Network": {{ "enable": true, "show_activity": true, "show_total_activity": true, "data_refresh_interval": 1 }} }},
    {{ "Battery": {{ "enable": true, "data_refresh_interval": 1 }} }},
    {{ "Keyboard": {{ "enable": true, "data_refresh_interval": 1 }} }},
    {{ "Update": {{ "enable": true, "release_feed": "{feed}" }} }},
    {{ "Systray": {{ "enable": true }} }}
  ]
}}"#
    )
}

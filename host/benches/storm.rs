//! Obi and Waybar through a storm of the tiler's events: each bar on a
//! headless sway of its own, both showing sway's workspaces and the focused
//! window's title (Waybar with its taskbar too, as its users run it), while
//! a script moves the focus between windows and workspaces 500 times, 20
//! times a second, on both sways at once. Measured for each bar: its
//! resident memory before the storm and after it (settled 5 s), and its CPU
//! through the storm per event. A bar that keeps something per event grows;
//! the goal is no growth, and less CPU an event than Waybar's.
//!
//! Then Obi on niri (a simulator that speaks its IPC) as 70,000 windows
//! open, each told by an event of its own, as fast as the socket takes
//! them: the CPU Obi spends until it is quiet again; and then 500 focus
//! changes among them, 20 a second, and the CPU each costs.
//!
//! The tables go to stdout and into BENCHMARKS.md between its `storm`
//! markers, with the machine and the date.
//!
//! `cargo bench -p obi --bench storm`; needs sway, swaymsg, foot, waybar and
//! Xvfb.

mod desktop;

use desktop::sway::HeadlessSway;
use desktop::{Memory, Running, Xvfb, cpu_ns, machine, memory, require, today, write_into_benchmarks};
use obi_test_support::niri_simulator::{NiriSimulator, two_workspaces};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const EVENTS: usize = 500;
const EVERY: Duration = Duration::from_millis(50);
/// Windows on each of the workspaces the storm moves between.
const WORKSPACES: [&str; 4] = ["1", "2", "3", "4"];
const WINDOWS_EACH: usize = 2;

fn main() {
    require(&["sway", "swaymsg", "foot", "waybar", "setpriv", "Xvfb"]);
    let dir = tempfile::tempdir().unwrap();
    let obi_config = dir.path().join("obi.komorebi.bar.json");
    std::fs::write(&obi_config, OBI).unwrap();
    let (waybar_config, waybar_style) = (dir.path().join("waybar.json"), dir.path().join("waybar.css"));
    std::fs::write(&waybar_config, WAYBAR).unwrap();
    std::fs::write(&waybar_style, WAYBAR_STYLE).unwrap();
    let obi = Bar {
        name: "obi",
        program: PathBuf::from(env!("CARGO_BIN_EXE_obi")),
        arguments: vec!["--tiler".into(), "sway".into(), "--config".into(), obi_config.display().to_string()],
    };
    let waybar = Bar {
        name: "waybar",
        program: PathBuf::from("waybar"),
        arguments: ["--config", &waybar_config.display().to_string(), "--style", &waybar_style.display().to_string()]
            .map(str::to_owned)
            .to_vec(),
    };
    let results: Vec<Storm> = std::thread::scope(|scope| {
        let runs: Vec<_> = [&obi, &waybar].map(|bar| scope.spawn(move || through_a_storm(bar))).into();
        runs.into_iter().map(|run| run.join().expect("a storm")).collect()
    });
    let niri = many_windows_on_niri(&obi_config);
    let report = report(&results) + &niri.report();
    println!("{report}");
    write_into_benchmarks("storm", &report);
}

struct Bar {
    name: &'static str,
    program: PathBuf,
    arguments: Vec<String>,
}

/// What a bar spent through the storm.
struct Storm {
    name: &'static str,
    before: Memory,
    after: Memory,
    /// The bar's CPU through the storm, and its sway's.
    cpu: (Duration, Duration),
    took: Duration,
}

/// Starts `bar` on a sway of its own with windows on four workspaces, lets
/// it settle, and moves the focus about [`EVENTS`] times.
fn through_a_storm(bar: &Bar) -> Storm {
    let sway = HeadlessSway::start();
    let mut clients = Vec::new();
    for workspace in WORKSPACES {
        assert!(sway.swaymsg(&["workspace", workspace]), "sway took no workspace {workspace}");
        for _ in 0..WINDOWS_EACH {
            clients.push(Running(
                Command::new("foot")
                    .args(["--title", &format!("a window on {workspace}")])
                    .env_remove("DISPLAY")
                    .envs(sway.env())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .expect("starting foot"),
            ));
            std::thread::sleep(Duration::from_millis(300));
        }
    }
    let running = Running(
        Command::new(&bar.program)
            .args(&bar.arguments)
            .env_remove("DISPLAY")
            .envs(sway.env())
            .env("SWAYSOCK", sway.ipc_socket())
            .env("OBI_LOG", "error")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|error| panic!("starting {}: {error}", bar.program.display())),
    );
    // Settled, and every event handler met once, before anything is measured.
    std::thread::sleep(Duration::from_secs(5));
    for workspace in WORKSPACES {
        sway.swaymsg(&["workspace", workspace]);
    }
    std::thread::sleep(Duration::from_secs(5));
    let before = memory(running.pid());
    let cpu_before = (cpu_ns(running.pid()), cpu_ns(sway.pid()));
    let started = Instant::now();
    for event in 0..EVENTS {
        let next = started + EVERY * event as u32;
        std::thread::sleep(next.saturating_duration_since(Instant::now()));
        if event % 2 == 0 {
            sway.swaymsg(&["workspace", WORKSPACES[(event / 2) % WORKSPACES.len()]]);
        } else {
            sway.swaymsg(&["focus", "next"]);
        }
    }
    let took = started.elapsed();
    let cpu = (
        Duration::from_nanos(cpu_ns(running.pid()) - cpu_before.0),
        Duration::from_nanos(cpu_ns(sway.pid()) - cpu_before.1),
    );
    std::thread::sleep(Duration::from_secs(5));
    let after = memory(running.pid());
    assert!(after.rss_kb > 0, "{} ended in the storm", bar.name);
    drop(clients);
    Storm { name: bar.name, before, after, cpu, took }
}

/// Windows opened on niri, and focus moved among them.
const NIRI_WINDOWS: u64 = 70_000;

struct OnNiri {
    /// Obi's CPU from the first window's event until it was quiet, and how long that took.
    opening: (Duration, Duration),
    /// Obi's CPU through the focus changes among them.
    focusing: Duration,
    memory: Memory,
}

impl OnNiri {
    fn report(&self) -> String {
        format!(
            "\nOn niri (a simulator of its IPC), {NIRI_WINDOWS} windows opened, an event each, as fast as the socket took them: \
             Obi spent {:.2} s of CPU and was quiet again {:.1} s after the first; then {EVENTS} focus changes among them, one \
             every {} ms: {:.0} µs of CPU each. Its RSS then: {:.1} MB.\n",
            self.opening.0.as_secs_f64(),
            self.opening.1.as_secs_f64(),
            EVERY.as_millis(),
            self.focusing.as_secs_f64() * 1e6 / EVENTS as f64,
            self.memory.rss_kb as f64 / 1024.0,
        )
    }
}

/// Obi with `config` on an Xvfb, following a niri simulator through
/// [`NIRI_WINDOWS`] windows opening and focus changes among them.
fn many_windows_on_niri(config: &Path) -> OnNiri {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("niri.sock");
    let niri = NiriSimulator::start(&socket, two_workspaces());
    let xvfb = Xvfb::start(1);
    let obi = Running(
        Command::new(env!("CARGO_BIN_EXE_obi"))
            .args(["--tiler", "niri", "--config"])
            .arg(config)
            .env("DISPLAY", &xvfb.display)
            .env("NIRI_SOCKET", &socket)
            .env("OBI_LOG", "error")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting obi"),
    );
    assert!(niri.wait_for_stream(Duration::from_secs(20)), "obi asked niri for no events");
    std::thread::sleep(Duration::from_secs(3));
    let quiet = |from: Instant| {
        // Quiet: no CPU spent over half a second.
        let mut last = cpu_ns(obi.pid());
        loop {
            std::thread::sleep(Duration::from_millis(500));
            let now = cpu_ns(obi.pid());
            if now - last < 5_000_000 {
                return from.elapsed();
            }
            last = now;
        }
    };
    let (cpu_before, started) = (cpu_ns(obi.pid()), Instant::now());
    for id in 100..100 + NIRI_WINDOWS {
        niri.event(&format!(
            r#"{{"WindowOpenedOrChanged":{{"window":{{"id":{id},"title":"window {id}","app_id":"foot","workspace_id":12,"is_focused":false,"is_floating":false,"is_urgent":false}}}}}}"#
        ));
    }
    let until_quiet = quiet(started);
    let opening = (Duration::from_nanos(cpu_ns(obi.pid()) - cpu_before), until_quiet);
    let cpu_before = cpu_ns(obi.pid());
    let started = Instant::now();
    for event in 0..EVENTS {
        let next = started + EVERY * event as u32;
        std::thread::sleep(next.saturating_duration_since(Instant::now()));
        niri.event(&format!(r#"{{"WindowFocusChanged":{{"id":{}}}}}"#, 100 + (event as u64 * 137) % NIRI_WINDOWS));
    }
    quiet(started);
    let focusing = Duration::from_nanos(cpu_ns(obi.pid()) - cpu_before);
    OnNiri { opening, focusing, memory: memory(obi.pid()) }
}

fn report(storms: &[Storm]) -> String {
    let mb = |kb: u64| format!("{:.1} MB", kb as f64 / 1024.0);
    let grown = |storm: &Storm| {
        let kb = storm.after.rss_kb as i64 - storm.before.rss_kb as i64;
        format!("{kb:+} kB ({:+.2} kB an event)", kb as f64 / EVENTS as f64)
    };
    let per_event = |cpu: Duration| format!("{:.0} µs", cpu.as_secs_f64() * 1e6 / EVENTS as f64);
    let mut out = format!(
        "Run on {}: {}, headless sway 1.7 (pixman, 1920×1080) for each bar, both at once; \
         {EVENTS} focus and workspace changes, one every {} ms ({:.1} s), {} windows on {} workspaces.\n\n",
        today(),
        machine(),
        EVERY.as_millis(),
        storms[0].took.as_secs_f64(),
        WORKSPACES.len() * WINDOWS_EACH,
        WORKSPACES.len()
    );
    out += "| | RSS before | RSS after (settled 5 s) | grown | private before | private after | CPU an event: bar | its sway |\n";
    out += "|---|---|---|---|---|---|---|---|\n";
    for storm in storms {
        out += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            storm.name,
            mb(storm.before.rss_kb),
            mb(storm.after.rss_kb),
            grown(storm),
            mb(storm.before.private_kb),
            mb(storm.after.private_kb),
            per_event(storm.cpu.0),
            per_event(storm.cpu.1)
        );
    }
    if let [obi, waybar] = storms {
        out += &format!(
            "\nObi / Waybar, CPU an event: {:.2}.\n",
            obi.cpu.0.as_secs_f64() / waybar.cpu.0.as_secs_f64().max(f64::EPSILON)
        );
    }
    out
}

/// Obi: sway's workspaces and the focused window's title.
const OBI: &str = r#"{ "height": 40, "font_family": "DejaVu Sans", "font_size": 14, "right_widgets": [],
  "left_widgets": [ { "Komorebi": { "workspaces": { "enable": true, "hide_empty_workspaces": false },
                                    "focused_container": { "enable": true } } } ] }"#;

/// Waybar: sway's workspaces, the focused window's title, and its taskbar.
const WAYBAR: &str = r#"{ "layer": "top", "position": "top", "height": 40,
  "modules-left": ["sway/workspaces", "sway/window", "wlr/taskbar"] }"#;

const WAYBAR_STYLE: &str = "* { font-family: \"DejaVu Sans\"; font-size: 14px; }
window#waybar { background: #1e1e2e; color: #cdd6f4; }
";

//! Obi beside polybar and beside the floor of its own stack (an empty
//! winit + glutin + femtovg window, `examples/empty_window.rs`, cleared, and
//! the same drawing a line of text as a bar's first frame does), in one run
//! under Xvfb, with equivalent bars: CPU, memory, disk, date and time, each
//! refreshed every second; and Obi's bar again beside workspaces and a title
//! in Chinese, Japanese and Korean and emoji, drawn from the system's
//! fallback and colour emoji fonts. Measured for each:
//!
//! - start to mapped window: from spawning the process to the X server's
//!   MapNotify for its window (median of ten starts);
//! - start to first complete frame: to the first grab of the bar's strip in
//!   which every column agrees with the settled bar (taken three seconds
//!   later) on whether anything is drawn in it (95 % of columns; median of ten);
//!   the bars take turns, one start each a round, after a round not counted;
//! - RSS and private RSS (anonymous pages) ten seconds after the start;
//! - CPU of the bar and of its X server over a minute, each bar on an Xvfb
//!   of its own, all at once (threads summed from schedstat).
//!
//! Then Obi's memory with every stock widget and with 30 widgets (the cost
//! of one more), and two bars on two monitors of one X server: from one
//! Obi process (`--config` twice), beside two Obi processes (as
//! komorebi-bar runs them) and two polybars; the second bar's cost is what
//! the process with two bars takes over the process with one.
//!
//! Among the starts, Obi's five widgets drawn in a family no font file is
//! named after (Noto Sans CJK JP, in `NotoSansCJK-Regular.ttc`), which is
//! found only by reading every installed face: the run needs a desktop's
//! fonts installed (Debian's `fonts-noto-core` and `fonts-noto-cjk`), and
//! every other figure is taken with them.
//!
//! Then Obi on Wayland beside Waybar, each a layer surface on a headless
//! sway of its own showing the same five things: start to first complete
//! frame (grabs by grim), memory after ten seconds, CPU of the bar and of
//! sway over a minute, and how often the bar ran (a bar that polls runs
//! often), both at once.
//!
//! The tables go to stdout and into BENCHMARKS.md between its `bars`
//! markers, with the machine and the date.
//!
//! `cargo bench -p obi --bench bars`; needs Xvfb, polybar, sway, grim,
//! waybar and the Noto fonts. `cargo bench -p obi --bench bars -- --starts
//! 20` takes the starts alone, 20 rounds, and prints them, writing nothing.
//! The bars are built in the `packaged` profile, as the release's artifacts
//! are; `-- --profile release` measures `cargo install`'s build instead,
//! and prints its tables without writing them.

mod desktop;

use desktop::sway::HeadlessSway;
use desktop::{
    DEFAULT_PROFILE, Memory, PROFILE, Running, Xvfb, build, cpu_ns, machine, memory, require, runs, today,
    write_into_benchmarks,
};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::LazyLock;
use std::time::{Duration, Instant};
use x11rb::connection::Connection;
use x11rb::protocol::Event;
use x11rb::protocol::xproto::{ChangeWindowAttributesAux, ConnectionExt, EventMask, ImageFormat};

const STARTS: usize = 10;
/// The font the floor draws its line of text in, the bars' own.
const FLOOR_FONT: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
/// A family found only by reading every installed face, and the file that has it.
const UNNAMED_FAMILY: (&str, &str) = ("Noto Sans CJK JP", "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc");
const BAR_HEIGHT: u16 = 40;
const CPU_SECONDS: u64 = 60;

fn main() {
    require(&["Xvfb", "xrandr", "polybar", "sway", "grim", "waybar", "setpriv"]);
    if !Path::new(UNNAMED_FAMILY.1).exists() {
        eprintln!("this benchmark needs a desktop's fonts: apt-get install fonts-noto-core fonts-noto-cjk");
        std::process::exit(1);
    }
    let dir = tempfile::tempdir().unwrap();
    let floor = build_floor();
    let floor_with_text = || Contestant {
        name: "floor + text",
        program: floor.clone(),
        arguments: vec!["--text".into(), FLOOR_FONT.into()],
    };
    let contestants = [
        Contestant::obi("obi", &five_widgets(), dir.path()),
        Contestant::polybar(dir.path()),
        Contestant { name: "floor", program: floor.clone(), arguments: Vec::new() },
        floor_with_text(),
        Contestant::obi("obi, CJK + emoji", &scripts_and_emoji(true), dir.path()),
        Contestant::obi("obi, the same in ASCII", &scripts_and_emoji(false), dir.path()),
        Contestant {
            name: "floor + the CJK text",
            program: floor.clone(),
            arguments: [["--text", FLOOR_FONT], ["--fallback", UNNAMED_FAMILY.1]]
                .into_iter()
                .chain(IN_SCRIPTS.map(|line| ["--line", line]))
                .flatten()
                .map(String::from)
                .collect(),
        },
        Contestant {
            name: "floor + the same in ASCII",
            program: floor.clone(),
            arguments: [["--text", FLOOR_FONT]]
                .into_iter()
                .chain(IN_ASCII.map(|line| ["--line", line]))
                .flatten()
                .map(String::from)
                .collect(),
        },
    ];

    // Obi's five widgets drawn in a family no font file is named after.
    let unnamed = Contestant::obi("unnamed", &bar_widgets_in(FIVE, UNNAMED_FAMILY.0), dir.path());
    let mut started: Vec<&Contestant> = contestants.iter().collect();
    started.push(&unnamed);
    let rounds = rounds_asked();
    eprintln!("starting each of {} bars {} times, in turns", started.len(), rounds.unwrap_or(STARTS));
    let mut starts = starts(&started, rounds.unwrap_or(STARTS));
    let unnamed_starts = starts.pop().expect("the unnamed family's starts");
    let mut rows: Vec<Row> = contestants
        .iter()
        .zip(starts)
        .map(|(contestant, starts)| Row { name: contestant.name, starts, ..Row::default() })
        .collect();
    if rounds.is_some() {
        println!("{}", starts_report(&rows));
        return;
    }
    eprintln!("memory after 10 s and CPU over {CPU_SECONDS} s, all at once");
    for (row, idle) in rows.iter_mut().zip(idle(&contestants)) {
        row.idle = idle;
    }

    eprintln!("Obi with every stock widget, with 30 widgets, and two bars on two monitors");
    let every = settled_memory(&Contestant::obi("every", &every_stock_widget(), dir.path()));
    let thirty = settled_memory(&Contestant::obi("thirty", &thirty_widgets(), dir.path()));
    let two = two_monitors(dir.path());
    let fonts = Fonts { installed: installed_font_files(Path::new("/usr/share/fonts")), unnamed: unnamed_starts };

    let on_sway = [Contestant::obi("obi", &five_widgets(), dir.path()), Contestant::waybar(dir.path())];
    let mut sway_rows = Vec::new();
    let mut grab_times = Vec::new();
    for contestant in &on_sway {
        eprintln!("starting {} on sway {STARTS} times", contestant.name);
        let (first_frame, grab_time) = first_frames_on_sway(contestant);
        grab_times.push(grab_time);
        let starts = Starts { mapped: Duration::ZERO, first_frame };
        sway_rows.push(Row { name: contestant.name, starts, ..Row::default() });
    }
    eprintln!("on sway: memory after 10 s and CPU over {CPU_SECONDS} s, with the floor + text, all at once");
    let [obi, waybar] = on_sway;
    let mut idle = idle_on_sway(&[obi, waybar, floor_with_text()]);
    let floor_on_sway = idle.pop().expect("the floor's reading");
    for (row, idle) in sway_rows.iter_mut().zip(idle) {
        row.idle = idle;
    }

    let mut report = report(&rows, rows[0].idle.memory, every, thirty, &two, &fonts);
    report += &sway_report(&sway_rows, &floor_on_sway, &rows[0], median(grab_times));
    println!("{report}");
    // BENCHMARKS.md's tables are of the release's build; another's are printed.
    if *PROFILE == DEFAULT_PROFILE {
        write_into_benchmarks("bars", &report);
    }
}

struct Contestant {
    name: &'static str,
    program: PathBuf,
    arguments: Vec<String>,
}

impl Contestant {
    fn obi(name: &'static str, config: &str, dir: &Path) -> Contestant {
        let path = dir.join(format!("{name}.komorebi.bar.json"));
        std::fs::write(&path, config).unwrap();
        Contestant {
            name,
            program: OBI.clone(),
            arguments: vec!["--tiler".into(), "none".into(), "--config".into(), path.display().to_string()],
        }
    }

    fn polybar(dir: &Path) -> Contestant {
        let path = dir.join("polybar.ini");
        std::fs::write(&path, POLYBAR).unwrap();
        Contestant {
            name: "polybar",
            program: PathBuf::from("polybar"),
            arguments: vec!["--quiet".into(), format!("--config={}", path.display()), "bar".into()],
        }
    }

    /// Waybar's equivalent of the five widgets, a layer surface at the top.
    fn waybar(dir: &Path) -> Contestant {
        let (config, style) = (dir.join("waybar.json"), dir.join("waybar.css"));
        std::fs::write(&config, WAYBAR).unwrap();
        std::fs::write(&style, WAYBAR_STYLE).unwrap();
        Contestant {
            name: "waybar",
            program: PathBuf::from("waybar"),
            arguments: vec![
                "--config".into(),
                config.display().to_string(),
                "--style".into(),
                style.display().to_string(),
            ],
        }
    }

    fn start(&self, display: &str) -> Running {
        self.spawn(Command::new(&self.program).env("DISPLAY", display))
    }

    fn start_on_sway(&self, sway: &HeadlessSway) -> Running {
        self.spawn(Command::new(&self.program).env_remove("DISPLAY").envs(sway.env()))
    }

    fn spawn(&self, command: &mut Command) -> Running {
        Running(
            command
                .args(&self.arguments)
                .env("OBI_LOG", "error")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap_or_else(|error| panic!("starting {}: {error}", self.program.display())),
        )
    }
}

#[derive(Default)]
struct Row {
    name: &'static str,
    starts: Starts,
    idle: Idle,
}

#[derive(Default, Clone, Copy)]
struct Starts {
    mapped: Duration,
    first_frame: Duration,
}

/// Median start-to-map and start-to-first-frame times over `rounds` starts of
/// each contestant, each on an Xvfb of its own. The starts take turns, a
/// round of one start each, after a round not counted: what the host does
/// meanwhile (the build's files written back, another tenant's load) then
/// falls on every contestant alike, not on whichever started first.
fn starts(contestants: &[&Contestant], rounds: usize) -> Vec<Starts> {
    let mut screens: Vec<Screen> = contestants.iter().map(|_| Screen::open()).collect();
    for round in 0..=rounds {
        for (&contestant, screen) in contestants.iter().zip(&mut screens) {
            let (mapped, first_frame) = screen.time_start(contestant);
            if round > 0 {
                screen.mapped.push(mapped);
                screen.first_frames.push(first_frame);
            }
        }
    }
    screens
        .into_iter()
        .map(|screen| Starts { mapped: median(screen.mapped), first_frame: median(screen.first_frames) })
        .collect()
}

/// An Xvfb watched for windows being mapped, and the starts seen on it.
struct Screen {
    connection: x11rb::rust_connection::RustConnection,
    root: u32,
    mapped: Vec<Duration>,
    first_frames: Vec<Duration>,
    xvfb: Xvfb,
}

impl Screen {
    fn open() -> Screen {
        let xvfb = Xvfb::start(1);
        let (connection, screen) = x11rb::connect(Some(&xvfb.display)).expect("connecting to Xvfb");
        let root = connection.setup().roots[screen].root;
        let events = ChangeWindowAttributesAux::new().event_mask(EventMask::SUBSTRUCTURE_NOTIFY);
        connection.change_window_attributes(root, &events).unwrap().check().unwrap();
        Screen { connection, root, mapped: Vec::new(), first_frames: Vec::new(), xvfb }
    }

    /// Starts `contestant` and gives the time to its window's mapping and
    /// to its first complete frame; stops it after three seconds.
    fn time_start(&self, contestant: &Contestant) -> (Duration, Duration) {
        while self.connection.poll_for_event().unwrap().is_some() {}
        let started = Instant::now();
        let running = contestant.start(&self.xvfb.display);
        while !matches!(self.connection.poll_for_event().unwrap(), Some(Event::MapNotify(_))) {
            assert!(started.elapsed() < Duration::from_secs(20), "{} mapped no window in 20 s", contestant.name);
            std::thread::sleep(Duration::from_micros(200));
        }
        let mapped = started.elapsed();
        let mut grabs = Vec::new();
        while started.elapsed() < Duration::from_secs(3) {
            grabs.push((started.elapsed(), grab(&self.connection, self.root)));
            std::thread::sleep(Duration::from_millis(4));
        }
        let settled = grab(&self.connection, self.root);
        let first = grabs.iter().find(|(_, pixels)| agrees(pixels, &settled)).map_or(Duration::MAX, |(at, _)| *at);
        drop(running);
        std::thread::sleep(Duration::from_millis(300));
        (mapped, first)
    }
}

/// The bar's strip of the screen, as 32-bit pixels.
fn grab(connection: &impl Connection, root: u32) -> Vec<u32> {
    let image = connection.get_image(ImageFormat::Z_PIXMAP, root, 0, 0, 1920, BAR_HEIGHT, !0).unwrap().reply().unwrap();
    image.data.chunks_exact(4).map(|pixel| u32::from_le_bytes(pixel.try_into().unwrap()) & 0xff_ffff).collect()
}

/// Whether `pixels` show the same columns drawn on as `settled` does (95 %
/// of them), against the settled bar's background (its commonest colour).
fn agrees(pixels: &[u32], settled: &[u32]) -> bool {
    let mut counts = std::collections::HashMap::new();
    for pixel in settled {
        *counts.entry(*pixel).or_insert(0usize) += 1;
    }
    let background = counts.into_iter().max_by_key(|(_, count)| *count).map_or(0, |(pixel, _)| pixel);
    let drawn =
        |image: &[u32], column: usize| (0..BAR_HEIGHT as usize).any(|row| image[row * 1920 + column] != background);
    let same = (0..1920).filter(|&column| drawn(pixels, column) == drawn(settled, column)).count();
    same * 100 >= 1920 * 95
}

/// Median start-to-first-frame time of ten starts on a headless sway, and
/// the median time grim took for a grab (the measure's resolution).
fn first_frames_on_sway(contestant: &Contestant) -> (Duration, Duration) {
    let sway = HeadlessSway::start();
    let mut first_frames = Vec::new();
    let mut grab_times = Vec::new();
    for _ in 0..STARTS {
        let started = Instant::now();
        let running = contestant.start_on_sway(&sway);
        let mut grabs = Vec::new();
        while started.elapsed() < Duration::from_secs(3) {
            let before = Instant::now();
            if let Some(pixels) = sway.grab(BAR_HEIGHT) {
                grabs.push((started.elapsed(), pixels));
            }
            grab_times.push(before.elapsed());
        }
        let settled = sway.grab(BAR_HEIGHT).expect("grabbing the settled bar");
        let first = grabs.iter().find(|(_, pixels)| agrees(pixels, &settled)).map_or(Duration::MAX, |(at, _)| *at);
        first_frames.push(first);
        drop(running);
        std::thread::sleep(Duration::from_millis(300));
    }
    (median(first_frames), median(grab_times))
}

/// Each contestant on a headless sway of its own, all at once: memory
/// after ten seconds, then CPU a second over a minute, the bar's and its
/// sway's.
fn idle_on_sway(contestants: &[Contestant]) -> Vec<Idle> {
    let compositors: Vec<HeadlessSway> = contestants.iter().map(|_| HeadlessSway::start()).collect();
    let bars: Vec<Running> =
        contestants.iter().zip(&compositors).map(|(contestant, sway)| contestant.start_on_sway(sway)).collect();
    idle_usage(&bars.iter().zip(&compositors).map(|(bar, sway)| (bar.pid(), sway.pid())).collect::<Vec<_>>())
}

fn median(mut values: Vec<Duration>) -> Duration {
    values.sort();
    values[values.len() / 2]
}

/// Each contestant on an Xvfb of its own, all at once: memory after ten
/// seconds, then CPU a second over a minute, the bar's and its server's.
fn idle(contestants: &[Contestant]) -> Vec<Idle> {
    let servers: Vec<Xvfb> = contestants.iter().map(|_| Xvfb::start(1)).collect();
    let bars: Vec<Running> =
        contestants.iter().zip(&servers).map(|(contestant, xvfb)| contestant.start(&xvfb.display)).collect();
    idle_usage(&bars.iter().zip(&servers).map(|(bar, xvfb)| (bar.pid(), xvfb.pid())).collect::<Vec<_>>())
}

/// What an idle bar costs, measured by [`idle_usage`].
#[derive(Default)]
struct Idle {
    memory: Memory,
    /// Microseconds of CPU a second: the bar's, its server's.
    cpu: (u64, u64),
    /// How many times a second the bar's threads ran.
    runs: u64,
}

impl Idle {
    /// RSS, private RSS, and CPU of the bar, its server and both, as
    /// cells of a table row.
    fn cells(&self) -> String {
        let mb = |kb: u64| format!("{:.1} MB", kb as f64 / 1024.0);
        let (bar, server) = self.cpu;
        format!(
            "{} | {} | {bar} µs/s | {server} µs/s | {} µs/s",
            mb(self.memory.rss_kb),
            mb(self.memory.private_kb),
            bar + server
        )
    }
}

/// Each bar, started, with the server it draws on (`(bar, server)` pids):
/// memory after ten seconds, then, over a minute, CPU a second (the bar's
/// and its server's) and how often the bar ran.
fn idle_usage(pids: &[(u32, u32)]) -> Vec<Idle> {
    std::thread::sleep(Duration::from_secs(10));
    let memories: Vec<Memory> = pids.iter().map(|(bar, _)| memory(*bar)).collect();
    let usage = |(bar, server): &(u32, u32)| (cpu_ns(*bar), cpu_ns(*server), runs(*bar));
    let before: Vec<(u64, u64, u64)> = pids.iter().map(usage).collect();
    std::thread::sleep(Duration::from_secs(CPU_SECONDS));
    pids.iter()
        .map(usage)
        .zip(before)
        .zip(memories)
        .map(|(((bar_ns, server_ns, bar_runs), (bar_then, server_then, runs_then)), memory)| Idle {
            memory,
            cpu: ((bar_ns - bar_then) / 1000 / CPU_SECONDS, (server_ns - server_then) / 1000 / CPU_SECONDS),
            runs: (bar_runs - runs_then) / CPU_SECONDS,
        })
        .collect()
}

/// The bar's memory ten seconds into a start that found its components
/// compiled: a first start compiles those not yet in the cache, and
/// Cranelift's memory would be counted.
fn settled_memory(contestant: &Contestant) -> Memory {
    let xvfb = Xvfb::start(1);
    let first = contestant.start(&xvfb.display);
    std::thread::sleep(Duration::from_secs(5));
    drop(first);
    let bar = contestant.start(&xvfb.display);
    std::thread::sleep(Duration::from_secs(10));
    memory(bar.pid())
}

/// Two bars on two monitors of one X server, each way of running them.
struct TwoBars {
    /// One Obi process, one bar: what the second bar is added to.
    one_obi_one_bar: Memory,
    /// One Obi process, two bars.
    one_obi_two_bars: (Memory, u64),
    /// Two Obi processes, a bar each: their memory summed.
    two_obi: (Memory, u64),
    two_polybars: (Memory, u64),
}

/// The five widgets' bar on monitor 0 and on monitor 1 of an Xvfb with
/// two RandR monitors: memory after ten seconds, and CPU a second, with the
/// server's, over 30 seconds.
fn two_monitors(dir: &Path) -> TwoBars {
    let configs: Vec<String> = (0..2)
        .map(|monitor| {
            let path = dir.join(format!("monitor-{monitor}.komorebi.bar.json"));
            std::fs::write(&path, five_widgets().replacen('{', &format!(r#"{{ "monitor": {monitor},"#), 1)).unwrap();
            path.display().to_string()
        })
        .collect();
    let obi = |configs: &[String]| {
        let mut arguments = vec!["--tiler".to_owned(), "none".to_owned()];
        configs.iter().for_each(|config| arguments.extend(["--config".to_owned(), config.clone()]));
        Contestant { name: "obi", program: OBI.clone(), arguments }
    };
    let polybar = Contestant::polybar(dir);
    let one_obi_one_bar = bars_on_two_monitors(&[(&obi(&configs[..1]), None)]).0;
    let one_obi_two_bars = bars_on_two_monitors(&[(&obi(&configs), None)]);
    let two_obi = bars_on_two_monitors(&[(&obi(&configs[..1]), None), (&obi(&configs[1..]), None)]);
    let two_polybars = bars_on_two_monitors(&[(&polybar, Some("M0")), (&polybar, Some("M1"))]);
    TwoBars { one_obi_one_bar, one_obi_two_bars, two_obi, two_polybars }
}

/// Starts `bars` (each with the monitor it is told by `MONITOR`, for
/// polybar) on an Xvfb with two monitors: their memory summed after ten
/// seconds, and their CPU a second, with the server's, over 30 seconds.
fn bars_on_two_monitors(bars: &[(&Contestant, Option<&str>)]) -> (Memory, u64) {
    let xvfb = Xvfb::with_monitors(2);
    let running: Vec<Running> = bars
        .iter()
        .map(|(bar, monitor)| {
            let mut command = Command::new(&bar.program);
            command.env("DISPLAY", &xvfb.display).env("MONITOR", monitor.unwrap_or_default());
            bar.spawn(&mut command)
        })
        .collect();
    std::thread::sleep(Duration::from_secs(10));
    let mut total = Memory::default();
    for bar in &running {
        let memory = memory(bar.pid());
        assert!(memory.rss_kb > 0, "a bar ended");
        total.rss_kb += memory.rss_kb;
        total.private_kb += memory.private_kb;
    }
    let pids: Vec<u32> = running.iter().map(Running::pid).chain([xvfb.pid()]).collect();
    let before: u64 = pids.iter().map(|pid| cpu_ns(*pid)).sum();
    std::thread::sleep(Duration::from_secs(30));
    let after: u64 = pids.iter().map(|pid| cpu_ns(*pid)).sum();
    (total, (after - before) / 1000 / 30)
}

/// The bar as `cargo xtask dist` builds it for the release's artifacts
/// (or `cargo install` does, with `--profile release`): the package alone,
/// not the one `cargo bench` builds beside this bench, nor one with the
/// workspace's default members: the features other packages turn on give
/// many crates other symbol names, and the symbol order
/// (`host/link/symbol-order.txt`) is of the artifacts' build.
static OBI: LazyLock<PathBuf> = LazyLock::new(|| build(&["--package", "obi", "--bin", "obi"]));

fn build_floor() -> PathBuf {
    build(&["--package", "obi", "--example", "empty_window"])
}

/// Each Obi bar beside the floors it is measured against, by row.
fn over_floors(rows: &[Row]) -> [(&'static str, &Row, &Row); 6] {
    [
        ("Obi", &rows[0], &rows[2]),
        ("Obi", &rows[0], &rows[3]),
        ("Obi with CJK and emoji", &rows[4], &rows[3]),
        ("Obi with CJK and emoji", &rows[4], &rows[5]),
        ("Obi with CJK and emoji", &rows[4], &rows[6]),
        ("Obi in ASCII", &rows[5], &rows[7]),
    ]
}

/// `--starts ROUNDS`: the bars' starts alone, over more rounds than a whole
/// run takes, to settle a first frame the ten starts leave in doubt.
fn rounds_asked() -> Option<usize> {
    let arguments: Vec<String> = std::env::args().collect();
    let at = arguments.iter().position(|argument| argument == "--starts")?;
    let rounds = arguments.get(at + 1).and_then(|rounds| rounds.parse().ok());
    Some(rounds.filter(|&rounds| rounds > 0).expect("--starts takes a number of rounds"))
}

/// The starts' medians and each Obi bar's first frame over its floors.
fn starts_report(rows: &[Row]) -> String {
    let ms = |duration: Duration| duration.as_secs_f64() * 1000.0;
    let mut out =
        format!("Starts on {}: {}, Xvfb 1920×1080, Mesa llvmpipe, {} profile.\n\n", today(), machine(), *PROFILE);
    out += "| | start to mapped | start to first complete frame |\n|---|---|---|\n";
    for row in rows {
        out += &format!("| {} | {:.0} ms | {:.0} ms |\n", row.name, ms(row.starts.mapped), ms(row.starts.first_frame));
    }
    for (name, obi, floor) in over_floors(rows) {
        let over = ms(obi.starts.first_frame) - ms(floor.starts.first_frame);
        out += &format!("\n{name} over the {}: first complete frame {over:+.0} ms.", floor.name);
    }
    out
}

/// The installed fonts, and Obi's starts in a family that needs all of them read.
struct Fonts {
    installed: usize,
    unnamed: Starts,
}

/// How many font files there are under `dir`.
fn installed_font_files(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    entries
        .flatten()
        .map(|entry| {
            let path = entry.path();
            let font =
                ["ttf", "otf", "ttc", "otc"].iter().any(|ext| path.extension().is_some_and(|found| found == *ext));
            if path.is_dir() { installed_font_files(&path) } else { usize::from(font) }
        })
        .sum()
}

fn report(rows: &[Row], five: Memory, every: Memory, thirty: Memory, two: &TwoBars, fonts: &Fonts) -> String {
    let ms = |duration: Duration| format!("{:.0} ms", duration.as_secs_f64() * 1000.0);
    let mb = |kb: u64| format!("{:.1} MB", kb as f64 / 1024.0);
    let mut out = String::new();
    out += &format!(
        "Run on {}: {}, Xvfb 1920×1080, Mesa llvmpipe, {} profile, {} font files installed.\n\n",
        today(),
        machine(),
        *PROFILE,
        fonts.installed
    );
    out += "| | start to mapped (median of 10) | start to first complete frame | RSS after 10 s | private RSS | CPU: bar | its X server | bar + server |\n";
    out += "|---|---|---|---|---|---|---|---|\n";
    for row in rows {
        out += &format!(
            "| {} | {} | {} | {} |\n",
            row.name,
            ms(row.starts.mapped),
            ms(row.starts.first_frame),
            row.idle.cells()
        );
    }
    let ratio = |a: f64, b: f64| if b > 0.0 { format!("{:.2}", a / b) } else { "—".into() };
    out += "\n| ratio | mapped | first frame | RSS | private RSS | CPU bar + server |\n|---|---|---|---|---|---|\n";
    for (label, other) in [("Obi / polybar", &rows[1]), ("Obi / floor", &rows[2]), ("Obi / floor + text", &rows[3])] {
        let obi = &rows[0];
        out += &format!(
            "| {label} | {} | {} | {} | {} | {} |\n",
            ratio(obi.starts.mapped.as_secs_f64(), other.starts.mapped.as_secs_f64()),
            ratio(obi.starts.first_frame.as_secs_f64(), other.starts.first_frame.as_secs_f64()),
            ratio(obi.idle.memory.rss_kb as f64, other.idle.memory.rss_kb as f64),
            ratio(obi.idle.memory.private_kb as f64, other.idle.memory.private_kb as f64),
            ratio((obi.idle.cpu.0 + obi.idle.cpu.1) as f64, (other.idle.cpu.0 + other.idle.cpu.1) as f64),
        );
    }
    for (name, obi, floor) in over_floors(rows) {
        let first_frame = obi.starts.first_frame.as_secs_f64() * 1e3 - floor.starts.first_frame.as_secs_f64() * 1e3;
        let mb = |obi: u64, floor: u64| (obi as f64 - floor as f64) / 1024.0;
        out += &format!(
            "\n{name} over the {}: first complete frame {first_frame:+.0} ms, RSS {:+.1} MB, private RSS {:+.1} MB.",
            floor.name,
            mb(obi.idle.memory.rss_kb, floor.idle.memory.rss_kb),
            mb(obi.idle.memory.private_kb, floor.idle.memory.private_kb),
        );
    }
    out += "\n";
    let per_widget = (thirty.private_kb as i64 - five.private_kb as i64) / 25;
    out += &format!(
        "\nObi's memory after 10 s: the five widgets above {} RSS, {} private; every stock widget (13) {} RSS, {} private; \
         30 widgets {} RSS, {} private: {} kB private for each widget past five.\n",
        mb(five.rss_kb),
        mb(five.private_kb),
        mb(every.rss_kb),
        mb(every.private_kb),
        mb(thirty.rss_kb),
        mb(thirty.private_kb),
        per_widget
    );
    out += &format!(
        "\nIn {} (a family no font file is named after, so every installed face is read), the five widgets' \
         bar maps in {} and shows its first complete frame in {} (in DejaVu Sans above: {} and {}).\n",
        UNNAMED_FAMILY.0,
        ms(fonts.unnamed.mapped),
        ms(fonts.unnamed.first_frame),
        ms(rows[0].starts.mapped),
        ms(rows[0].starts.first_frame),
    );
    let second = |memory: &Memory, one: &Memory| {
        let kb = |more: u64, less: u64| more as i64 - less as i64;
        format!(
            "{:.1} MB RSS, {:.1} MB private",
            kb(memory.rss_kb, one.rss_kb) as f64 / 1024.0,
            kb(memory.private_kb, one.private_kb) as f64 / 1024.0
        )
    };
    out += "\nTwo bars, the five widgets on each of two monitors of one X server:\n\n";
    out += "| | RSS after 10 s | private RSS | CPU, with the server | the second bar costs |\n|---|---|---|---|---|\n";
    let row = |label: &str, (memory, cpu): &(Memory, u64), second: &str| {
        format!("| {label} | {} | {} | {cpu} µs/s | {second} |\n", mb(memory.rss_kb), mb(memory.private_kb))
    };
    let one = &two.one_obi_one_bar;
    out += &row("Obi, one process (`--config` twice)", &two.one_obi_two_bars, &second(&two.one_obi_two_bars.0, one));
    out += &row("Obi, a process each", &two.two_obi, &second(&two.two_obi.0, one));
    out += &row("polybar, a process each", &two.two_polybars, "");
    out
}

/// The table of the bars on sway with the floor's memory there, and Obi's
/// CPU there beside its CPU on X11 (Wayland should add no polling).
fn sway_report(rows: &[Row], floor: &Idle, obi_on_x11: &Row, grab_time: Duration) -> String {
    let ms = |duration: Duration| format!("{:.0} ms", duration.as_secs_f64() * 1000.0);
    let mut out = format!(
        "\nOn a headless sway 1.7 (pixman, 1920×1080), each bar on a sway of its own; first frames seen by grim, one grab every {} or so.\n\n",
        ms(grab_time)
    );
    out += "| | start to first complete frame | RSS after 10 s | private RSS | CPU: bar | sway | bar + sway |\n";
    out += "|---|---|---|---|---|---|---|\n";
    for row in rows {
        out += &format!("| {} on sway | {} | {} |\n", row.name, ms(row.starts.first_frame), row.idle.cells());
    }
    out += &format!("| floor + text on sway (a floating 1920×40 window) | — | {} |\n", floor.cells());
    let (obi, waybar) = (&rows[0], &rows[1]);
    let over = |of: u64, floor: u64| format!("{:+.1} MB", (of as f64 - floor as f64) / 1024.0);
    out += &format!(
        "\nObi over the floor + text on sway: RSS {}, private RSS {}; Waybar (GTK, drawn without GL) under it: RSS {}.\n",
        over(obi.idle.memory.rss_kb, floor.memory.rss_kb),
        over(obi.idle.memory.private_kb, floor.memory.private_kb),
        over(waybar.idle.memory.rss_kb, floor.memory.rss_kb),
    );
    let ratio = |a: f64, b: f64| if b > 0.0 { format!("{:.2}", a / b) } else { "—".into() };
    out += &format!(
        "\nObi / Waybar on sway: first frame {}, RSS {}, private RSS {}, CPU bar + sway {}. \
         Obi's own CPU on sway {} µs/s, its threads run {} times a second; under Xvfb {} µs/s, {} times a second.\n",
        ratio(obi.starts.first_frame.as_secs_f64(), waybar.starts.first_frame.as_secs_f64()),
        ratio(obi.idle.memory.rss_kb as f64, waybar.idle.memory.rss_kb as f64),
        ratio(obi.idle.memory.private_kb as f64, waybar.idle.memory.private_kb as f64),
        ratio((obi.idle.cpu.0 + obi.idle.cpu.1) as f64, (waybar.idle.cpu.0 + waybar.idle.cpu.1) as f64),
        obi.idle.cpu.0,
        obi.idle.runs,
        obi_on_x11.idle.cpu.0,
        obi_on_x11.idle.runs
    );
    out
}

fn bar_widgets(widgets: &str) -> String {
    bar_widgets_in(widgets, "DejaVu Sans")
}

fn bar_widgets_in(widgets: &str, family: &str) -> String {
    format!(
        r#"{{ "height": {BAR_HEIGHT}, "font_family": "{family}", "font_size": 14, "left_widgets": [], "right_widgets": [ {widgets} ] }}"#
    )
}

const FIVE: &str = r#"
    { "Cpu": { "enable": true, "data_refresh_interval": 1 } },
    { "Memory": { "enable": true, "data_refresh_interval": 1 } },
    { "Storage": { "enable": true, "data_refresh_interval": 1 } },
    { "Date": { "enable": true, "format": "DayDateMonthYear" } },
    { "Time": { "enable": true, "format": "TwentyFourHour" } }"#;

fn five_widgets() -> String {
    bar_widgets(FIVE)
}

/// What the bar in scripts shows beside the five widgets; the floor + the
/// CJK text draws the same with femtovg in DejaVu Sans and Noto Sans CJK
/// (femtovg draws no colour glyph: the emoji are left to Obi).
const IN_SCRIPTS: [&str; 2] = ["1: 日本語  2: 中文  3: 한국어", "東京 — 北京 — 서울 👍🏽 ❤️ 🎵 🇯🇵"];
/// The same items in ASCII.
const IN_ASCII: [&str; 2] = ["1: one  2: two  3: three", "Tokyo - Beijing - Seoul :) <3 ~ JP"];

/// The five widgets beside what a desktop in East Asia shows: workspaces
/// and a title in Japanese, Chinese and Korean, and emoji (drawn from the
/// system's fallback fonts and its colour emoji font); or, to tell what
/// those cost, the same items in ASCII.
fn scripts_and_emoji(in_scripts: bool) -> String {
    let custom =
        |text: &str| format!(r#"{{ "Custom": {{ "enable": true, "exec": "printf '{text}'", "interval": "once" }} }}"#);
    let texts = if in_scripts { IN_SCRIPTS } else { IN_ASCII };
    let left = texts.map(custom).join(",");
    format!(
        r#"{{ "height": {BAR_HEIGHT}, "font_family": "DejaVu Sans", "font_size": 14, "left_widgets": [ {left} ], "right_widgets": [ {FIVE} ] }}"#
    )
}

fn thirty_widgets() -> String {
    bar_widgets(&[FIVE; 6].join(","))
}

fn every_stock_widget() -> String {
    bar_widgets(&format!(
        r#"{FIVE},
    {{ "Komorebi": {{ "workspaces": {{ "enable": true, "hide_empty_workspaces": false }} }} }},
    {{ "Applications": {{ "enable": true, "items": [ {{ "name": "Terminal", "command": "true" }} ] }} }},
    {{ "Media": {{ "enable": true }} }},
    {{ "Network": {{ "enable": true, "show_activity": true, "show_total_activity": true, "data_refresh_interval": 1 }} }},
    {{ "Battery": {{ "enable": true, "data_refresh_interval": 1 }} }},
    {{ "Keyboard": {{ "enable": true }} }},
    {{ "Update": {{ "enable": true, "release_feed": "http://127.0.0.1:9/none" }} }},
    {{ "Systray": {{ "enable": true }} }}"#
    ))
}

/// Polybar's equivalent of the five widgets.
const POLYBAR: &str = "[bar/bar]
monitor = ${env:MONITOR:}
width = 100%
height = 40
background = #1e1e2e
foreground = #cdd6f4
font-0 = DejaVu Sans:size=14;3
modules-right = cpu memory fs date
module-margin = 1
[module/cpu]
type = internal/cpu
interval = 1
[module/memory]
type = internal/memory
interval = 1
[module/fs]
type = internal/fs
interval = 1
mount-0 = /
[module/date]
type = internal/date
interval = 1
date = %a %d %B %Y
time = %H:%M:%S
label = %date% %time%
";

/// Waybar's equivalent of the five widgets.
const WAYBAR: &str = r#"{ "layer": "top", "position": "top", "height": 40,
  "modules-right": ["cpu", "memory", "disk", "clock"],
  "cpu": { "interval": 1, "format": "CPU {usage}%" },
  "memory": { "interval": 1, "format": "RAM {percentage}%" },
  "disk": { "interval": 1, "path": "/", "format": "/ {percentage_used}%" },
  "clock": { "interval": 1, "format": "{:%a %d %B %Y %H:%M:%S}" } }"#;

const WAYBAR_STYLE: &str = "* { font-family: \"DejaVu Sans\"; font-size: 14px; }
window#waybar { background: #1e1e2e; color: #cdd6f4; }
#cpu, #memory, #disk, #clock { padding: 0 8px; }
";

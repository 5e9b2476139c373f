//! What the desktop benchmarks share: an Xvfb or a headless sway of their
//! own, a running process's memory and CPU time as Linux reports them in
//! `/proc`, and the bar built as the release's artifacts are.
#![allow(dead_code)]

pub mod sway;

use obi_test_support::{monitors as monitor_split, nobody};

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::LazyLock;
use std::time::Duration;

/// An Xvfb on a free display, killed when dropped.
pub struct Xvfb {
    server: Child,
    pub display: String,
}

impl Xvfb {
    /// `screens` X screens of 1920×1080 (`DISPLAY=:N.0`, `:N.1` ...).
    pub fn start(screens: u32) -> Xvfb {
        let mut arguments = Vec::new();
        for screen in 0..screens {
            arguments.extend(["-screen".into(), screen.to_string(), "1920x1080x24".into()]);
        }
        Xvfb::launch(&arguments)
    }

    /// An Xvfb with `screen_arguments` on the first free display.
    fn launch(screen_arguments: &[String]) -> Xvfb {
        let first = 400 + std::process::id() % 200;
        for number in first..first + 50 {
            if obi_test_support::x_display::taken(number) {
                continue;
            }
            // Without -noreset the server resets when its last client leaves,
            // as the check below that it answers does, and refuses the next
            // client while it resets.
            let mut arguments = vec![format!(":{number}"), "-nolisten".into(), "tcp".into(), "-noreset".into()];
            arguments.extend_from_slice(screen_arguments);
            let server = Command::new("Xvfb")
                .args(&arguments)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("starting Xvfb (apt install xvfb)");
            let xvfb = Xvfb { server, display: format!(":{number}") };
            // Up once it answers a client: a socket left by a server killed
            // earlier exists before this one listens on it.
            if obi_test_support::wait::until(Duration::from_secs(5), || xvfb.answers()) {
                return xvfb;
            }
        }
        panic!("no free X display for Xvfb");
    }

    pub fn pid(&self) -> u32 {
        self.server.id()
    }

    fn answers(&self) -> bool {
        x11rb::connect(Some(&self.display)).is_ok()
    }

    /// One screen of `monitors` RandR monitors of 1920×1080 side by side,
    /// named `M0`, `M1` ...
    pub fn with_monitors(monitors: u32) -> Xvfb {
        let xvfb = Xvfb::launch(&["-screen".into(), "0".into(), format!("{}x1080x24", 1920 * monitors)]);
        monitor_split::side_by_side(&xvfb.display, monitors, 1920, 1080);
        xvfb
    }
}

impl Drop for Xvfb {
    /// Asks the server to end, as it then removes its socket and lock, and
    /// kills it if it has not within a second.
    fn drop(&mut self) {
        // SAFETY: a plain signal to the child this value owns, not yet reaped.
        unsafe { libc::kill(self.server.id() as libc::pid_t, libc::SIGTERM) };
        let ended = obi_test_support::wait::until(Duration::from_secs(1), || {
            self.server.try_wait().is_ok_and(|status| status.is_some())
        });
        if !ended {
            let _ = self.server.kill();
            let _ = self.server.wait();
        }
    }
}

/// Resident memory of a process, in kB: all of it, and its private part
/// (anonymous pages: heap, stacks; not the shared libraries it maps).
#[derive(Debug, Clone, Copy, Default)]
pub struct Memory {
    pub rss_kb: u64,
    pub private_kb: u64,
}

pub fn memory(pid: u32) -> Memory {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    };
    Memory { rss_kb: field("VmRSS:"), private_kb: field("RssAnon:") }
}

/// CPU time a process has used, summed over its threads (nanoseconds, from
/// the scheduler's statistics, finer than `/proc/PID/stat`'s ticks).
pub fn cpu_ns(pid: u32) -> u64 {
    schedstat_field(pid, 0)
}

/// How many times the scheduler has run the threads of a process: a
/// process that polls runs often, one that waits runs when woken.
pub fn runs(pid: u32) -> u64 {
    schedstat_field(pid, 2)
}

/// The `index`th number of `schedstat` (time on the CPU, time waiting to
/// run, times run), summed over the process's threads.
fn schedstat_field(pid: u32, index: usize) -> u64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return 0 };
    tasks
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok())
        .filter_map(|stat| stat.split_whitespace().nth(index)?.parse::<u64>().ok())
        .sum()
}

/// A child process killed when dropped.
pub struct Running(pub Child);

impl Running {
    pub fn pid(&self) -> u32 {
        self.0.id()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The tools a desktop benchmark needs, or a message naming those missing.
pub fn require(tools: &[&str]) {
    let missing: Vec<&str> = tools
        .iter()
        .copied()
        .filter(|tool| {
            Command::new("sh")
                .args(["-c", &format!("command -v {tool}")])
                .output()
                .map_or(true, |output| !output.status.success())
        })
        .collect();
    if !missing.is_empty() {
        eprintln!("this benchmark needs {missing:?} (.ci/run shows the Debian packages)");
        std::process::exit(2);
    }
}

/// The machine, as a run's report names it: "2 cores (AMD EPYC)".
pub fn machine() -> String {
    let cpus = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpus
        .lines()
        .find_map(|line| line.strip_prefix("model name"))
        .map_or("?", |rest| rest.trim_start_matches([' ', '\t', ':']));
    let cores = cpus.lines().filter(|line| line.starts_with("processor")).count();
    format!("{cores} cores ({model})")
}

/// The day the benchmark ran, as `date` writes it (2026-11-27).
pub fn today() -> String {
    Command::new("date")
        .arg("+%Y-%m-%d")
        .output()
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned())
        .unwrap_or_default()
}

/// Puts `report` into BENCHMARKS.md between its `<!-- NAME:begin -->` and
/// `<!-- NAME:end -->` markers, in place of what was there.
pub fn write_into_benchmarks(name: &str, report: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../BENCHMARKS.md");
    let text = std::fs::read_to_string(&path).expect("reading BENCHMARKS.md");
    let (begin, end) = (format!("<!-- {name}:begin -->\n"), format!("<!-- {name}:end -->"));
    let (Some(from), Some(to)) = (text.find(&begin), text.find(&end)) else {
        eprintln!("BENCHMARKS.md has no {name} markers; the table is above");
        return;
    };
    let updated = format!("{}{report}{}", &text[..from + begin.len()], &text[to..]);
    std::fs::write(&path, updated).expect("writing BENCHMARKS.md");
    eprintln!("written into {}", path.display());
}

/// The profile the release's artifacts are built in.
pub const DEFAULT_PROFILE: &str = "packaged";

/// `--profile NAME`: the profile the bars are built in, `packaged` (the
/// release's artifacts) unless it says.
pub static PROFILE: LazyLock<String> = LazyLock::new(|| {
    let arguments: Vec<String> = std::env::args().collect();
    let at = arguments.iter().position(|argument| argument == "--profile");
    at.map(|at| arguments.get(at + 1).cloned().expect("--profile takes a cargo profile"))
        .unwrap_or(DEFAULT_PROFILE.into())
});

/// Builds `target` in the workspace in [`PROFILE`], and its path.
pub fn build(target: &[&str]) -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let built = Command::new(cargo)
        .current_dir(workspace)
        .args(["build", "--quiet", "--profile", &PROFILE, "--message-format=json-render-diagnostics"])
        .args(target)
        .stderr(Stdio::inherit())
        .output()
        .expect("running cargo");
    assert!(built.status.success(), "building {target:?} failed");
    String::from_utf8_lossy(&built.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        // Only a binary's, an example's, a test's or a bench's artifact names
        // an executable; a build script's names none.
        .filter(|message| message["reason"] == "compiler-artifact")
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| panic!("cargo built no executable for {target:?}"))
}

//! What the bars' accessibility trees cost an idle bar: Obi's default bar
//! (its clock changing every second) on an Xvfb and a session bus of its
//! own, three ways at once:
//!
//! - no assistive technology: AT-SPI's bus is not turned on, as on most
//!   desktops; AccessKit's adapter waits, and no tree is made;
//! - AT-SPI on (its bus and registry running, as they do once a screen
//!   reader was started in the session): the tree is made, and each change
//!   sent to the registry;
//! - and a reader listening: a client of AT-SPI (pyatspi) registered for
//!   every object and window event, as Orca is.
//!
//! Measured for each: RSS and private RSS ten seconds after the start, and
//! over a minute the bar's CPU a second and how often its threads ran.
//! The table goes to stdout and into BENCHMARKS.md between its `access`
//! markers, with the machine and the date.
//!
//! `cargo bench -p obi --bench access`; needs Xvfb, dbus-daemon,
//! at-spi2-core and python3-pyatspi. The bar is built in the `packaged`
//! profile, as the release's artifacts are.

mod desktop;

use desktop::{Memory, PROFILE, Running, Xvfb, build, cpu_ns, machine, memory, require, runs, today};
use obi_test_support::atspi_bus::{AtspiBus, LAUNCHER};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

const CPU_SECONDS: u64 = 60;
/// The system's Python, which has pyatspi.
const PYTHON: &str = "/usr/bin/python3";
/// A reader of every event of the session's applications, which it
/// receives and lets go, as a screen reader hears them.
const LISTENER: &str = "import pyatspi
def heard(event):
    pass
pyatspi.Registry.registerEventListener(heard, 'object:', 'window:')
pyatspi.Registry.start()";

fn main() {
    require(&["Xvfb", "dbus-daemon", "gdbus", LAUNCHER, PYTHON]);
    let obi = build(&["--package", "obi", "--bin", "obi"]);
    let ways = [
        ("no assistive technology", Assistive::Off),
        ("AT-SPI on, no reader", Assistive::On),
        ("AT-SPI on, a reader listening", Assistive::Listening),
    ];
    let sessions: Vec<Session> = ways.iter().map(|(_, assistive)| Session::start(*assistive)).collect();
    let bars: Vec<Running> = sessions.iter().map(|session| session.start_bar(&obi)).collect();
    std::thread::sleep(Duration::from_secs(10));
    let memories: Vec<Memory> = bars.iter().map(|bar| memory(bar.pid())).collect();
    let before: Vec<(u64, u64)> = bars.iter().map(|bar| (cpu_ns(bar.pid()), runs(bar.pid()))).collect();
    std::thread::sleep(Duration::from_secs(CPU_SECONDS));
    let mut report = format!(
        "Run on {}: {}, Xvfb 1920×1080, Mesa llvmpipe, {} profile, the default config.\n\n",
        today(),
        machine(),
        *PROFILE
    );
    report += "| | RSS | private | bar CPU | bar runs |\n|---|---|---|---|---|\n";
    for (((name, _), bar), (memory, (cpu_then, runs_then))) in ways.iter().zip(&bars).zip(memories.iter().zip(before)) {
        let cpu = (cpu_ns(bar.pid()) - cpu_then) / 1000 / CPU_SECONDS;
        let ran = (runs(bar.pid()) - runs_then) / CPU_SECONDS;
        let mb = |kb: u64| format!("{:.1} MB", kb as f64 / 1024.0);
        report += &format!("| {name} | {} | {} | {cpu} µs/s | {ran}/s |\n", mb(memory.rss_kb), mb(memory.private_kb));
    }
    print!("{report}");
    desktop::write_into_benchmarks("access", &report);
}

#[derive(Clone, Copy, PartialEq)]
enum Assistive {
    Off,
    On,
    Listening,
}

/// An Xvfb and a session bus, with AT-SPI's bus and registry on it when
/// assistive technology is on, and a reader when one listens.
struct Session {
    xvfb: Xvfb,
    _bus: Running,
    address: String,
    _atspi: Option<AtspiBus>,
    _reader: Option<Running>,
}

impl Session {
    fn start(assistive: Assistive) -> Session {
        let xvfb = Xvfb::start(1);
        let mut daemon = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--print-address=1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting dbus-daemon");
        let mut address = String::new();
        BufReader::new(daemon.stdout.take().unwrap()).read_line(&mut address).expect("the bus's address");
        let address = address.trim().to_owned();
        let atspi = (assistive != Assistive::Off).then(|| {
            let atspi = AtspiBus::start(&address).expect("starting at-spi-bus-launcher");
            let enable = Command::new("gdbus")
                .args(["call", "--session", "--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus"])
                .args(["--method", "org.freedesktop.DBus.Properties.Set", "org.a11y.Status", "IsEnabled", "<true>"])
                .env("DBUS_SESSION_BUS_ADDRESS", &address)
                .output()
                .expect("running gdbus");
            assert!(enable.status.success(), "turning AT-SPI on: {enable:?}");
            atspi
        });
        let reader = (assistive == Assistive::Listening).then(|| {
            let reader = Command::new(PYTHON)
                .args(["-c", LISTENER])
                .env("DBUS_SESSION_BUS_ADDRESS", &address)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("starting the reader");
            Running(reader)
        });
        Session { xvfb, _bus: Running(daemon), address, _atspi: atspi, _reader: reader }
    }

    /// The default bar on this session.
    fn start_bar(&self, obi: &std::path::Path) -> Running {
        Running(
            Command::new(obi)
                .env("DISPLAY", &self.xvfb.display)
                .env("DBUS_SESSION_BUS_ADDRESS", &self.address)
                .env("OBI_LOG", "error")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("starting obi"),
        )
    }
}

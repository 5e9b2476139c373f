//! The cost of the widget runtime's hot paths: one refresh (host → component
//! → view back, validated) and starting a widget instance, either from the
//! engine's warm instance template or from the on-disk compiled cache; the
//! same for a widget written in JavaScript (run by the JS runtime
//! component), with the JS runtime's first-ever compile and the private
//! memory each JS widget adds. With `OBI_BENCH_COMPONENTIZED=PATH.wasm` (the
//! pomodoro built by componentize-js), that component's compile and start
//! too.

use criterion::{BatchSize, Criterion};
use obi::capabilities::Capabilities;
use obi::runtime::{ComponentCache, WidgetEngine, WidgetInstance};
use obi::spec::WidgetSpec;
use obi::wake::Waker;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn engine(cache: &Path) -> WidgetEngine {
    WidgetEngine::new(
        Capabilities::system(
            std::sync::Arc::new(obi::tiler::Connection::none("no tiler in this test")),
            Default::default(),
        )
        .unwrap(),
        ComponentCache::at(cache),
    )
    .unwrap()
}

/// A clock in JS, as the `Time` widget is in Rust: the time formatted, one item.
const JS_CLOCK: &str = r#"import { now, format } from "obi:widget/clock";
export const guest = {
  init() { return { intervalMs: 1000n, alignToWallClock: true }; },
  refresh() {
    const text = format(now(), "%H:%M:%S");
    return { view: { items: [{ key: "time", pieces: [{ tag: "text", val: text }], emphasis: "normal", takes: {} }] } };
  },
};
"#;

fn js_clock(dir: &Path) -> WidgetSpec {
    let path = dir.join("clock.js");
    std::fs::write(&path, JS_CLOCK).unwrap();
    WidgetSpec::file(path, "{}".into(), [])
}

/// The pomodoro example in JS, the file componentize-js builds.
fn js_pomodoro() -> WidgetSpec {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/js/pomodoro.js");
    WidgetSpec::file(path, r#"{ "work_minutes": 25 }"#.into(), [])
}

fn benches(c: &mut Criterion) {
    let cache = tempfile::tempdir().unwrap();
    let scripts = tempfile::tempdir().unwrap();
    let time = WidgetSpec::stock("Time", r#"{ "enable": true, "format": "TwentyFourHour" }"#.into()).unwrap();
    let cpu = WidgetSpec::stock("Cpu", r#"{ "enable": true }"#.into()).unwrap();
    let js = js_clock(scripts.path());
    let mut warm = engine(cache.path());

    for (name, spec) in [("Time", &time), ("Cpu", &cpu), ("JS clock", &js)] {
        let (mut instance, _) = WidgetInstance::start(&mut warm, spec, Waker::unheard()).unwrap();
        c.bench_function(&format!("refresh/{name}"), |b| b.iter(|| black_box(instance.refresh(&warm).unwrap())));
    }

    let pomodoro = js_pomodoro();
    c.bench_function("start/JS pomodoro from disk cache", |b| {
        b.iter_batched(
            || engine(cache.path()),
            |mut fresh| black_box(WidgetInstance::start(&mut fresh, &pomodoro, Waker::unheard()).unwrap()),
            BatchSize::PerIteration,
        )
    });
    for (name, spec) in [("Time", &time), ("JS clock", &js)] {
        c.bench_function(&format!("start/{name} from warm template"), |b| {
            b.iter(|| black_box(WidgetInstance::start(&mut warm, spec, Waker::unheard()).unwrap()))
        });
        c.bench_function(&format!("start/{name} from disk cache"), |b| {
            b.iter_batched(
                || engine(cache.path()),
                |mut fresh| black_box(WidgetInstance::start(&mut fresh, spec, Waker::unheard()).unwrap()),
                BatchSize::PerIteration,
            )
        });
    }

    let mut compiles = c.benchmark_group("compile");
    compiles.sample_size(10).measurement_time(Duration::from_secs(30));
    compiles.bench_function("start/JS clock, the JS runtime compiled first (empty cache)", |b| {
        b.iter_batched(
            || tempfile::tempdir().unwrap(),
            |empty| black_box(WidgetInstance::start(&mut engine(empty.path()), &js, Waker::unheard()).unwrap()),
            BatchSize::PerIteration,
        )
    });
    if let Some(componentized) = std::env::var_os("OBI_BENCH_COMPONENTIZED").map(PathBuf::from) {
        let pomodoro = WidgetSpec::file(componentized, r#"{ "work_minutes": 25 }"#.into(), []);
        compiles.bench_function("start/componentize-js pomodoro, compiled first (empty cache)", |b| {
            b.iter_batched(
                || tempfile::tempdir().unwrap(),
                |empty| {
                    black_box(WidgetInstance::start(&mut engine(empty.path()), &pomodoro, Waker::unheard()).unwrap())
                },
                BatchSize::PerIteration,
            )
        });
        compiles.bench_function("start/componentize-js pomodoro from disk cache", |b| {
            b.iter_batched(
                || engine(cache.path()),
                |mut fresh| black_box(WidgetInstance::start(&mut fresh, &pomodoro, Waker::unheard()).unwrap()),
                BatchSize::PerIteration,
            )
        });
    }
    compiles.finish();
}

/// The process's anonymous resident memory (`RssAnon`), in KiB.
fn private_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let line = status.lines().find(|line| line.starts_with("RssAnon:")).unwrap_or_default();
    line.split_whitespace().nth(1).and_then(|kib| kib.parse().ok()).unwrap_or(0)
}

/// The private memory each started and refreshed widget of `spec` adds,
/// over twenty of them: its store, its instance's memory, its JS context.
fn private_memory_each(engine: &mut WidgetEngine, spec: &WidgetSpec) -> u64 {
    const COUNT: u64 = 20;
    // The first pays for what all share: compiled code, the template.
    let first = WidgetInstance::start(engine, spec, Waker::unheard()).unwrap();
    let before = private_kib();
    let running: Vec<_> = (0..COUNT)
        .map(|_| {
            let (mut instance, _) = WidgetInstance::start(engine, spec, Waker::unheard()).unwrap();
            instance.refresh(engine).unwrap();
            instance
        })
        .collect();
    let each = private_kib().saturating_sub(before) / COUNT;
    drop((first, running));
    each
}

fn main() {
    let cache = tempfile::tempdir().unwrap();
    let scripts = tempfile::tempdir().unwrap();
    let mut engine = engine(cache.path());
    let time = WidgetSpec::stock("Time", r#"{ "enable": true, "format": "TwentyFourHour" }"#.into()).unwrap();
    let mut measured = vec![("Time", time), ("JS clock", js_clock(scripts.path())), ("JS pomodoro", js_pomodoro())];
    if let Some(componentized) = std::env::var_os("OBI_BENCH_COMPONENTIZED") {
        let pomodoro = WidgetSpec::file(componentized.into(), r#"{ "work_minutes": 25 }"#.into(), []);
        measured.push(("componentize-js pomodoro", pomodoro));
    }
    for (name, spec) in measured {
        println!(
            "memory/{name}: {} KiB private each (RssAnon, over 20 running)",
            private_memory_each(&mut engine, &spec)
        );
    }
    let mut criterion = Criterion::default().configure_from_args();
    benches(&mut criterion);
    criterion.final_summary();
}

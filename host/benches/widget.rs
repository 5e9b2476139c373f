//! The cost of the widget runtime's hot paths: one refresh (host → component
//! → view back, validated) and starting a widget instance, either from the
//! engine's warm instance template or from the on-disk compiled cache.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use obi::capabilities::Capabilities;
use obi::runtime::{ComponentCache, WidgetEngine, WidgetInstance};
use obi::spec::WidgetSpec;
use obi::wake::Waker;
use std::hint::black_box;

fn engine(cache: &std::path::Path) -> WidgetEngine {
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

fn benches(c: &mut Criterion) {
    let cache = tempfile::tempdir().unwrap();
    let time = WidgetSpec::stock("Time", r#"{ "enable": true, "format": "TwentyFourHour" }"#.into()).unwrap();
    let cpu = WidgetSpec::stock("Cpu", r#"{ "enable": true }"#.into()).unwrap();
    let mut warm = engine(cache.path());

    for spec in [&time, &cpu] {
        let (mut instance, _) = WidgetInstance::start(&mut warm, spec, Waker::unheard()).unwrap();
        c.bench_function(&format!("refresh/{}", spec.name), |b| b.iter(|| black_box(instance.refresh(&warm).unwrap())));
    }

    c.bench_function("start/Time from warm template", |b| {
        b.iter(|| black_box(WidgetInstance::start(&mut warm, &time, Waker::unheard()).unwrap()))
    });

    c.bench_function("start/Time from disk cache", |b| {
        b.iter_batched(
            || engine(cache.path()),
            |mut fresh| black_box(WidgetInstance::start(&mut fresh, &time, Waker::unheard()).unwrap()),
            BatchSize::PerIteration,
        )
    });
}

criterion_group!(widget, benches);
criterion_main!(widget);

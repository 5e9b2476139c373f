//! The compiled-component cache on disk across starts: a widget's code is
//! written once and loaded again, each load marks its file used, and a
//! start prunes the code no start has used for a month.

use obi::capabilities::Capabilities;
use obi::runtime::{ComponentCache, WidgetEngine, WidgetInstance};
use obi::spec::WidgetSpec;
use obi::wake::Waker;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Starts a Cpu widget on an engine over the cache in `dir`, as a bar's start does.
fn start_cpu(dir: &Path) {
    let capabilities = Capabilities::system(
        std::sync::Arc::new(obi::tiler::Connection::none("no tiler in this test")),
        Default::default(),
    )
    .unwrap();
    let mut engine = WidgetEngine::new(capabilities, ComponentCache::at(dir)).unwrap();
    let spec = WidgetSpec::stock("Cpu", r#"{ "enable": true }"#.into()).unwrap();
    WidgetInstance::start(&mut engine, &spec, Waker::new(|| {})).unwrap_or_else(|_| panic!("the Cpu widget starts"));
}

fn compiled(dir: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir).unwrap().map(|entry| entry.unwrap().path());
    entries.filter(|path| path.extension().is_some_and(|extension| extension == "cwasm")).collect()
}

fn days_old(path: &Path) -> u64 {
    let modified = std::fs::metadata(path).unwrap().modified().unwrap();
    SystemTime::now().duration_since(modified).unwrap_or_default().as_secs() / 86400
}

fn age(path: &Path, days: u64) {
    let file = std::fs::File::options().write(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - Duration::from_secs(days * 86400)).unwrap();
}

#[test]
fn code_in_use_is_kept_and_marked_and_code_unused_for_a_month_is_pruned() {
    let dir = tempfile::tempdir().unwrap();
    start_cpu(dir.path());
    let written = compiled(dir.path());
    assert_eq!(written.len(), 1, "one component compiled and stored");
    age(&written[0], 20);
    let stale = dir.path().join("0123abcd.cwasm");
    std::fs::write(&stale, "an older Obi's code").unwrap();
    age(&stale, 40);

    start_cpu(dir.path());
    assert!(!stale.exists(), "unused for 40 days: pruned");
    assert_eq!(compiled(dir.path()), written, "the Cpu widget's code loaded from the cache, not compiled anew");
    assert_eq!(days_old(&written[0]), 0, "loading it marked it used");
}

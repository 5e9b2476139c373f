//! Every input kept in `fuzz/regressions/<target>/`, the crashes fuzzing
//! found and the seeds that reach each reader's edges, goes through the
//! same checks the fuzz targets make (`fuzz/src/lib.rs`), on every test run.

#[path = "../../fuzz/src/lib.rs"]
mod checks;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

#[test]
fn config_inputs() {
    replay("config", checks::config);
}

#[test]
fn komorebi_notification_inputs() {
    replay("komorebi_notification", checks::komorebi_notification);
}

#[test]
fn i3_ipc_inputs() {
    replay("i3_ipc", checks::i3_ipc);
}

fn replay(target: &str, check: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions").join(target);
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no inputs in {}", dir.display());
    let failed: Vec<String> = inputs
        .iter()
        .filter(|input| {
            let data = std::fs::read(input).unwrap();
            catch_unwind(AssertUnwindSafe(|| check(&data))).is_err()
        })
        .map(|input| input.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(failed.is_empty(), "{target} fails on {failed:?}");
}

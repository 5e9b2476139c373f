//! The host keeps compiling for the platforms this machine cannot run:
//! Windows (built, as the Wine tests run it) and macOS (checked), warnings
//! denied, so that a `cfg` gone stale fails here and not on a user's machine.

mod common;

use obi_test_support::cross::{MINGW, WINDOWS, cargo_obi_for};
use std::path::Path;
use std::process::Command;

#[test]
fn the_bar_compiles_for_windows() {
    compiles("build", WINDOWS, MINGW);
}

#[test]
fn the_bar_compiles_for_macos() {
    let cc = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/portability/cc-for-checking-apple.sh");
    compiles("check", "aarch64-apple-darwin", cc.to_str().unwrap());
}

fn compiles(subcommand: &str, target: &str, c_compiler: &str) {
    if !obi_test_support::rust_target_installed(target) {
        return obi_test_support::skip::unavailable(&format!(
            "the Rust target {target} is not installed (rustup target add {target})"
        ));
    }
    if Command::new(c_compiler).arg("--version").output().is_err() {
        return obi_test_support::skip::unavailable(&format!(
            "no C compiler for {target}: {c_compiler} (apt install gcc-mingw-w64-x86-64)"
        ));
    }
    let output = cargo_obi_for(subcommand, target, c_compiler);
    assert!(
        output.status.success(),
        "the bar does not compile for {target}:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

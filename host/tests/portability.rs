//! The host keeps compiling for the platforms this machine cannot run:
//! Windows and macOS. `cargo check` of the bar for each, warnings denied,
//! so that a `cfg` gone stale fails here and not on a user's machine.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

#[test]
fn the_bar_compiles_for_windows() {
    // wasmtime's fibers compile a C file for Windows.
    check("x86_64-pc-windows-gnu", "x86_64-w64-mingw32-gcc");
}

#[test]
fn the_bar_compiles_for_macos() {
    let cc = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/portability/cc-for-checking-apple.sh");
    check("aarch64-apple-darwin", cc.to_str().unwrap());
}

fn check(target: &str, c_compiler: &str) {
    if !target_installed(target) {
        return obi_test_support::skip::unavailable(&format!(
            "the Rust target {target} is not installed (rustup target add {target})"
        ));
    }
    if Command::new(c_compiler).arg("--version").output().is_err() {
        return obi_test_support::skip::unavailable(&format!(
            "no C compiler for {target}: {c_compiler} (apt install gcc-mingw-w64-x86-64)"
        ));
    }
    let variable = |name: &str| format!("{name}_{}", target.replace('-', "_"));
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["check", "--quiet", "--package", "obi", "--bins", "--lib", "--target", target])
        .arg("--manifest-path")
        .arg(obi_test_support::workspace().join("Cargo.toml"))
        .env(variable("CC"), c_compiler)
        .env(format!("CARGO_TARGET_{}_RUSTFLAGS", target.replace('-', "_").to_uppercase()), "-D warnings")
        .output()
        .expect("running cargo check");
    assert!(
        output.status.success(),
        "the bar does not compile for {target}:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Whether the standard library for `target` is in the toolchain.
fn target_installed(target: &str) -> bool {
    let sysroot = Command::new("rustc").args(["--print", "sysroot"]).output().expect("running rustc");
    let sysroot = PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim());
    sysroot.join("lib/rustlib").join(target).join("lib").is_dir()
}

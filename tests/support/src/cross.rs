//! The bar built for the platforms this machine does not run: Windows
//! (linked with MinGW, and run under Wine) and macOS (checked alone: there
//! is no linker for it here). Warnings are denied, so that a `cfg` gone
//! stale fails here and not on a user's machine. The Windows build of the
//! compile test and of the Wine tests is one and the same.

use std::process::{Command, Output};

/// Windows, as MinGW builds for it.
pub const WINDOWS: &str = "x86_64-pc-windows-gnu";
/// MinGW's C compiler, which wasmtime's fibers need for Windows.
pub const MINGW: &str = "x86_64-w64-mingw32-gcc";

/// `cargo <subcommand>` (`build`, `check`) of the `obi` library and binary
/// for `target`, with `c_compiler` for its C, warnings denied.
pub fn cargo_obi_for(subcommand: &str, target: &str, c_compiler: &str) -> Output {
    cargo_for(subcommand, &["--package", "obi", "--bins", "--lib"], target, c_compiler)
}

/// `obi-windows-probe` built for Windows: what a Windows program sees of
/// the desktop, for the Wine tests.
pub fn build_windows_probe() -> Output {
    cargo_for("build", &["--package", "obi-windows-probe"], WINDOWS, MINGW)
}

/// `cargo <subcommand>` of `packages` for `target`, as every build here is
/// made: the same flags, so that what they share is built once.
fn cargo_for(subcommand: &str, packages: &[&str], target: &str, c_compiler: &str) -> Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let for_target = target.replace('-', "_");
    Command::new(cargo)
        .args([subcommand, "--quiet"])
        .args(packages)
        .args(["--target", target])
        .arg("--manifest-path")
        .arg(crate::workspace().join("Cargo.toml"))
        .env(format!("CC_{for_target}"), c_compiler)
        .env(format!("CARGO_TARGET_{}_RUSTFLAGS", for_target.to_uppercase()), "-D warnings")
        .output()
        .unwrap_or_else(|error| panic!("running cargo {subcommand} {packages:?} for {target}: {error}"))
}

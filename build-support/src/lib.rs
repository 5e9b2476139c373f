//! Builds widget crates of this workspace into WebAssembly components, from
//! a build script or a test.
//!
//! The crates are built by a nested `cargo build --target wasm32-wasip2` in a
//! target directory of their own (`target/wasm`), shared by debug and release
//! builds of the host so that each plugin is compiled once. The wasm target
//! is installed with rustup when it is missing, because this workspace's
//! environment forbids rustup from installing it implicitly.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

pub const WASM_TARGET: &str = "wasm32-wasip2";
const PROFILE: &str = "wasm-plugin";

/// The workspace root: the parent of the crate whose build script runs us.
pub fn workspace_root(manifest_dir: &Path) -> PathBuf {
    manifest_dir
        .ancestors()
        .find(|dir| dir.join("wit").is_dir() && dir.join("Cargo.lock").is_file())
        .unwrap_or_else(|| panic!("no Obi workspace above {}", manifest_dir.display()))
        .to_path_buf()
}

/// Builds `packages` and returns the path of each `.wasm`, in order.
pub fn build_components(workspace: &Path, packages: &[&str]) -> Result<Vec<PathBuf>, String> {
    ensure_wasm_target()?;
    let target_dir =
        env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| workspace.join("target")).join("wasm");
    let mut command = wasm_build(&workspace.join("Cargo.toml"), &target_dir);
    command.current_dir(workspace).args(["--profile", PROFILE]);
    for package in packages {
        command.args(["-p", package]);
    }
    let status = command.status().map_err(|error| format!("running cargo for the widgets: {error}"))?;
    if !status.success() {
        return Err(format!("building widget components {packages:?} failed ({status})"));
    }
    let artifacts = target_dir.join(WASM_TARGET).join(PROFILE);
    Ok(packages.iter().map(|package| artifacts.join(format!("{}.wasm", package.replace('-', "_")))).collect())
}

/// Builds the widget crate `package` at `manifest_dir` (a crate of its own
/// or a member of any workspace) for wasm32-wasip2 in release mode, into
/// `wasm/` under its workspace's target directory, and returns its `.wasm`.
/// This is what a widget's own tests call before running it in the harness.
pub fn build_widget_crate(manifest_dir: &Path, package: &str) -> Result<PathBuf, String> {
    ensure_wasm_target()?;
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = manifest_dir.join("Cargo.toml");
    let located = Command::new(&cargo)
        .args(["locate-project", "--workspace", "--message-format", "plain", "--manifest-path"])
        .arg(&manifest)
        .output()
        .map_err(|error| format!("running cargo locate-project: {error}"))?;
    if !located.status.success() {
        return Err(format!("cargo cannot find the workspace of {}", manifest.display()));
    }
    let workspace_manifest = PathBuf::from(String::from_utf8_lossy(&located.stdout).trim());
    let workspace = workspace_manifest.parent().unwrap_or(manifest_dir);
    let target_dir =
        env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| workspace.join("target")).join("wasm");
    let mut command = wasm_build(&manifest, &target_dir);
    command.args(["--release", "-p", package]);
    let status = command.status().map_err(|error| format!("running cargo for {package}: {error}"))?;
    if !status.success() {
        return Err(format!("building {package} for {WASM_TARGET} failed ({status})"));
    }
    Ok(target_dir.join(WASM_TARGET).join("release").join(format!("{}.wasm", package.replace('-', "_"))))
}

/// `cargo build` of the crates of `manifest` for wasm32-wasip2 into `target_dir`.
fn wasm_build(manifest: &Path, target_dir: &Path) -> Command {
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args(["build", "--quiet", "--target", WASM_TARGET])
        .arg("--manifest-path")
        .arg(manifest)
        .arg("--target-dir")
        .arg(target_dir);
    // Flags meant for the outer build (host target, coverage, clippy) must not
    // leak into the wasm build.
    for var in ["CARGO_ENCODED_RUSTFLAGS", "RUSTFLAGS", "RUSTC_WORKSPACE_WRAPPER", "CARGO_BUILD_TARGET"] {
        command.env_remove(var);
    }
    command
}

/// Installs the wasm32-wasip2 standard library into the toolchain that runs
/// this build, unless it is already there.
fn ensure_wasm_target() -> Result<(), String> {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let sysroot = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .map_err(|error| format!("asking rustc for its sysroot: {error}"))?;
    let sysroot = PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim());
    if sysroot.join("lib/rustlib").join(WASM_TARGET).is_dir() {
        return Ok(());
    }
    let mut rustup = Command::new("rustup");
    rustup.args(["target", "add", WASM_TARGET]);
    if let Ok(toolchain) = env::var("RUSTUP_TOOLCHAIN") {
        rustup.args(["--toolchain", &toolchain]);
    }
    let status = rustup.status().map_err(|error| {
        format!("the {WASM_TARGET} target is missing and rustup could not be run to add it: {error}")
    })?;
    if status.success() { Ok(()) } else { Err(format!("`rustup target add {WASM_TARGET}` failed ({status})")) }
}

/// Tells cargo to rerun the calling build script when a widget's source
/// changes, or the workspace's manifest, which holds the profile widgets
/// are built in.
pub fn rerun_if_widget_sources_change(workspace: &Path) {
    for dir in [
        "wit",
        "sdk",
        "widget-config",
        "plugins",
        "tests/plugins",
        "js-runtime",
        "js-bindgen",
        "Cargo.lock",
        "Cargo.toml",
    ] {
        println!("cargo:rerun-if-changed={}", workspace.join(dir).display());
    }
}

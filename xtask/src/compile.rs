//! The bar built for each platform a release ships, in the profile asked
//! for: `packaged` for a release, a lighter one where a test only needs the
//! packaging (the dev build the tests have already made is found up to date).

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    Linux,
    Windows,
}

impl Platform {
    pub fn triple(self) -> &'static str {
        match self {
            Platform::Linux => "x86_64-unknown-linux-gnu",
            Platform::Windows => "x86_64-pc-windows-gnu",
        }
    }

    fn executable(self) -> &'static str {
        match self {
            Platform::Linux => "obi",
            Platform::Windows => "obi.exe",
        }
    }
}

/// Builds `obi` for `platform` in `profile` and returns the executable.
/// Linux is the machine's own build (so that `cargo test`'s is the same
/// one); Windows is cross-built with MinGW.
pub fn obi(target_dir: &Path, platform: Platform, profile: &str) -> Result<PathBuf> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command.args(["build", "--locked", "--package", "obi", "--bin", "obi", "--profile", profile]);
    match platform {
        Platform::Linux => {
            if !(cfg!(target_os = "linux") && cfg!(target_arch = "x86_64")) {
                bail!("the Linux artifacts are x86_64 builds of the machine's own: run this on x86_64 Linux");
            }
        }
        Platform::Windows => {
            command.args(["--target", platform.triple()]);
            let compiler = format!("CC_{}", platform.triple().replace('-', "_"));
            if std::env::var_os(&compiler).is_none() {
                // wasmtime's fibers are C, built with MinGW's compiler.
                command.env(compiler, "x86_64-w64-mingw32-gcc");
            }
        }
    }
    eprintln!("building obi for {} ({profile})", platform.triple());
    let status = command.status().context("running cargo build")?;
    if !status.success() {
        let hint = match platform {
            Platform::Windows => {
                " (it needs `rustup target add x86_64-pc-windows-gnu` and MinGW's gcc: Debian's gcc-mingw-w64-x86-64)"
            }
            Platform::Linux => "",
        };
        bail!("building obi for {} failed ({status}){hint}", platform.triple());
    }
    Ok(build_folder(target_dir, platform, profile).join(platform.executable()))
}

/// The folder of `target/` that cargo builds `platform` in `profile` into.
pub fn build_folder(target_dir: &Path, platform: Platform, profile: &str) -> PathBuf {
    let mut folder = target_dir.to_path_buf();
    if platform == Platform::Windows {
        folder.push(platform.triple());
    }
    folder.join(profile_dir(profile))
}

/// The folder of `target/` a profile's builds go to.
fn profile_dir(profile: &str) -> &str {
    match profile {
        "dev" | "test" => "debug",
        "bench" => "release",
        other => other,
    }
}

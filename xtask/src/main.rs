//! `cargo xtask`: Obi's own build tasks, written in Rust so that they run
//! wherever cargo does (the `cargo xtask` convention: `.cargo/config.toml`
//! makes `cargo xtask` run this crate). `dist` makes a release.

mod archive;
mod compile;
mod deb;
mod dist;
mod manifests;
mod msi;
mod payload;
mod pkgbuild;
mod release;
mod runtime_libraries;
mod tarball;
mod third_party;

use clap::Parser;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "cargo xtask", about = "Obi's build tasks")]
enum Task {
    /// Build every release artifact into target/dist (or --out): the Linux
    /// tarball, .deb and PKGBUILD, the Windows zip and MSI, the Scoop and
    /// winget manifests, and SHA256SUMS over them all.
    Dist(dist::Options),
}

fn main() -> ExitCode {
    let result = match Task::parse() {
        Task::Dist(options) => dist::run(&options),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("cargo xtask: {error:#}");
            ExitCode::FAILURE
        }
    }
}

//! `cargo xtask dist`: builds the bar for Linux and Windows and packs
//! every artifact of a release, with a `SHA256SUMS` over them all.

use crate::archive::{self, Entry};
use crate::compile::{self, Platform};
use crate::payload::{EXAMPLE, Payload};
use crate::release::Release;
use crate::{deb, manifests, msi, pkgbuild, tarball, third_party};
use anyhow::{Context, Result, bail};
use sha2::{Digest, Sha256};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The profile a release is built in. Not `dist`: its build folder would
/// be target/dist, the artifacts' own, which is emptied before each run.
pub const PROFILE: &str = "packaged";

#[derive(clap::Args)]
pub struct Options {
    /// The cargo profile the bar is built in: `packaged` (whole-program
    /// optimisation) for a release; a lighter one (`dev`) where only the
    /// packaging is under test.
    #[arg(long, default_value = PROFILE)]
    profile: String,
    /// Where the artifacts go: an empty or new folder (default:
    /// target/dist, emptied first).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Where the artifacts will be published, for the manifests that point
    /// at them (default: `download` in [workspace.metadata.dist]).
    #[arg(long, value_name = "URL")]
    download_url: Option<String>,
    /// Make the artifacts of a checkout with uncommitted changes.
    #[arg(long)]
    allow_dirty: bool,
}

pub fn run(options: &Options) -> Result<()> {
    let release = Release::of_checkout(options.allow_dirty, options.download_url.as_deref())?;
    let out = options.out.clone().unwrap_or_else(|| release.dist_dir());
    for platform in [Platform::Linux, Platform::Windows] {
        let builds = compile::build_folder(&release.target_dir, platform, &options.profile);
        if overlap(&out, &builds) {
            bail!(
                "the artifacts' folder {} and the {} build's folder {} would be one in the other: name another --out",
                out.display(),
                options.profile,
                builds.display()
            );
        }
    }
    prepare_out(&out, options.out.is_none())?;
    let linux = compile::obi(&release.target_dir, Platform::Linux, &options.profile)?;
    let windows = compile::obi(&release.target_dir, Platform::Windows, &options.profile)?;
    let payload = Payload::gather(&release, &linux)?;
    let linux = std::fs::read(&linux).with_context(|| format!("reading {}", linux.display()))?;
    let windows = std::fs::read(&windows).with_context(|| format!("reading {}", windows.display()))?;
    let mut artifacts = Artifacts { out, sums: Vec::new() };

    let tarball_sha256 = artifacts.add(&tarball::name(&release), &tarball::build(&release, &linux, &payload)?)?;
    artifacts.add(&deb::name(&release), &deb::build(&release, &linux, &payload)?)?;
    artifacts.add(pkgbuild::NAME, pkgbuild::build(&release, &linux, &tarball_sha256)?.as_bytes())?;

    let windows_files = windows_files(windows, &payload);
    let zip_name = format!("obi-{}-x86_64-windows.zip", release.version);
    let zip_sha256 = artifacts.add(&zip_name, &archive::zip(&windows_files, release.epoch)?)?;
    let msi_name = msi::name(&release);
    let staging = release.target_dir.join("xtask/msi");
    let msi_sha256 = artifacts.add(&msi_name, &msi::build(&release, &staging, &windows_files)?)?;
    artifacts.add("obi.json", manifests::scoop(&release, &zip_name, &zip_sha256).as_bytes())?;
    for (name, text) in manifests::winget(&release, &msi_name, &msi_sha256, &msi::product_code(&release)) {
        artifacts.add(&format!("winget/{name}"), text.as_bytes())?;
    }
    artifacts.write_sums()
}

/// The Windows packages' files: `obi.exe` first, then the documents (with
/// `.txt` on the licences, so that a double-click opens them).
fn windows_files(obi: Vec<u8>, payload: &Payload) -> Vec<Entry> {
    let mut files = vec![Entry::executable("obi.exe", obi), Entry::file("README.md", payload.readme.clone())];
    files.extend(payload.licences.iter().map(|(name, text)| Entry::file(format!("{name}.txt"), text.clone())));
    files.push(Entry::file(format!("{}.txt", third_party::FILE), payload.windows_notices.clone()));
    files.push(Entry::file(EXAMPLE, payload.example.clone()));
    files
}

/// The folder the artifacts go to, made ready: the default one is emptied;
/// one given must be empty or new, so that nothing of this task's removes
/// what is someone's, and nothing old sits beside the new artifacts.
fn prepare_out(out: &Path, is_default: bool) -> Result<()> {
    if is_default {
        if out.exists() {
            std::fs::remove_dir_all(out).with_context(|| format!("emptying {}", out.display()))?;
        }
    } else if std::fs::read_dir(out).is_ok_and(|mut entries| entries.next().is_some()) {
        bail!("{} is not empty: name an empty or new folder", out.display());
    }
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))
}

/// Whether one folder is or holds the other, compared as absolute paths.
fn overlap(one: &Path, other: &Path) -> bool {
    let absolute = |path: &Path| std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let (one, other) = (absolute(one), absolute(other));
    one.starts_with(&other) || other.starts_with(&one)
}

/// The artifacts written so far and their checksums.
struct Artifacts {
    out: PathBuf,
    sums: Vec<(String, String)>,
}

impl Artifacts {
    /// Writes `bytes` as the artifact `name` and returns its SHA-256.
    fn add(&mut self, name: &str, bytes: &[u8]) -> Result<String> {
        let path = self.out.join(name);
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder)?;
        }
        std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
        let sha256: String = Sha256::digest(bytes).iter().map(|byte| format!("{byte:02x}")).collect();
        eprintln!("wrote {} ({} bytes)", path.display(), bytes.len());
        self.sums.push((name.to_owned(), sha256.clone()));
        Ok(sha256)
    }

    /// `SHA256SUMS`, as `sha256sum` writes and checks it.
    fn write_sums(mut self) -> Result<()> {
        self.sums.sort();
        let sums = self.sums.iter().fold(String::new(), |mut text, (name, sha256)| {
            let _ = writeln!(text, "{sha256}  {name}");
            text
        });
        let path = self.out.join("SHA256SUMS");
        std::fs::write(&path, sums).with_context(|| format!("writing {}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_release_is_built_outside_the_folder_its_artifacts_go_to() {
        let target = Path::new("/checkout/target");
        let artifacts = target.join("dist");
        for platform in [Platform::Linux, Platform::Windows] {
            assert!(!overlap(&artifacts, &compile::build_folder(target, platform, PROFILE)));
        }
        assert!(overlap(&artifacts, &compile::build_folder(target, Platform::Linux, "dist")), "a `dist` profile would");
        assert!(overlap(target, &compile::build_folder(target, Platform::Windows, "dev")), "--out target would");
    }
}

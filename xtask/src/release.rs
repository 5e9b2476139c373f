//! The facts a release is made from: the workspace's version, the commit
//! and its time (every timestamp in every archive, so that the same commit
//! gives the same bytes), where the workspace and its target folder are,
//! and where the artifacts will be downloaded from (the Arch, Scoop and
//! winget manifests name them).

use anyhow::{Context, Result, bail};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Release {
    pub version: String,
    pub commit: String,
    /// Seconds since the epoch: `SOURCE_DATE_EPOCH` when set (the
    /// reproducible-builds convention), else the commit's time.
    pub epoch: i64,
    pub description: String,
    pub homepage: String,
    /// Where the artifacts are published, without a trailing `/`.
    pub download: String,
    pub maintainer: String,
    pub workspace: PathBuf,
    pub target_dir: PathBuf,
}

impl Release {
    /// The release of the checkout this task runs in. A checkout with
    /// uncommitted changes is refused unless `allow_dirty`: its artifacts
    /// would name a commit they were not built from.
    pub fn of_checkout(allow_dirty: bool, download: Option<&str>) -> Result<Release> {
        let metadata = cargo_metadata(&["--no-deps"])?;
        let workspace = PathBuf::from(text(&metadata["workspace_root"], "workspace_root")?);
        let target_dir = PathBuf::from(text(&metadata["target_directory"], "target_directory")?);
        let packages = metadata["packages"].as_array().context("cargo metadata lists no packages")?;
        let obi =
            packages.iter().find(|package| package["name"] == "obi").context("no `obi` package in the workspace")?;
        let version = text(&obi["version"], "obi's version")?.to_owned();
        let homepage = text(&obi["repository"], "the workspace's `repository`")?.trim_end_matches('/').to_owned();
        let dist = &metadata["metadata"]["dist"];
        let maintainer = text(&dist["maintainer"], "[workspace.metadata.dist] maintainer")?.to_owned();
        let download = match download {
            Some(url) => url.trim_end_matches('/').to_owned(),
            None => text(&dist["download"], "[workspace.metadata.dist] download")?.replace("{version}", &version),
        };
        let commit = git(&workspace, &["rev-parse", "HEAD"])?;
        let changed = git(&workspace, &["status", "--porcelain", "--untracked-files=no"])?;
        if !changed.is_empty() && !allow_dirty {
            bail!("the checkout has uncommitted changes (commit them, or pass --allow-dirty):\n{changed}");
        }
        let epoch = match std::env::var("SOURCE_DATE_EPOCH") {
            Ok(epoch) => epoch.parse().with_context(|| format!("SOURCE_DATE_EPOCH is not a number: {epoch:?}"))?,
            Err(_) => git(&workspace, &["show", "--no-patch", "--format=%ct", "HEAD"])?.parse()?,
        };
        Ok(Release {
            version,
            commit,
            epoch,
            description: text(&obi["description"], "obi's description")?.to_owned(),
            homepage,
            download,
            maintainer,
            workspace,
            target_dir,
        })
    }

    /// Where the artifacts go unless `--out` says.
    pub fn dist_dir(&self) -> PathBuf {
        self.target_dir.join("dist")
    }

    /// The URL an artifact of this release is downloaded from.
    pub fn url_of(&self, artifact: &str) -> String {
        format!("{}/{artifact}", self.download)
    }

    /// A file of the workspace, read.
    pub fn read(&self, path: &str) -> Result<Vec<u8>> {
        let path = self.workspace.join(path);
        std::fs::read(&path).with_context(|| format!("reading {}", path.display()))
    }
}

/// `cargo metadata` of the workspace, with `args` (`--no-deps`,
/// `--filter-platform TRIPLE`).
pub fn cargo_metadata(args: &[&str]) -> Result<Value> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .args(args)
        .output()
        .context("running cargo metadata")?;
    if !output.status.success() {
        bail!("cargo metadata failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    serde_json::from_slice(&output.stdout).context("reading cargo metadata's JSON")
}

fn git(workspace: &Path, args: &[&str]) -> Result<String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(workspace)
        .args(args)
        .output()
        .with_context(|| format!("running git {}", args.join(" ")))?;
    if !output.status.success() {
        bail!("git {} failed: {}", args.join(" "), String::from_utf8_lossy(&output.stderr).trim());
    }
    Ok(String::from_utf8(output.stdout)?.trim().to_owned())
}

fn text<'a>(value: &'a Value, what: &str) -> Result<&'a str> {
    value.as_str().with_context(|| format!("cargo metadata has no {what}"))
}

//! A release's artifacts (`cargo xtask dist`), installed and run as a user
//! would: the `.deb` with dpkg and removed again, the tarball unpacked
//! where neither the checkout nor its `target/` can be reached, the
//! PKGBUILD's `package()` run by bash (the MSI, under Wine, is in wine.rs).
//! They are made in the dev profile: the bar is the tests' own build, so
//! only the packing is new here (the README says so), and CI stays in its
//! budget. `OBI_E2E_DIST_PROFILE=packaged` puts a release's own build
//! through the same tests.

use crate::nobody::am_root;
use crate::ocr::wait_for_words;
use crate::support::{Reaped, XSession, files_under, have_tools, run, workspace};
use obi_test_support::cross::{MINGW, WINDOWS};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

/// A bar whose one word tells that the installed binary drew it.
const CONFIG: &str = r#"{ "height": 40, "font_size": 20, "font_family": "DejaVu Sans",
    "left_widgets": [ { "Date": { "enable": true, "format": { "Custom": "Installed" }, "label_prefix": "None" } } ],
    "right_widgets": [] }"#;

/// The folder of artifacts made once for the whole test run, or None
/// (after saying why) when this machine cannot make them.
pub fn artifacts(test: &str) -> Option<&'static Path> {
    if !have_tools(test, &["wixl", MINGW]) {
        return None;
    }
    if !obi_test_support::rust_target_installed(WINDOWS) {
        obi_test_support::skip::unavailable(&format!("{test}: needs the Rust target {WINDOWS} (rustup target add)"));
        return None;
    }
    static MADE: OnceLock<PathBuf> = OnceLock::new();
    Some(MADE.get_or_init(|| make_artifacts("e2e-dist")))
}

/// `cargo xtask dist` into `target/<folder>`, as the README says, in the
/// dev profile or the one `OBI_E2E_DIST_PROFILE` names.
fn make_artifacts(folder: &str) -> PathBuf {
    let out = workspace().join("target").join(folder);
    let _ = std::fs::remove_dir_all(&out);
    let profile = std::env::var("OBI_E2E_DIST_PROFILE").unwrap_or_else(|_| "dev".into());
    let mut dist = Command::new(env!("CARGO"));
    dist.current_dir(workspace()).args(["xtask", "dist", "--profile", &profile, "--allow-dirty", "--out"]).arg(&out);
    if profile == "dev" {
        // The Wine tests' flags: one Windows build serves both.
        dist.env("CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUSTFLAGS", "-D warnings");
    }
    let made = run(&mut dist);
    assert!(made.status.success(), "cargo xtask dist: {}", String::from_utf8_lossy(&made.stderr));
    out
}

/// The one artifact in `dir` whose name ends with `suffix`.
pub fn artifact(dir: &Path, suffix: &str) -> PathBuf {
    let found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.to_string_lossy().ends_with(suffix))
        .collect();
    match &found[..] {
        [one] => one.clone(),
        _ => panic!("{} holds {found:?} ending with {suffix}", dir.display()),
    }
}

/// `obi <version> (<commit>, <date>)`, the commit the checkout's HEAD.
fn assert_version_of_checkout(said: &[u8]) {
    let head = run(Command::new("git").arg("-C").arg(workspace()).args(["rev-parse", "HEAD"]));
    let head = String::from_utf8_lossy(&head.stdout).trim().to_owned();
    let said = String::from_utf8_lossy(said);
    let expected = format!("obi {} ({}, ", env!("CARGO_PKG_VERSION"), &head[..12]);
    assert!(said.starts_with(&expected), "obi --version said {said:?}, not {expected}…");
}

/// The installed bar, drawn on an X server under i3 with [`CONFIG`]; its
/// screen is kept as `target/e2e-artifacts/{artifact}.png` to be looked at.
fn draw_bar(mut program: Command, artifact: &str) {
    let session = XSession::start(1280, 720);
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("komorebi.bar.json");
    std::fs::write(&config, CONFIG).unwrap();
    let log = dir.path().join("bar.log");
    let bar = program
        .arg("--config")
        .arg(&config)
        .env("DISPLAY", &session.display)
        .env("OBI_CACHE_DIR", dir.path().join("cache"))
        .env_remove("WAYLAND_DISPLAY")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("starting the installed bar");
    let _bar = Reaped(bar);
    let window = session.find_window("^obi$", Duration::from_secs(30));
    assert!(window.is_some(), "no bar window; the bar said:\n{}", std::fs::read_to_string(&log).unwrap_or_default());
    wait_for_words(&session, dir.path(), 1280, &["Installed"], artifact);
    let kept = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&kept).unwrap();
    std::fs::copy(dir.path().join("bar.png"), kept.join(format!("{artifact}.png"))).unwrap();
}

/// Every file of the release is in `SHA256SUMS` with its checksum, and
/// packing the same commit again gives the same bytes (all but the MSI,
/// which wixl stamps with a fresh package code and time).
#[test]
fn the_artifacts_are_checksummed_and_packed_the_same_twice() {
    let Some(dist) = artifacts("release checksums") else { return };
    let checked = run(Command::new("sha256sum").arg("--check").arg("--strict").arg("SHA256SUMS").current_dir(dist));
    assert!(checked.status.success(), "sha256sum --check: {checked:?}");
    let sums = std::fs::read_to_string(dist.join("SHA256SUMS")).unwrap();
    let listed: Vec<&str> = sums.lines().filter_map(|line| line.split_once("  ").map(|(_, name)| name)).collect();
    let mut files = Vec::new();
    for entry in files_under(dist) {
        let name = entry.strip_prefix(dist).unwrap().to_string_lossy().into_owned();
        if name != "SHA256SUMS" {
            files.push(name);
        }
    }
    files.sort();
    assert_eq!(listed, files, "SHA256SUMS lists every artifact");
    for kind in [".tar.gz", ".deb", "PKGBUILD", ".zip", ".msi", "obi.json"] {
        assert!(listed.iter().any(|name| name.ends_with(kind)), "no {kind} in {listed:?}");
    }
    assert_eq!(listed.iter().filter(|name| name.starts_with("winget/")).count(), 3, "winget's three manifests");

    let again = make_artifacts("e2e-dist-again");
    for name in listed.iter().filter(|name| !name.ends_with(".msi") && !name.starts_with("winget/")) {
        let (first, second) = (std::fs::read(dist.join(name)).unwrap(), std::fs::read(again.join(name)).unwrap());
        assert!(first == second, "{name} differs when packed again");
    }
    let _ = std::fs::remove_dir_all(again);
}

/// Removes the package when dropped, so that a failing test leaves the
/// machine as it found it.
struct Installed;

impl Drop for Installed {
    fn drop(&mut self) {
        let _ = Command::new("dpkg").args(["--remove", "obi"]).stdout(Stdio::null()).status();
    }
}

/// The `.deb` installs with dpkg on this Debian (what it depends on is
/// here), its bar answers `--version` and `check` and draws itself, and
/// `dpkg --remove` leaves none of its files behind.
#[test]
fn the_deb_installs_draws_its_bar_and_is_removed_without_a_trace() {
    const TOOLS: &[&str] = &["dpkg", "systemd-analyze", "Xvfb", "i3", "xdotool", "import", "convert", "tesseract"];
    if !have_tools("installing the .deb", TOOLS) {
        return;
    }
    if !am_root() {
        obi_test_support::skip::unavailable("installing the .deb: needs root, for dpkg");
        return;
    }
    let Some(dist) = artifacts("installing the .deb") else { return };
    let deb = artifact(dist, ".deb");
    let installed = Installed;
    let install = run(Command::new("dpkg").arg("--install").arg(&deb));
    assert!(install.status.success(), "dpkg --install: {install:?}");

    assert_version_of_checkout(&run(Command::new("/usr/bin/obi").arg("--version")).stdout);
    let example = "/usr/share/doc/obi/examples/komorebi.bar.example.json";
    let checked = run(Command::new("/usr/bin/obi").args(["check", example]));
    assert!(checked.status.success(), "obi check {example}: {checked:?}");
    let unit = "/usr/lib/systemd/user/obi.service";
    // systemd-analyze wants a user's runtime folder; the manual page is
    // checked below on its own.
    let runtime = tempfile::tempdir().unwrap();
    let verified = run(Command::new("systemd-analyze")
        .args(["--user", "verify", "--man=no", unit])
        .env("XDG_RUNTIME_DIR", runtime.path()));
    assert!(verified.status.success() && verified.stderr.is_empty(), "systemd-analyze verify {unit}: {verified:?}");
    for file in [
        "/usr/share/man/man1/obi.1.gz",
        "/usr/share/bash-completion/completions/obi",
        "/usr/share/zsh/vendor-completions/_obi",
        "/usr/share/fish/vendor_completions.d/obi.fish",
        "/usr/share/doc/obi/copyright",
    ] {
        assert!(Path::new(file).is_file(), "{file} is not installed");
    }
    let notices = std::fs::read_to_string("/usr/share/doc/obi/THIRD-PARTY-LICENSES").unwrap();
    assert_third_party_notices(&notices, "x11rb", "windows");
    draw_bar(Command::new("/usr/bin/obi"), "installed-deb");

    let listed = run(Command::new("dpkg").args(["--listfiles", "obi"]));
    let files: Vec<PathBuf> =
        String::from_utf8_lossy(&listed.stdout).lines().map(PathBuf::from).filter(|path| path.is_file()).collect();
    assert!(files.len() >= 9, "dpkg lists {files:?}");
    drop(installed);
    let left: Vec<&PathBuf> = files.iter().filter(|file| file.exists()).collect();
    assert!(left.is_empty(), "dpkg --remove left {left:?}");
    assert!(!Path::new("/usr/share/doc/obi").exists(), "dpkg --remove left /usr/share/doc/obi");
    let status = run(Command::new("dpkg").args(["--status", "obi"]));
    let status = String::from_utf8_lossy(&status.stdout);
    assert!(!status.contains("Status: install ok installed"), "still installed: {status}");
}

/// The notices of the crates in a bar: the bar's crates (`ours`, of its
/// platform, and not `theirs`, of another's), the stock widgets' crates
/// after them, and the licence texts they ship.
pub fn assert_third_party_notices(notices: &str, ours: &str, theirs: &str) {
    let (bar, widgets) = notices.split_once("Crates of the stock widgets").expect("no list of the widgets' crates");
    let lists = |list: &str, name: &str| list.lines().any(|line| line.starts_with(&format!("  {name} ")));
    for name in ["wasmtime", "femtovg", "serde_json", ours] {
        assert!(lists(bar, name), "the notices do not list {name} among the bar's crates:\n{notices}");
    }
    assert!(!lists(bar, theirs), "the notices list {theirs}, another platform's, among the bar's crates");
    assert!(lists(widgets, "wit-bindgen"), "the notices do not list wit-bindgen among the widgets' crates");
    for licence in ["Permission is hereby granted, free of charge", "Apache License\n", "Version 2.0, January 2004"] {
        assert!(notices.contains(licence), "the notices hold no text with {licence:?}");
    }
}

/// The tarball, unpacked into an empty folder, runs its bar there with the
/// checkout and its `target/` hidden (a mount namespace lays an empty
/// folder over them): nothing of it reads from the build tree.
#[test]
fn the_tarball_runs_its_bar_from_an_empty_folder_with_no_checkout_in_reach() {
    const TOOLS: &[&str] = &["tar", "unshare", "Xvfb", "i3", "xdotool", "import", "convert", "tesseract"];
    if !have_tools("running the tarball's bar", TOOLS) {
        return;
    }
    if !am_root() {
        obi_test_support::skip::unavailable("running the tarball's bar: needs root, to hide the checkout");
        return;
    }
    let Some(dist) = artifacts("running the tarball's bar") else { return };
    let folder = tempfile::tempdir().unwrap();
    let unpacked = run(Command::new("tar").arg("-xzf").arg(artifact(dist, ".tar.gz")).arg("-C").arg(folder.path()));
    assert!(unpacked.status.success(), "tar: {unpacked:?}");
    let root = std::fs::read_dir(folder.path()).unwrap().next().unwrap().unwrap().path();
    for file in [
        "bin/obi",
        "share/man/man1/obi.1",
        "share/bash-completion/completions/obi",
        "share/zsh/site-functions/_obi",
        "share/fish/vendor_completions.d/obi.fish",
        "share/doc/obi/README.md",
        "share/doc/obi/LICENSE-MIT",
        "share/doc/obi/komorebi.bar.example.json",
        "share/doc/obi/THIRD-PARTY-LICENSES",
    ] {
        assert!(root.join(file).is_file(), "the tarball has no {file}");
    }
    let unit = std::fs::read_to_string(root.join("lib/systemd/user/obi.service")).unwrap();
    assert!(
        unit.contains("ExecStart=/usr/local/bin/obi\n") && unit.contains("PartOf=graphical-session.target"),
        "{unit}"
    );

    let hidden = |program: &Path| {
        let mut command = Command::new("unshare");
        command
            .args(["--mount", "sh", "-c", "mount -t tmpfs hidden \"$1\" && shift && exec \"$@\"", "sh"])
            .arg(workspace())
            .arg(program)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", folder.path())
            .current_dir(folder.path());
        command
    };
    let obi = root.join("bin/obi");
    let version = run(hidden(&obi).arg("--version"));
    assert!(version.status.success(), "{version:?}");
    assert_version_of_checkout(&version.stdout);
    let sees_checkout = run(hidden(Path::new("/bin/ls")).arg(workspace()));
    assert!(sees_checkout.stdout.is_empty(), "the checkout is in reach: {sees_checkout:?}");
    draw_bar(hidden(&obi), "unpacked-tarball");
}

/// The PKGBUILD names the tarball by its checksum, and its `package()`
/// (run by bash as makepkg would, in the unpacked tarball) installs the
/// bar, its unit pointed at `/usr/bin`, and its licences where Arch keeps them.
#[test]
fn the_pkgbuild_packages_the_tarballs_files() {
    if !have_tools("the PKGBUILD", &["bash", "tar", "install", "sed"]) {
        return;
    }
    let Some(dist) = artifacts("the PKGBUILD") else { return };
    let tarball = artifact(dist, ".tar.gz");
    let (srcdir, pkgdir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    assert!(run(Command::new("tar").arg("-xzf").arg(&tarball).arg("-C").arg(srcdir.path())).status.success());
    let pkgbuild = dist.join("PKGBUILD");
    let said = run(Command::new("bash")
        .arg("-c")
        .arg("set -eu; source \"$1\"; echo \"${source[0]}\"; echo \"${sha256sums[0]}\"; package")
        .arg("bash")
        .arg(&pkgbuild)
        .env("srcdir", srcdir.path())
        .env("pkgdir", pkgdir.path())
        .current_dir(srcdir.path()));
    assert!(said.status.success(), "the PKGBUILD's package(): {said:?}");
    let said = String::from_utf8_lossy(&said.stdout);
    let mut lines = said.lines();
    let (source, sha256) = (lines.next().unwrap_or_default(), lines.next().unwrap_or_default());
    let name = tarball.file_name().unwrap().to_string_lossy();
    assert!(source.ends_with(&format!("/{name}")), "the PKGBUILD's source {source} is not {name}");
    let sums = std::fs::read_to_string(dist.join("SHA256SUMS")).unwrap();
    assert!(sums.contains(&format!("{sha256}  {name}")), "the PKGBUILD's checksum {sha256} is not {name}'s:\n{sums}");

    let package = pkgdir.path();
    let program = std::fs::metadata(package.join("usr/bin/obi")).expect("the PKGBUILD installs usr/bin/obi");
    assert_eq!(std::os::unix::fs::PermissionsExt::mode(&program.permissions()) & 0o777, 0o755);
    let unit = std::fs::read_to_string(package.join("usr/lib/systemd/user/obi.service")).unwrap();
    assert!(unit.contains("ExecStart=/usr/bin/obi\n") && !unit.contains("/usr/local"), "{unit}");
    for file in [
        "usr/share/man/man1/obi.1",
        "usr/share/zsh/site-functions/_obi",
        "usr/share/licenses/obi/LICENSE-MIT",
        "usr/share/licenses/obi/LICENSE-APACHE",
        "usr/share/licenses/obi/THIRD-PARTY-LICENSES",
        "usr/share/doc/obi/komorebi.bar.example.json",
    ] {
        assert!(package.join(file).is_file(), "the PKGBUILD does not install {file}");
    }
}

//! The Debian package: the files in their FHS places under `/usr`, a
//! `control` whose `Depends` are the libraries the bar loads, `md5sums`, and
//! the `copyright` Debian asks for, packed as dpkg-deb packs them (an `ar`
//! of `debian-binary`, `control.tar.gz` and `data.tar.gz`).

use crate::archive::{self, Entry};
use crate::payload::{self, EXAMPLE, Payload};
use crate::release::Release;
use crate::runtime_libraries;
use crate::third_party;
use anyhow::Result;
use flate2::Compression;
use md5::{Digest, Md5};
use std::fmt::Write;

/// The package's file name.
pub fn name(release: &Release) -> String {
    format!("obi_{}-1_amd64.deb", release.version)
}

pub fn build(release: &Release, obi: &[u8], payload: &Payload) -> Result<Vec<u8>> {
    let mut files = vec![
        Entry::executable("usr/bin/obi", obi),
        Entry::file("usr/share/man/man1/obi.1.gz", archive::gzip(&payload.man_page, Compression::best())?),
        Entry::file("usr/share/bash-completion/completions/obi", payload.bash_completion.clone()),
        Entry::file("usr/share/zsh/vendor-completions/_obi", payload.zsh_completion.clone()),
        Entry::file("usr/share/fish/vendor_completions.d/obi.fish", payload.fish_completion.clone()),
        Entry::file("usr/lib/systemd/user/obi.service", payload::systemd_unit("/usr/bin/obi")),
        Entry::file("usr/share/doc/obi/README.md", payload.readme.clone()),
        Entry::file("usr/share/doc/obi/copyright", copyright(release, payload)),
        Entry::file(format!("usr/share/doc/obi/examples/{EXAMPLE}"), payload.example.clone()),
        Entry::file(format!("usr/share/doc/obi/{}", third_party::FILE), payload.linux_notices.clone()),
    ];
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let control = vec![Entry::file("control", control(release, obi, &files)?), Entry::file("md5sums", md5sums(&files))];
    let control = archive::tar_gz(".", &control, release.epoch)?;
    let data = archive::tar_gz(".", &files, release.epoch)?;
    archive::ar(&[("debian-binary", b"2.0\n"), ("control.tar.gz", &control), ("data.tar.gz", &data)], release.epoch)
}

fn control(release: &Release, obi: &[u8], files: &[Entry]) -> Result<String> {
    // What `du` would say, in KiB, as dpkg-gencontrol counts it.
    let installed_kib: usize = files.iter().map(|file| file.bytes.len().div_ceil(1024)).sum();
    let depends = runtime_libraries::debian_depends(obi)?;
    Ok(format!(
        "Package: obi
Version: {version}-1
Architecture: amd64
Maintainer: {maintainer}
Installed-Size: {installed_kib}
Depends: {depends}
Recommends: libgl1-mesa-dri
Section: x11
Priority: optional
Homepage: {homepage}
Description: {description}
 Obi reads komorebi-bar's komorebi.bar.json, talks to i3, sway, Hyprland,
 niri and komorebi, and runs every widget as a WebAssembly component in a
 sandbox of its own. It shows itself as an X11 dock or a Wayland layer
 surface.
",
        version = release.version,
        maintainer = release.maintainer,
        homepage = release.homepage,
        description = release.description,
    ))
}

fn md5sums(files: &[Entry]) -> String {
    files.iter().fold(String::new(), |mut sums, file| {
        let digest = Md5::digest(&file.bytes);
        let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
        let _ = writeln!(sums, "{hex}  {}", file.path);
        sums
    })
}

/// `debian/copyright` in Debian's machine-readable format: Obi's licences,
/// that of the icon font in the binary in full, and where the notices of
/// the crates the binary is built from are.
fn copyright(release: &Release, payload: &Payload) -> String {
    let licence = |name: &str| {
        let text = payload.licences.iter().find(|(file, _)| *file == name).map(|(_, text)| text.as_slice());
        let text = String::from_utf8_lossy(text.unwrap_or_default()).into_owned();
        // A licence's paragraph: every line indented, a blank one as ` .`.
        text.lines()
            .map(|line| if line.trim().is_empty() { " .\n".to_owned() } else { format!(" {line}\n") })
            .collect::<String>()
    };
    format!(
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: obi
Source: {homepage}

Files: *
Copyright: The Obi developers
License: MIT or Apache-2.0
Comment: usr/bin/obi is built from third-party Rust crates, listed with their
 licences in /usr/share/doc/obi/{notices}. It holds the Phosphor icon
 font, under its own licence:
 .
{phosphor}
License: MIT
{mit}
License: Apache-2.0
 On Debian systems, the full text of the Apache License 2.0 is in
 /usr/share/common-licenses/Apache-2.0.
",
        homepage = release.homepage,
        mit = licence("LICENSE-MIT"),
        phosphor = licence("LICENSE-Phosphor"),
        notices = third_party::FILE,
    )
}

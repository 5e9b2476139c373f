//! The shared libraries the Linux bar loads, and the Debian and Arch
//! packages that hold them. Besides what it is linked with (libc, libm,
//! libgcc_s), the windowing and GL crates open EGL, GL, X11, Wayland,
//! xkbcommon, fontconfig (and xcb, in a debug build) by name at run time,
//! so `ldd` lists only a few: every library name the binary holds is read
//! from it. A name that the table below lacks fails the release, since a
//! package that does not pull in what its program loads installs a bar
//! that does not start.

use anyhow::{Result, bail};
use std::collections::BTreeSet;

/// A library's file name, its Debian package, its Arch package.
const PROVIDERS: &[(&str, &str, &str)] = &[
    ("libc.so.6", "libc6", "glibc"),
    ("libm.so.6", "libc6", "glibc"),
    ("libgcc_s.so.1", "libgcc-s1", "gcc-libs"),
    ("libEGL.so.1", "libegl1", "libglvnd"),
    ("libGL.so.1", "libgl1", "libglvnd"),
    ("libX11.so.6", "libx11-6", "libx11"),
    ("libX11-xcb.so.1", "libx11-xcb1", "libx11"),
    ("libXcursor.so.1", "libxcursor1", "libxcursor"),
    ("libXi.so.6", "libxi6", "libxi"),
    ("libXrender.so.1", "libxrender1", "libxrender"),
    ("libxkbcommon.so.0", "libxkbcommon0", "libxkbcommon"),
    ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0", "libxkbcommon-x11"),
    ("libwayland-client.so.0", "libwayland-client0", "wayland"),
    ("libwayland-egl.so.1", "libwayland-egl1", "wayland"),
    ("libfontconfig.so.1", "libfontconfig1", "fontconfig"),
    ("libxcb.so.1", "libxcb1", "libxcb"),
];

/// The libraries the bar loads: each `libNAME.so.N` the binary names.
pub fn loaded_by(binary: &[u8]) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let is_name_byte = |byte: u8| byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'-' | b'+');
    for dot in memchr::memmem::find_iter(binary, b".so.") {
        let mut end = dot + 4;
        while end < binary.len() && (binary[end].is_ascii_digit() || binary[end] == b'.' && end > dot + 4) {
            end += 1;
        }
        let end = if binary[end - 1] == b'.' { end - 1 } else { end };
        let mut start = dot;
        while start > 0 && is_name_byte(binary[start - 1]) {
            start -= 1;
        }
        if end > dot + 4
            && let Some(name) = library_name(&binary[start..dot], &binary[dot..end])
        {
            names.insert(name);
        }
    }
    names
}

/// The library name that ends a run of name characters `stem` followed by
/// `.so.N`. Strings in a binary's tables may run into each other (as
/// `XVaCreateNestedListlibXi.so.6` in a whole-program build), so the name
/// starts at one of the run's `lib`s: the first that makes a name the
/// table knows, else the last, the shortest name for the error to show.
fn library_name(stem: &[u8], version: &[u8]) -> Option<String> {
    let names: Vec<String> = memchr::memmem::find_iter(stem, b"lib")
        .filter(|&lib| lib + 3 < stem.len())
        .map(|lib| String::from_utf8_lossy(&[&stem[lib..], version].concat()).into_owned())
        .collect();
    let known = names.iter().position(|name| PROVIDERS.iter().any(|(library, _, _)| library == name));
    let chosen = known.or(names.len().checked_sub(1))?;
    names.into_iter().nth(chosen)
}

/// The oldest glibc the binary runs on: the newest `GLIBC_2.N` symbol
/// version it asks for, and 2.36 when it is linked with packed relative
/// relocations (`GLIBC_ABI_DT_RELR`).
pub fn glibc_floor(binary: &[u8]) -> Option<(u32, u32)> {
    let mut floor = None;
    for found in memchr::memmem::find_iter(binary, b"GLIBC_2.") {
        let start = found + b"GLIBC_2.".len();
        let digits = binary[start..].iter().take_while(|byte| byte.is_ascii_digit()).count();
        if let Ok(minor) = std::str::from_utf8(&binary[start..start + digits]).unwrap_or_default().parse::<u32>() {
            floor = floor.max(Some((2, minor)));
        }
    }
    if find(binary, b"GLIBC_ABI_DT_RELR").is_some() {
        floor = floor.max(Some((2, 36)));
    }
    floor
}

/// The Debian `Depends` of the bar `binary`.
pub fn debian_depends(binary: &[u8]) -> Result<String> {
    let mut packages: BTreeSet<String> = providers(binary)?.into_iter().map(|(debian, _)| debian.to_owned()).collect();
    if let Some((major, minor)) = glibc_floor(binary) {
        packages.remove("libc6");
        packages.insert(format!("libc6 (>= {major}.{minor})"));
    }
    Ok(packages.into_iter().collect::<Vec<_>>().join(", "))
}

/// The Arch `depends` of the bar.
pub fn arch_depends(binary: &[u8]) -> Result<BTreeSet<&'static str>> {
    Ok(providers(binary)?.into_iter().map(|(_, arch)| arch).collect())
}

fn providers(binary: &[u8]) -> Result<Vec<(&'static str, &'static str)>> {
    let mut found = Vec::new();
    for library in loaded_by(binary) {
        match PROVIDERS.iter().find(|(name, _, _)| *name == library) {
            Some((_, debian, arch)) => found.push((*debian, *arch)),
            None => bail!(
                "the bar loads {library}, which xtask/src/runtime_libraries.rs does not know the package of: add it there"
            ),
        }
    }
    Ok(found)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(haystack, needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_names_are_read_from_among_other_strings() {
        let binary = b"\0libEGL.so.1\0libEGL.so\0XkbLatchlibControlsXVaCreateNestedListlibXi.so.6\0\
                       ld-linux-x86-64.so.2\0libxkbcommon-x11.so.0.\0";
        let names: Vec<String> = loaded_by(binary).into_iter().collect();
        assert_eq!(names, ["libEGL.so.1", "libXi.so.6", "libxkbcommon-x11.so.0"]);
    }

    #[test]
    fn the_glibc_floor_is_the_newest_version_asked_for() {
        assert_eq!(glibc_floor(b"GLIBC_2.2.5\0GLIBC_2.34\0GLIBC_2.17\0"), Some((2, 34)));
        assert_eq!(glibc_floor(b"GLIBC_2.34\0GLIBC_ABI_DT_RELR\0"), Some((2, 36)));
        assert_eq!(glibc_floor(b"nothing"), None);
    }

    #[test]
    fn a_library_of_no_known_package_fails_the_release() {
        let error = debian_depends(b"\0XlibOpenDisplaylibfoo.so.3\0").unwrap_err();
        assert!(error.to_string().contains("loads libfoo.so.3,"), "{error}");
        let depends = debian_depends(b"\0libc.so.6\0libEGL.so.1\0GLIBC_2.34\0").unwrap();
        assert_eq!(depends, "libc6 (>= 2.34), libegl1");
    }
}

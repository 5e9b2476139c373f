//! Archives whose bytes depend on their contents alone: entries in a fixed
//! order, every timestamp the release's, owned by root, no compressor's
//! clock or file name. The tarball, the .deb (an `ar` of two tarballs) and
//! the zip are made of these.

use anyhow::{Context, Result};
use flate2::Compression;
use std::collections::BTreeMap;
use std::io::Write;

/// A file to archive: where it goes, its Unix mode, its bytes.
pub struct Entry {
    pub path: String,
    pub mode: u32,
    pub bytes: Vec<u8>,
}

impl Entry {
    pub fn file(path: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Entry {
        Entry { path: path.into(), mode: 0o644, bytes: bytes.into() }
    }

    pub fn executable(path: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Entry {
        Entry { path: path.into(), mode: 0o755, bytes: bytes.into() }
    }
}

/// A gzip-compressed tar of `entries` under `root` (`obi-0.1.0-…/`, or
/// `./` as dpkg has it), each folder on the way listed before what it
/// holds, everything sorted by path.
pub fn tar_gz(root: &str, entries: &[Entry], epoch: i64) -> Result<Vec<u8>> {
    let mut tree: BTreeMap<String, Option<&Entry>> = BTreeMap::new();
    tree.insert(format!("{}/", root.trim_end_matches('/')), None);
    for entry in entries {
        let path = format!("{}/{}", root.trim_end_matches('/'), entry.path);
        let mut folder = path.as_str();
        while let Some((parent, _)) = folder.rsplit_once('/') {
            tree.entry(format!("{parent}/")).or_insert(None);
            folder = parent;
        }
        tree.insert(path, Some(entry));
    }
    let mut tar = tar::Builder::new(Vec::new());
    for (path, entry) in tree {
        let mut header = tar::Header::new_gnu();
        header.set_mtime(u64::try_from(epoch).unwrap_or_default());
        header.set_uid(0);
        header.set_gid(0);
        header.set_username("root")?;
        header.set_groupname("root")?;
        let bytes: &[u8] = match entry {
            Some(entry) => {
                header.set_entry_type(tar::EntryType::Regular);
                header.set_mode(entry.mode);
                &entry.bytes
            }
            None => {
                header.set_entry_type(tar::EntryType::Directory);
                header.set_mode(0o755);
                &[]
            }
        };
        header.set_size(bytes.len() as u64);
        tar.append_data(&mut header, &path, bytes).with_context(|| format!("archiving {path}"))?;
    }
    gzip(&tar.into_inner()?, Compression::default())
}

/// `bytes` gzip-compressed with no name and no time in the header.
pub fn gzip(bytes: &[u8], level: Compression) -> Result<Vec<u8>> {
    let mut encoder = flate2::GzBuilder::new().mtime(0).write(Vec::new(), level);
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?)
}

/// A zip of `entries` (paths as given), deflated.
pub fn zip(entries: &[Entry], epoch: i64) -> Result<Vec<u8>> {
    let time = jiff::tz::Offset::UTC.to_datetime(jiff::Timestamp::from_second(epoch)?);
    let time = zip::DateTime::from_date_and_time(
        u16::try_from(time.year())?,
        u8::try_from(time.month())?,
        u8::try_from(time.day())?,
        u8::try_from(time.hour())?,
        u8::try_from(time.minute())?,
        u8::try_from(time.second())?,
    )
    .map_err(|error| anyhow::anyhow!("the release's time does not fit a zip: {error}"))?;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for entry in entries {
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .last_modified_time(time)
            .unix_permissions(entry.mode)
            .large_file(entry.bytes.len() >= u32::MAX as usize);
        zip.start_file(entry.path.as_str(), options).with_context(|| format!("zipping {}", entry.path))?;
        zip.write_all(&entry.bytes)?;
    }
    Ok(zip.finish()?.into_inner())
}

/// A Unix `ar` archive of `members` (what a .deb is), each member stamped
/// with `epoch` and owned by root.
pub fn ar(members: &[(&str, &[u8])], epoch: i64) -> Result<Vec<u8>> {
    let mut archive = ar::Builder::new(Vec::new());
    for (name, bytes) in members {
        let mut header = ar::Header::new(name.as_bytes().to_vec(), bytes.len() as u64);
        header.set_mtime(u64::try_from(epoch).unwrap_or_default());
        header.set_mode(0o100644);
        archive.append(&header, *bytes).with_context(|| format!("adding {name} to the archive"))?;
    }
    Ok(archive.into_inner()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries() -> Vec<Entry> {
        vec![
            Entry::executable("bin/obi", b"program".to_vec()),
            Entry::file("share/doc/obi/README.md", b"read".to_vec()),
        ]
    }

    #[test]
    fn a_tarball_lists_each_folder_before_what_it_holds_stamped_with_the_release() {
        let packed = tar_gz("obi-1", &entries(), 1_700_000_000).unwrap();
        assert_eq!(packed, tar_gz("obi-1", &entries(), 1_700_000_000).unwrap(), "the same entries, the same bytes");
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(&packed[..]));
        let listed: Vec<(String, u32, u64, u64)> = archive
            .entries()
            .unwrap()
            .map(|entry| {
                let header = entry.unwrap().header().clone();
                let path = header.path().unwrap().to_string_lossy().into_owned();
                (path, header.mode().unwrap(), header.mtime().unwrap(), header.uid().unwrap())
            })
            .collect();
        let paths: Vec<&str> = listed.iter().map(|(path, ..)| path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "obi-1/",
                "obi-1/bin/",
                "obi-1/bin/obi",
                "obi-1/share/",
                "obi-1/share/doc/",
                "obi-1/share/doc/obi/",
                "obi-1/share/doc/obi/README.md"
            ]
        );
        assert_eq!(listed[2].1, 0o755, "the program is executable");
        assert!(listed.iter().all(|(_, _, mtime, uid)| *mtime == 1_700_000_000 && *uid == 0));
    }

    #[test]
    fn a_zip_holds_the_same_bytes_for_the_same_entries() {
        let packed = zip(&entries(), 1_700_000_000).unwrap();
        assert_eq!(packed, zip(&entries(), 1_700_000_000).unwrap());
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(packed)).unwrap();
        let mut text = String::new();
        std::io::Read::read_to_string(&mut archive.by_name("share/doc/obi/README.md").unwrap(), &mut text).unwrap();
        assert_eq!(text, "read");
    }
}

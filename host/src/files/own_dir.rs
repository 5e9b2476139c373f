//! A folder of the user's own, for what Obi keeps where another local user
//! could otherwise reach it: compiled code (the component cache), whose
//! files become machine code in the bar, and the control socket, which can
//! quit it. A missing folder is created with mode 0700. An existing one is
//! used only when this user owns it and nobody else may write to it or to
//! any folder above it (a sticky folder such as `/tmp` is fine: others
//! cannot move what is ours out of it); else it is refused, saying why.
//! Inside, a file is trusted only when it is a regular file (not a link),
//! ours, and writable by nobody else; files are written to an exclusive
//! temporary file and renamed into place, so a planted name or link is
//! never written through.
//!
//! On Windows the folders live in the user's profile, whose access rights
//! keep other users out; the checks of ownership and modes are Unix's.

use super::ownership::{self, Untrusted};
use anyhow::Context;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
pub struct OwnDir {
    path: PathBuf,
}

impl OwnDir {
    /// The folder at `path`, created (0700) when missing, checked when not.
    pub fn new(path: &Path) -> anyhow::Result<OwnDir> {
        create(path).with_context(|| format!("creating {}", path.display()))?;
        check(path)?;
        Ok(OwnDir { path: path.to_path_buf() })
    }

    /// The folder at `path` when it is there and the user's own (as
    /// [`OwnDir::new`] checks it), without making it.
    pub fn existing(path: &Path) -> Result<OwnDir, Untrusted> {
        check(path)?;
        Ok(OwnDir { path: path.to_path_buf() })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file `name` in the folder when it is there and may be trusted;
    /// `Ok(None)` when there is none, an error saying why when it may not.
    pub fn trusted_file(&self, name: &str) -> Result<Option<PathBuf>, Untrusted> {
        let path = self.path.join(name);
        let metadata = match fs::symlink_metadata(&path) {
            Ok(metadata) => metadata,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(Untrusted::Io { path, error }),
        };
        if !metadata.file_type().is_file() {
            let expected = "a regular file (a link or something else put there)";
            return Err(Untrusted::Kind { path, expected });
        }
        ownership::ours_and_private(&path, &metadata)?;
        Ok(Some(path))
    }

    /// Writes `bytes` as `name`: to a new temporary file that nobody else
    /// can have made or linked, then renamed over the name.
    pub fn write(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        let mut temporary = tempfile::Builder::new().prefix(".obi-").tempfile_in(&self.path)?;
        temporary.write_all(bytes)?;
        temporary.as_file().sync_data()?;
        temporary.persist(self.path.join(name)).map(drop).map_err(|error| error.error)
    }
}

#[cfg(unix)]
fn create(path: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    fs::DirBuilder::new().recursive(true).mode(0o700).create(path)
}

#[cfg(not(unix))]
fn create(path: &Path) -> io::Result<()> {
    fs::create_dir_all(path)
}

/// The folder is ours, not a link, writable by nobody else, and so is
/// every folder above it (or sticky).
fn check(path: &Path) -> Result<(), Untrusted> {
    let metadata = fs::symlink_metadata(path).map_err(Untrusted::io(path))?;
    if !metadata.is_dir() {
        let expected = "a folder (a link or a file is in its place)";
        return Err(Untrusted::Kind { path: path.to_path_buf(), expected });
    }
    ownership::ours_and_private(path, &metadata)?;
    ownership::safe_ancestors(path)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    #[test]
    fn a_missing_folder_is_made_private() {
        let top = tempfile::tempdir().unwrap();
        let path = top.path().join("a/b");
        let dir = OwnDir::new(&path).unwrap();
        assert_eq!(mode(&path), 0o700);
        assert_eq!(mode(&top.path().join("a")), 0o700);
        dir.write("x", b"bytes").unwrap();
        assert_eq!(fs::read(dir.trusted_file("x").unwrap().unwrap()).unwrap(), b"bytes");
        assert_eq!(mode(&path.join("x")), 0o600);
        assert_eq!(dir.trusted_file("absent").unwrap(), None);
    }

    #[test]
    fn a_folder_others_may_write_to_is_refused() {
        let top = tempfile::tempdir().unwrap();
        let path = top.path().join("shared");
        fs::create_dir(&path).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o777)).unwrap();
        let refused = format!("{:#}", OwnDir::new(&path).unwrap_err());
        assert!(refused.contains("may be written by others (mode 777)"), "{refused}");
        let inner = path.join("inner");
        fs::create_dir(&inner).unwrap();
        fs::set_permissions(&inner, fs::Permissions::from_mode(0o700)).unwrap();
        let refused = format!("{:#}", OwnDir::new(&inner).unwrap_err());
        assert!(refused.contains("which others may write to (mode 777)"), "{refused}");
    }

    #[test]
    fn links_are_neither_trusted_nor_written_through() {
        let top = tempfile::tempdir().unwrap();
        let real = top.path().join("real");
        fs::create_dir(&real).unwrap();
        let link = top.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert!(format!("{:#}", OwnDir::new(&link).unwrap_err()).contains("not a folder"));

        let dir = OwnDir::new(&real).unwrap();
        let victim = top.path().join("victim");
        fs::write(&victim, b"precious").unwrap();
        std::os::unix::fs::symlink(&victim, real.join("planted")).unwrap();
        assert!(matches!(dir.trusted_file("planted"), Err(Untrusted::Kind { .. })));
        dir.write("planted", b"new").unwrap();
        assert_eq!(fs::read(&victim).unwrap(), b"precious", "the link was replaced, not written through");
        assert_eq!(fs::read(real.join("planted")).unwrap(), b"new");
    }

    #[test]
    fn a_file_others_may_write_to_is_not_trusted() {
        let top = tempfile::tempdir().unwrap();
        let dir = OwnDir::new(top.path()).unwrap();
        dir.write("x", b"bytes").unwrap();
        fs::set_permissions(top.path().join("x"), fs::Permissions::from_mode(0o666)).unwrap();
        let refused = dir.trusted_file("x").unwrap_err();
        assert!(matches!(refused, Untrusted::Writable { mode: 0o666, .. }), "{refused}");
        assert!(refused.to_string().ends_with("may be written by others (mode 666)"), "{refused}");
    }
}

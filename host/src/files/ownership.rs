//! Who may have written a file or folder: the checks behind [`super::OwnDir`]
//! and [`super::read_code`]. On Unix by owner and mode; on Windows the
//! user's profile's access rights keep other users out, and nothing is
//! checked here.

use std::fs::Metadata;
use std::path::{Path, PathBuf};
use std::{fmt, io};

/// Why a file or folder may not be trusted: someone else may have written it.
#[derive(Debug)]
pub enum Untrusted {
    /// It belongs to another user.
    Owner { path: PathBuf, uid: u32 },
    /// Others may write to it.
    Writable { path: PathBuf, mode: u32 },
    /// A link on the way to it was made by another user.
    ForeignLink { link: PathBuf, uid: u32 },
    /// A folder above it belongs to another user.
    InsideForeign { path: PathBuf, folder: PathBuf, uid: u32 },
    /// Others may write to a folder above it (one that is not sticky).
    InsideWritable { path: PathBuf, folder: PathBuf, mode: u32 },
    /// It is not what it should be: a link, a file, something else put there.
    Kind { path: PathBuf, expected: &'static str },
    /// It cannot be looked at.
    Io { path: PathBuf, error: io::Error },
}

impl fmt::Display for Untrusted {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Untrusted::Owner { path, uid } => {
                write!(formatter, "{} belongs to another user (uid {uid})", path.display())
            }
            Untrusted::Writable { path, mode } => {
                write!(formatter, "{} may be written by others (mode {mode:o})", path.display())
            }
            Untrusted::ForeignLink { link, uid } => {
                write!(formatter, "{} is a link made by another user (uid {uid})", link.display())
            }
            Untrusted::InsideForeign { path, folder, uid } => write!(
                formatter,
                "{} is inside {}, which belongs to another user (uid {uid})",
                path.display(),
                folder.display()
            ),
            Untrusted::InsideWritable { path, folder, mode } => write!(
                formatter,
                "{} is inside {}, which others may write to (mode {mode:o})",
                path.display(),
                folder.display()
            ),
            Untrusted::Kind { path, expected } => write!(formatter, "{} is not {expected}", path.display()),
            Untrusted::Io { path, error } => write!(formatter, "{}: {error}", path.display()),
        }
    }
}

/// Its message says what the cause said: the cause is not repeated as a source.
impl std::error::Error for Untrusted {}

impl Untrusted {
    pub fn io(path: &Path) -> impl FnOnce(io::Error) -> Untrusted + '_ {
        move |error| Untrusted::Io { path: path.to_path_buf(), error }
    }
}

#[cfg(unix)]
pub use unix::*;

#[cfg(not(unix))]
pub use elsewhere::*;

#[cfg(unix)]
mod unix {
    use super::*;
    use std::fs;
    use std::os::unix::fs::MetadataExt;

    const WRITABLE_BY_OTHERS: u32 = 0o022;
    const STICKY: u32 = 0o1000;

    fn me() -> u32 {
        rustix::process::geteuid().as_raw()
    }

    /// Ours, and writable by nobody else.
    pub fn ours_and_private(path: &Path, metadata: &Metadata) -> Result<(), Untrusted> {
        if metadata.uid() != me() {
            return Err(Untrusted::Owner { path: path.to_path_buf(), uid: metadata.uid() });
        }
        private(path, metadata)
    }

    /// Ours or the system's (root's), and writable by nobody else: code
    /// installed for every user is as trusted as the user's own.
    pub fn ours_or_systems_and_private(path: &Path, metadata: &Metadata) -> Result<(), Untrusted> {
        if metadata.uid() != me() && metadata.uid() != 0 {
            return Err(Untrusted::Owner { path: path.to_path_buf(), uid: metadata.uid() });
        }
        private(path, metadata)
    }

    fn private(path: &Path, metadata: &Metadata) -> Result<(), Untrusted> {
        if metadata.mode() & WRITABLE_BY_OTHERS != 0 {
            return Err(Untrusted::Writable { path: path.to_path_buf(), mode: metadata.mode() & 0o7777 });
        }
        Ok(())
    }

    /// Every folder above `path`, as written and as links resolve it, is
    /// ours or root's, and writable by nobody else unless sticky; a link on
    /// the way is ours or root's.
    pub fn safe_ancestors(path: &Path) -> Result<(), Untrusted> {
        let absolute = std::path::absolute(path).map_err(Untrusted::io(path))?;
        let resolved = absolute.canonicalize().map_err(Untrusted::io(path))?;
        let trusted = |uid: u32| uid == me() || uid == 0;
        for ancestor in absolute.ancestors().skip(1) {
            let Ok(metadata) = fs::symlink_metadata(ancestor) else { continue };
            if metadata.file_type().is_symlink() && !trusted(metadata.uid()) {
                return Err(Untrusted::ForeignLink { link: ancestor.to_path_buf(), uid: metadata.uid() });
            }
        }
        for ancestor in resolved.ancestors().skip(1) {
            let metadata = fs::metadata(ancestor).map_err(Untrusted::io(ancestor))?;
            let (path, folder) = (path.to_path_buf(), ancestor.to_path_buf());
            if !trusted(metadata.uid()) {
                return Err(Untrusted::InsideForeign { path, folder, uid: metadata.uid() });
            }
            if metadata.mode() & WRITABLE_BY_OTHERS != 0 && metadata.mode() & STICKY == 0 {
                return Err(Untrusted::InsideWritable { path, folder, mode: metadata.mode() & 0o7777 });
            }
        }
        Ok(())
    }
}

#[cfg(not(unix))]
mod elsewhere {
    use super::*;

    pub fn ours_and_private(_: &Path, _: &Metadata) -> Result<(), Untrusted> {
        Ok(())
    }

    pub fn ours_or_systems_and_private(_: &Path, _: &Metadata) -> Result<(), Untrusted> {
        Ok(())
    }

    pub fn safe_ancestors(_: &Path) -> Result<(), Untrusted> {
        Ok(())
    }
}

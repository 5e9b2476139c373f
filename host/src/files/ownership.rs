//! Who may have written a file or folder: the checks behind [`super::OwnDir`]
//! and [`super::read_code`]. On Unix by owner and mode; on Windows the
//! user's profile's access rights keep other users out, and nothing is
//! checked here.

use std::fs::Metadata;
use std::path::Path;

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
    pub fn ours_and_private(path: &Path, metadata: &Metadata) -> Result<(), String> {
        if metadata.uid() != me() {
            return Err(format!("{} belongs to another user (uid {})", path.display(), metadata.uid()));
        }
        private(path, metadata)
    }

    /// Ours or the system's (root's), and writable by nobody else: code
    /// installed for every user is as trusted as the user's own.
    pub fn ours_or_systems_and_private(path: &Path, metadata: &Metadata) -> Result<(), String> {
        if metadata.uid() != me() && metadata.uid() != 0 {
            return Err(format!("{} belongs to another user (uid {})", path.display(), metadata.uid()));
        }
        private(path, metadata)
    }

    fn private(path: &Path, metadata: &Metadata) -> Result<(), String> {
        if metadata.mode() & WRITABLE_BY_OTHERS != 0 {
            return Err(format!("{} may be written by others (mode {:o})", path.display(), metadata.mode() & 0o7777));
        }
        Ok(())
    }

    /// Every folder above `path`, as written and as links resolve it, is
    /// ours or root's, and writable by nobody else unless sticky; a link on
    /// the way is ours or root's.
    pub fn safe_ancestors(path: &Path) -> Result<(), String> {
        let absolute = std::path::absolute(path).map_err(|error| format!("{}: {error}", path.display()))?;
        let resolved = absolute.canonicalize().map_err(|error| format!("{}: {error}", path.display()))?;
        let trusted = |uid: u32| uid == me() || uid == 0;
        for ancestor in absolute.ancestors().skip(1) {
            let Ok(metadata) = fs::symlink_metadata(ancestor) else { continue };
            if metadata.file_type().is_symlink() && !trusted(metadata.uid()) {
                return Err(format!("{} is a link made by another user (uid {})", ancestor.display(), metadata.uid()));
            }
        }
        for ancestor in resolved.ancestors().skip(1) {
            let metadata = fs::metadata(ancestor).map_err(|error| format!("{}: {error}", ancestor.display()))?;
            if !trusted(metadata.uid()) {
                return Err(format!(
                    "{} is inside {}, which belongs to another user (uid {})",
                    path.display(),
                    ancestor.display(),
                    metadata.uid()
                ));
            }
            if metadata.mode() & WRITABLE_BY_OTHERS != 0 && metadata.mode() & STICKY == 0 {
                return Err(format!(
                    "{} is inside {}, which others may write to (mode {:o})",
                    path.display(),
                    ancestor.display(),
                    metadata.mode() & 0o7777
                ));
            }
        }
        Ok(())
    }
}

#[cfg(not(unix))]
mod elsewhere {
    use super::*;

    pub fn ours_and_private(_: &Path, _: &Metadata) -> Result<(), String> {
        Ok(())
    }

    pub fn ours_or_systems_and_private(_: &Path, _: &Metadata) -> Result<(), String> {
        Ok(())
    }

    pub fn safe_ancestors(_: &Path) -> Result<(), String> {
        Ok(())
    }
}

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

    const WRITABLE_BY_THE_WORLD: u32 = 0o002;
    const WRITABLE_BY_THE_GROUP: u32 = 0o020;
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
        if writable_by_others(metadata) {
            return Err(Untrusted::Writable { path: path.to_path_buf(), mode: metadata.mode() & 0o7777 });
        }
        Ok(())
    }

    /// Whether anyone but its owner may write to it: the world, or a group
    /// other than the owner's own. Systems that give each user a group of
    /// their own (named after them, with nobody else in it) make files with
    /// a umask of 002, group-writable by that group alone: no one else.
    fn writable_by_others(metadata: &Metadata) -> bool {
        let mode = metadata.mode();
        mode & WRITABLE_BY_THE_WORLD != 0
            || mode & WRITABLE_BY_THE_GROUP != 0 && !super::private_group::of(metadata.uid(), metadata.gid())
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
            if writable_by_others(&metadata) && metadata.mode() & STICKY == 0 {
                return Err(Untrusted::InsideWritable { path, folder, mode: metadata.mode() & 0o7777 });
            }
        }
        Ok(())
    }
}

/// Whether a group is a user's own: on Linux, read from the system's user
/// and group lists (as NSS serves them).
#[cfg(target_os = "linux")]
mod private_group {
    use std::ffi::CStr;

    /// Whether `gid` is the private group of the user `uid`: their primary
    /// group, of their name, with nobody else in it.
    pub fn of(uid: u32, gid: u32) -> bool {
        let mut buffer = vec![0 as libc::c_char; 16 << 10];
        // SAFETY: getpwuid_r and getgrgid_r write into records and a buffer
        // of ours, whose length goes with it; the strings read point into
        // that buffer, alive until it is dropped at the end.
        unsafe {
            let mut user: libc::passwd = std::mem::zeroed();
            let mut found = std::ptr::null_mut();
            if libc::getpwuid_r(uid, &mut user, buffer.as_mut_ptr(), buffer.len(), &mut found) != 0 || found.is_null() {
                return false;
            }
            if user.pw_gid != gid {
                return false;
            }
            let name = CStr::from_ptr(user.pw_name).to_owned();
            let mut group: libc::group = std::mem::zeroed();
            let mut found = std::ptr::null_mut();
            if libc::getgrgid_r(gid, &mut group, buffer.as_mut_ptr(), buffer.len(), &mut found) != 0 || found.is_null()
            {
                return false;
            }
            let mut member = group.gr_mem;
            while !member.is_null() && !(*member).is_null() {
                if CStr::from_ptr(*member) != name.as_c_str() {
                    return false;
                }
                member = member.add(1);
            }
            CStr::from_ptr(group.gr_name) == name.as_c_str()
        }
    }
}

/// Elsewhere no group is taken for a user's own: a group may write only
/// what nobody else needs to trust.
#[cfg(all(unix, not(target_os = "linux")))]
mod private_group {
    pub fn of(_uid: u32, _gid: u32) -> bool {
        false
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

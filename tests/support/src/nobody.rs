//! Running a program as `nobody` (uid and gid 65534), for what refuses
//! root (sway) or must run as someone the files at hand do not belong to:
//! through `setpriv` when the tests run as root, as the tests' own user
//! otherwise.

use std::ffi::OsStr;
use std::os::unix::fs::chown;
use std::path::Path;
use std::process::Command;

pub const NOBODY: u32 = 65534;

pub fn am_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// `program` as `nobody` when the tests run as root, with the `folders` it
/// writes into given to that user; else `program` as it is.
pub fn as_nobody_when_root(program: impl AsRef<OsStr>, folders: &[&Path]) -> Command {
    if !am_root() {
        return Command::new(program);
    }
    for folder in folders {
        chown(folder, Some(NOBODY), Some(NOBODY)).unwrap_or_else(|error| panic!("{}: {error}", folder.display()));
    }
    let mut command = Command::new("setpriv");
    command.args(["--reuid=65534", "--regid=65534", "--clear-groups"]).arg(program);
    command
}

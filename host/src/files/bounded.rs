//! The one reader for files someone else may have put in Obi's way: a
//! config, an icon a widget or a tray item names, a font. Only a regular
//! file is read (or opened to be mapped), and only up to the caller's
//! limit. It is opened without blocking and checked on the open file, so
//! a FIFO (or a path renamed to one between a check and the open) cannot
//! make the reader wait, and a device such as `/dev/urandom` is refused
//! instead of read for ever.

use super::ownership::Untrusted;
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Why a file was not read.
#[derive(Debug)]
pub enum Unreadable {
    Io(io::Error),
    /// Not a regular file: what it is instead.
    NotRegular(&'static str),
    TooLarge {
        size: u64,
        limit: u64,
    },
    /// Code that someone other than the user (or the system) may have written.
    Untrusted(Untrusted),
    /// A config that someone other than the user (or the system) may have
    /// written: it would run their commands.
    UntrustedConfig(Untrusted),
}

impl fmt::Display for Unreadable {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unreadable::Io(error) => write!(formatter, "{error}"),
            Unreadable::NotRegular(kind) => write!(formatter, "it is {kind}, not a regular file"),
            Unreadable::TooLarge { size, limit } => {
                write!(formatter, "it is {} large; at most {} is read", size_in_words(*size), size_in_words(*limit))
            }
            Unreadable::Untrusted(why) => {
                write!(formatter, "{why}; code is run only from the user's or the system's files")
            }
            Unreadable::UntrustedConfig(why) => write!(
                formatter,
                "{why}; a config runs commands, so the bar reads only one that is yours (or the system's) and that \
                 nobody else may write to: make it yours with `chown` and yours alone to write with `chmod go-w`"
            ),
        }
    }
}

/// Its message says what the cause said: the cause is not repeated as a source.
impl std::error::Error for Unreadable {}

/// The bytes of the regular file at `path`, when it holds at most `limit`.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, Unreadable> {
    read(path, limit, |_| Ok(()))
}

/// The bytes of the code at `path` (a widget's component), as
/// [`read_regular`] reads them, when the file is the user's or the system's
/// and nobody else may write to it.
pub fn read_code(path: &Path, limit: u64) -> Result<Vec<u8>, Unreadable> {
    read(path, limit, |metadata| {
        super::ownership::ours_or_systems_and_private(path, metadata).map_err(Unreadable::Untrusted)
    })
}

/// The bytes of the config at `path`, as [`read_regular`] reads them, when
/// the file is the user's or the system's and nobody else may write to it:
/// a config runs commands, as code does.
pub fn read_config(path: &Path, limit: u64) -> Result<Vec<u8>, Unreadable> {
    read(path, limit, |metadata| {
        super::ownership::ours_or_systems_and_private(path, metadata).map_err(Unreadable::UntrustedConfig)
    })
}

/// The regular file at `path` opened, when it holds at most `limit`, for
/// one who maps it rather than reads it (a font, of which a bar draws a
/// few glyphs).
pub fn open_regular(path: &Path, limit: u64) -> Result<File, Unreadable> {
    open_checked(path, limit, |_| Ok(())).map(|(file, _)| file)
}

fn open_checked(
    path: &Path,
    limit: u64,
    trusted: impl Fn(&std::fs::Metadata) -> Result<(), Unreadable>,
) -> Result<(File, std::fs::Metadata), Unreadable> {
    let file = open_without_waiting(path).map_err(Unreadable::Io)?;
    let metadata = file.metadata().map_err(Unreadable::Io)?;
    if !metadata.is_file() {
        return Err(Unreadable::NotRegular(kind_of(&metadata.file_type())));
    }
    trusted(&metadata)?;
    if metadata.len() > limit {
        return Err(Unreadable::TooLarge { size: metadata.len(), limit });
    }
    Ok((file, metadata))
}

fn read(
    path: &Path,
    limit: u64,
    trusted: impl Fn(&std::fs::Metadata) -> Result<(), Unreadable>,
) -> Result<Vec<u8>, Unreadable> {
    let (file, metadata) = open_checked(path, limit, trusted)?;
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    // One byte past the limit tells a file that grew since its size was read.
    file.take(limit + 1).read_to_end(&mut bytes).map_err(Unreadable::Io)?;
    if bytes.len() as u64 > limit {
        return Err(Unreadable::TooLarge { size: bytes.len() as u64, limit });
    }
    Ok(bytes)
}

#[cfg(unix)]
fn open_without_waiting(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK makes opening a FIFO return at once; reading a regular
    // file does not heed it.
    let flags = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY;
    std::fs::OpenOptions::new().read(true).custom_flags(flags.bits() as i32).open(path)
}

#[cfg(not(unix))]
fn open_without_waiting(path: &Path) -> io::Result<File> {
    File::open(path)
}

fn kind_of(file_type: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() { "a directory" } else { "not a file" }
}

/// `bytes` as a person would say it: "1 MiB", "52.4 MiB", "300 bytes".
fn size_in_words(bytes: u64) -> String {
    const MIB: u64 = 1 << 20;
    const KIB: u64 = 1 << 10;
    match bytes {
        bytes if bytes >= MIB && bytes % MIB == 0 => format!("{} MiB", bytes / MIB),
        bytes if bytes >= MIB => format!("{:.1} MiB", bytes as f64 / MIB as f64),
        bytes if bytes >= KIB => format!("{:.1} KiB", bytes as f64 / KIB as f64),
        bytes => format!("{bytes} bytes"),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn a_regular_file_is_read_up_to_its_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("file");
        std::fs::write(&path, b"twelve bytes").unwrap();
        assert_eq!(read_regular(&path, 12).unwrap(), b"twelve bytes");
        let refused = read_regular(&path, 11).unwrap_err();
        assert_eq!(refused.to_string(), "it is 12 bytes large; at most 11 bytes is read");
    }

    #[test]
    fn a_fifo_a_device_and_a_directory_are_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        let started = Instant::now();
        assert_eq!(read_regular(&fifo, 1 << 20).unwrap_err().to_string(), "it is a FIFO, not a regular file");
        assert!(started.elapsed() < Duration::from_secs(1), "nobody writes to the FIFO, and the reader did not wait");
        let device = read_regular(Path::new("/dev/urandom"), 1 << 20).unwrap_err();
        assert_eq!(device.to_string(), "it is a device, not a regular file");
        let directory = read_regular(dir.path(), 1 << 20).unwrap_err();
        assert_eq!(directory.to_string(), "it is a directory, not a regular file");
    }

    #[test]
    fn code_others_may_write_to_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("widget.wasm");
        std::fs::write(&path, b"\0asm").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(read_code(&path, 1 << 20).unwrap(), b"\0asm");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o666)).unwrap();
        let refused = read_code(&path, 1 << 20).unwrap_err().to_string();
        assert!(refused.contains("may be written by others (mode 666)"), "{refused}");
        assert!(read_regular(&path, 1 << 20).is_ok(), "data is read from it still");
    }

    #[test]
    fn a_config_others_may_write_to_is_refused_saying_how_to_mend_it() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("komorebi.bar.json");
        std::fs::write(&path, b"{}").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(read_config(&path, 1 << 20).unwrap(), b"{}");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o666)).unwrap();
        let refused = read_config(&path, 1 << 20).unwrap_err().to_string();
        assert!(refused.contains("may be written by others (mode 666); a config runs commands"), "{refused}");
        assert!(refused.contains("`chmod go-w`"), "{refused}");
    }

    /// A group of the user's own (named after them, nobody else in it) may
    /// write, as a umask of 002 leaves files; another group may not. Root's
    /// group is root's own.
    #[cfg(target_os = "linux")]
    #[test]
    fn only_the_users_own_group_may_write_to_a_config() {
        use std::os::unix::fs::PermissionsExt;
        if !obi_test_support::nobody::am_root() {
            obi_test_support::skip::unavailable("group-writable config test: it gives files away, as root");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("komorebi.bar.json");
        std::fs::write(&path, b"{}").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o664)).unwrap();
        std::os::unix::fs::chown(&path, Some(0), Some(0)).unwrap();
        assert!(read_config(&path, 1 << 20).is_ok(), "root's own group");
        let nogroup = obi_test_support::nobody::NOBODY;
        std::os::unix::fs::chown(&path, Some(0), Some(nogroup)).unwrap();
        let refused = read_config(&path, 1 << 20).unwrap_err().to_string();
        assert!(refused.contains("may be written by others (mode 664)"), "{refused}");
        std::os::unix::fs::chown(&path, Some(nogroup), Some(0)).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let refused = read_config(&path, 1 << 20).unwrap_err().to_string();
        assert!(refused.contains(&format!("belongs to another user (uid {nogroup})")), "{refused}");
    }

    #[test]
    fn sizes_are_said_in_words() {
        assert_eq!(size_in_words(1 << 20), "1 MiB");
        assert_eq!(size_in_words(50_000_000), "47.7 MiB");
        assert_eq!(size_in_words(2048), "2.0 KiB");
    }
}

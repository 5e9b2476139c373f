//! The local file a `file://` address names (a cover's, a notification's
//! image), for the readers of `bounded`.

use std::path::PathBuf;

/// The path of a `file://` address's rest (`/home/me/My%20Album/cover.jpg`,
/// or with a host, `localhost/…`), its `%XX` escapes decoded.
pub fn path_of_file_url(rest: &str) -> anyhow::Result<PathBuf> {
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    anyhow::ensure!(path.starts_with('/'), "{rest:?} names no local file");
    let mut bytes = Vec::with_capacity(path.len());
    let mut remaining = path.as_bytes();
    while let Some((&byte, rest)) = remaining.split_first() {
        let escaped = (byte == b'%')
            .then(|| rest.get(..2))
            .flatten()
            .and_then(|hex| u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok());
        match escaped {
            Some(decoded) => {
                bytes.push(decoded);
                remaining = &rest[2..];
            }
            None => {
                bytes.push(byte);
                remaining = rest;
            }
        }
    }
    #[cfg(unix)]
    return Ok(<std::ffi::OsString as std::os::unix::ffi::OsStringExt>::from_vec(bytes).into());
    #[cfg(not(unix))]
    return Ok(PathBuf::from(String::from_utf8(bytes)?));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_addresses_are_decoded_to_paths() {
        assert_eq!(
            path_of_file_url("/home/me/My%20Album/cover.jpg").unwrap(),
            PathBuf::from("/home/me/My Album/cover.jpg")
        );
        assert_eq!(path_of_file_url("localhost/tmp/a%2").unwrap(), PathBuf::from("/tmp/a%2"));
        assert!(path_of_file_url("server/share/cover.jpg").is_err());
    }
}

//! Where the families that only the whole listing of the system's fonts
//! found were, remembered across starts: a family no font file is named
//! after (Noto Sans CJK JP is in `NotoSansCJK-Regular.ttc`) costs reading
//! every installed face's header once, and one file from then on. Kept as
//! `families.json` in a folder of the user's own (see [`OwnDir`]): what it
//! names is only ever read as a font, and a remembered file that no longer
//! has the family is looked for again.

use super::font_data::{FontBytes, FontData};
use crate::files::{OwnDir, read_regular};
use fontdb::{Database, Family, Query, Source, Stretch, Style, Weight};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const FILE: &str = "families.json";

/// More than a bar's families, fewer than would make the file slow to read.
const REMEMBERED: usize = 64;

/// The folder the remembered families are kept in, or none; made only
/// when there is something to remember.
pub struct FontMemory {
    dir: Option<PathBuf>,
}

impl FontMemory {
    /// `$XDG_CACHE_HOME/obi/fonts`, else `~/.cache/obi/fonts` (on Windows
    /// `%LOCALAPPDATA%\obi\fonts`); none without any, or when that folder
    /// may not be used (the reason is logged when it is first needed).
    pub fn from_environment() -> FontMemory {
        let cache = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("LOCALAPPDATA").filter(|_| cfg!(windows)).map(PathBuf::from))
            .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")));
        FontMemory::at(cache.map(|cache| cache.join("obi").join("fonts")))
    }

    pub fn at(dir: Option<PathBuf>) -> FontMemory {
        FontMemory { dir }
    }

    /// `family`'s face from the file it was last found in, when that file still has it.
    pub fn recall(&self, family: &str) -> Option<(PathBuf, FontData)> {
        let path = self.remembered().remove(family)?;
        let data = face_in_files(family, [&path])?;
        Some((path, data))
    }

    /// Remembers that `family` is in the file at `path`.
    pub fn remember(&self, family: &str, path: &Path) {
        let Some(dir) = &self.dir else { return };
        let dir = match OwnDir::new(dir) {
            Ok(dir) => dir,
            Err(why) => return tracing::warn!("not remembering where font {family:?} is: {why:#}"),
        };
        let mut remembered = self.remembered();
        if remembered.len() >= REMEMBERED {
            remembered.clear();
        }
        remembered.insert(family.to_owned(), path.to_path_buf());
        let written =
            serde_json::to_vec(&remembered).map_err(std::io::Error::other).and_then(|json| dir.write(FILE, &json));
        if let Err(error) = written {
            tracing::warn!("could not remember where font {family:?} is, in {}: {error}", dir.path().display());
        }
    }

    /// The families remembered, by their name; none when the
    /// file is missing, not the user's own, or not what this writes.
    fn remembered(&self) -> BTreeMap<String, PathBuf> {
        let Some(dir) = &self.dir else { return BTreeMap::new() };
        if !dir.exists() {
            return BTreeMap::new();
        }
        let trusted = OwnDir::existing(dir).and_then(|dir| dir.trusted_file(FILE));
        let path = match trusted {
            Ok(Some(path)) => path,
            Ok(None) => return BTreeMap::new(),
            Err(why) => {
                tracing::warn!("not reading where fonts were: {why:#}");
                return BTreeMap::new();
            }
        };
        let read = read_regular(&path, 64 << 10).map_err(|error| error.to_string());
        match read.and_then(|bytes| serde_json::from_slice(&bytes).map_err(|error| error.to_string())) {
            Ok(remembered) => remembered,
            Err(error) => {
                tracing::warn!("ignoring {}: {error}", path.display());
                BTreeMap::new()
            }
        }
    }
}

/// The regular face of `family` in `database`, its name matched in any
/// case ("dejavu sans" finds "DejaVu Sans"), as people type it in a config.
pub(super) fn query_family(database: &Database, family: &str) -> Option<fontdb::ID> {
    let exact = database.query(&Query { families: &[Family::Name(family)], ..Query::default() });
    exact.or_else(|| {
        let wanted = family.to_lowercase();
        let named = database.faces().flat_map(|face| &face.families).find(|(name, _)| name.to_lowercase() == wanted);
        named.and_then(|(name, _)| database.query(&Query { families: &[Family::Name(name)], ..Query::default() }))
    })
}

/// Font files larger than this are not mapped (a collection of every CJK
/// weight is about 100 MB).
const FONT_FILE_BYTES: u64 = 128 << 20;

/// The face of `family` in the font files among `files` that have one.
/// Only regular files are mapped, through the bounded opener (a FIFO named
/// like a font would hold the bar for ever); files that cannot be read as
/// fonts, and a face the painter could not draw with, are passed over.
pub(super) fn face_in_files<'p>(family: &str, files: impl IntoIterator<Item = &'p PathBuf>) -> Option<FontData> {
    let mut database = Database::new();
    for path in files {
        match FontBytes::map(path, FONT_FILE_BYTES) {
            Ok(bytes) => drop(database.load_font_source(Source::Binary(bytes.shared()))),
            Err(why) => tracing::warn!("font file {} is not read: {why}", path.display()),
        }
    }
    usable_face(&database, family).map(|(_, data)| data)
}

/// The regular face of `family` in `database` that the painter can draw
/// with: the one [`query_family`] finds, else another regular face of the
/// family (a corrupt copy of a font beside a good one is passed over).
pub(super) fn usable_face(database: &Database, family: &str) -> Option<(fontdb::ID, FontData)> {
    let regular = |info: &&fontdb::FaceInfo| {
        info.families.iter().any(|(name, _)| name.eq_ignore_ascii_case(family))
            && (info.weight, info.style, info.stretch) == (Weight::NORMAL, Style::Normal, Stretch::Normal)
    };
    let others = database.faces().filter(regular).map(|info| info.id);
    query_family(database, family).into_iter().chain(others).find_map(|id| {
        let (bytes, index) = face_bytes(database, id)?;
        let data = FontData::usable(bytes, index)
            .inspect_err(|error| tracing::warn!("a font of {family:?} cannot be drawn with ({error}): looking further"))
            .ok()?;
        Some((id, data))
    })
}

/// The bytes of face `id` of `database`, and which face of them it is:
/// those it was loaded from, else its file mapped; never a copy.
pub(super) fn face_bytes(database: &Database, id: fontdb::ID) -> Option<(FontBytes, u32)> {
    match database.face_source(id)? {
        (Source::Binary(bytes) | Source::SharedFile(_, bytes), index) => Some((FontBytes::from_shared(bytes), index)),
        (Source::File(path), index) => match FontBytes::map(&path, FONT_FILE_BYTES) {
            Ok(bytes) => Some((bytes, index)),
            Err(why) => {
                tracing::warn!("font file {} is not read: {why}", path.display());
                None
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEJAVU: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

    #[test]
    fn a_family_remembered_is_recalled_from_its_file_while_the_file_has_it() {
        if !Path::new(DEJAVU).exists() {
            obi_test_support::skip::unavailable("DejaVu Sans is not installed (fonts-dejavu-core)");
            return;
        }
        let cache = tempfile::tempdir().unwrap();
        let fonts = tempfile::tempdir().unwrap();
        let renamed = fonts.path().join("not-its-name.ttf");
        std::fs::copy(DEJAVU, &renamed).unwrap();
        let memory = FontMemory::at(Some(cache.path().join("fonts")));
        assert!(memory.recall("DejaVu Sans").is_none(), "nothing remembered yet");
        memory.remember("DejaVu Sans", &renamed);
        let (path, data) = FontMemory::at(Some(cache.path().join("fonts"))).recall("DejaVu Sans").expect("recalled");
        assert_eq!(path, renamed);
        assert!(*data.bytes == *std::fs::read(DEJAVU).unwrap());
        memory.remember("Some Other Family", &renamed);
        assert!(memory.recall("Some Other Family").is_none(), "a file without the family is not used");
        std::fs::remove_file(&renamed).unwrap();
        assert!(memory.recall("DejaVu Sans").is_none(), "nor a file that is gone");
    }

    #[cfg(unix)]
    #[test]
    fn a_memory_others_may_write_is_not_read() {
        use std::os::unix::fs::PermissionsExt;
        let cache = tempfile::tempdir().unwrap();
        let memory = FontMemory::at(Some(cache.path().join("fonts")));
        memory.remember("DejaVu Sans", Path::new(DEJAVU));
        assert_eq!(memory.remembered().len(), 1);
        let file = cache.path().join("fonts").join(FILE);
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o666)).unwrap();
        assert!(memory.remembered().is_empty(), "a file others may have written is ignored");
        std::fs::write(&file, b"not json").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert!(memory.remembered().is_empty(), "as is one that is not what obi writes");
    }
}

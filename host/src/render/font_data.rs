//! A face of a font file as the bars and painters pass it around: the
//! file's bytes, shared, and which of its faces it is.

use crate::files::{Unreadable, open_regular};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::ops::Deref;
use std::path::Path;
use std::sync::Arc;

/// A face of a font file, as the painters take it: the file's bytes,
/// shared by whoever draws with it (the painters hold the same bytes as
/// the bars that name them, not copies), and which of its faces it is. A
/// collection (`.ttc`) holds several: Noto Sans CJK's languages, most of
/// macOS's system fonts, Windows' Cambria Math beside Cambria.
#[derive(Clone)]
pub struct FontData {
    pub bytes: FontBytes,
    pub index: u32,
    /// Tells this face from another without reading its bytes again.
    key: u64,
}

/// A font file's bytes: a file mapped, or the program's own (the icon
/// font), used where they are and never copied, so that only the pages
/// of the glyphs drawn are ever read into memory.
#[derive(Clone)]
pub struct FontBytes(Arc<dyn AsRef<[u8]> + Send + Sync>);

impl FontBytes {
    pub fn from_static(bytes: &'static [u8]) -> FontBytes {
        FontBytes(Arc::new(bytes))
    }

    /// The font file at `path` mapped, when it is a regular file of at most
    /// `limit` bytes: only the pages of what is drawn are read.
    pub fn map(path: &Path, limit: u64) -> Result<FontBytes, Unreadable> {
        let file = open_regular(path, limit)?;
        // SAFETY: the map is only read. A font file changed in place while
        // mapped would change (or, cut short, fault) under the reader; fonts
        // are installed by the system or the user and replaced, not
        // rewritten, as fontconfig, FreeType and fontique, which map every
        // font they use, count on too.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(Unreadable::Io)?;
        Ok(FontBytes(Arc::new(map)))
    }

    /// Bytes as fontdb holds them, shared rather than copied.
    pub fn from_shared(bytes: Arc<dyn AsRef<[u8]> + Send + Sync>) -> FontBytes {
        FontBytes(bytes)
    }

    /// The bytes as fontdb takes them, shared.
    pub fn shared(&self) -> Arc<dyn AsRef<[u8]> + Send + Sync> {
        self.0.clone()
    }
}

impl From<Arc<[u8]>> for FontBytes {
    fn from(bytes: Arc<[u8]>) -> FontBytes {
        FontBytes(Arc::new(bytes))
    }
}

impl Deref for FontBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        (*self.0).as_ref()
    }
}

impl AsRef<[u8]> for FontBytes {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

/// How much of a font file its key is made from: the table directory,
/// which holds every table's length and checksum, is in its first bytes.
const KEYED_BYTES: usize = 4096;

impl FontData {
    /// The face `index` of `bytes`, when it can be drawn with: a face whose
    /// tables the painter cannot read (an `unitsPerEm` or a `maxp` of 0)
    /// is no font, and one who wants it looks further.
    pub fn usable(bytes: impl Into<FontBytes>, index: u32) -> Result<FontData, ttf_parser::FaceParsingError> {
        let bytes = bytes.into();
        ttf_parser::Face::parse(&bytes, index)?;
        Ok(FontData::new(bytes, index))
    }

    pub fn new(bytes: impl Into<FontBytes>, index: u32) -> FontData {
        let bytes = bytes.into();
        // Keyed by the file's head and length, not all of it: hashing every
        // byte would read the whole file into memory for a few glyphs.
        let mut hasher = DefaultHasher::new();
        (&bytes[..bytes.len().min(KEYED_BYTES)], bytes.len(), index).hash(&mut hasher);
        FontData { bytes, index, key: hasher.finish() }
    }

    /// Equal for the same face of the same bytes, wherever they are held;
    /// two files alike in their heads and lengths (a font forged to be)
    /// would share it, and then draw with each other's glyphs.
    pub fn key(&self) -> u64 {
        self.key
    }
}

impl std::fmt::Debug for FontData {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("FontData").field("key", &self.key).field("index", &self.index).finish()
    }
}

impl PartialEq for FontData {
    fn eq(&self, other: &FontData) -> bool {
        self.key == other.key
            && self.index == other.index
            && (Arc::ptr_eq(&self.bytes.0, &other.bytes.0) || *self.bytes == *other.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_bytes_held_twice_are_the_same_face_and_others_are_not() {
        let font = std::fs::read("assets/Phosphor.ttf").unwrap();
        let held = FontData::new(FontBytes::from_static(font.clone().leak()), 0);
        let copy = FontData::new(Arc::<[u8]>::from(font.clone()), 0);
        assert!(held == copy && held.key() == copy.key());
        assert!(held != FontData::new(Arc::<[u8]>::from(font.clone()), 1), "another face of the same file");
        // A file differing only past its head is another font.
        let mut altered = font;
        *altered.last_mut().unwrap() ^= 1;
        assert!(held != FontData::new(Arc::<[u8]>::from(altered), 0));
    }
}

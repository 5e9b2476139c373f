//! A face of a font file as the bars and painters pass it around: the
//! file's bytes, shared, and which of its faces it is.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

/// A face of a font file, as the painters take it: the file's bytes,
/// shared by whoever draws with it (the painters hold the same bytes as
/// the bars that name them, not copies), and which of its faces it is. A
/// collection (`.ttc`) holds several: Noto Sans CJK's languages, most of
/// macOS's system fonts, Windows' Cambria Math beside Cambria.
#[derive(Clone)]
pub struct FontData {
    pub bytes: Arc<[u8]>,
    pub index: u32,
    /// Tells this face from another without reading its bytes again.
    key: u64,
}

impl FontData {
    /// The face `index` of `bytes`, when it can be drawn with: a face whose
    /// tables the painter cannot read (an `unitsPerEm` or a `maxp` of 0)
    /// is no font, and one who wants it looks further.
    pub fn usable(bytes: Arc<[u8]>, index: u32) -> Result<FontData, ttf_parser::FaceParsingError> {
        ttf_parser::Face::parse(&bytes, index)?;
        Ok(FontData::new(bytes, index))
    }

    pub fn new(bytes: Arc<[u8]>, index: u32) -> FontData {
        let mut hasher = DefaultHasher::new();
        (&*bytes, index).hash(&mut hasher);
        FontData { bytes, index, key: hasher.finish() }
    }

    /// Equal for the same face of the same bytes, wherever they are held.
    pub fn key(&self) -> u64 {
        self.key
    }
}

impl PartialEq for FontData {
    fn eq(&self, other: &FontData) -> bool {
        self.key == other.key && self.index == other.index && self.bytes == other.bytes
    }
}

//! Font collections (`.ttc`) made from single fonts, for the tests of how
//! a face in a collection is found and drawn: the machines the tests run
//! on have DejaVu's single `.ttf` files, while Noto Sans CJK and most of
//! macOS's fonts come as collections. And a font broken in the one way
//! that font listings do not notice and a painter does.

use std::path::Path;

/// The DejaVu fonts every test machine has (fonts-dejavu-core).
pub const DEJAVU_SANS: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
pub const DEJAVU_SANS_MONO: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";

/// A collection of the fonts in `files`, in that order (face 0 is the
/// first); none, having said so, when one is missing.
pub fn collection_of(files: &[&str]) -> Option<Vec<u8>> {
    let mut fonts = Vec::new();
    for file in files {
        match std::fs::read(Path::new(file)) {
            Ok(font) => fonts.push(font),
            Err(error) => {
                crate::skip::unavailable(&format!("{file} ({error}): install fonts-dejavu-core"));
                return None;
            }
        }
    }
    Some(collection(&fonts))
}

/// A TrueType collection of `fonts` (whole sfnt files): its header lists
/// where each font's table directory is, and each font's tables, copied
/// after it, are found at offsets from the start of the collection.
pub fn collection(fonts: &[Vec<u8>]) -> Vec<u8> {
    let count = u32::try_from(fonts.len()).expect("a few fonts");
    let mut out = Vec::new();
    out.extend_from_slice(b"ttcf");
    out.extend_from_slice(&0x0001_0000u32.to_be_bytes());
    out.extend_from_slice(&count.to_be_bytes());
    let header = out.len() + 4 * fonts.len();
    let mut starts = Vec::new();
    let mut at = header;
    for font in fonts {
        starts.push(at);
        at += font.len().next_multiple_of(4);
    }
    for start in &starts {
        out.extend_from_slice(&u32::try_from(*start).expect("a small collection").to_be_bytes());
    }
    for (font, start) in fonts.iter().zip(starts) {
        let mut font = font.clone();
        let tables = usize::from(u16::from_be_bytes([font[4], font[5]]));
        for record in 0..tables {
            // Each record: tag, checksum, offset, length; the offset moves.
            let offset = 12 + 16 * record + 8;
            let old = u32::from_be_bytes(font[offset..offset + 4].try_into().unwrap());
            let new = old + u32::try_from(start).expect("a small collection");
            font[offset..offset + 4].copy_from_slice(&new.to_be_bytes());
        }
        font.resize(font.len().next_multiple_of(4), 0);
        out.extend_from_slice(&font);
    }
    out
}

/// `font` (a whole sfnt file) with its `head` table saying it has 0 units
/// per em: fontdb lists it, a painter cannot draw with it.
pub fn with_no_units_per_em(font: &[u8]) -> Vec<u8> {
    let mut bytes = font.to_vec();
    let tables = u16::from_be_bytes([bytes[4], bytes[5]]) as usize;
    let head = (0..tables).map(|table| 12 + 16 * table).find(|&record| &bytes[record..record + 4] == b"head");
    let record = head.expect("a head table");
    let offset = u32::from_be_bytes(bytes[record + 8..record + 12].try_into().unwrap()) as usize;
    bytes[offset + 18..offset + 20].copy_from_slice(&[0, 0]);
    bytes
}

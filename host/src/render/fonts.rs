//! Finds the bar's text font among the system's fonts (fontdb) and supplies
//! the embedded icon font, as bytes ready for the painter. The system's
//! fonts are listed once a process, for all its bars.

use anyhow::Context;
use fontdb::{Database, Family, Query};
use std::sync::OnceLock;

/// Phosphor Regular (MIT licence, `host/assets/Phosphor-LICENSE.txt`): the
/// icon glyphs widgets name, so icons render on any machine.
pub const ICON_FONT: &[u8] = include_bytes!("../../assets/Phosphor.ttf");

/// Families tried, in order, when the configured one is missing or unset.
const FALLBACK_FAMILIES: &[&str] =
    &["DejaVu Sans", "Noto Sans", "Liberation Sans", "Cantarell", "Ubuntu", "Segoe UI", "Arial"];

/// What a system without fonts lacks, in its own words.
#[cfg(windows)]
const NO_FONTS: &str = "no fonts are installed on this system (Windows keeps them in C:\\Windows\\Fonts)";
#[cfg(not(windows))]
const NO_FONTS: &str = "no fonts are installed on this system (install fonts-dejavu-core, for example)";

pub struct TextFont {
    pub family: String,
    pub data: Vec<u8>,
}

/// The configured family if installed, else a common sans-serif, else any
/// font at all. Fails only on a system without fonts.
pub fn find_text_font(wanted: Option<&str>) -> anyhow::Result<TextFont> {
    let database = system_fonts();
    let lookup = |family: &str| database.query(&Query { families: &[Family::Name(family)], ..Query::default() });
    let found = match wanted.and_then(|family| lookup(family).map(|id| (family, id))) {
        Some(found) => Some(found),
        None => {
            if let Some(family) = wanted {
                tracing::warn!("font family {family:?} is not installed; see `fc-list : family` for the ones that are");
            }
            FALLBACK_FAMILIES.iter().find_map(|family| lookup(family).map(|id| (*family, id)))
        }
    };
    let (id, family) = match found {
        Some((family, id)) => (id, family.to_owned()),
        None => {
            let face = database.faces().next().context(NO_FONTS)?;
            (face.id, face.families.first().map(|(name, _)| name.clone()).unwrap_or_default())
        }
    };
    let data = database
        .with_face_data(id, |data, _index| data.to_vec())
        .with_context(|| format!("could not read the font file of {family:?}"))?;
    Ok(TextFont { family, data })
}

/// The font families installed on this system, sorted, each once.
pub fn families() -> Vec<String> {
    let mut names: Vec<String> =
        system_fonts().faces().flat_map(|face| face.families.iter().map(|(name, _)| name.clone())).collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// The fonts installed on this system, as listed the first time they are asked for.
fn system_fonts() -> &'static Database {
    static SYSTEM_FONTS: OnceLock<Database> = OnceLock::new();
    SYSTEM_FONTS.get_or_init(|| {
        let mut database = Database::new();
        database.load_system_fonts();
        database
    })
}

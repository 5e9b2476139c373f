//! Finds the bar's text font among the system's fonts (fontdb) and supplies
//! the embedded icon font, as bytes ready for the painter. A family is
//! looked for first among the font files named after it (`DejaVu Sans` is
//! in `DejaVuSans.ttf`, `Segoe UI` in `segoeui.ttf`): reading every
//! installed face's header costs a desktop with hundreds of faces most of
//! a bar's start. Next comes the file the family was found in before
//! ([`FontMemory`]). Only when none of those has it are the system's fonts
//! listed, for all the process's bars, and listed again only once the
//! font folders hold other files (a font installed while the bar runs is
//! found at the next reload).

use super::font_data::{FontBytes, FontData};
use super::font_memory::{FontMemory, face_bytes, face_in_files, usable_face};
use crate::sync::lock;
use anyhow::Context;
use fontdb::{Database, Source};
use std::path::PathBuf;
use std::sync::{Arc, LazyLock, Mutex};

/// Phosphor Regular (MIT licence, `host/assets/Phosphor-LICENSE.txt`): the
/// icon glyphs widgets name, so icons render on any machine.
const ICON_FONT: &[u8] = include_bytes!("../../assets/Phosphor.ttf");

/// The icon font, drawn from where it is in the program.
pub fn icon_font() -> FontData {
    static ICONS: LazyLock<FontData> = LazyLock::new(|| FontData::new(FontBytes::from_static(ICON_FONT), 0));
    ICONS.clone()
}

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
    pub data: FontData,
}

/// The configured family if installed, else a common sans-serif, else any
/// font at all. Fails only on a system without fonts.
pub fn find_text_font(wanted: Option<&str>) -> anyhow::Result<TextFont> {
    let files = font_files();
    find_text_font_in(wanted, &files, &FontMemory::from_environment(), || system_fonts(&files))
}

/// [`find_text_font`] among `files` by their names, then in `memory`, then
/// in the `listing` of every installed face.
fn find_text_font_in(
    wanted: Option<&str>,
    files: &[PathBuf],
    memory: &FontMemory,
    listing: impl FnOnce() -> Arc<Database>,
) -> anyhow::Result<TextFont> {
    let first_choice = match wanted {
        Some(family) => named_files(family, files),
        None => FALLBACK_FAMILIES.iter().find_map(|family| named_files(family, files)),
    };
    if let Some(found) = first_choice {
        return Ok(found);
    }
    if let Some(family) = wanted
        && let Some((_, data)) = memory.recall(family)
    {
        return Ok(TextFont { family: family.to_owned(), data });
    }
    let database = listing();
    // A face the listing names but the painter could not draw with (or
    // whose file went) is passed over for the next choice.
    let found = |family: &str| usable_face(&database, family);
    if let Some(family) = wanted {
        if let Some((id, data)) = found(family) {
            if let Some((Source::File(path) | Source::SharedFile(path, _), _)) = database.face_source(id) {
                memory.remember(family, &path);
            }
            return Ok(TextFont { family: family.to_owned(), data });
        }
        tracing::warn!("font family {family:?} is not installed; see `fc-list : family` for the ones that are");
    }
    if let Some((family, data)) = FALLBACK_FAMILIES.iter().find_map(|family| Some((*family, found(family)?.1))) {
        return Ok(TextFont { family: family.to_owned(), data });
    }
    let any = database.faces().find_map(|info| {
        let family = info.families.first().map(|(name, _)| name.clone()).unwrap_or_default();
        let (bytes, index) = face_bytes(&database, info.id)?;
        let data = FontData::usable(bytes, index).ok()?;
        Some(TextFont { data, family })
    });
    any.context(NO_FONTS)
}

/// `family`, found among those of `files` named after it (see
/// [`named_after`]); none when none of them has it.
fn named_files(family: &str, files: &[PathBuf]) -> Option<TextFont> {
    let stem: String = family.chars().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase).collect();
    if stem.is_empty() {
        return None;
    }
    let named = files.iter().filter(|path| named_after(path, &stem));
    // Each file named is read whole: the regular face's own file first
    // (`DejaVuSans.ttf`, `Roboto-Regular.ttf`), so that a family's bold and
    // italic files are read only when it has none.
    let (regular, others): (Vec<&PathBuf>, Vec<&PathBuf>) = named.partition(|path| names_the_regular(path, &stem));
    let data = face_in_files(family, regular).or_else(|| face_in_files(family, others))?;
    Some(TextFont { family: family.to_owned(), data })
}

/// Whether the file at `path`, named after the family `stem`, is named for
/// its regular face: the family's name alone, or with `-Regular`.
fn names_the_regular(path: &std::path::Path, stem: &str) -> bool {
    let Some(name) = path.file_stem() else { return false };
    let name = name.to_string_lossy().to_lowercase();
    matches!(name.strip_prefix(stem), Some("" | "-regular" | "_regular"))
}

/// Whether the file at `path` is named for the family `stem` (its name,
/// without spaces, in lower case): `DejaVuSans.ttf` and
/// `DejaVuSans-Bold.ttf` are, `DejaVuSansMono.ttf` is not.
fn named_after(path: &std::path::Path, stem: &str) -> bool {
    let Some(name) = path.file_stem() else { return false };
    let name = name.to_string_lossy().to_lowercase();
    name.strip_prefix(stem).is_some_and(|rest| rest.is_empty() || rest.starts_with(['-', '_']))
}

/// Every file in the folders where fonts are kept, by name alone (none is
/// read), sorted: the same folders give the same list.
fn font_files() -> Vec<PathBuf> {
    let (mut files, mut pending) = (Vec::new(), font_dirs());
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => pending.push(entry.path()),
                Ok(_) => files.push(entry.path()),
                Err(_) => {}
            }
        }
    }
    files.sort_unstable();
    files
}

/// Where the system and the user keep font files.
fn font_dirs() -> Vec<PathBuf> {
    let home = std::env::var_os(if cfg!(windows) { "USERPROFILE" } else { "HOME" }).map(PathBuf::from);
    let mut dirs = Vec::new();
    if cfg!(windows) {
        dirs.extend(std::env::var_os("WINDIR").map(|windows| PathBuf::from(windows).join("Fonts")));
        dirs.extend(
            std::env::var_os("LOCALAPPDATA").map(|local| PathBuf::from(local).join("Microsoft\\Windows\\Fonts")),
        );
    } else if cfg!(target_os = "macos") {
        dirs.extend(["/Library/Fonts", "/System/Library/Fonts"].map(PathBuf::from));
        dirs.extend(home.map(|home| home.join("Library/Fonts")));
    } else {
        dirs.extend(["/usr/share/fonts", "/usr/local/share/fonts"].map(PathBuf::from));
        let data_home = std::env::var_os("XDG_DATA_HOME")
            .map(PathBuf::from)
            .or_else(|| home.as_ref().map(|home| home.join(".local/share")));
        dirs.extend(data_home.map(|data| data.join("fonts")));
        dirs.extend(home.map(|home| home.join(".fonts")));
    }
    dirs
}

/// The font families installed on this system, sorted, each once.
pub fn families() -> Vec<String> {
    let mut names: Vec<String> = system_fonts(&font_files())
        .faces()
        .flat_map(|face| face.families.iter().map(|(name, _)| name.clone()))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// The system's fonts as listed when the font folders held `files`.
struct Listing {
    files: Vec<PathBuf>,
    database: Arc<Database>,
}

/// The fonts installed on this system, now that the font folders hold `files`.
fn system_fonts(files: &[PathBuf]) -> Arc<Database> {
    static LISTED: Mutex<Option<Listing>> = Mutex::new(None);
    listing_for(&LISTED, files, || {
        let mut database = Database::new();
        database.load_system_fonts();
        database
    })
}

/// The listing in `listed` if it was made of `files`, else the one `list` makes, kept there.
fn listing_for(listed: &Mutex<Option<Listing>>, files: &[PathBuf], list: impl FnOnce() -> Database) -> Arc<Database> {
    let mut listed = lock(listed);
    match &*listed {
        Some(listing) if listing.files == files => listing.database.clone(),
        _ => {
            let database = Arc::new(list());
            *listed = Some(Listing { files: files.to_vec(), database: database.clone() });
            database
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fontdb::{Family, Query};

    /// The face found by its files' names is the one the whole listing finds.
    #[test]
    fn a_family_found_by_its_file_names_is_the_one_the_listing_finds() {
        let listing = system_fonts(&font_files());
        let listed = listing.query(&Query { families: &[Family::Name("DejaVu Sans")], ..Query::default() });
        let Some(listed) = listed else {
            obi_test_support::skip::unavailable("DejaVu Sans is not installed (fonts-dejavu-core)");
            return;
        };
        let listed = listing.with_face_data(listed, |data, _| data.to_vec()).unwrap();
        let found = named_files("DejaVu Sans", &font_files()).expect("DejaVuSans.ttf is found by its name");
        assert_eq!(found.family, "DejaVu Sans");
        assert!(*found.data.bytes == *listed, "the face found by name differs from the listing's");
        assert_eq!(find_text_font(None).unwrap().family, "DejaVu Sans", "the first fallback, found the same way");
    }

    #[test]
    fn a_file_is_named_after_its_family_and_style_alone() {
        let named = |file: &str, stem: &str| named_after(std::path::Path::new(file), stem);
        assert!(named("/f/DejaVuSans.ttf", "dejavusans") && named("/f/DejaVuSans-Bold.ttf", "dejavusans"));
        assert!(named("C:\\Windows\\Fonts\\segoeui.ttf", "segoeui") || named("/Fonts/segoeui.ttf", "segoeui"));
        assert!(named("/f/JetBrainsMonoNerdFont-Regular.ttf", "jetbrainsmononerdfont"));
        assert!(!named("/f/DejaVuSansMono.ttf", "dejavusans") && !named("/f/NotoSansArabic-Regular.ttf", "notosans"));
        let regular = |file: &str, stem: &str| names_the_regular(std::path::Path::new(file), stem);
        assert!(regular("/f/DejaVuSans.ttf", "dejavusans") && regular("/f/Roboto-Regular.ttf", "roboto"));
        assert!(!regular("/f/DejaVuSans-Bold.ttf", "dejavusans") && !regular("/f/Roboto_Italic.ttf", "roboto"));
    }

    /// Debian's DejaVu files `names`, when installed; a loud skip (a
    /// failure under CI) when not.
    fn installed_dejavu<const N: usize>(names: [&str; N]) -> Option<[PathBuf; N]> {
        let paths = names.map(|name| std::path::Path::new("/usr/share/fonts/truetype/dejavu").join(name));
        if paths.iter().all(|path| path.exists()) {
            return Some(paths);
        }
        obi_test_support::skip::unavailable("DejaVu Sans is not installed (fonts-dejavu-core)");
        None
    }

    /// A family whose regular face is in no file named for it alone is
    /// found among its other files.
    #[test]
    fn a_family_without_a_regular_file_is_found_in_its_others() {
        let Some([bold]) = installed_dejavu(["DejaVuSans-Bold.ttf"]) else { return };
        let found = named_files("DejaVu Sans", &[bold]).expect("the bold face, for want of another");
        assert_eq!(found.family, "DejaVu Sans");
    }

    /// A family only the listing found (here DejaVu Sans, in a file named
    /// otherwise) is remembered, and found in its file without the listing.
    #[test]
    fn a_family_the_listing_found_is_found_in_its_file_at_the_next_start() {
        let Some([dejavu]) = installed_dejavu(["DejaVuSans.ttf"]) else { return };
        let fonts = tempfile::tempdir().unwrap();
        let renamed = fonts.path().join("not-its-name.ttf");
        std::fs::copy(&dejavu, &renamed).unwrap();
        let mut installed = Database::new();
        installed.load_font_file(&renamed).unwrap();
        let listing = || Arc::new(installed.clone());
        let cache = tempfile::tempdir().unwrap();
        let memory = FontMemory::at(Some(cache.path().to_path_buf()));

        let found = find_text_font_in(Some("DejaVu Sans"), std::slice::from_ref(&renamed), &memory, listing).unwrap();
        assert_eq!(found.family, "DejaVu Sans");
        let any_case = find_text_font_in(Some("dejavu SANS"), &[], &FontMemory::at(None), listing).unwrap();
        assert!(any_case.data == found.data, "a family is found whatever the case it is written in");
        assert!(*found.data.bytes == *std::fs::read(&dejavu).unwrap());
        let (path, _) = memory.recall("DejaVu Sans").expect("remembered where the listing found it");
        assert_eq!(path, renamed);

        let nothing_listed = || Arc::new(Database::new());
        let again = find_text_font_in(Some("DejaVu Sans"), &[], &memory, nothing_listed).unwrap();
        assert!(again.data == found.data, "found in the remembered file, not listed");
    }

    /// Whether `bytes` lie in this process's map of the file at `path`.
    #[cfg(target_os = "linux")]
    fn mapped_from(bytes: &[u8], path: &std::path::Path) -> bool {
        let at = bytes.as_ptr() as usize;
        let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
        maps.lines().any(|line| {
            let mut fields = line.split_whitespace();
            let range = fields.next().unwrap_or_default();
            let file = fields.nth(4).unwrap_or_default();
            let (start, end) = range.split_once('-').unwrap_or_default();
            let within = |bound: &str| usize::from_str_radix(bound, 16).unwrap_or_default();
            std::path::Path::new(file) == path && (within(start)..within(end)).contains(&at)
        })
    }

    /// The text font is drawn from its file mapped, not from a copy, however
    /// it is found (a CJK collection is 19 MB, of which a bar draws a few
    /// glyphs): by its file's name, in the listing, in the remembered file.
    #[test]
    #[cfg(target_os = "linux")]
    fn the_text_font_is_its_file_mapped_not_a_copy() {
        let Some([dejavu]) = installed_dejavu(["DejaVuSans.ttf"]) else { return };
        let named =
            find_text_font_in(Some("DejaVu Sans"), std::slice::from_ref(&dejavu), &FontMemory::at(None), || {
                unreachable!("found by the file's name")
            });
        assert!(mapped_from(&named.unwrap().data.bytes, &dejavu), "found by its file's name");

        let fonts = tempfile::tempdir().unwrap();
        let renamed = fonts.path().join("not-its-name.ttf");
        std::fs::copy(&dejavu, &renamed).unwrap();
        let mut installed = Database::new();
        installed.load_font_file(&renamed).unwrap();
        let cache = tempfile::tempdir().unwrap();
        let memory = FontMemory::at(Some(cache.path().to_path_buf()));
        let listed = find_text_font_in(Some("DejaVu Sans"), &[], &memory, || Arc::new(installed)).unwrap();
        assert!(mapped_from(&listed.data.bytes, &renamed), "found in the listing");
        let recalled = find_text_font_in(Some("DejaVu Sans"), &[], &memory, || unreachable!("remembered")).unwrap();
        assert!(mapped_from(&recalled.data.bytes, &renamed), "found in the remembered file");
    }

    /// A family in a collection (`.ttc`) is its own face, not the
    /// collection's first, however it is found: by the file's name, in
    /// the remembered file, or in the listing.
    #[test]
    fn a_family_in_a_collection_is_its_own_face() {
        use obi_test_support::font_collection::{DEJAVU_SANS, DEJAVU_SANS_MONO, collection_of};
        let Some(collection) = collection_of(&[DEJAVU_SANS, DEJAVU_SANS_MONO]) else { return };
        let fonts = tempfile::tempdir().unwrap();
        let named = fonts.path().join("DejaVuSansMono-Both.ttc");
        std::fs::write(&named, &collection).unwrap();
        let family_of = |found: &TextFont| {
            let mut database = Database::new();
            database.load_font_data(found.data.bytes.to_vec());
            let face = database.faces().find(|face| face.index == found.data.index).expect("the face found");
            face.families[0].0.clone()
        };

        let by_name = named_files("DejaVu Sans Mono", std::slice::from_ref(&named)).expect("found by the file's name");
        assert_eq!((by_name.data.index, family_of(&by_name).as_str()), (1, "DejaVu Sans Mono"));

        let renamed = fonts.path().join("fonts.ttc");
        std::fs::rename(&named, &renamed).unwrap();
        let mut installed = Database::new();
        installed.load_font_file(&renamed).unwrap();
        let listing = || Arc::new(installed.clone());
        let cache = tempfile::tempdir().unwrap();
        let memory = FontMemory::at(Some(cache.path().to_path_buf()));
        let listed = find_text_font_in(Some("DejaVu Sans Mono"), &[], &memory, listing).unwrap();
        assert_eq!((listed.data.index, family_of(&listed).as_str()), (1, "DejaVu Sans Mono"));
        let nothing_listed = || Arc::new(Database::new());
        let recalled = find_text_font_in(Some("DejaVu Sans Mono"), &[], &memory, nothing_listed).unwrap();
        assert!(recalled.data == listed.data, "the remembered file's face is the listing's");
        let first = find_text_font_in(Some("DejaVu Sans"), &[], &memory, listing).unwrap();
        assert_eq!(first.data.index, 0);
        assert!(first.data != listed.data && first.data.key() != listed.data.key(), "two faces of one file differ");
    }

    /// A copy of the font at `from`, at `to`, that fontdb lists and the
    /// painter cannot draw with.
    fn corrupt_copy(from: &std::path::Path, to: &std::path::Path) {
        let font = std::fs::read(from).unwrap();
        std::fs::write(to, obi_test_support::font_collection::with_no_units_per_em(&font)).unwrap();
    }

    /// A FIFO named as the font wanted would hold the bar at its start for
    /// ever, and a corrupt copy of it made the start fail ("canvas error"):
    /// each is passed over, and a font the painter draws with is found.
    #[test]
    fn a_fifo_or_a_corrupt_font_named_as_the_one_wanted_is_passed_over() {
        let Some([dejavu, mono]) = installed_dejavu(["DejaVuSans.ttf", "DejaVuSansMono.ttf"]) else { return };
        let fonts = tempfile::tempdir().unwrap();
        let fifo = fonts.path().join("DejaVuSans.ttf");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        let mut installed = Database::new();
        installed.load_font_file(&dejavu).unwrap();
        let started = std::time::Instant::now();
        let found =
            find_text_font_in(None, std::slice::from_ref(&fifo), &FontMemory::at(None), || Arc::new(installed.clone()));
        assert!(started.elapsed() < std::time::Duration::from_secs(2), "the FIFO was not opened");
        assert_eq!(found.unwrap().family, "DejaVu Sans", "from the listing");

        let corrupt = fonts.path().join("corrupt").join("DejaVuSans.ttf");
        std::fs::create_dir(corrupt.parent().unwrap()).unwrap();
        corrupt_copy(&dejavu, &corrupt);
        assert!(
            FontData::usable(Arc::<[u8]>::from(std::fs::read(&corrupt).unwrap()), 0).is_err(),
            "the copy is corrupt"
        );
        let mut beside = Database::new();
        beside.load_font_file(&corrupt).unwrap();
        beside.load_font_file(&dejavu).unwrap();
        let found =
            find_text_font_in(Some("DejaVu Sans"), std::slice::from_ref(&corrupt), &FontMemory::at(None), || {
                Arc::new(beside.clone())
            })
            .unwrap();
        assert_eq!(found.family, "DejaVu Sans");
        assert!(*found.data.bytes == *std::fs::read(&dejavu).unwrap(), "the good copy, passed over the corrupt one");
        let mut alone = Database::new();
        alone.load_font_file(&corrupt).unwrap();
        alone.load_font_file(mono).unwrap();
        let found = find_text_font_in(None, &[corrupt], &FontMemory::at(None), || Arc::new(alone.clone())).unwrap();
        assert_eq!(found.family, "DejaVu Sans Mono", "the next font that can be drawn with");
    }

    #[test]
    fn a_family_no_file_is_named_after_is_looked_for_in_the_listing() {
        let files = font_files();
        assert!(named_files("No Such Family", &files).is_none());
        assert!(named_files(" ", &files).is_none());
        assert!(!find_text_font(Some("No Such Family")).unwrap().data.bytes.is_empty(), "a fallback");
    }

    #[test]
    fn the_fonts_are_listed_again_once_the_font_folders_hold_other_files() {
        let listed = Mutex::new(None);
        let lists = std::cell::Cell::new(0);
        let list = || {
            lists.set(lists.get() + 1);
            Database::new()
        };
        let before = [PathBuf::from("/usr/share/fonts/a.ttf")];
        let first = listing_for(&listed, &before, list);
        let again = listing_for(&listed, &before, list);
        assert!(Arc::ptr_eq(&first, &again) && lists.get() == 1, "the same files: the same listing");
        let installed = [before[0].clone(), PathBuf::from("/home/me/.local/share/fonts/new.ttf")];
        listing_for(&listed, &installed, list);
        assert_eq!(lists.get(), 2, "a font installed: listed again");
        listing_for(&listed, &installed, list);
        assert_eq!(lists.get(), 2);
    }
}

//! A tray item's icon: the pixmap it sends (ARGB in network byte order, in
//! the sizes it offers: the smallest at least [`SIZE`] a side, else the
//! largest), or else its icon name looked up in the path it gives and then
//! in the freedesktop icon theme (PNG or SVG). Icons are held by the host
//! under the item, let go of when the item changes icon or leaves.

use crate::view::Pixels;
use crate::view::images::HeldImages;
use crate::view::images::{load_image_file, shrink_from};
use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, SeqAccess, Visitor};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use zbus::zvariant::{Signature, Type};

/// Icons are drawn at about the bar font's size; more pixels are wasted.
pub const SIZE: u32 = 48;

/// An item's pixmaps (`a(iiay)`), read as they come: the best so far is
/// kept as RGBA no larger than [`SIZE`] a side, and the others are passed
/// over where they stand, so an item's megabytes of pixels are never copied.
/// One whose bytes do not fill it is passed over; one claiming more than an
/// image may have is too, and noted.
#[derive(Default)]
pub struct Pixmaps {
    /// The best one, as RGBA, and the size it was sent at.
    pub best: Option<(Pixels, (u32, u32))>,
    /// The size of a pixmap passed over for being too large, and why.
    pub refused: Option<String>,
}

impl Pixmaps {
    pub fn into_pixels(self) -> Option<Pixels> {
        self.best.map(|(pixels, _)| pixels)
    }
}

/// Whether a pixmap of `candidate` size is better than one of `best`: the
/// smallest at least [`SIZE`] a side, else the largest.
fn better(candidate: (u32, u32), best: Option<(u32, u32)>) -> bool {
    let Some(best) = best else { return true };
    let big_enough = |(width, height): (u32, u32)| width.min(height) >= SIZE;
    let area = |(width, height): (u32, u32)| u64::from(width) * u64::from(height);
    match (big_enough(candidate), big_enough(best)) {
        (true, true) => area(candidate) < area(best),
        (true, false) => true,
        (false, true) => false,
        (false, false) => area(candidate) > area(best),
    }
}

impl Type for Pixmaps {
    const SIGNATURE: &'static Signature = <Vec<(i32, i32, Vec<u8>)> as Type>::SIGNATURE;
}

impl<'de> Deserialize<'de> for Pixmaps {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct List;
        impl<'de> Visitor<'de> for List {
            type Value = Pixmaps;

            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("a list of pixmaps")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut list: A) -> Result<Pixmaps, A::Error> {
                let mut pixmaps = Pixmaps::default();
                while list.next_element_seed(Pixmap(&mut pixmaps))?.is_some() {}
                Ok(pixmaps)
            }
        }
        deserializer.deserialize_seq(List)
    }
}

/// One `(iiay)` of the list, taken into it when it is better.
struct Pixmap<'a>(&'a mut Pixmaps);

impl<'de> DeserializeSeed<'de> for Pixmap<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_tuple(3, self)
    }
}

impl<'de> Visitor<'de> for Pixmap<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a pixmap")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut fields: A) -> Result<(), A::Error> {
        let missing = || de::Error::invalid_length(0, &"a width, a height and pixels");
        let width: i32 = fields.next_element()?.ok_or_else(missing)?;
        let height: i32 = fields.next_element()?.ok_or_else(missing)?;
        let size = (width.max(0) as u32, height.max(0) as u32);
        let fits = Pixels::check_size(size.0, size.1);
        if let Err(error) = &fits
            && width > 0
            && height > 0
        {
            self.0.refused = Some(format!("{error:#}"));
        }
        // Borrowed from the message, not copied.
        let argb: &[u8] = fields.next_element()?.ok_or_else(missing)?;
        let wanted = fits.is_ok() && better(size, self.0.best.as_ref().map(|(_, size)| *size));
        if wanted && argb.len() as u64 == u64::from(size.0) * u64::from(size.1) * 4 {
            let pixel = |at: usize| {
                let [alpha, red, green, blue] = argb[at * 4..at * 4 + 4].try_into().unwrap();
                [red, green, blue, alpha]
            };
            self.0.best = Some((shrink_from(size.0, size.1, SIZE, pixel), size));
        }
        Ok(())
    }
}

/// The file of the icon `name`: in `theme_path` (the item's own), else in
/// the icon theme.
pub fn find_named(name: &str, theme_path: &str) -> Option<PathBuf> {
    if name.is_empty() {
        return None;
    }
    if Path::new(name).is_absolute() {
        // A path is taken only as an icon file; it is read as every image
        // is, a regular file of bounded size.
        let icon = Path::new(name).extension().is_some_and(|extension| extension == "png" || extension == "svg");
        return Some(PathBuf::from(name)).filter(|path| icon && path.is_file());
    }
    if !theme_path.is_empty() {
        let root = Path::new(theme_path);
        let candidates = ["png", "svg"].into_iter().flat_map(|extension| {
            [
                root.join(format!("{name}.{extension}")),
                root.join("hicolor/48x48/apps").join(format!("{name}.{extension}")),
            ]
        });
        if let Some(found) = candidates.into_iter().find(|path| path.is_file()) {
            return Some(found);
        }
    }
    in_icon_theme(name)
}

#[cfg(unix)]
fn in_icon_theme(name: &str) -> Option<PathBuf> {
    freedesktop_icons::lookup(name).with_size(SIZE as u16).find()
}

/// Icon themes are a freedesktop convention; StatusNotifier items outside
/// it give pixmaps or paths.
#[cfg(not(unix))]
fn in_icon_theme(_: &str) -> Option<PathBuf> {
    None
}

/// The icons held for the items, by item.
pub struct HeldIcons {
    /// Whose icons they are, for the log: "tray icon".
    whose: &'static str,
    images: HeldImages,
    by_item: HashMap<String, u64>,
    /// Named icons already looked up, by name and theme path.
    named: HashMap<(String, String), Option<Pixels>>,
}

/// Named icons remembered at most; past it the list starts over.
const NAMED: usize = 256;

impl HeldIcons {
    /// Icons held in `images`, named `whose` in the log ("tray icon").
    pub fn new(whose: &'static str, images: HeldImages) -> HeldIcons {
        HeldIcons { whose, images, by_item: HashMap::new(), named: HashMap::new() }
    }

    /// The handle of `item`'s icon, now `pixels`; the icon it had is let go of.
    pub fn set(&mut self, item: &str, pixels: Option<Pixels>) -> Option<u64> {
        let handle = pixels.map(|pixels| self.images.hold(pixels));
        let old = match handle {
            Some(handle) => self.by_item.insert(item.to_owned(), handle),
            None => self.by_item.remove(item),
        };
        if let Some(old) = old {
            self.images.release(old);
        }
        handle
    }

    /// The pixels of the icon `name`, looked up once.
    pub fn named(&mut self, name: &str, theme_path: &str) -> Option<Pixels> {
        let key = (name.to_owned(), theme_path.to_owned());
        if let Some(known) = self.named.get(&key) {
            return known.clone();
        }
        let pixels = find_named(name, theme_path).and_then(|path| {
            load_image_file(&path, SIZE).inspect_err(|error| tracing::warn!("{} {name}: {error:#}", self.whose)).ok()
        });
        if self.named.len() >= NAMED {
            self.named.clear();
        }
        self.named.insert(key, pixels.clone());
        pixels
    }

    /// Lets go of the icons of the items not in `alive`.
    pub fn keep_only(&mut self, alive: &HashSet<String>) {
        self.images.release_unless(&mut self.by_item, |item| alive.contains(item));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pixmaps` as an item sends them, read back.
    fn read(pixmaps: &[(i32, i32, Vec<u8>)]) -> Pixmaps {
        use zbus::zvariant::{LE, serialized::Context, to_bytes};
        let bytes = to_bytes(Context::new_dbus(LE, 0), &pixmaps).unwrap();
        bytes.deserialize::<Pixmaps>().unwrap().0
    }

    #[test]
    fn the_smallest_pixmap_big_enough_is_taken_as_rgba() {
        let argb = |size: i32, pixel: [u8; 4]| (size, size, pixel.repeat((size * size) as usize));
        let pixmaps = [argb(16, [255, 0, 255, 0]), argb(64, [128, 255, 0, 0]), argb(128, [255, 0, 0, 255])];
        let picked = read(&pixmaps).into_pixels().unwrap();
        assert_eq!((picked.width, picked.height), (32, 32), "64 px halved: shrinking goes by whole factors");
        assert_eq!(&picked.rgba[..4], &[255, 0, 0, 128]);
        let small = read(&[argb(16, [255, 0, 255, 0]), argb(22, [255, 1, 2, 3])]).into_pixels().unwrap();
        assert_eq!((small.width, &small.rgba[..4]), (22, &[1, 2, 3, 255][..]), "none big enough: the largest");
        let torn = [(16, 16, vec![0; 10])];
        assert!(read(&torn).into_pixels().is_none());
    }

    #[test]
    fn a_pixmap_claiming_more_than_an_image_may_have_is_passed_over() {
        let lying = (200_000, 200_000, vec![0; 64]);
        let honest = (16, 16, vec![255; 16 * 16 * 4]);
        let read = read(&[lying, honest]);
        assert!(read.refused.as_deref().is_some_and(|why| why.contains("200000×200000")), "{:?}", read.refused);
        assert_eq!(read.into_pixels().map(|pixels| pixels.width), Some(16), "the honest one is shown");
    }

    #[test]
    fn an_items_own_theme_path_comes_first() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("obi-test-icon.svg"),
            "<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'/>",
        )
        .unwrap();
        let found = find_named("obi-test-icon", dir.path().to_str().unwrap()).unwrap();
        assert_eq!(found, dir.path().join("obi-test-icon.svg"));
        assert!(find_named("obi-no-such-icon-anywhere", "").is_none());
        let absolute = dir.path().join("obi-test-icon.svg");
        assert_eq!(find_named(absolute.to_str().unwrap(), ""), Some(absolute));
        assert!(find_named("/etc/passwd", "").is_none(), "a path is taken only as an icon file");
    }

    #[test]
    fn an_items_icons_are_held_until_it_changes_or_leaves() {
        let images = HeldImages::default();
        let mut held = HeldIcons::new("tray icon", images.clone());
        let red = Pixels { width: 1, height: 1, rgba: vec![255, 0, 0, 255] };
        let blue = Pixels { width: 1, height: 1, rgba: vec![0, 0, 255, 255] };
        let first = held.set("a", Some(red.clone())).unwrap();
        assert_eq!(held.set("a", Some(red)), Some(first), "the same icon again");
        let second = held.set("a", Some(blue)).unwrap();
        assert!(images.get(first).is_none(), "the old icon is let go of");
        held.keep_only(&HashSet::new());
        assert!(images.get(second).is_none(), "and the icon of an item that left");
    }
}

//! A tray item's icon: the pixmap it sends (ARGB in network byte order, in
//! the sizes it offers: the smallest at least [`SIZE`] a side, else the
//! largest), or else its icon name looked up in the path it gives and then
//! in the freedesktop icon theme (PNG or SVG). Icons are held by the host
//! under the item, let go of when the item changes icon or leaves.

use crate::view::Pixels;
use crate::view::images::HeldImages;
use crate::view::images::{load_image_file, shrink};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Icons are drawn at about the bar font's size; more pixels are wasted.
pub const SIZE: u32 = 48;

/// The best of an item's pixmaps, as RGBA.
pub fn from_pixmaps(pixmaps: &[(i32, i32, Vec<u8>)]) -> Option<Pixels> {
    let whole = pixmaps.iter().filter(|(width, height, argb)| {
        *width > 0 && *height > 0 && argb.len() == *width as usize * *height as usize * 4
    });
    let big_enough = whole.clone().filter(|(width, height, _)| (*width).min(*height) as u32 >= SIZE);
    let (width, height, argb) =
        big_enough.min_by_key(|(width, height, _)| width * height).or_else(|| whole.max_by_key(|(w, h, _)| w * h))?;
    let rgba = argb.chunks_exact(4).flat_map(|pixel| [pixel[1], pixel[2], pixel[3], pixel[0]]).collect();
    Some(shrink(Pixels { width: *width as u32, height: *height as u32, rgba }, SIZE))
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
    images: HeldImages,
    by_item: HashMap<String, u64>,
    /// Named icons already looked up, by name and theme path.
    named: HashMap<(String, String), Option<Pixels>>,
}

/// Named icons remembered at most; past it the list starts over.
const NAMED: usize = 256;

impl HeldIcons {
    pub fn new(images: HeldImages) -> HeldIcons {
        HeldIcons { images, by_item: HashMap::new(), named: HashMap::new() }
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
            load_image_file(&path, SIZE).inspect_err(|error| tracing::debug!("tray icon {name}: {error:#}")).ok()
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

    #[test]
    fn the_smallest_pixmap_big_enough_is_taken_as_rgba() {
        let argb = |size: i32, pixel: [u8; 4]| (size, size, pixel.repeat((size * size) as usize));
        let pixmaps = [argb(16, [255, 0, 255, 0]), argb(64, [128, 255, 0, 0]), argb(128, [255, 0, 0, 255])];
        let picked = from_pixmaps(&pixmaps).unwrap();
        assert_eq!((picked.width, picked.height), (32, 32), "64 px halved: shrinking goes by whole factors");
        assert_eq!(&picked.rgba[..4], &[255, 0, 0, 128]);
        let torn = [(16, 16, vec![0; 10])];
        assert!(from_pixmaps(&torn).is_none());
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
        let mut held = HeldIcons::new(images.clone());
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

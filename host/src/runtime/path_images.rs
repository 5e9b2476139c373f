//! Images a widget names by path (the contract's `image.path`): the runtime
//! reads them, never the painter, and the view leaves the runtime carrying
//! the handle of the pixels instead. Only regular files of a bounded size
//! are read (a FIFO cannot make the bar wait); each is read again only when
//! it changes, and the images are held while the widget runs. A file that
//! cannot be read keeps its place in the item, empty, and the log says why.

use crate::view::images::HeldImages;
use crate::view::images::{NO_IMAGE, load_image_file};
use crate::view::{Image, Piece, View};
use std::collections::HashMap;
use std::path::Path;
use std::time::SystemTime;

/// Images are drawn at about the font's size; more pixels are wasted.
const SIDE: u32 = 64;
/// Paths remembered at most; past it the widget's images are read anew.
const PATHS: usize = 64;

pub struct PathImages {
    widget: String,
    held: HeldImages,
    by_path: HashMap<String, Read>,
}

/// A file as last read: when it was changed, and its image, if it was one.
struct Read {
    modified: Option<SystemTime>,
    handle: Option<u64>,
}

impl PathImages {
    pub fn new(widget: &str, held: HeldImages) -> PathImages {
        PathImages { widget: widget.to_owned(), held, by_path: HashMap::new() }
    }

    /// Replaces each image named by path in `view` (its items and its
    /// popup) with the image held for it.
    pub fn resolve(&mut self, view: &mut View) {
        for piece in view.pieces_mut() {
            if let Piece::Image(Image::Path(path)) = piece {
                *piece = Piece::HeldImage(self.handle(&path.clone()).unwrap_or(NO_IMAGE));
            }
        }
    }

    fn handle(&mut self, path: &str) -> Option<u64> {
        let modified = std::fs::metadata(path).and_then(|metadata| metadata.modified()).ok();
        if let Some(read) = self.by_path.get(path)
            && modified.is_some()
            && read.modified == modified
        {
            return read.handle;
        }
        if self.by_path.len() >= PATHS && !self.by_path.contains_key(path) {
            self.release_all();
        }
        let handle = match load_image_file(Path::new(path), SIDE) {
            Ok(pixels) => Some(self.held.hold(pixels)),
            Err(error) => {
                tracing::warn!("widget `{}`: {error:#}", self.widget);
                None
            }
        };
        if let Some(old) = self.by_path.insert(path.to_owned(), Read { modified, handle }).and_then(|old| old.handle) {
            self.held.release(old);
        }
        handle
    }

    fn release_all(&mut self) {
        for read in self.by_path.drain().map(|(_, read)| read) {
            if let Some(handle) = read.handle {
                self.held.release(handle);
            }
        }
    }
}

impl Drop for PathImages {
    fn drop(&mut self) {
        self.release_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::{Emphasis, Inputs, Item, Pixels};

    fn view_of(path: &str) -> View {
        let item = Item {
            key: "image".into(),
            pieces: vec![Piece::Text("before".into()), Piece::Image(Image::Path(path.into()))],
            emphasis: Emphasis::Normal,
            takes: Inputs::ALL,
            tooltip: None,
            look: None,
        };
        View::of(vec![item])
    }

    fn write_png(path: &Path) {
        let file = std::fs::File::create(path).unwrap();
        let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), 1, 1);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.write_header().unwrap().write_image_data(&[9, 8, 7, 255]).unwrap();
    }

    #[test]
    fn a_path_becomes_a_held_image_and_an_unreadable_one_an_empty_one() {
        let dir = tempfile::tempdir().unwrap();
        let icon = dir.path().join("icon.png");
        write_png(&icon);
        let held = HeldImages::default();
        let mut images = PathImages::new("test", held.clone());
        let mut view = view_of(icon.to_str().unwrap());
        images.resolve(&mut view);
        let Piece::HeldImage(handle) = view.items[0].pieces[1] else { panic!("{view:?}") };
        assert_eq!(*held.get(handle).unwrap(), Pixels { width: 1, height: 1, rgba: vec![9, 8, 7, 255] });

        let mut missing = view_of("/no/such/icon.png");
        images.resolve(&mut missing);
        assert_eq!(missing.items[0].pieces, [Piece::Text("before".into()), Piece::HeldImage(NO_IMAGE)]);
        drop(images);
        assert!(held.get(handle).is_none(), "let go of with the widget");
    }
}

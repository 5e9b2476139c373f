//! Images the host holds for widgets: a capability (the tiler, for window
//! icons) hands over pixels and gives the widget a handle; the widget's view
//! names the handle, and the painter draws the pixels. Pixels cross into a
//! sandbox and back never, however often the view is refreshed.
//!
//! A handle is the hash of the pixels, so two windows of one program share
//! an icon. Each holder releases what it held; an image nobody holds is
//! dropped, and a handle that names nothing draws nothing.

use crate::view::Pixels;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
pub struct HeldImages(Arc<Mutex<HashMap<u64, Held>>>);

/// An image, and how many holds it has.
type Held = (Arc<Pixels>, usize);

impl HeldImages {
    /// Holds `pixels` (once more, when they are held already) and gives their handle.
    pub fn hold(&self, pixels: Pixels) -> u64 {
        let mut hasher = DefaultHasher::new();
        (pixels.width, pixels.height, &pixels.rgba).hash(&mut hasher);
        let handle = hasher.finish();
        let mut held = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        held.entry(handle).or_insert_with(|| (Arc::new(pixels), 0)).1 += 1;
        handle
    }

    /// Lets go of one hold on `handle`.
    pub fn release(&self, handle: u64) {
        let mut held = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((_, holds)) = held.get_mut(&handle) {
            *holds -= 1;
            if *holds == 0 {
                held.remove(&handle);
            }
        }
    }

    pub fn get(&self, handle: u64) -> Option<Arc<Pixels>> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).get(&handle).map(|(pixels, _)| pixels.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pixels(value: u8) -> Pixels {
        Pixels { width: 1, height: 1, rgba: vec![value; 4] }
    }

    #[test]
    fn the_same_pixels_share_a_handle_until_the_last_release() {
        let images = HeldImages::default();
        let first = images.hold(pixels(1));
        assert_eq!(images.hold(pixels(1)), first);
        assert_ne!(images.hold(pixels(2)), first);
        images.release(first);
        assert!(images.get(first).is_some(), "still held once");
        images.release(first);
        assert!(images.get(first).is_none());
    }
}

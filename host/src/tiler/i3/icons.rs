//! Window icons on X11, for i3's windows (and sway's X11 ones): a window's
//! `_NET_WM_ICON` lists the sizes it offers as ARGB pixels; the smallest
//! one at least [`SIZE`] pixels a side (else the largest) is made RGBA,
//! shrunk to at most [`SIZE`], and held for the widgets. A window's icon is
//! asked for once; one it has not set yet is asked for again at the next
//! fetch, and the icons of windows that are gone are let go of.

use crate::view::Pixels;
use crate::view::images::HeldImages;
use crate::view::images::shrink;
use std::collections::{HashMap, HashSet};
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _};
use x11rb::rust_connection::RustConnection;

/// Icons are drawn at about the bar font's size; more pixels are wasted.
pub const SIZE: u32 = 48;
/// `_NET_WM_ICON` beyond this many 32-bit values (1 MiB) is not read.
const MAX_VALUES: u32 = 1 << 18;

pub struct Icons {
    held: HeldImages,
    connection: Option<(RustConnection, u32)>,
    /// Each window's icon, by X window id.
    known: HashMap<u64, u64>,
}

impl Icons {
    /// Icons read from the X server of `$DISPLAY`, when there is one.
    pub fn new(held: HeldImages) -> Icons {
        let connection = std::env::var_os("DISPLAY").and_then(|_| {
            let (connection, _) = x11rb::connect(None).ok()?;
            let atom = connection.intern_atom(false, b"_NET_WM_ICON").ok()?.reply().ok()?.atom;
            Some((connection, atom))
        });
        Icons { held, connection, known: HashMap::new() }
    }

    /// The handle of `window`'s icon, when it has one.
    pub fn icon(&mut self, window: u64) -> Option<u64> {
        if let Some(handle) = self.known.get(&window) {
            return Some(*handle);
        }
        let (connection, atom) = self.connection.as_ref()?;
        let property = connection
            .get_property(false, window as u32, *atom, AtomEnum::CARDINAL, 0, MAX_VALUES)
            .ok()?
            .reply()
            .ok()?;
        let values: Vec<u32> = property.value32()?.collect();
        let pixels = shrink(pick(&values)?, SIZE);
        let handle = self.held.hold(pixels);
        self.known.insert(window, handle);
        Some(handle)
    }

    /// Lets go of the icons of the windows not in `alive`.
    pub fn keep_only(&mut self, alive: &HashSet<u64>) {
        self.held.release_unless(&mut self.known, |window| alive.contains(window));
    }
}

/// The icon of `_NET_WM_ICON`'s values to show, as RGBA.
fn pick(values: &[u32]) -> Option<Pixels> {
    let mut icons = Vec::new();
    let mut rest = values;
    while let [width, height, tail @ ..] = rest {
        let count = (*width as usize).checked_mul(*height as usize)?;
        if *width == 0 || *height == 0 || count > tail.len() {
            break;
        }
        icons.push((*width, *height, &tail[..count]));
        rest = &tail[count..];
    }
    let (width, height, argb) = icons
        .iter()
        .filter(|(width, height, _)| (*width).min(*height) >= SIZE)
        .min_by_key(|(width, height, _)| width * height)
        .or_else(|| icons.iter().max_by_key(|(width, height, _)| width * height))?;
    let rgba = argb.iter().flat_map(|pixel| {
        let [a, r, g, b] = pixel.to_be_bytes();
        [r, g, b, a]
    });
    Some(Pixels { width: *width, height: *height, rgba: rgba.collect() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn icon(size: u32, argb: u32) -> Vec<u32> {
        [size, size].into_iter().chain(std::iter::repeat_n(argb, (size * size) as usize)).collect()
    }

    #[test]
    fn the_smallest_icon_big_enough_is_taken_as_rgba() {
        let values: Vec<u32> = [icon(16, 0xff00ff00), icon(64, 0x80ff0000), icon(256, 0xff0000ff)].concat();
        let picked = pick(&values).unwrap();
        assert_eq!((picked.width, picked.height), (64, 64));
        assert_eq!(&picked.rgba[..4], &[0xff, 0, 0, 0x80]);
        let small = pick(&[icon(16, 0xff00ff00), icon(24, 0xff000000)].concat()).unwrap();
        assert_eq!(small.width, 24, "the largest when none is big enough");
    }

    #[test]
    fn a_torn_or_empty_property_gives_what_is_whole() {
        let mut values = icon(2, 1);
        values.extend([100, 100, 7]);
        assert_eq!(pick(&values).unwrap().width, 2);
        assert!(pick(&[]).is_none());
        assert!(pick(&[5, 5, 1]).is_none());
        assert!(pick(&[0, 0]).is_none());
    }
}

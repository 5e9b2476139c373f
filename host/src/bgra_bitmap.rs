//! How Obi describes pixels to Windows' GDI, both ways (icons read out of
//! programs, a see-through bar's frames handed in): 32-bit BGRA, rows from
//! the top.

use windows::Win32::Graphics::Gdi::{BI_RGB, BITMAPINFO, BITMAPINFOHEADER};

/// A `width` × `height` bitmap of BGRA pixels, rows from the top.
pub fn described(width: u32, height: u32) -> BITMAPINFO {
    let header = BITMAPINFOHEADER {
        biSize: size_of::<BITMAPINFOHEADER>() as u32,
        biWidth: width as i32,
        // Negative: rows from the top.
        biHeight: -(height as i32),
        biPlanes: 1,
        biBitCount: 32,
        biCompression: BI_RGB.0,
        ..BITMAPINFOHEADER::default()
    };
    BITMAPINFO { bmiHeader: header, ..BITMAPINFO::default() }
}

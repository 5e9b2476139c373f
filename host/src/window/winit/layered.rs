//! A see-through bar on Windows, as a layered window: each frame is read
//! back from GL and handed to Windows with its alpha
//! (`UpdateLayeredWindow`), which the desktop composes over what lies
//! behind. How a GL driver presents a window's own alpha differs (some
//! show a see-through GL window on black: komorebi #1391, #1430), and some
//! offer no config with alpha at all (Wine's); a layered window's pixels
//! are Windows' to compose, whatever the driver.

use crate::render::Rect;
use crate::window::gl::Presenter;
use anyhow::Context;
use raw_window_handle::{HasWindowHandle, RawWindowHandle};
use windows::Win32::Foundation::{HWND, POINT, SIZE};
use windows::Win32::Graphics::Gdi::{
    AC_SRC_ALPHA, AC_SRC_OVER, BLENDFUNCTION, CreateCompatibleDC, CreateDIBSection, DIB_RGB_COLORS, DeleteDC,
    DeleteObject, HBITMAP, HDC, HGDIOBJ, SelectObject,
};
use windows::Win32::UI::WindowsAndMessaging::{
    GWL_EXSTYLE, GetWindowLongPtrW, ULW_ALPHA, UpdateLayeredWindow, WS_EX_LAYERED,
};
use winit::window::Window;

/// The pixels of a layered window, in a bitmap Windows composes from.
pub struct Layered {
    window: HWND,
    memory: HDC,
    bitmap: HBITMAP,
    /// Where the bitmap was before `bitmap` took its place in `memory`.
    replaced: HGDIOBJ,
    /// `width` × `height` premultiplied BGRA pixels, rows from the top.
    pixels: *mut u8,
    width: u32,
    height: u32,
}

impl Layered {
    /// The layered window `window`'s pixels, `size` big; none when the
    /// window is not layered (an opaque bar).
    pub fn of(window: &Window, size: (u32, u32)) -> anyhow::Result<Option<Layered>> {
        let RawWindowHandle::Win32(handle) = window.window_handle()?.as_raw() else { return Ok(None) };
        let hwnd = HWND(handle.hwnd.get() as *mut _);
        // SAFETY: reads a style of a live window.
        let extended = unsafe { GetWindowLongPtrW(hwnd, GWL_EXSTYLE) } as u32;
        if extended & WS_EX_LAYERED.0 == 0 {
            return Ok(None);
        }
        Layered::sized(hwnd, size).map(Some)
    }

    fn sized(window: HWND, (width, height): (u32, u32)) -> anyhow::Result<Layered> {
        let (width, height) = (width.max(1), height.max(1));
        let info = crate::bgra_bitmap::described(width, height);
        let mut pixels = std::ptr::null_mut();
        // SAFETY: a memory DC and a bitmap of this process, selected into
        // it; both are let go in `drop`.
        unsafe {
            let memory = CreateCompatibleDC(None);
            if memory.is_invalid() {
                anyhow::bail!("no memory device context for the see-through bar");
            }
            let bitmap = match CreateDIBSection(Some(memory), &info, DIB_RGB_COLORS, &mut pixels, None, 0) {
                Ok(bitmap) => bitmap,
                Err(error) => {
                    let _ = DeleteDC(memory);
                    return Err(error).context("a bitmap for the see-through bar");
                }
            };
            let replaced = SelectObject(memory, bitmap.into());
            Ok(Layered { window, memory, bitmap, replaced, pixels: pixels.cast(), width, height })
        }
    }

    /// Follows the window to `size`; the caller puts a whole frame next.
    pub fn resize(&mut self, size: (u32, u32)) -> anyhow::Result<()> {
        *self = Layered::sized(self.window, size)?;
        Ok(())
    }

    /// Reads `region` of the frame bound on `gl` (premultiplied RGBA, rows
    /// from the bottom, as tall as the window) into the bitmap and shows
    /// the bitmap.
    pub fn put(&mut self, gl: &glow::Context, region: Rect) -> anyhow::Result<()> {
        let x = (region.x.floor().max(0.0) as u32).min(self.width);
        let top = (region.y.floor().max(0.0) as u32).min(self.height);
        let width = (region.right().ceil().max(0.0) as u32).min(self.width).saturating_sub(x);
        let height = (region.bottom().ceil().max(0.0) as u32).min(self.height).saturating_sub(top);
        if width > 0 && height > 0 {
            let mut read = vec![0u8; width as usize * height as usize * 4];
            // SAFETY: the frame is bound on the current context and `read` holds the region.
            unsafe {
                use glow::HasContext;
                let bottom = self.height - top - height;
                let data = glow::PixelPackData::Slice(Some(&mut read));
                gl.read_pixels(
                    x as i32,
                    bottom as i32,
                    width as i32,
                    height as i32,
                    glow::BGRA,
                    glow::UNSIGNED_BYTE,
                    data,
                );
            }
            let stride = self.width as usize * 4;
            // SAFETY: the bitmap holds `width` × `height` pixels, this
            // thread's alone; the rows written lie inside it.
            let bitmap = unsafe { std::slice::from_raw_parts_mut(self.pixels, stride * self.height as usize) };
            for (row, pixels) in read.chunks_exact(width as usize * 4).rev().enumerate() {
                let at = (top as usize + row) * stride + x as usize * 4;
                bitmap[at..at + pixels.len()].copy_from_slice(pixels);
            }
        }
        let size = SIZE { cx: self.width as i32, cy: self.height as i32 };
        let blend = BLENDFUNCTION {
            BlendOp: AC_SRC_OVER as u8,
            BlendFlags: 0,
            SourceConstantAlpha: 255,
            AlphaFormat: AC_SRC_ALPHA as u8,
        };
        // SAFETY: the window and the memory DC are live; the window keeps its place.
        unsafe {
            UpdateLayeredWindow(
                self.window,
                None,
                None,
                Some(&size),
                Some(self.memory),
                Some(&POINT { x: 0, y: 0 }),
                windows::Win32::Foundation::COLORREF(0),
                Some(&blend),
                ULW_ALPHA,
            )
        }
        .context("showing the see-through bar's frame")
    }
}

impl Presenter for Layered {
    fn put(&mut self, gl: &glow::Context, region: Rect, _: (u32, u32), _: i32) -> anyhow::Result<()> {
        Layered::put(self, gl, region)
    }

    fn resize(&mut self, size: (u32, u32)) -> anyhow::Result<()> {
        Layered::resize(self, size)
    }
}

impl Drop for Layered {
    fn drop(&mut self) {
        // SAFETY: the DC and bitmap made in `sized`, let go once.
        unsafe {
            SelectObject(self.memory, self.replaced);
            let _ = DeleteObject(self.bitmap.into());
            let _ = DeleteDC(self.memory);
        }
    }
}

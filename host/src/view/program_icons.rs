//! Windows' icons as pixels: an icon handle's colour bitmap, and the icon a
//! program (an `.exe`, `.dll` or `.ico` file) carries, as Explorer shows
//! it. The tray reads the icons programs hand it; the Applications widget
//! shows a program's own icon where its item names none.

use crate::view::Pixels;
use anyhow::Context;
use std::path::Path;
use windows::Win32::Graphics::Gdi::{
    BITMAP, CreateCompatibleDC, DIB_RGB_COLORS, DeleteDC, DeleteObject, GetDIBits, GetObjectW, HGDIOBJ,
};
use windows::Win32::Storage::FileSystem::SearchPathW;
use windows::Win32::UI::Shell::ExtractIconExW;
use windows::Win32::UI::WindowsAndMessaging::{DestroyIcon, GetIconInfo, HICON, ICONINFO};
use windows::core::HSTRING;

/// The program a command line starts (its first word, quoted or not), as
/// Windows finds it: a path as it is, else a name on the search path, with
/// `.exe` when it has no extension.
pub fn program_of(command: &str) -> Option<std::path::PathBuf> {
    let command = command.trim_start();
    let program = match command.strip_prefix('"') {
        Some(quoted) => quoted.split('"').next()?,
        None => command.split_whitespace().next()?,
    };
    let mut found = [0u16; 1024];
    // SAFETY: the strings are NUL-ended and alive for the call; the buffer
    // is ours, its length passed with it.
    let length =
        unsafe { SearchPathW(None, &HSTRING::from(program), windows::core::w!(".exe"), Some(&mut found), None) };
    let found =
        (length > 0 && (length as usize) < found.len()).then(|| String::from_utf16_lossy(&found[..length as usize]));
    found.map(std::path::PathBuf::from).filter(|path| is_program(path))
}

/// Whether `path` names a file whose pixels are its icon.
pub fn is_program(path: &Path) -> bool {
    let extension = path.extension().and_then(|extension| extension.to_str()).unwrap_or_default();
    ["exe", "dll", "ico"].iter().any(|known| known.eq_ignore_ascii_case(extension))
}

/// The first (large) icon of the program at `path`.
pub fn of_program(path: &Path) -> anyhow::Result<Pixels> {
    let mut large = HICON::default();
    // SAFETY: the path is a NUL-ended string alive for the call; one icon
    // is written into `large`, and destroyed below.
    let extracted = unsafe { ExtractIconExW(&HSTRING::from(path.as_os_str()), 0, Some(&mut large), None, 1) };
    anyhow::ensure!(extracted > 0 && !large.is_invalid(), "it has no icon");
    let pixels = pixels_of(large).context("its icon cannot be read");
    // SAFETY: the icon was made by ExtractIconExW for this call alone.
    let _ = unsafe { DestroyIcon(large) };
    pixels
}

/// The colour bitmap of `icon`, as straight RGBA; an icon drawn without
/// alpha is taken as opaque.
pub fn pixels_of(icon: HICON) -> Option<Pixels> {
    let mut info = ICONINFO::default();
    // SAFETY: GDI calls on the icon's own bitmaps, which are deleted before
    // returning; the buffers are sized for what GetDIBits writes.
    unsafe {
        GetIconInfo(icon, &mut info).ok()?;
        let mut bitmap = BITMAP::default();
        let described =
            GetObjectW(HGDIOBJ(info.hbmColor.0), size_of::<BITMAP>() as i32, Some((&raw mut bitmap).cast())) != 0;
        let (width, height) = (bitmap.bmWidth.unsigned_abs(), bitmap.bmHeight.unsigned_abs());
        let readable = described
            && Pixels::check_size(width, height)
                .inspect_err(|error| tracing::debug!("an icon is left out: {error:#}"))
                .is_ok();
        let mut header = crate::bgra_bitmap::described(width, height);
        let mut bgra = vec![0u8; if readable { (width * height * 4) as usize } else { 0 }];
        let context = CreateCompatibleDC(None);
        let copied = readable
            && GetDIBits(
                context,
                info.hbmColor,
                0,
                height,
                Some(bgra.as_mut_ptr().cast()),
                &mut header,
                DIB_RGB_COLORS,
            ) == height as i32;
        let _ = DeleteDC(context);
        let _ = DeleteObject(HGDIOBJ(info.hbmColor.0));
        let _ = DeleteObject(HGDIOBJ(info.hbmMask.0));
        if !copied {
            return None;
        }
        let opaque = bgra.chunks_exact(4).all(|pixel| pixel[3] == 0);
        let rgba = bgra
            .chunks_exact(4)
            .flat_map(|pixel| [pixel[2], pixel[1], pixel[0], if opaque { 255 } else { pixel[3] }])
            .collect();
        Some(Pixels { width, height, rgba })
    }
}

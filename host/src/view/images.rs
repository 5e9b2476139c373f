//! Images the host holds for widgets: a capability (the tiler, for window
//! icons) hands over pixels and gives the widget a handle; the widget's view
//! names the handle, and the painter draws the pixels. Pixels cross into a
//! sandbox and back never, however often the view is refreshed.
//!
//! A handle is the hash of the pixels, so two windows of one program share
//! an icon. Each holder releases what it held; an image nobody holds is
//! dropped, and a handle that names nothing draws nothing.
//!
//! Also here: images read from files (PNG, SVG) and made smaller, for the
//! capabilities that hold icons and for the images widgets name by path.
//! Only regular files of a bounded size are read, so a path that names a
//! FIFO or a device cannot make the bar wait.

use super::Pixels;
use crate::sync::lock;
use anyhow::Context;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// A handle that names nothing: an image that could not be read keeps its
/// place in the item, empty.
pub const NO_IMAGE: u64 = 0;

#[derive(Clone, Default)]
pub struct HeldImages(Arc<Mutex<HashMap<u64, HeldImage>>>);

/// An image, and how many holds it has.
type HeldImage = (Arc<Pixels>, usize);

impl HeldImages {
    /// Holds `pixels` (once more, when they are held already) and gives their handle.
    pub fn hold(&self, pixels: Pixels) -> u64 {
        let mut hasher = DefaultHasher::new();
        (pixels.width, pixels.height, &pixels.rgba).hash(&mut hasher);
        let handle = hasher.finish();
        let mut held = lock(&self.0);
        held.entry(handle).or_insert_with(|| (Arc::new(pixels), 0)).1 += 1;
        handle
    }

    /// Forgets the entries of `by_key` whose key `keep` refuses, letting go
    /// of their images: what a capability does when the things it holds
    /// icons for (tray items, windows) are gone.
    pub fn release_unless<K>(&self, by_key: &mut HashMap<K, u64>, keep: impl Fn(&K) -> bool) {
        by_key.retain(|key, handle| {
            let kept = keep(key);
            if !kept {
                self.release(*handle);
            }
            kept
        });
    }

    /// Lets go of one hold on `handle`.
    pub fn release(&self, handle: u64) {
        let mut held = lock(&self.0);
        if let Some((_, holds)) = held.get_mut(&handle) {
            *holds -= 1;
            if *holds == 0 {
                held.remove(&handle);
            }
        }
    }

    pub fn get(&self, handle: u64) -> Option<Arc<Pixels>> {
        lock(&self.0).get(&handle).map(|(pixels, _)| pixels.clone())
    }
}

/// Image files larger than this are not read.
pub const IMAGE_FILE_BYTES: u64 = 8 << 20;

/// The image file at `path` (SVG drawn `size` a side, else PNG; on
/// Windows also a program's icon), no larger than `size` a side.
pub fn load_image_file(path: &Path, size: u32) -> anyhow::Result<Pixels> {
    #[cfg(windows)]
    if super::program_icons::is_program(path) {
        let icon = super::program_icons::of_program(path).map(|pixels| shrink(pixels, size));
        return icon.with_context(|| format!("the icon of {}", path.display()));
    }
    let loaded = match path.extension().and_then(|extension| extension.to_str()) {
        Some("svg") => render_svg(path, size),
        _ => decode_png(path).map(|pixels| shrink(pixels, size)),
    };
    loaded.with_context(|| format!("image {}", path.display()))
}

/// The bytes of the regular file at `path`, when it is one and not too large.
fn read_image_bytes(path: &Path) -> anyhow::Result<Vec<u8>> {
    crate::files::read_regular(path, IMAGE_FILE_BYTES).context("reading")
}

/// A PNG file as RGBA pixels.
pub fn decode_png(path: &Path) -> anyhow::Result<Pixels> {
    decode_png_bytes(read_image_bytes(path)?)
}

/// PNG or JPEG bytes, as their first bytes say, as RGBA pixels.
pub fn decode_image_bytes(bytes: Vec<u8>) -> anyhow::Result<Pixels> {
    match bytes.get(..4) {
        Some([0x89, b'P', b'N', b'G']) => decode_png_bytes(bytes),
        Some([0xFF, 0xD8, 0xFF, _]) => decode_jpeg_bytes(&bytes),
        _ => anyhow::bail!("it is neither PNG nor JPEG"),
    }
}

fn decode_jpeg_bytes(bytes: &[u8]) -> anyhow::Result<Pixels> {
    use zune_jpeg::zune_core::{bytestream::ZCursor, colorspace::ColorSpace, options::DecoderOptions};
    let options = DecoderOptions::default()
        .jpeg_set_out_colorspace(ColorSpace::RGBA)
        .set_max_width(Pixels::MAX_SIDE as usize)
        .set_max_height(Pixels::MAX_SIDE as usize);
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(ZCursor::new(bytes), options);
    decoder.decode_headers().map_err(|error| anyhow::anyhow!("reading: {error:?}"))?;
    let (width, height) = decoder.dimensions().context("no size")?;
    Pixels::check_size(width as u32, height as u32)?;
    let rgba = decoder.decode().map_err(|error| anyhow::anyhow!("decoding: {error:?}"))?;
    let (width, height) = (width as u32, height as u32);
    anyhow::ensure!(rgba.len() == (width * height * 4) as usize, "it decoded to {} bytes", rgba.len());
    Ok(Pixels { width, height, rgba })
}

fn decode_png_bytes(bytes: Vec<u8>) -> anyhow::Result<Pixels> {
    // The crate's limit covers only its own buffers, not the frame: the
    // size its header claims is checked before the frame is made.
    let limits = png::Limits { bytes: (Pixels::MAX_SIDE * Pixels::MAX_SIDE * 4) as usize };
    let mut decoder = png::Decoder::new_with_limits(std::io::Cursor::new(bytes), limits);
    decoder.set_transformations(png::Transformations::normalize_to_color8() | png::Transformations::ALPHA);
    let mut reader = decoder.read_info().context("reading")?;
    Pixels::check_size(reader.info().width, reader.info().height)?;
    let mut buffer = vec![0; reader.output_buffer_size().context("it is too large")?];
    let info = reader.next_frame(&mut buffer).context("decoding")?;
    buffer.truncate(info.buffer_size());
    let rgba = match info.color_type {
        png::ColorType::Rgba => buffer,
        png::ColorType::GrayscaleAlpha => buffer.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect(),
        other => anyhow::bail!("it has an unsupported colour type, {other:?}"),
    };
    Ok(Pixels { width: info.width, height: info.height, rgba })
}

/// An SVG file drawn `size` pixels a side, as RGBA pixels.
pub fn render_svg(path: &Path, size: u32) -> anyhow::Result<Pixels> {
    Pixels::check_size(size, size)?;
    let data = read_image_bytes(path)?;
    let tree = resvg::usvg::Tree::from_data(&data, &svg_options()).context("reading")?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size, size).context("an empty image")?;
    let scale = size as f32 / tree.size().width().max(tree.size().height());
    resvg::render(&tree, resvg::tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    // tiny-skia keeps its pixels premultiplied; the painter takes them straight.
    let rgba = pixmap
        .pixels()
        .iter()
        .flat_map(|pixel| {
            let straight = pixel.demultiply();
            [straight.red(), straight.green(), straight.blue(), straight.alpha()]
        })
        .collect();
    Ok(Pixels { width: size, height: size, rgba })
}

/// How SVG files are read: an `<image>` that names another file (a path or
/// a URL) is left out, so an icon cannot make the bar read a device, wait on
/// a FIFO or read a file the icon's author chose. Of the pictures inside
/// the file (data URLs), SVG ones are drawn; PNG, JPEG and other rasters
/// are left out (resvg is built without its raster decoders), so a picture
/// claiming to be vast costs nothing.
fn svg_options() -> resvg::usvg::Options<'static> {
    let mut options = resvg::usvg::Options::default();
    options.image_href_resolver.resolve_string = Box::new(|href, _| {
        tracing::debug!("an SVG icon names the file {href:?}: left out (icons are drawn from themselves alone)");
        None
    });
    options
}

/// `pixels` no larger than `size` a side, each new pixel the average of
/// those it covers (fewer at an edge the factor does not divide; a sample
/// of them past [`SAMPLES`] a side), in premultiplied alpha, so that a
/// transparent pixel's colour never darkens an edge.
pub fn shrink(pixels: Pixels, size: u32) -> Pixels {
    if pixels.width.max(pixels.height) <= size {
        return pixels;
    }
    shrink_from(pixels.width, pixels.height, size, |at| pixels.rgba[at * 4..at * 4 + 4].try_into().unwrap())
}

/// Pixels averaged a side for one shrunk pixel at most: a larger factor
/// samples this many rows and columns of those it covers, spread evenly,
/// so a 4096-pixel image costs a small icon's work, not its own size's.
const SAMPLES: u32 = 8;

/// The image of `width` × `height` pixels whose `at`th is `pixel(at)`, as
/// RGBA no larger than `size` a side, read in place: a source in another
/// layout (a tray item's ARGB) is never copied whole.
pub fn shrink_from(width: u32, height: u32, size: u32, pixel: impl Fn(usize) -> [u8; 4]) -> Pixels {
    let factor = width.max(height).div_ceil(size).max(1);
    let (shrunk_width, shrunk_height) = (width.div_ceil(factor), height.div_ceil(factor));
    // The rows (or columns) of the source that one shrunk pixel at `at` averages.
    let covered = |at: u32, extent: u32| {
        let (start, end) = (at * factor, ((at + 1) * factor).min(extent));
        let taken = (end - start).min(SAMPLES);
        (0..taken).map(move |step| start + step * (end - start) / taken)
    };
    let mut rgba = Vec::with_capacity((shrunk_width * shrunk_height * 4) as usize);
    for y in 0..shrunk_height {
        for x in 0..shrunk_width {
            let (mut sum, mut count) = ([0u32; 4], 0);
            for row in covered(y, height) {
                for column in covered(x, width) {
                    let [red, green, blue, alpha] = pixel((row * width + column) as usize).map(u32::from);
                    for (total, value) in sum.iter_mut().zip([red * alpha, green * alpha, blue * alpha, alpha]) {
                        *total += value;
                    }
                    count += 1;
                }
            }
            let [red, green, blue, alpha] = sum;
            let unmultiply = |channel: u32| channel.checked_div(alpha).map_or(0, |value| value as u8);
            rgba.extend([unmultiply(red), unmultiply(green), unmultiply(blue), (alpha / count) as u8]);
        }
    }
    Pixels { width: shrunk_width, height: shrunk_height, rgba }
}

/// `pixels` resized to exactly `width` × `height` (each at least 1): each
/// new pixel is the average of the area of the source it covers, partly
/// covered pixels weighted by how much of them it covers, in premultiplied
/// alpha, so that a transparent pixel's colour never darkens an edge. For
/// a glyph drawn at a fractional size, pixel for pixel, with no mipmaps.
pub fn resize(pixels: &Pixels, width: u32, height: u32) -> Pixels {
    let (width, height) = (width.max(1), height.max(1));
    if pixels.width == 0 || pixels.height == 0 {
        return Pixels { width, height, rgba: vec![0; (width * height * 4) as usize] };
    }
    let premultiplied: Vec<[f32; 4]> = pixels
        .rgba
        .chunks_exact(4)
        .map(|p| {
            let alpha = f32::from(p[3]) / 255.0;
            [f32::from(p[0]) * alpha, f32::from(p[1]) * alpha, f32::from(p[2]) * alpha, f32::from(p[3])]
        })
        .collect();
    let across = resize_rows(&premultiplied, pixels.width as usize, pixels.height as usize, width as usize);
    let down = resize_columns(&across, width as usize, pixels.height as usize, height as usize);
    let rgba = down
        .iter()
        .flat_map(|&[red, green, blue, alpha]| {
            let unmultiply =
                |channel: f32| if alpha > 0.0 { (channel * 255.0 / alpha).round().min(255.0) as u8 } else { 0 };
            [unmultiply(red), unmultiply(green), unmultiply(blue), alpha.round().min(255.0) as u8]
        })
        .collect();
    Pixels { width, height, rgba }
}

/// How much of each source pixel (of `from`) the new pixel `at` (of `to`)
/// covers, as (source pixel, weight) with weights summing to one.
fn coverage(at: usize, from: usize, to: usize) -> impl Iterator<Item = (usize, f32)> {
    let step = from as f32 / to as f32;
    let (start, end) = (at as f32 * step, (at + 1) as f32 * step);
    let first = start.floor() as usize;
    let last = (end.ceil() as usize).min(from).max(first + 1);
    (first..last).map(move |source| {
        let covered = (end.min(source as f32 + 1.0) - start.max(source as f32)).max(0.0);
        (source, covered / step)
    })
}

fn resize_rows(pixels: &[[f32; 4]], width: usize, height: usize, to: usize) -> Vec<[f32; 4]> {
    let mut out = Vec::with_capacity(to * height);
    for row in pixels.chunks_exact(width).take(height) {
        for x in 0..to {
            let mut sum = [0.0; 4];
            for (source, weight) in coverage(x, width, to) {
                sum.iter_mut().zip(row[source]).for_each(|(total, value)| *total += value * weight);
            }
            out.push(sum);
        }
    }
    out
}

fn resize_columns(pixels: &[[f32; 4]], width: usize, height: usize, to: usize) -> Vec<[f32; 4]> {
    let mut out = vec![[0.0; 4]; width * to];
    for y in 0..to {
        for (source, weight) in coverage(y, height, to) {
            for x in 0..width {
                let value = pixels[source * width + x];
                out[y * width + x].iter_mut().zip(value).for_each(|(total, value)| *total += value * weight);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pixels(value: u8) -> Pixels {
        Pixels { width: 1, height: 1, rgba: vec![value; 4] }
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_a_device_is_refused_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("icon.png");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let error = format!("{:#}", load_image_file(&fifo, 48).unwrap_err());
        assert!(error.contains("not a regular file"), "{error}");
        let error = format!("{:#}", load_image_file(Path::new("/dev/zero"), 48).unwrap_err());
        assert!(error.contains("not a regular file"), "{error}");
    }

    #[cfg(unix)]
    #[test]
    fn an_svg_naming_a_device_or_a_fifo_is_drawn_without_it() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        for href in ["/dev/zero", fifo.to_str().unwrap()] {
            let path = dir.path().join("icon.svg");
            let svg = format!(
                r##"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="8" height="16" fill="#ff0000"/><image href="{href}" width="16" height="16"/></svg>"##
            );
            std::fs::write(&path, svg).unwrap();
            let started = std::time::Instant::now();
            let pixels = render_svg(&path, 16).unwrap();
            assert!(started.elapsed() < std::time::Duration::from_secs(2), "{href} was not read");
            assert_eq!(&pixels.rgba[..4], &[255, 0, 0, 255], "the rest of the icon is drawn");
        }
    }

    /// Memory a decoder of a vast image would take: the test fails on the
    /// allocation, not on a slow machine.
    #[test]
    fn an_image_claiming_to_be_vast_is_refused_before_its_pixels_are_made() {
        use obi_test_support::image_bombs::{jpeg_claiming, png_claiming};
        let bomb = png_claiming(200_000, 200_000);
        assert!(bomb.len() < 100, "{} bytes", bomb.len());
        let error = format!("{:#}", decode_image_bytes(bomb.clone()).unwrap_err());
        assert!(error.contains("200000×200000 pixels, more than the 4096"), "{error}");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bomb.png");
        std::fs::write(&path, &bomb).unwrap();
        let error = format!("{:#}", load_image_file(&path, 48).unwrap_err());
        assert!(error.contains("bomb.png") && error.contains("more than the 4096"), "{error}");
        let error = format!("{:#}", decode_image_bytes(png_claiming(30_000, 10)).unwrap_err());
        assert!(error.contains("30000×10"), "one side is enough: {error}");
        let error = format!("{:#}", decode_image_bytes(jpeg_claiming(60_000, 60_000)).unwrap_err());
        assert!(error.contains("greater than width limit"), "{error}");
        // At the cap an image is still read as far as it goes.
        let error = format!("{:#}", decode_image_bytes(png_claiming(Pixels::MAX_SIDE, Pixels::MAX_SIDE)).unwrap_err());
        assert!(!error.contains("more than the"), "{error}");
    }

    #[test]
    fn an_svg_holding_a_vast_picture_is_drawn_without_it() {
        use base64::Engine;
        use obi_test_support::image_bombs::png_claiming;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("icon.svg");
        let picture = base64::engine::general_purpose::STANDARD.encode(png_claiming(200_000, 200_000));
        let svg = format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="8" height="16" fill="#ff0000"/><image href="data:image/png;base64,{picture}" width="16" height="16"/></svg>"##
        );
        std::fs::write(&path, svg).unwrap();
        let pixels = render_svg(&path, 16).unwrap();
        assert_eq!(&pixels.rgba[..4], &[255, 0, 0, 255], "the rest of the icon is drawn");
        assert!(render_svg(&path, 100_000).is_err(), "nor is an SVG drawn vast");
    }

    #[test]
    fn large_icons_are_shrunk_by_averaging() {
        let mut rgba = Vec::new();
        for y in 0..96u32 {
            for _ in 0..96 {
                rgba.extend(if y % 2 == 0 { [200, 0, 0, 255] } else { [0, 0, 100, 255] });
            }
        }
        let shrunk = shrink(Pixels { width: 96, height: 96, rgba }, 48);
        assert_eq!((shrunk.width, shrunk.height), (48, 48));
        assert_eq!(&shrunk.rgba[..4], &[100, 0, 50, 255]);
        // A strip of a window's making shrinks to a strip, not to nothing.
        let strip = shrink(Pixels { width: 1000, height: 1, rgba: vec![9; 4000] }, 48);
        assert_eq!((strip.width, strip.height, strip.rgba.len()), (48, 1, 48 * 4));
        assert!(strip.rgba.iter().all(|&channel| channel == 9));
        // Past eight pixels a side, a sample of them: the stripes still average.
        let (side, size) = (4000, 48);
        let striped = shrink_from(side, side, size, |at| {
            if (at as u32 / side).is_multiple_of(2) { [200, 0, 0, 255] } else { [0, 0, 100, 255] }
        });
        assert_eq!((striped.width, striped.height), (48, 48));
        assert_eq!(&striped.rgba[..4], &[100, 0, 50, 255]);
    }

    #[test]
    fn an_svg_icon_is_drawn_at_the_size_asked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("icon.svg");
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="8" height="16" fill="#ff0000"/></svg>"##;
        std::fs::write(&path, svg).unwrap();
        let pixels = render_svg(&path, 32).unwrap();
        assert_eq!((pixels.width, pixels.height), (32, 32));
        assert_eq!(&pixels.rgba[..4], &[255, 0, 0, 255], "the left half is red");
        assert_eq!(pixels.rgba[(31 * 4 + 3) as usize], 0, "the right half is empty");
    }

    #[test]
    fn a_resize_averages_in_premultiplied_alpha_what_each_new_pixel_covers() {
        // Opaque red beside transparent black: half-covered red, not dark red.
        let edge = Pixels { width: 2, height: 1, rgba: vec![255, 0, 0, 255, 0, 0, 0, 0] };
        assert_eq!(resize(&edge, 1, 1).rgba, vec![255, 0, 0, 128]);
        // Three columns into two: the middle one is shared half and half.
        let row =
            Pixels { width: 3, height: 1, rgba: [[0, 0, 0, 255], [90, 90, 90, 255], [180, 180, 180, 255]].concat() };
        let resized = resize(&row, 2, 1);
        assert_eq!(resized.rgba, [[30, 30, 30, 255], [150, 150, 150, 255]].concat());
        // Down a column too, and the same size is the same pixels.
        let column = Pixels { width: 1, height: 2, rgba: [[0, 0, 200, 255], [0, 0, 100, 255]].concat() };
        assert_eq!(resize(&column, 1, 1).rgba, vec![0, 0, 150, 255]);
        assert_eq!(resize(&row, 3, 1).rgba, row.rgba);
    }

    #[test]
    fn a_shrink_averages_in_premultiplied_alpha_too() {
        let edge = Pixels { width: 2, height: 2, rgba: [[255, 0, 0, 255], [0, 0, 0, 0]].concat().repeat(2) };
        assert_eq!(shrink(edge, 1).rgba, vec![255, 0, 0, 127]);
    }

    #[test]
    fn a_resize_of_nothing_is_transparent() {
        let empty = Pixels { width: 0, height: 0, rgba: Vec::new() };
        assert_eq!(resize(&empty, 2, 1).rgba, vec![0; 8]);
    }

    #[test]
    fn a_resize_to_a_larger_size_keeps_each_pixel_where_it_was() {
        let two = Pixels { width: 2, height: 1, rgba: [[0, 0, 0, 255], [200, 200, 200, 255]].concat() };
        let grown = resize(&two, 4, 2);
        assert_eq!((grown.width, grown.height), (4, 2));
        assert_eq!(&grown.rgba[..4], &[0, 0, 0, 255]);
        assert_eq!(&grown.rgba[12..16], &[200, 200, 200, 255]);
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

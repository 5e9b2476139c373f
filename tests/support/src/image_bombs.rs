//! Image files that lie about their size: a few bytes whose header claims
//! more pixels than any memory holds, as a hostile tray item, media player
//! or config would hand the bar.

/// A PNG of under a hundred bytes whose header claims `width` × `height`
/// RGBA pixels (its one data chunk holds almost none of them).
pub fn png_claiming(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("a PNG header");
    // A zlib stream of one empty stored block: data, but far too little.
    writer.write_chunk(png::chunk::IDAT, &[0x78, 0x01, 0x01, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01]).unwrap();
    drop(writer);
    bytes
}

/// A JPEG's first markers, claiming `width` × `height` pixels, and no
/// picture.
pub fn jpeg_claiming(width: u16, height: u16) -> Vec<u8> {
    let [height_high, height_low] = height.to_be_bytes();
    let [width_high, width_low] = width.to_be_bytes();
    let mut bytes =
        vec![0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, height_high, height_low, width_high, width_low, 0x03];
    for component in 1..=3 {
        bytes.extend([component, 0x11, 0x00]);
    }
    bytes.extend([0xFF, 0xD9]);
    bytes
}

//! What a program tells the tray with `Shell_NotifyIcon`, as it reaches
//! the window of class `Shell_TrayWnd` in a `WM_COPYDATA`. Windows and Wine
//! send it differently:
//!
//! - Windows: `dwData` 1, then a header (the magic `0x34753423` and the
//!   message: add, modify, delete, set version) and `NOTIFYICONDATAW` with
//!   32-bit handles; the icon is a handle (icons are shared in a session).
//! - Wine: `dwData` is the message, then its own record (the same fields,
//!   without `cbSize` and the icon handle) followed by the icon's pixels:
//!   width, height, planes and bits per pixel, the mask, then the colour.
//!
//! Either is read whole or refused: a peer that sends something short or
//! odd is ignored.

/// What the program asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Message {
    Add,
    Modify,
    Delete,
    SetFocus,
    SetVersion,
}

/// Its icon: a handle to read (Windows) or its pixels (Wine).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Icon {
    Handle(u32),
    Bits { width: u32, height: u32, bits_per_pixel: u32, mask: Vec<u8>, colour: Vec<u8> },
}

/// One notification, as sent. A field is meant only when its flag is set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notification {
    pub message: Message,
    /// The window the icon's messages go to, and its number for the icon.
    pub window: u32,
    pub id: u32,
    pub flags: u32,
    pub callback_message: u32,
    pub tip: String,
    pub state: u32,
    pub state_mask: u32,
    pub version: u32,
    pub guid: [u8; 16],
    pub icon: Option<Icon>,
}

pub const NIF_MESSAGE: u32 = 0x1;
pub const NIF_ICON: u32 = 0x2;
pub const NIF_TIP: u32 = 0x4;
// Read by the tray's window alone, which is Windows'.
#[cfg(windows)]
pub const NIF_STATE: u32 = 0x8;
#[cfg(windows)]
pub const NIF_GUID: u32 = 0x20;
#[cfg(windows)]
pub const NIS_HIDDEN: u32 = 0x1;

const WINDOWS_MAGIC: u32 = 0x3475_3423;
/// `szTip`, `szInfo` and `szInfoTitle`, in UTF-16 units.
const TIP: usize = 128;
const INFO: usize = 256;
const INFO_TITLE: usize = 64;

/// The notification in a `WM_COPYDATA` to the tray, if it is one.
pub fn read(dw_data: usize, bytes: &[u8]) -> Option<Notification> {
    let mut fields = Fields { bytes, at: 0 };
    if dw_data == 1 && fields.peek_u32() == Some(WINDOWS_MAGIC) {
        fields.u32()?;
        let message = message(fields.u32()?)?;
        let _size = fields.u32()?;
        let (window, id, flags, callback_message) = (fields.u32()?, fields.u32()?, fields.u32()?, fields.u32()?);
        let icon = fields.u32()?;
        let rest = fields.rest()?;
        return Some(Notification {
            message,
            window,
            id,
            flags,
            callback_message,
            icon: (flags & NIF_ICON != 0 && icon != 0).then_some(Icon::Handle(icon)),
            ..rest
        });
    }
    let message = message(u32::try_from(dw_data).ok()?)?;
    let (window, id, flags, callback_message) = (fields.u32()?, fields.u32()?, fields.u32()?, fields.u32()?);
    let rest = fields.rest()?;
    let (width, height, _planes, bits_per_pixel) = (fields.u32()?, fields.u32()?, fields.u32()?, fields.u32()?);
    let icon = if width == 0 || height == 0 {
        None
    } else {
        let mask_size = (width.div_ceil(16) * 2 * height) as usize;
        let colour_size = ((width * bits_per_pixel).div_ceil(16) * 2 * height) as usize;
        let mask = fields.bytes(mask_size)?.to_vec();
        let colour = fields.bytes(colour_size)?.to_vec();
        Some(Icon::Bits { width, height, bits_per_pixel, mask, colour })
    };
    Some(Notification { message, window, id, flags, callback_message, icon, ..rest })
}

fn message(number: u32) -> Option<Message> {
    Some(match number {
        0 => Message::Add,
        1 => Message::Modify,
        2 => Message::Delete,
        3 => Message::SetFocus,
        4 => Message::SetVersion,
        _ => return None,
    })
}

/// Little-endian fields read in order.
struct Fields<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Fields<'_> {
    fn bytes(&mut self, count: usize) -> Option<&[u8]> {
        let taken = self.bytes.get(self.at..self.at.checked_add(count)?)?;
        self.at += count;
        Some(taken)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.bytes(4)?.try_into().ok()?))
    }

    fn peek_u32(&self) -> Option<u32> {
        Some(u32::from_le_bytes(self.bytes.get(self.at..self.at + 4)?.try_into().ok()?))
    }

    fn text(&mut self, units: usize) -> Option<String> {
        let raw: Vec<u16> =
            self.bytes(units * 2)?.chunks_exact(2).map(|pair| u16::from_le_bytes([pair[0], pair[1]])).collect();
        let end = raw.iter().position(|unit| *unit == 0).unwrap_or(raw.len());
        Some(String::from_utf16_lossy(&raw[..end]))
    }

    /// The fields both formats share after the callback message: tip,
    /// state, balloon text, version, balloon title and flags, GUID.
    fn rest(&mut self) -> Option<Notification> {
        let tip = self.text(TIP)?;
        let (state, state_mask) = (self.u32()?, self.u32()?);
        self.text(INFO)?;
        let version = self.u32()?;
        self.text(INFO_TITLE)?;
        self.u32()?;
        let guid = self.bytes(16)?.try_into().ok()?;
        Some(Notification {
            message: Message::Add,
            window: 0,
            id: 0,
            flags: 0,
            callback_message: 0,
            tip,
            state,
            state_mask,
            version,
            guid,
            icon: None,
        })
    }
}

/// The GUID as Windows writes it: `{6B29FC40-CA47-1067-B31D-00DD010662DA}`.
pub fn guid_text(guid: &[u8; 16]) -> String {
    let data1 = u32::from_le_bytes(guid[0..4].try_into().unwrap_or_default());
    let data2 = u16::from_le_bytes([guid[4], guid[5]]);
    let data3 = u16::from_le_bytes([guid[6], guid[7]]);
    let tail: String = guid[10..].iter().map(|byte| format!("{byte:02X}")).collect();
    format!("{{{data1:08X}-{data2:04X}-{data3:04X}-{:02X}{:02X}-{tail}}}", guid[8], guid[9])
}

/// An icon's pixels as straight RGBA, top row first: Wine's colour bits
/// (bottom-up BGRA, or BGR without alpha, where the mask says what shows).
pub fn rgba(width: u32, height: u32, bits_per_pixel: u32, mask: &[u8], colour: &[u8]) -> Option<Vec<u8>> {
    let bytes_per_pixel = match bits_per_pixel {
        32 => 4,
        24 => 3,
        _ => return None,
    };
    let colour_stride = (width * bits_per_pixel).div_ceil(16) as usize * 2;
    let mask_stride = width.div_ceil(16) as usize * 2;
    let has_alpha = bytes_per_pixel == 4 && colour.chunks_exact(4).any(|pixel| pixel[3] != 0);
    let mut pixels = Vec::with_capacity((width * height * 4) as usize);
    for row in (0..height as usize).rev() {
        for column in 0..width as usize {
            let at = row * colour_stride + column * bytes_per_pixel;
            let pixel = colour.get(at..at + bytes_per_pixel)?;
            let masked = mask.get(row * mask_stride + column / 8)? & (0x80 >> (column % 8)) != 0;
            let alpha = match (has_alpha, masked) {
                (true, _) => pixel[3],
                (false, true) => 0,
                (false, false) => 255,
            };
            pixels.extend_from_slice(&[pixel[2], pixel[1], pixel[0], alpha]);
        }
    }
    Some(pixels)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(text: &str, units: usize) -> Vec<u8> {
        let mut raw: Vec<u16> = text.encode_utf16().collect();
        raw.resize(units, 0);
        raw.iter().flat_map(|unit| unit.to_le_bytes()).collect()
    }

    /// The fields after the callback message, with `tip` and `guid`.
    fn shared(tip: &str, guid: [u8; 16]) -> Vec<u8> {
        let mut bytes = utf16(tip, TIP);
        bytes.extend([0u8; 8]);
        bytes.extend(utf16("", INFO));
        bytes.extend(4u32.to_le_bytes());
        bytes.extend(utf16("", INFO_TITLE));
        bytes.extend([0u8; 4]);
        bytes.extend(guid);
        bytes
    }

    #[test]
    fn windows_notifications_carry_an_icon_handle() {
        let mut bytes = Vec::new();
        for field in [WINDOWS_MAGIC, 0, 956, 0x2_0080, 7, NIF_ICON | NIF_TIP | NIF_MESSAGE, 0x8005, 0x1234] {
            bytes.extend(field.to_le_bytes());
        }
        bytes.extend(shared("Updates", [0; 16]));
        bytes.extend(0u32.to_le_bytes());
        let notification = read(1, &bytes).unwrap();
        assert_eq!(notification.message, Message::Add);
        assert_eq!((notification.window, notification.id, notification.callback_message), (0x2_0080, 7, 0x8005));
        assert_eq!(notification.tip, "Updates");
        assert_eq!(notification.version, 4);
        assert_eq!(notification.icon, Some(Icon::Handle(0x1234)));
        assert_eq!(read(1, &bytes[..100]), None, "cut short");
    }

    #[test]
    fn wine_notifications_carry_the_icons_pixels() {
        let mut bytes = Vec::new();
        for field in [0x2_0080, 7, NIF_ICON | NIF_TIP, 0] {
            bytes.extend(u32::to_le_bytes(field));
        }
        let guid = [0x40, 0xFC, 0x29, 0x6B, 0x47, 0xCA, 0x67, 0x10, 0xB3, 0x1D, 0x00, 0xDD, 0x01, 0x06, 0x62, 0xDA];
        bytes.extend(shared("probe tip", guid));
        for field in [2u32, 2, 1, 32] {
            bytes.extend(field.to_le_bytes());
        }
        // A 2x2 mask (rows of 2 bytes, bottom row first): the bottom-left
        // pixel is see-through.
        bytes.extend([0x80, 0, 0x00, 0]);
        // Bottom row first: blue, green; then red, white; BGRA without alpha.
        bytes.extend([255, 0, 0, 0, 0, 255, 0, 0, 0, 0, 255, 0, 255, 255, 255, 0]);
        let notification = read(2, &bytes).unwrap();
        assert_eq!(notification.message, Message::Delete);
        assert_eq!(notification.tip, "probe tip");
        assert_eq!(guid_text(&notification.guid), "{6B29FC40-CA47-1067-B31D-00DD010662DA}");
        let Some(Icon::Bits { width, height, bits_per_pixel, mask, colour }) = notification.icon else {
            panic!("no pixels: {notification:?}")
        };
        let pixels = rgba(width, height, bits_per_pixel, &mask, &colour).unwrap();
        assert_eq!(pixels, [255, 0, 0, 255, 255, 255, 255, 255, 0, 0, 255, 0, 0, 255, 0, 255]);
        assert_eq!(read(9, &bytes), None, "no such message");
        assert_eq!(read(0, &bytes[..bytes.len() - 1]), None, "pixels cut short");
    }
}

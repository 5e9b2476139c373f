//! A `Notify` call read into a [`Notification`]: its texts cut to the
//! [`limits`], its actions paired, and of its hints only those the server
//! uses, read straight from the message. A sender may put anything in a
//! call (a hundred megabytes of pixels, a million actions, a hint of
//! another type than the specification's): what is not used is skipped
//! without being copied, and an image is shrunk as it is read.

use super::limits::{
    ACTION_BYTES, APP_NAME_BYTES, BODY_BYTES, IMAGE_SIDE, KEPT_IMAGE_SIDE, MOST_ACTIONS, NAME_BYTES, SUMMARY_BYTES,
};
use super::notification::{Action, Notification, Timeout, Urgency};
use crate::view::Pixels;
use crate::view::images::{load_image_file, shrink_from};
use obi_markup::cut;
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::path::Path;
use std::sync::Arc;
use std::time::SystemTime;
use zbus::zvariant::{self, Signature, Type};

/// What `Notify` is called with, borrowed from the message.
pub struct Call<'a> {
    pub app_name: &'a str,
    pub app_icon: &'a str,
    pub summary: &'a str,
    pub body: &'a str,
    pub actions: Actions,
    pub hints: Hints,
    pub expire_timeout: i32,
}

impl Call<'_> {
    /// The notification it asks for (its id still to be given), its icon
    /// read (a file only when it is a regular one, of bounded size).
    pub fn read(self) -> Notification {
        let Call { hints, app_icon, .. } = self;
        let named = hints.image_path.as_deref().filter(|path| !path.is_empty()).unwrap_or(app_icon);
        let icon = hints.image.or_else(|| icon_named(named)).map(Arc::new);
        Notification {
            id: 0,
            app_name: cut_copy(self.app_name, APP_NAME_BYTES),
            summary: cut_copy(self.summary, SUMMARY_BYTES),
            body: cut_copy(self.body, BODY_BYTES),
            actions: self.actions.0,
            urgency: match hints.urgency {
                Some(0) => Urgency::Low,
                Some(2..) => Urgency::Critical,
                _ => Urgency::Normal,
            },
            timeout: Timeout::from_milliseconds(self.expire_timeout),
            icon,
            category: hints.category,
            desktop_entry: hints.desktop_entry,
            resident: hints.resident,
            transient: hints.transient,
            received: SystemTime::now(),
        }
    }
}

/// `text` cut to `most` bytes as [`cut`] cuts it, copying no more of it
/// than that: a sender's text may be as long as a message allows.
fn cut_copy(text: &str, most: usize) -> String {
    // One character past `most` still tells `cut` the text was longer.
    let mut end = (most + 1).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    cut(text[..end].to_owned(), most)
}

/// The image an icon's name, path or `file://` address names, when one can
/// be read.
fn icon_named(name: &str) -> Option<Pixels> {
    let path = match name.strip_prefix("file://") {
        Some(rest) => crate::files::path_of_file_url(rest).ok()?,
        None if name.starts_with('/') => name.into(),
        None => crate::capabilities::tray::find_named(name, "")?,
    };
    match load_image_file(&path, KEPT_IMAGE_SIDE) {
        Ok(pixels) => Some(pixels),
        Err(error) => {
            tracing::info!("notifications: no icon from {}: {error:#}", shown(&path));
            None
        }
    }
}

fn shown(path: &Path) -> String {
    cut(path.display().to_string(), NAME_BYTES)
}

/// The first [`MOST_ACTIONS`] actions of a call's list of keys and labels.
#[derive(Debug, Default)]
pub struct Actions(Vec<Action>);

impl Type for Actions {
    const SIGNATURE: &'static Signature = <Vec<&str> as Type>::SIGNATURE;
}

impl<'de> Deserialize<'de> for Actions {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Pairs;
        impl<'de> Visitor<'de> for Pairs {
            type Value = Vec<Action>;
            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("a list of action keys and labels")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Action>, A::Error> {
                let mut actions = Vec::new();
                let mut key = None;
                while actions.len() < MOST_ACTIONS {
                    // A list's end is read once: zvariant's reader leaves
                    // the list again at each reading past it.
                    let Some(text) = seq.next_element::<&str>()? else { return Ok(actions) };
                    let text = cut_copy(text, ACTION_BYTES);
                    match key.take() {
                        None => key = Some(text),
                        Some(key) => actions.push(Action { key, label: text }),
                    }
                }
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(actions)
            }
        }
        deserializer.deserialize_seq(Pairs).map(Actions)
    }
}

/// The hints the server uses, by the specification's names (and the
/// older spellings senders still use).
#[derive(Debug, Default)]
pub struct Hints {
    pub urgency: Option<u8>,
    pub category: Option<String>,
    pub desktop_entry: Option<String>,
    pub image: Option<Pixels>,
    pub image_path: Option<String>,
    pub resident: bool,
    pub transient: bool,
}

impl Type for Hints {
    const SIGNATURE: &'static Signature =
        <std::collections::HashMap<&str, zvariant::Value<'static>> as Type>::SIGNATURE;
}

impl<'de> Deserialize<'de> for Hints {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct HintMap;
        impl<'de> Visitor<'de> for HintMap {
            type Value = Hints;
            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("a map of hints")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Hints, A::Error> {
                let mut hints = Hints::default();
                while let Some(key) = map.next_key::<&str>()? {
                    let value = map.next_value_seed(HintSeed(key))?;
                    match value {
                        Hint::Urgency(urgency) => hints.urgency = Some(urgency),
                        Hint::Text(text) => {
                            let text = Some(text);
                            match key {
                                "category" => hints.category = text,
                                "desktop-entry" => hints.desktop_entry = text,
                                _ => hints.image_path = text,
                            }
                        }
                        Hint::Flag(flag) if key == "resident" => hints.resident = flag,
                        Hint::Flag(flag) => hints.transient = flag,
                        // The newer spelling wins over the deprecated `icon_data`.
                        Hint::Image(image) if key == "icon_data" => _ = hints.image.get_or_insert(image),
                        Hint::Image(image) => hints.image = Some(image),
                        Hint::Skipped => {}
                    }
                }
                Ok(hints)
            }
        }
        deserializer.deserialize_map(HintMap)
    }
}

enum Hint {
    Urgency(u8),
    Text(String),
    Flag(bool),
    Image(Pixels),
    Skipped,
}

/// Reads the variant of the hint named by its key, when it holds what the
/// specification says it does; skips it otherwise.
struct HintSeed<'k>(&'k str);

impl<'de> DeserializeSeed<'de> for HintSeed<'_> {
    type Value = Hint;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Hint, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for HintSeed<'_> {
    type Value = Hint;
    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a hint's variant")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut variant: A) -> Result<Hint, A::Error> {
        let signature: Signature = variant.next_element()?.ok_or_else(|| de::Error::custom("a variant's signature"))?;
        let signature = signature.to_string();
        // Senders written in languages without bytes or booleans send
        // integers; each is read as the type its signature names.
        let integer = |signature: &str, variant: &mut A| -> Result<Option<i64>, A::Error> {
            Ok(match signature {
                "y" => variant.next_element::<u8>()?.map(i64::from),
                "i" => variant.next_element::<i32>()?.map(i64::from),
                _ => variant.next_element::<u32>()?.map(i64::from),
            })
        };
        let hint = match (self.0, signature.as_str()) {
            ("urgency", "y" | "i" | "u") => {
                integer(&signature, &mut variant)?.map(|urgency| Hint::Urgency(urgency.clamp(0, 2) as u8))
            }
            ("category" | "desktop-entry" | "image-path" | "image_path", "s") => {
                variant.next_element::<&str>()?.map(|text| Hint::Text(cut_copy(text, NAME_BYTES)))
            }
            ("resident" | "transient", "b") => variant.next_element::<bool>()?.map(Hint::Flag),
            ("resident" | "transient", "y" | "i" | "u") => {
                integer(&signature, &mut variant)?.map(|flag| Hint::Flag(flag != 0))
            }
            ("image-data" | "image_data" | "icon_data", "(iiibiiay)") => {
                variant.next_element::<ImageData>()?.map(|image| image.0.map_or(Hint::Skipped, Hint::Image))
            }
            _ => variant.next_element::<IgnoredAny>()?.map(|_| Hint::Skipped),
        };
        Ok(hint.unwrap_or(Hint::Skipped))
    }
}

/// An `image-data` hint's pixels, shrunk to [`KEPT_IMAGE_SIDE`] as they
/// are read; none when the hint is not the image it says it is.
struct ImageData(Option<Pixels>);

impl<'de> Deserialize<'de> for ImageData {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Raw<'a> {
            width: i32,
            height: i32,
            rowstride: i32,
            has_alpha: bool,
            bits_per_sample: i32,
            channels: i32,
            #[serde(borrow)]
            data: &'a [u8],
        }
        let raw = Raw::deserialize(deserializer)?;
        Ok(ImageData(pixels_of(
            (raw.width, raw.height, raw.rowstride),
            (raw.has_alpha, raw.bits_per_sample, raw.channels),
            raw.data,
        )))
    }
}

/// The pixels of an image `width` × `height` whose rows begin `rowstride`
/// bytes apart in `data`, of 8-bit RGB or RGBA, no larger than
/// [`KEPT_IMAGE_SIDE`] a side; none when the numbers do not fit the data.
fn pixels_of(
    (width, height, rowstride): (i32, i32, i32),
    (has_alpha, bits_per_sample, channels): (bool, i32, i32),
    data: &[u8],
) -> Option<Pixels> {
    let side = 1..=IMAGE_SIDE as i32;
    let channels_wanted = if has_alpha { 4 } else { 3 };
    if !side.contains(&width) || !side.contains(&height) || bits_per_sample != 8 || channels != channels_wanted {
        tracing::info!("notifications: an image of {width}×{height}, {channels}×{bits_per_sample} bits is not read");
        return None;
    }
    let (width, height, rowstride, channels) = (width as usize, height as usize, rowstride as usize, channels as usize);
    let needed = rowstride.checked_mul(height - 1)?.checked_add(width * channels)?;
    if rowstride < width * channels || data.len() < needed {
        tracing::info!("notifications: an image's {} bytes are fewer than its size says", data.len());
        return None;
    }
    let pixel = |at: usize| {
        let start = (at / width) * rowstride + (at % width) * channels;
        let alpha = if has_alpha { data[start + 3] } else { 255 };
        [data[start], data[start + 1], data[start + 2], alpha]
    };
    Some(shrink_from(width as u32, height as u32, KEPT_IMAGE_SIDE, pixel))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_is_cut_as_a_whole_copy_of_it_would_be() {
        for text in ["short", "exactly10!", "eleven char", "naïve café au lait", "ééééééééé"] {
            for most in [0, 3, 5, 10, 11, 12] {
                assert_eq!(cut_copy(text, most), cut(text.to_owned(), most), "{text:?} in {most}");
            }
        }
    }

    #[test]
    fn an_image_is_read_in_its_layout_and_shrunk() {
        // 2×1 RGB with rows padded to 8 bytes.
        let data = [255, 0, 0, 0, 255, 0, 9, 9];
        let pixels = pixels_of((2, 1, 8), (false, 8, 3), &data).unwrap();
        assert_eq!((pixels.width, pixels.height), (2, 1));
        assert_eq!(pixels.rgba, [255, 0, 0, 255, 0, 255, 0, 255]);
        let large = vec![128u8; 1000 * 4 * 1000];
        let shrunk = pixels_of((1000, 1000, 4000), (true, 8, 4), &large).unwrap();
        assert!(shrunk.width <= KEPT_IMAGE_SIDE && shrunk.height <= KEPT_IMAGE_SIDE);
    }

    #[test]
    fn an_image_that_is_not_what_it_says_is_not_read() {
        let few = [0u8; 16];
        assert!(pixels_of((30000, 30000, 120000), (true, 8, 4), &few).is_none(), "vast");
        assert!(pixels_of((4, 4, 16), (true, 8, 4), &few[..15]).is_none(), "short by a byte");
        assert!(pixels_of((2, 2, 4), (true, 8, 4), &few).is_none(), "rows shorter than a row");
        assert!(pixels_of((2, 2, 8), (true, 16, 4), &few).is_none(), "16 bits");
        assert!(pixels_of((2, 2, 8), (false, 8, 4), &few).is_none(), "four channels without alpha");
        assert!(pixels_of((0, 2, 8), (true, 8, 4), &few).is_none(), "no width");
        assert!(pixels_of((2, 2, -8), (true, 8, 4), &few).is_none(), "a negative stride");
    }
}

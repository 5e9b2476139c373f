//! Colours as configs and status programs write them.

use crate::Colour;

/// `#rrggbb`, or `#rrggbbaa` (as i3bar's and swaybar's configs and
/// status programs write them); none for anything else.
pub fn hex_colour(hex: &str) -> Option<Colour> {
    let hex = hex.strip_prefix('#')?;
    let channel = |at: usize| hex.get(at..at + 2).and_then(|pair| u8::from_str_radix(pair, 16).ok());
    let alpha = match hex.len() {
        6 => 255,
        8 => channel(6)?,
        _ => return None,
    };
    Some(Colour { red: channel(0)?, green: channel(2)?, blue: channel(4)?, alpha })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_or_eight_hex_digits_after_a_hash() {
        assert_eq!(hex_colour("#10203080"), Some(Colour { red: 0x10, green: 0x20, blue: 0x30, alpha: 0x80 }));
        assert_eq!(hex_colour("#FFffFF").map(|colour| colour.alpha), Some(255));
        for wrong in ["green", "#fff", "#ggggggg", "102030", "#1020304", "#é12345"] {
            assert_eq!(hex_colour(wrong), None, "{wrong}");
        }
    }
}

//! A bar of one item painted offscreen in DejaVu Sans, and its pixels read
//! back: for the tests of what text looks like.

use obi::config::{BarConfig, Side};
use obi::render::{Offscreen, PlacedItem, Scene, SceneWidget, Style, find_text_font};
use obi::view::{Emphasis, Inputs, Item, Piece, View, WidgetState};
use obi_test_support::skip;

pub const WIDTH: u32 = 600;
pub const HEIGHT: u32 = 32;

/// Pixels that are not the background, with where they are.
pub type Ink = Vec<(u32, u32, [u8; 3])>;

/// An offscreen bar in DejaVu Sans 14, its style and its background; none
/// (said loudly, a failure under CI) without the font or offscreen GL.
pub fn bar(test: &str) -> Option<(Offscreen, Style, [u8; 3])> {
    let json =
        r#"{ "height": 32, "font_family": "DejaVu Sans", "font_size": 14, "left_widgets": [], "right_widgets": [] }"#;
    let config = BarConfig::parse(json, "test").unwrap().config;
    let mut style = Style::from_config(&config);
    let font = match find_text_font(Some("DejaVu Sans")) {
        Ok(font) if font.family == "DejaVu Sans" => font,
        _ => {
            skip::unavailable(&format!("{test}: DejaVu Sans is not installed (apt install fonts-dejavu-core)"));
            return None;
        }
    };
    style.text_font = Some(font.data);
    match Offscreen::new(WIDTH, HEIGHT) {
        Ok(offscreen) => {
            let background = [style.theme.background.0, style.theme.background.1, style.theme.background.2];
            Some((offscreen, style, background))
        }
        Err(error) => {
            skip::unavailable(&format!("{test}: no offscreen GL ({error})"));
            None
        }
    }
}

/// A bar of one item of `pieces`, painted: its placed item and the frame's RGBA.
pub fn painted(offscreen: &mut Offscreen, style: &Style, pieces: Vec<Piece>) -> (PlacedItem, Vec<u8>) {
    let item = Item {
        key: "sample".into(),
        pieces,
        emphasis: Emphasis::Normal,
        takes: Inputs::NONE,
        tooltip: None,
        look: None,
    };
    let widget =
        SceneWidget { side: Side::Left, name: "sample".into(), state: WidgetState::Ready(View::of(vec![item])) };
    let scene = Scene { style: style.clone(), widgets: vec![widget] };
    let layout = offscreen.paint(&scene);
    let rgba = offscreen.read_rgba().unwrap();
    (layout.items[0].clone(), rgba)
}

/// The pixels of `rgba` in `columns` that are not the `background`.
pub fn ink(rgba: &[u8], columns: std::ops::Range<u32>, background: [u8; 3]) -> Ink {
    let mut ink = Vec::new();
    for y in 0..HEIGHT {
        for x in columns.clone().filter(|x| *x < WIDTH) {
            let at = ((y * WIDTH + x) * 4) as usize;
            let pixel = [rgba[at], rgba[at + 1], rgba[at + 2]];
            if pixel.iter().zip(background).any(|(a, b)| a.abs_diff(b) > 24) {
                ink.push((x, y, pixel));
            }
        }
    }
    ink
}

/// The columns `item` covers.
pub fn columns_of(item: &PlacedItem) -> std::ops::Range<u32> {
    item.rect.x as u32..item.rect.right() as u32
}

//! The painter draws text in the face of a collection (`.ttc`) it is
//! given, not the collection's first: a bar set in Noto Sans CJK SC, or
//! in most of macOS's fonts, is drawn in the face its config names.

use obi::config::{BarConfig, Side};
use obi::render::{FontData, Offscreen, Scene, SceneWidget, Style};
use obi::view::{Emphasis, Inputs, Item, Piece, View, WidgetState};
use obi_test_support::font_collection::{DEJAVU_SANS, DEJAVU_SANS_MONO, collection_of};
use obi_test_support::skip;
use std::sync::Arc;

const WIDTH: u32 = 400;
const HEIGHT: u32 = 40;

/// A bar with one line of text that looks different in each face.
fn scene() -> Scene {
    let json = r#"{ "height": 40, "transparency_alpha": 255, "left_widgets": [], "right_widgets": [] }"#;
    let style = Style::from_config(&BarConfig::parse(json, "test").unwrap().config);
    let item = Item {
        key: "text".into(),
        pieces: vec![Piece::Text("iiii WWWW 1234".into())],
        emphasis: Emphasis::Normal,
        takes: Inputs::NONE,
        tooltip: None,
        look: None,
    };
    let widget = SceneWidget { side: Side::Left, name: "test".into(), state: WidgetState::Ready(View::of(vec![item])) };
    Scene { style, widgets: vec![widget] }
}

/// The frame [`scene`] paints in `font`; none without GL.
fn painted(font: &FontData) -> Option<Vec<u8>> {
    let mut offscreen = match Offscreen::new(WIDTH, HEIGHT) {
        Ok(offscreen) => offscreen,
        Err(error) => {
            skip::unavailable(&format!("font collection test: no offscreen GL ({error})"));
            return None;
        }
    };
    let mut scene = scene();
    scene.style.text_font = Some(font.clone());
    offscreen.paint(&scene);
    Some(offscreen.read_rgba().unwrap())
}

#[test]
fn a_collections_second_face_is_drawn_as_that_font_alone() {
    let Some(collection) = collection_of(&[DEJAVU_SANS, DEJAVU_SANS_MONO]) else { return };
    let collection: Arc<[u8]> = Arc::from(collection);
    let mono = Arc::from(std::fs::read(DEJAVU_SANS_MONO).unwrap());
    let Some(alone) = painted(&FontData::new(mono, 0)) else { return };
    let second = painted(&FontData::new(collection.clone(), 1)).unwrap();
    let first = painted(&FontData::new(collection, 0)).unwrap();
    assert!(second == alone, "the collection's second face draws as DejaVu Sans Mono does");
    assert!(first != second, "its first face (DejaVu Sans) draws otherwise");
}

//! A painter that has rasterised more glyphs than its budget holds starts
//! over on a fresh canvas, and what it draws after is what a painter that
//! never held those glyphs draws: the memory a bar's text takes is bounded
//! however many different titles it shows.

use obi::config::{BarConfig, Side};
use obi::render::{Offscreen, Scene, SceneWidget, Style, find_text_font};
use obi::view::{Emphasis, Inputs, Item, Piece, View, WidgetState};
use obi_test_support::skip;

const WIDTH: u32 = 600;
const HEIGHT: u32 = 60;

fn scene(style: &Style, title: &str) -> Scene {
    let item = Item {
        key: "title".into(),
        pieces: vec![Piece::Icon("\u{e19a}".into()), Piece::Text(title.into())],
        emphasis: Emphasis::Normal,
        takes: Inputs::NONE,
        tooltip: None,
        look: None,
    };
    let title =
        SceneWidget { side: Side::Center, name: "title".into(), state: WidgetState::Ready(View::of(vec![item])) };
    Scene { style: style.clone(), widgets: vec![title] }
}

/// Letters of Latin Extended, Greek and Cyrillic, which DejaVu Sans draws.
fn letters() -> Vec<char> {
    (0x100..0x250).chain(0x391..0x3ca).chain(0x400..0x500).filter_map(char::from_u32).collect()
}

#[test]
fn a_painter_past_its_glyph_budget_starts_over_and_draws_the_same() {
    let json = r#"{ "height": 60, "font_size": 36, "left_widgets": [], "right_widgets": [] }"#;
    let mut style = Style::from_config(&BarConfig::parse(json, "test").unwrap().config);
    style.text_font = Some(find_text_font(None).unwrap().data);
    let mut offscreen = match Offscreen::new(WIDTH, HEIGHT) {
        Ok(offscreen) => offscreen,
        Err(error) => return skip::unavailable(&format!("glyph budget test: no offscreen GL ({error})")),
    };

    // Two new letters a frame, as titles that come and go over a day.
    let letters = letters();
    let titles: Vec<String> = letters.chunks(2).map(|pair| pair.iter().collect()).collect();
    let (mut most, mut start_overs, mut before) = (0, 0, 0);
    for title in &titles {
        offscreen.paint(&scene(&style, title));
        let held = offscreen.painter.glyph_textures();
        if held < before {
            start_overs += 1;
        }
        (most, before) = (most.max(held), held);
    }
    assert!(
        start_overs >= 2,
        "{} letters drawn at 36 px start over more than once, not {start_overs} times",
        letters.len()
    );
    assert!(
        most <= 2,
        "the painter held {most} glyph textures: at most one past its budget of one, until the next frame"
    );

    let last = scene(&style, titles.last().unwrap());
    offscreen.paint(&last);
    let after_start_overs = offscreen.read_rgba().unwrap();
    drop(offscreen);
    let mut fresh = Offscreen::new(WIDTH, HEIGHT).unwrap();
    fresh.paint(&last);
    assert!(after_start_overs == fresh.read_rgba().unwrap(), "a painter that started over draws as a fresh one");
}

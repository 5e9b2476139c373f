//! Painting only the damaged region over the last frame gives the same
//! pixels as painting the new frame whole: the window relies on it for every
//! tick of a clock.

use obi::config::{BarConfig, Side};
use obi::render::{Offscreen, Scene, SceneWidget, Style, damage, find_text_font};
use obi::view::{Emphasis, Inputs, Item, Piece, View, WidgetState};
use obi_test_support::skip;

fn widget(side: Side, items: &[(&str, bool)]) -> SceneWidget {
    let items = items
        .iter()
        .enumerate()
        .map(|(index, (text, selected))| Item {
            key: index.to_string(),
            pieces: vec![Piece::Icon("\u{e19a}".into()), Piece::Text((*text).into())],
            emphasis: if *selected { Emphasis::Selected } else { Emphasis::Normal },
            takes: Inputs::NONE,
            tooltip: None,
            look: None,
        })
        .collect();
    SceneWidget { side, name: "test".into(), state: WidgetState::Ready(View::of(items)) }
}

fn scene(style: &Style, clock: &str, title: &str, selected: bool) -> Scene {
    Scene {
        style: style.clone(),
        widgets: vec![
            widget(Side::Left, &[("1", false), ("2", selected), ("3", !selected)]),
            widget(Side::Center, &[(title, false)]),
            widget(Side::Right, &[("42%", false)]),
            widget(Side::Right, &[(clock, false)]),
        ],
    }
}

/// How many RGBA pixels of two frames of one size differ.
fn differing_pixels(one: &[u8], other: &[u8]) -> usize {
    one.chunks_exact(4).zip(other.chunks_exact(4)).filter(|(a, b)| a != b).count()
}

#[test]
fn a_partial_repaint_equals_a_full_one() {
    let json = r#"{ "height": 40, "transparency_alpha": 230, "left_widgets": [], "right_widgets": [],
        "grouping": { "kind": "Widget", "style": "DefaultWithShadowB4O1S3", "rounding": 6 } }"#;
    let config = BarConfig::parse(json, "test").unwrap().config;
    let mut style = Style::from_config(&config);
    style.text_font = Some(find_text_font(None).unwrap().data);
    let mut offscreen = match Offscreen::new(800, 40) {
        Ok(offscreen) => offscreen,
        Err(error) => return skip::unavailable(&format!("partial repaint test: no offscreen GL ({error})")),
    };

    let before = scene(&style, "12:00:00", "title", false);
    // The clock ticks, the selection moves and the centre grows: groups move.
    let after = scene(&style, "12:00:01", "a longer title", true);

    let before_layout = offscreen.paint(&before);
    let after_layout = offscreen.lay_out(&after);
    let region = damage(&before_layout, &after_layout, &after.style).expect("the frames differ");
    assert!(region.width < 800.0, "only part of the bar is damaged: {region:?}");
    offscreen.paint_region(&after, &after_layout, region);
    let partial = offscreen.read_rgba().unwrap();

    offscreen.paint(&after);
    let whole = offscreen.read_rgba().unwrap();
    assert_eq!(differing_pixels(&partial, &whole), 0, "pixels differ between the partial and the full repaint");

    // And an unchanged scene damages nothing.
    assert_eq!(damage(&after_layout, &offscreen.lay_out(&after), &after.style), None);
}

/// With komorebi-bar's padding on a thin bar an item's row is shorter than
/// its text and icons (10 px of a 30 px bar): an item that appears is
/// still painted whole, as a fresh painter paints the same scene.
#[test]
fn an_item_taller_than_its_row_is_repainted_whole() {
    let json = r#"{ "height": 30, "transparency_alpha": 255, "left_widgets": [], "right_widgets": [] }"#;
    let config = BarConfig::parse(json, "test").unwrap().config;
    let mut style = Style::from_config(&config);
    style.text_font = Some(find_text_font(None).unwrap().data);
    let offscreen = |what: &str| match Offscreen::new(800, 30) {
        Ok(offscreen) => Some(offscreen),
        Err(error) => {
            skip::unavailable(&format!("{what}: no offscreen GL ({error})"));
            None
        }
    };
    let Some(mut fresh) = offscreen("thin row repaint test") else { return };
    let Some(mut bar) = offscreen("thin row repaint test") else { return };

    let mut before = scene(&style, "12:00:00", "title", false);
    before.widgets.remove(0);
    let after = scene(&style, "12:00:00", "title", true);
    let before_layout = bar.paint(&before);
    let after_layout = bar.lay_out(&after);
    assert!(after_layout.items.iter().all(|item| item.rect.height < 15.0), "the rows are thin");
    let region = damage(&before_layout, &after_layout, &after.style).expect("the left side appeared");
    bar.paint_region(&after, &after_layout, region);
    let partial = bar.read_rgba().unwrap();

    fresh.paint(&after);
    let whole = fresh.read_rgba().unwrap();
    assert_eq!(differing_pixels(&partial, &whole), 0, "pixels differ between the repaint and a fresh painter's frame");
}

//! How a popup's cells are painted, read back from an offscreen frame: the
//! cell the pointer or the keys light shows it whatever its emphasis (a
//! selected cell's fill is the accent the veil is made of, by default).

use obi::config::BarConfig;
use obi::render::{Offscreen, Style, find_text_font};
use obi::view::popup::{Block, Cell, Content, Popup};
use obi::view::{Emphasis, Inputs, Piece};
use obi_test_support::skip;

fn button(key: &str, text: &str, emphasis: Emphasis) -> Block {
    Block::Line(Cell {
        key: key.into(),
        content: Content::Button(vec![Piece::Text(text.into())]),
        emphasis,
        takes: Inputs::NONE,
    })
}

#[test]
fn the_lit_cell_shows_whether_selected_urgent_or_not() {
    let mut style = Style::from_config(&BarConfig::embedded_default());
    style.text_font = Some(find_text_font(None).unwrap().data);
    let mut offscreen = match Offscreen::new(300, 200) {
        Ok(offscreen) => offscreen,
        Err(error) => return skip::unavailable(&format!("popup paint test: no offscreen GL ({error})")),
    };
    let popup = Popup {
        item_key: "item".into(),
        blocks: vec![
            button("plain", "First", Emphasis::Normal),
            button("chosen", "Second", Emphasis::Selected),
            button("asks", "Third", Emphasis::Urgent),
        ],
    };
    let mut layout = offscreen.painter.measure().lay_out_popup(&popup, &style);
    // A point inside each cell, right of its text.
    let points: Vec<(u32, u32)> = layout
        .cells
        .iter()
        .map(|placed| {
            ((placed.rect.x + placed.rect.width - 6.0) as u32, (placed.rect.y + placed.rect.height / 2.0) as u32)
        })
        .collect();
    let mut frame = |lit: Option<usize>| {
        layout.hovered = lit;
        offscreen.painter.paint_popup(&style, &layout);
        let rgba = offscreen.read_rgba().unwrap();
        // Read back at the popup's size, which its painting sets.
        let width = layout.width.ceil() as u32;
        points.iter().map(|&(x, y)| rgba[((y * width + x) * 4) as usize..][..4].to_vec()).collect::<Vec<_>>()
    };
    let unlit = frame(None);
    for cell in 0..3 {
        let lit = frame(Some(cell));
        for other in 0..3 {
            let shows = lit[other] != unlit[other];
            assert_eq!(shows, other == cell, "cell {other} with cell {cell} lit: {:?} against {:?}", lit, unlit);
        }
    }
}

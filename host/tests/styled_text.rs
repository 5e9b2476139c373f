//! Styled text as the bar draws it: each span in its colour, over its
//! fill, in the face of its weight and slant (made up when the family has
//! none), at its size and rise, with its lines, and cut as one text — none
//! of it moving the item's baseline or changing its height. Read back from
//! offscreen frames. Needs DejaVu Sans (fonts-dejavu-core, which `.ci/run`
//! installs).

mod common;

use common::offscreen::{HEIGHT, Ink, bar as offscreen_bar, columns_of, ink, painted};
use obi::render::text::TextEngine;
use obi::render::{Offscreen, find_text_font, icon_font};
use obi::view::{Piece, Span};

fn markup(markup: &str) -> Vec<Piece> {
    vec![Piece::Styled(obi_markup::spans(markup))]
}

/// How much ink: the summed difference from the background, so that
/// heavier strokes weigh more even where anti-aliasing thins them.
fn weight_of(ink: &Ink, background: [u8; 3]) -> u32 {
    ink.iter()
        .map(|(_, _, pixel)| pixel.iter().zip(background).map(|(a, b)| u32::from(a.abs_diff(b))).sum::<u32>())
        .sum()
}

fn is_orange([red, green, blue]: [u8; 3]) -> bool {
    red > 180 && (80..=180).contains(&green) && blue < 90
}

#[test]
fn a_span_is_drawn_in_its_colour_and_the_rest_in_the_items() {
    let Some((mut offscreen, style, background)) = offscreen_bar("span colour test") else { return };
    let (item, rgba) = painted(&mut offscreen, &style, markup("<span foreground='#ff8000'>hot</span> plain"));
    let (hot, _) = painted(&mut offscreen, &style, markup("<span foreground='#ff8000'>hot</span>"));
    let hot_columns = item.rect.x as u32..hot.rect.right() as u32 - 4;
    let plain_columns = hot.rect.right() as u32..item.rect.right() as u32;
    let orange = |ink: Ink| ink.into_iter().filter(|(_, _, pixel)| is_orange(*pixel)).count();
    assert!(orange(ink(&rgba, hot_columns, background)) > 20, "\"hot\" is not orange");
    assert_eq!(orange(ink(&rgba, plain_columns.clone(), background)), 0, "the plain text took the span's colour");
    assert!(ink(&rgba, plain_columns, background).len() > 20, "the plain text is not drawn");
}

#[test]
fn a_background_fills_behind_its_span_only() {
    let Some((mut offscreen, style, background)) = offscreen_bar("span background test") else { return };
    let (item, rgba) = painted(&mut offscreen, &style, markup("<span background='#0000ff'>blue</span> none"));
    let blue = |ink: &Ink| ink.iter().filter(|(_, _, [r, g, b])| *b > 200 && *r < 60 && *g < 60).count();
    let drawn = ink(&rgba, columns_of(&item), background);
    let filled = blue(&drawn);
    // At least the span's width times most of the text's height.
    assert!(filled > 25 * 10, "the fill covers {filled} pixels");
    let (blue_alone, _) = painted(&mut offscreen, &style, markup("<span background='#0000ff'>blue</span>"));
    let after = blue_alone.rect.right() as u32 + 2..item.rect.right() as u32;
    assert_eq!(blue(&ink(&rgba, after, background)), 0, "the fill runs past its span");
}

#[test]
fn bold_is_drawn_heavier_than_the_plain_text() {
    let Some((mut offscreen, style, background)) = offscreen_bar("bold test") else { return };
    let (plain, plain_rgba) = painted(&mut offscreen, &style, markup("bold"));
    let (bold, bold_rgba) = painted(&mut offscreen, &style, markup("<b>bold</b>"));
    let plain_weight = weight_of(&ink(&plain_rgba, columns_of(&plain), background), background);
    let bold_weight = weight_of(&ink(&bold_rgba, columns_of(&bold), background), background);
    assert!(
        bold_weight as f32 > plain_weight as f32 * 1.2,
        "bold {bold_weight} against plain {plain_weight}: not heavier"
    );
    assert_eq!(bold.rect.height, plain.rect.height, "bold grew its item");
}

#[test]
fn a_weight_or_slant_the_family_has_is_its_face_and_one_it_lacks_is_made_up() {
    if offscreen_bar("faces test").is_none() {
        return;
    }
    let text_font = find_text_font(Some("DejaVu Sans")).unwrap();
    let mut engine = TextEngine::new(&icon_font());
    engine.add_font(&text_font.data);
    let font = text_font.data.key();
    let run_of = |engine: &mut TextEngine, markup: &str| {
        let shaped = engine.shape_styled(&obi_markup::spans(markup), font, 14.0);
        shaped.runs[0].clone()
    };
    let plain = run_of(&mut engine, "x");
    let bold = run_of(&mut engine, "<b>x</b>");
    // Debian's DejaVu Sans has a bold face: it is drawn in it, not made up.
    assert_ne!(bold.font.data.id(), plain.font.data.id(), "bold is drawn in the regular face: {:?}", bold.paint);
    assert!(!bold.paint.embolden);
    // fonts-dejavu-core has no oblique face: the slant is made up.
    let italic = run_of(&mut engine, "<i>x</i>");
    let has_italic_face = italic.font.data.id() != plain.font.data.id();
    assert!(has_italic_face || italic.paint.skew.is_some_and(|degrees| degrees > 5.0), "{:?}", italic.paint);
    // A family by its generic name.
    let mono = engine.shape_styled(&obi_markup::spans("<tt>iiii</tt>"), font, 14.0);
    let proportional = engine.shape_styled(&obi_markup::spans("iiii"), font, 14.0);
    assert!(mono.width > proportional.width * 1.3, "monospace {} against {}", mono.width, proportional.width);
}

#[test]
fn sizes_and_rises_keep_the_items_height_and_baseline() {
    let Some((mut offscreen, style, background)) = offscreen_bar("size and rise test") else { return };
    let (plain, plain_rgba) = painted(&mut offscreen, &style, markup("Ag"));
    let (larger, larger_rgba) = painted(&mut offscreen, &style, markup("Ag<span size='x-large'>Ag</span>"));
    assert_eq!((larger.rect.y, larger.rect.height), (plain.rect.y, plain.rect.height), "a larger span grew its item");
    let rows = |ink: Ink| ink.into_iter().map(|(x, y, _)| (x, y)).collect::<Vec<_>>();
    // The columns of the first "Ag" but its last, which the larger "A" may touch.
    let plain_ink = ink(&plain_rgba, columns_of(&plain), background);
    let last_column = plain_ink.iter().map(|(x, _, _)| *x).max().unwrap_or(0);
    let first_ag = columns_of(&plain).start..last_column;
    assert_eq!(
        rows(ink(&plain_rgba, first_ag.clone(), background)),
        rows(ink(&larger_rgba, first_ag, background)),
        "the text before a larger span moved"
    );
    let lowest = |ink: &Ink| ink.iter().map(|(_, y, _)| *y).max().unwrap_or(0);
    let highest = |ink: &Ink| ink.iter().map(|(_, y, _)| *y).min().unwrap_or(HEIGHT);
    // Text and a colour glyph (an emoji, or its box where no emoji font is) alike.
    for text in ["Ag", "👍🏽"] {
        let (plain, plain_rgba) = painted(&mut offscreen, &style, markup(text));
        let plain_ink = ink(&plain_rgba, columns_of(&plain), background);
        let (risen, risen_rgba) = painted(&mut offscreen, &style, markup(&format!("<span rise='4pt'>{text}</span>")));
        let risen_ink = ink(&risen_rgba, columns_of(&risen), background);
        assert!(highest(&risen_ink) + 3 <= highest(&plain_ink), "rise='4pt' did not raise {text}");
        assert!(lowest(&risen_ink) + 3 <= lowest(&plain_ink), "rise='4pt' did not raise {text}");
        assert_eq!(risen.rect.height, plain.rect.height);
    }
}

#[test]
fn underline_and_strikethrough_are_lines_across_their_span() {
    let Some((mut offscreen, style, background)) = offscreen_bar("lines test") else { return };
    // Letters without descenders or bars, so that a full row of ink is a line.
    let full_rows = |markup_text: &str, offscreen: &mut Offscreen| {
        let (item, rgba) = painted(offscreen, &style, markup(markup_text));
        let columns = item.rect.x as u32 + 6..item.rect.right() as u32 - 6;
        let width = columns.len();
        let ink = ink(&rgba, columns, background);
        (0..HEIGHT).filter(|row| ink.iter().filter(|(_, y, _)| y == row).count() >= width * 9 / 10).collect::<Vec<_>>()
    };
    assert!(full_rows("nnnn", &mut offscreen).is_empty(), "plain text drew a line");
    let underlined = full_rows("<u>nnnn</u>", &mut offscreen);
    let struck = full_rows("<s>nnnn</s>", &mut offscreen);
    assert!(!underlined.is_empty() && !struck.is_empty(), "underline {underlined:?}, strikethrough {struck:?}");
    assert!(struck[0] < underlined[0], "the strikethrough ({struck:?}) lies below the underline ({underlined:?})");
}

#[test]
fn a_styled_text_too_long_is_cut_as_one_text_with_its_styles() {
    let Some((mut offscreen, mut style, background)) = offscreen_bar("styled cut test") else { return };
    style.max_label_width = 100.0;
    let long = "<span foreground='#ff8000'>orange </span><b>and then a long bold tail</b>";
    let (item, rgba) = painted(&mut offscreen, &style, markup(long));
    let Piece::Styled(spans) = &item.pieces[0].0 else { panic!("{:?}", item.pieces) };
    let text: String = spans.iter().map(|span: &Span| span.text.as_str()).collect();
    assert!(text.ends_with('…') && text.starts_with("orange"), "{text}");
    assert!(item.pieces[0].1 <= 100.0, "{} wide", item.pieces[0].1);
    let orange = ink(&rgba, columns_of(&item), background).into_iter().filter(|(_, _, p)| is_orange(*p)).count();
    assert!(orange > 20, "the cut text lost its colour");
}

//! Every character the system has a font for is drawn: each script from a
//! font that has it (no missing-glyph box), icon fonts' private-use glyphs,
//! emoji in colour, and none of them moving the line or growing an item; a
//! character no font has is a box, logged once. Read from the text engine's
//! runs and back from offscreen frames. Needs the fonts `.ci/run` installs
//! (Noto CJK, Noto Color Emoji, Font Awesome, DejaVu Sans).

mod common;

use common::offscreen::{self, HEIGHT, WIDTH, ink};
use obi::colour::Rgba;
use obi::config::BarConfig;
use obi::render::text::{TextEngine, TextKind};
use obi::render::{FontData, Offscreen, PlacedItem, Style, find_text_font, icon_font};
use obi::view::Piece;
use obi_test_support::skip;
use std::process::Command;
use std::sync::Arc;

/// The families the samples need, as `fc-list` names them.
const FONTS: &[&str] = &["DejaVu Sans", "Noto Sans CJK JP", "Noto Color Emoji", "FontAwesome"];

/// Whether every font in [`FONTS`] is installed; a loud skip (a failure
/// under CI) when not.
fn fonts_installed(test: &str) -> bool {
    let listed = Command::new("fc-list").args([":", "family"]).output().map(|out| out.stdout).unwrap_or_default();
    let listed = String::from_utf8_lossy(&listed);
    let missing: Vec<&&str> = FONTS.iter().filter(|family| !listed.contains(**family)).collect();
    if missing.is_empty() {
        return true;
    }
    skip::unavailable(&format!(
        "{test}: fonts {missing:?} are not installed (apt install fonts-dejavu-core fonts-noto-cjk \
         fonts-noto-color-emoji fonts-font-awesome)"
    ));
    false
}

const SAMPLES: &[(&str, &str)] = &[
    ("Japanese", "ひらがな カタカナ 日本語"),
    ("Simplified Chinese", "简体中文"),
    ("Traditional Chinese", "繁體中文"),
    ("Korean", "한국어"),
    ("Arabic with digits", "العربية ١٢٣ 123"),
    ("Hebrew with brackets", "עברית (abc)"),
    ("Devanagari", "देवनागरी"),
    ("a combining accent", "cafe\u{301}"),
    ("Font Awesome", "\u{f0e0} \u{f121}"),
    ("emoji", "👍🏽 ❤️ 👨\u{200D}👩\u{200D}👧 🇯🇵 🎵"),
];

fn engine() -> (TextEngine, u64) {
    let text_font = find_text_font(Some("DejaVu Sans")).expect("DejaVu Sans");
    let mut engine = TextEngine::new(&icon_font());
    engine.add_font(&text_font.data);
    (engine, text_font.data.key())
}

#[test]
fn each_script_icon_and_emoji_comes_from_a_font_that_has_it() {
    if !fonts_installed("every script test") {
        return;
    }
    let (mut engine, font) = engine();
    for (name, sample) in SAMPLES {
        let shaped = engine.shape(sample, TextKind::Label, font, 14.0);
        let glyphs: Vec<u32> = shaped.runs.iter().flat_map(|run| run.glyphs.iter().map(|glyph| glyph.id)).collect();
        assert!(!glyphs.is_empty() && shaped.width > 0.0, "{name}: nothing shaped");
        assert!(!glyphs.contains(&0), "{name} ({sample:?}) has a glyph no font has: {glyphs:?}");
        // The baseline is the text font's, whatever font a character came from.
        let ascii = engine.shape("Ag", TextKind::Label, font, 14.0);
        assert_eq!((shaped.ascent, shaped.descent), (ascii.ascent, ascii.descent), "{name}");
    }
}

#[test]
fn han_takes_the_forms_of_the_language() {
    if !fonts_installed("Han forms test") {
        return;
    }
    // 直 is drawn differently in Japanese and in Chinese: the font the
    // locale picks shapes it, so its glyph differs between the two.
    let glyph_for = |locale: &str| {
        let output = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "han_glyph_in_this_locale", "--nocapture", "--include-ignored"])
            .env("LANG", locale)
            .env_remove("LC_ALL")
            .env_remove("LC_CTYPE")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        stdout.lines().find_map(|line| line.strip_prefix("han glyph: ").map(str::to_owned)).unwrap_or(stdout)
    };
    let (japanese, chinese) = (glyph_for("ja_JP.UTF-8"), glyph_for("zh_CN.UTF-8"));
    assert_ne!(japanese, chinese, "直 is drawn alike in Japanese and Simplified Chinese");
}

/// Prints the font and glyph 直 is shaped with in this process's locale
/// (run by [`han_takes_the_forms_of_the_language`] with a locale set).
#[test]
#[ignore = "run by han_takes_the_forms_of_the_language in a locale of its choosing"]
fn han_glyph_in_this_locale() {
    let (mut engine, font) = engine();
    let shaped = engine.shape("直", TextKind::Label, font, 14.0);
    let run = &shaped.runs[0];
    println!("han glyph: {} {} {}", run.font.data.data().len(), run.font.index, run.glyphs[0].id);
}

/// A bar of one item showing `text`, painted offscreen: its placed item
/// and the frame's RGBA.
fn painted(offscreen: &mut Offscreen, style: &Style, text: &str) -> (PlacedItem, Vec<u8>) {
    offscreen::painted(offscreen, style, vec![Piece::Text(text.into())])
}

/// The offscreen bar, when the fonts the samples need are installed.
fn offscreen_bar(test: &str) -> Option<(Offscreen, Style, [u8; 3])> {
    if !fonts_installed(test) {
        return None;
    }
    offscreen::bar(test)
}

#[test]
fn emoji_are_drawn_in_colour_and_icons_are_not_boxes() {
    let Some((mut offscreen, style, background)) = offscreen_bar("colour emoji test") else { return };
    let columns = |item: &PlacedItem| item.rect.x as u32..(item.rect.right() as u32).min(WIDTH);
    let strongly_coloured = |ink: &[(u32, u32, [u8; 3])]| {
        ink.iter().filter(|(_, _, [r, g, b])| r.max(g).max(b) - r.min(g).min(b) > 64).count()
    };

    let (plain, rgba) = painted(&mut offscreen, &style, "plain text");
    assert_eq!(strongly_coloured(&ink(&rgba, columns(&plain), background)), 0, "the theme's text is not colourful");
    // Text in another colour, to tell a colour glyph (drawn alike in both)
    // from an outline drawn in the text's colour.
    let mut green = style.clone();
    green.theme.text = Rgba(0, 255, 0, 255);
    for emoji in ["👍🏽", "❤️", "👨\u{200D}👩\u{200D}👧", "🇯🇵", "🎵"] {
        let (item, rgba) = painted(&mut offscreen, &style, emoji);
        let drawn = ink(&rgba, columns(&item), background);
        assert!(drawn.len() > 20, "{emoji} drew {} pixels", drawn.len());
        assert_eq!(item.rect.height, plain.rect.height, "{emoji} grew its item");
        let (_, green_rgba) = painted(&mut offscreen, &green, emoji);
        assert_eq!(drawn, ink(&green_rgba, columns(&item), background), "{emoji} is drawn in the text's colour");
    }
    // The ones that are colourful in every emoji font.
    for emoji in ["👍🏽", "❤️", "🇯🇵"] {
        let (item, rgba) = painted(&mut offscreen, &style, emoji);
        let coloured = strongly_coloured(&ink(&rgba, columns(&item), background));
        assert!(coloured > 20, "{emoji} shows {coloured} strongly coloured pixels");
    }

    // An icon font's glyph is drawn as itself, not as the box a character
    // no font has is drawn as.
    let (icon, icon_rgba) = painted(&mut offscreen, &style, "\u{f0e0}");
    let (missing, missing_rgba) = painted(&mut offscreen, &style, "\u{10FFF0}");
    let icon_ink: Vec<_> = ink(&icon_rgba, columns(&icon), background).iter().map(|(x, y, _)| (*x, *y)).collect();
    let box_ink: Vec<_> = ink(&missing_rgba, columns(&missing), background).iter().map(|(x, y, _)| (*x, *y)).collect();
    assert!(!icon_ink.is_empty() && !box_ink.is_empty(), "the icon or the box drew nothing");
    assert_ne!(icon_ink, box_ink, "the Font Awesome envelope is drawn as the missing-glyph box");
}

/// An emoji the bar's font has in black and white (DejaVu Sans has ❤) is
/// drawn from the emoji font all the same, when it is the first text that
/// needs another font: in a process of its own, where nothing else has
/// had the system's fonts listed.
#[test]
fn an_emoji_the_text_font_has_is_drawn_in_colour() {
    if !fonts_installed("an emoji in the text font") {
        return;
    }
    let output = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "heart_in_a_fresh_process", "--nocapture", "--include-ignored"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let coloured = stdout.lines().find_map(|line| line.strip_prefix("coloured pixels: "));
    let coloured: usize = coloured.and_then(|count| count.parse().ok()).unwrap_or_else(|| panic!("{stdout}"));
    assert!(coloured > 20, "❤️ alone shows {coloured} strongly coloured pixels");
}

/// Prints how many strongly coloured pixels "a ❤️ b" paints, as the first
/// text of its process (run by [`an_emoji_the_text_font_has_is_drawn_in_colour`]).
#[test]
#[ignore = "run by an_emoji_the_text_font_has_is_drawn_in_colour in a process of its own"]
fn heart_in_a_fresh_process() {
    let (mut offscreen, style, background) = offscreen::bar("heart test").expect("an offscreen bar");
    let (item, rgba) = painted(&mut offscreen, &style, "a ❤\u{FE0F} b");
    let columns = item.rect.x as u32..(item.rect.right() as u32).min(WIDTH);
    let ink = ink(&rgba, columns, background);
    let coloured = ink.iter().filter(|(_, _, [r, g, b])| r.max(g).max(b) - r.min(g).min(b) > 64).count();
    println!("coloured pixels: {coloured}");
}

#[test]
fn fallback_glyphs_keep_the_baseline_and_the_height() {
    let Some((mut offscreen, style, background)) = offscreen_bar("baseline test") else { return };
    let (alone, alone_rgba) = painted(&mut offscreen, &style, "Ag");
    let (mixed, mixed_rgba) = painted(&mut offscreen, &style, "Ag 日本 한 देव 👍🏽");
    assert_eq!((alone.rect.y, alone.rect.height), (mixed.rect.y, mixed.rect.height), "the item moved or grew");
    // The columns of "Ag", the same in both: its ink lies on the same rows.
    let start = alone.rect.x as u32;
    let columns = start..(start + alone.pieces[0].1 as u32);
    let rows = |ink: Vec<(u32, u32, [u8; 3])>| ink.into_iter().map(|(x, y, _)| (x, y)).collect::<Vec<_>>();
    assert_eq!(
        rows(ink(&alone_rgba, columns.clone(), background)),
        rows(ink(&mixed_rgba, columns, background)),
        "\"Ag\" moved when other scripts joined it"
    );
}

#[test]
fn a_character_no_font_has_is_a_box_logged_once() {
    common::logs::logs();
    let (mut engine, font) = engine();
    let text = "no font has \u{10FFF0} here";
    for size in [14.0, 15.0] {
        let shaped = engine.shape(text, TextKind::Label, font, size);
        let glyphs: Vec<u32> = shaped.runs.iter().flat_map(|run| run.glyphs.iter().map(|glyph| glyph.id)).collect();
        assert!(glyphs.contains(&0), "the character is drawn as the missing-glyph box");
    }
    let logged = common::logs::logged();
    let lines: Vec<&str> = logged.lines().filter(|line| line.contains("U+10FFF0")).collect();
    assert_eq!(lines.len(), 1, "{logged}");
    assert!(lines[0].contains("no installed font has U+10FFF0"), "{}", lines[0]);
}

/// A COLRv1 glyph (a gradient, which COLRv0 renderers draw blank) is drawn
/// in its colours: red on its left, blue on its right. The font is made by
/// `fixtures/colrv1_font.py` with fontTools.
#[test]
fn a_colrv1_glyph_is_drawn_with_its_gradient() {
    red_then_blue("colrv1_font.py", "COLRv1 test");
}

/// A COLRv0 glyph (layers of one colour each, as Segoe UI Emoji has them)
/// is drawn in its colours: a red layer on its left, a blue one on its
/// right. The font is made by `fixtures/colrv0_font.py` with fontTools.
#[test]
fn a_colrv0_glyph_is_drawn_in_its_layers_colours() {
    red_then_blue("colrv0_font.py", "COLRv0 test");
}

/// Paints U+E000 of the font `fixture` makes, as the bar's font: red on
/// its left and blue on its right.
fn red_then_blue(fixture: &str, test: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("colour.ttf");
    if !made_font(fixture, &path, test) {
        return;
    }
    let font = FontData::usable(Arc::<[u8]>::from(std::fs::read(&path).unwrap()), 0).unwrap();
    let json = r#"{ "height": 32, "font_size": 24, "left_widgets": [], "right_widgets": [] }"#;
    let mut style = Style::from_config(&BarConfig::parse(json, "test").unwrap().config);
    style.text_font = Some(font);
    let mut offscreen = match Offscreen::new(WIDTH, HEIGHT) {
        Ok(offscreen) => offscreen,
        Err(error) => return skip::unavailable(&format!("{test}: no offscreen GL ({error})")),
    };
    let (item, rgba) = painted(&mut offscreen, &style, "\u{E000}");
    let (left, width) = (item.rect.x + item.rect.width / 2.0 - item.pieces[0].1 / 2.0, item.pieces[0].1);
    let pixel = |x: f32| {
        let at = (((HEIGHT / 2) * WIDTH + x as u32) * 4) as usize;
        [rgba[at], rgba[at + 1], rgba[at + 2]]
    };
    let (reddish, bluish) = (pixel(left + width * 0.25), pixel(left + width * 0.75));
    assert!(reddish[0] > 150 && reddish[2] < 110, "{test}: the glyph's left is not red: {reddish:?}");
    assert!(bluish[2] > 150 && bluish[0] < 110, "{test}: the glyph's right is not blue: {bluish:?}");
}

/// A font made by `fixtures/{script}` with fontTools at `path`; why not,
/// said loudly (a failure under CI), when fontTools is missing.
fn made_font(script: &str, path: &std::path::Path, test: &str) -> bool {
    let script = format!("{}/tests/fixtures/{script}", env!("CARGO_MANIFEST_DIR"));
    let made = Command::new("/usr/bin/python3").arg(script).arg(path).output();
    if made.as_ref().is_ok_and(|made| made.status.success()) {
        return true;
    }
    let why = made.map(|made| String::from_utf8_lossy(&made.stderr).into_owned()).unwrap_or_else(|e| e.to_string());
    skip::unavailable(&format!("{test}: no font made with fontTools (apt install python3-fonttools): {why}"));
    false
}

/// A Nerd Font's glyphs (Material Design's in the supplementary
/// private-use plane, Powerline's) come from the installed font that has
/// them, found by what it covers: no fallback list names an icon font.
/// The font is made by `fixtures/nerd_font.py` and installed for a child
/// process of this test through its own fontconfig file.
#[test]
fn a_nerd_font_glyph_comes_from_the_installed_font_that_has_it() {
    if !fonts_installed("Nerd Font test") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let fonts = dir.path().join("fonts");
    std::fs::create_dir(&fonts).unwrap();
    let font = fonts.join("ObiTestSymbolsNerdFont.ttf");
    if !made_font("nerd_font.py", &font, "Nerd Font test") {
        return;
    }
    let config = dir.path().join("fonts.conf");
    let cache = dir.path().join("cache");
    std::fs::write(
        &config,
        format!(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n<fontconfig>\n\
             <include ignore_missing=\"yes\">/etc/fonts/fonts.conf</include>\n\
             <dir>{}</dir>\n<cachedir>{}</cachedir>\n</fontconfig>\n",
            fonts.display(),
            cache.display()
        ),
    )
    .unwrap();
    let output = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "nerd_glyphs_in_this_environment", "--nocapture", "--include-ignored"])
        .env("FONTCONFIG_FILE", &config)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let font_bytes = std::fs::metadata(&font).unwrap().len();
    // The made font's glyphs, in its order.
    for (icon, glyph) in [("U+F0001", 1), ("U+E0A0", 2)] {
        let line = stdout.lines().find(|line| line.starts_with(icon)).unwrap_or_else(|| panic!("{stdout}"));
        assert_eq!(line, format!("{icon}: glyph {glyph} of a font of {font_bytes} bytes"), "{stdout}");
    }
}

/// Prints the glyph and the size of the font each Nerd Font icon is shaped
/// with (run by [`a_nerd_font_glyph_comes_from_the_installed_font_that_has_it`]
/// with its fonts installed).
#[test]
#[ignore = "run by a_nerd_font_glyph_comes_from_the_installed_font_that_has_it with its font installed"]
fn nerd_glyphs_in_this_environment() {
    let (mut engine, font) = engine();
    for (name, icon) in [("U+F0001", "\u{F0001}"), ("U+E0A0", "\u{E0A0}")] {
        let shaped = engine.shape(icon, TextKind::Label, font, 14.0);
        let run = &shaped.runs[0];
        println!("{name}: glyph {} of a font of {} bytes", run.glyphs[0].id, run.font.data.data().len());
    }
}

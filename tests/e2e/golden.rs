//! Golden images: `obi --screenshot` of fixed content under each theme,
//! grouping kind and style, rounding, spacing form and truncation, compared
//! with the reviewed PNGs in `tests/e2e/golden/`.
//!
//! A pixel differs when a channel is off by more than [`CHANNEL_TOLERANCE`]
//! (anti-aliasing moves between Mesa versions); a frame fails when more than
//! [`DIFFERING_IN_A_TILE`] pixels of one [`TILE`]-pixel square differ, so a
//! small thing drawn wrong (one label in the wrong colour) fails as surely
//! as a large one, while scattered edge noise does not. On failure the actual frame and
//! a diff image (differing pixels in magenta over a faded copy) are written
//! next to the test's target directory. `OBI_BLESS=1` rewrites the goldens;
//! look at every one it writes before committing it.

use crate::support::{Frame, config_file, obi, run, workspace};
use std::path::PathBuf;
use std::sync::OnceLock;

const CHANNEL_TOLERANCE: u8 = 40;
const TILE: u32 = 32;
const DIFFERING_IN_A_TILE: usize = 8;
const WIDTH: u32 = 640;

/// The fixed-content widget, built once for all golden tests.
fn fixed_widget() -> &'static str {
    static PATH: OnceLock<String> = OnceLock::new();
    PATH.get_or_init(|| {
        let wasm = obi_build_support::build_components(&workspace(), &["obi-test-widget-fixed"]).unwrap().remove(0);
        wasm.display().to_string()
    })
}

pub fn fixed(items: &str) -> String {
    format!(
        r#"{{ "Plugin": {{ "enable": true, "name": "fixed", "path": {:?}, "config": {{ "items": {items} }} }} }}"#,
        fixed_widget()
    )
}

/// A bar with two workspaces (the second selected) on the left, a title in
/// the centre, and a meter and a clock on the right, its background at
/// `alpha`, plus `settings`.
fn bar(alpha: u8, settings: &str) -> String {
    let left = fixed(r#"[ { "text": "1" }, { "text": "2", "selected": true }, { "text": "3" } ]"#);
    let center = fixed(r#"[ { "icon": "\ue4e0", "text": "centre" } ]"#);
    let meter = fixed(r#"[ { "icon": "\ue610", "text": "42%" } ]"#);
    let clock = fixed(r#"[ { "icon": "\ue19a", "text": "12:34:56" } ]"#);
    format!(
        r#"{{
          "height": 40, "font_size": 13, "font_family": "DejaVu Sans", "transparency_alpha": {alpha},
          "left_widgets": [ {left} ], "center_widgets": [ {center} ], "right_widgets": [ {meter}, {clock} ]
          {settings}
        }}"#
    )
}

fn golden_dir() -> PathBuf {
    workspace().join("tests/e2e/golden")
}

/// Renders `config` and compares it with `golden/<name>.png`.
fn check(name: &str, config: &str) {
    check_at(name, config, WIDTH);
}

/// [`check`] on a bar `width` pixels wide.
fn check_at(name: &str, config: &str, width: u32) {
    check_with(name, config, width, &[]);
}

/// [`check_at`] with more arguments for obi.
pub fn check_with(name: &str, config: &str, width: u32, arguments: &[&std::ffi::OsStr]) {
    let (_dir, png) = render(name, config, width, arguments);
    let golden = golden_dir().join(format!("{name}.png"));
    if std::env::var_os("OBI_BLESS").is_some() {
        std::fs::copy(&png, &golden).unwrap();
        eprintln!("blessed {}: look at it before committing", golden.display());
        return;
    }
    if let Err(why) = matches_golden(name, &png) {
        panic!("{why}");
    }
}

/// `obi --screenshot` of `config`, `width` pixels wide, into a directory of its own.
fn render(name: &str, config: &str, width: u32, arguments: &[&std::ffi::OsStr]) -> (tempfile::TempDir, PathBuf) {
    let (dir, config_path) = config_file(config);
    let png = dir.path().join("bar.png");
    let output = run(obi()
        .arg("--config")
        .arg(&config_path)
        .arg("--screenshot")
        .arg(&png)
        .args(["--width", &width.to_string()])
        .args(arguments));
    assert!(output.status.success(), "{name}: obi failed: {}", String::from_utf8_lossy(&output.stderr));
    (dir, png)
}

/// Whether the frame in `png` matches `golden/<name>.png`; if not, why,
/// with the frame and a diff image left for a look.
fn matches_golden(name: &str, png: &std::path::Path) -> Result<(), String> {
    let golden = golden_dir().join(format!("{name}.png"));
    if !golden.exists() {
        return Err(format!("{} is missing; run with OBI_BLESS=1 to write it, then look at it", golden.display()));
    }
    let actual = Frame::read(png);
    let expected = Frame::read(&golden);
    if (actual.width, actual.height) != (expected.width, expected.height) {
        return Err(format!(
            "{name}: {}x{} instead of {}x{}",
            actual.width, actual.height, expected.width, expected.height
        ));
    }
    let (worst_tile, diff) = compare(&actual, &expected);
    if worst_tile <= DIFFERING_IN_A_TILE {
        return Ok(());
    }
    let out = workspace().join("target/golden-failures");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::copy(png, out.join(format!("{name}.actual.png"))).unwrap();
    obi::render::write_png(&out.join(format!("{name}.diff.png")), diff.width, diff.height, &diff.rgba).unwrap();
    Err(format!(
        "{name}: {worst_tile} pixels of one {TILE}x{TILE} tile differ from {}; see {}/{name}.actual.png and {name}.diff.png",
        golden.display(),
        out.display()
    ))
}

/// The most differing pixels in any tile, and an image that shows where they are.
fn compare(actual: &Frame, expected: &Frame) -> (usize, Frame) {
    let columns = actual.width.div_ceil(TILE) as usize;
    let mut tiles = vec![0usize; columns * actual.height.div_ceil(TILE) as usize];
    let mut rgba = Vec::with_capacity(actual.rgba.len());
    let pixels = actual.rgba.chunks_exact(4).zip(expected.rgba.chunks_exact(4));
    for (index, (a, e)) in pixels.enumerate() {
        if a.iter().zip(e).any(|(a, e)| a.abs_diff(*e) > CHANNEL_TOLERANCE) {
            let (x, y) = (index as u32 % actual.width, index as u32 / actual.width);
            tiles[(y / TILE) as usize * columns + (x / TILE) as usize] += 1;
            rgba.extend([255, 0, 255, 255]);
        } else {
            rgba.extend([e[0] / 3, e[1] / 3, e[2] / 3, 255]);
        }
    }
    let worst = tiles.into_iter().max().unwrap_or(0);
    (worst, Frame { width: actual.width, height: actual.height, rgba })
}

/// The comparison is tight enough to see one item drawn in the wrong
/// colour role: the selected workspace's digit in the text colour instead
/// of the selected text colour (about 40 pixels of a 640×40 frame).
#[test]
fn one_item_in_the_wrong_colour_role_fails() {
    let wrong = bar(255, r#", "theme": { "palette": "Base16", "name": "Nord", "auto_select_text": "Base05" }"#);
    let (_dir, png) = render("theme-nord", &wrong, WIDTH, &[]);
    let outcome = matches_golden("theme-nord", &png);
    assert!(outcome.is_err(), "the selected digit drawn in the text colour matched the golden");
}

#[test]
fn catppuccin_mocha() {
    check("theme-mocha", &bar(255, r#", "theme": { "palette": "Catppuccin", "name": "Mocha" }"#));
}

#[test]
fn catppuccin_latte_with_a_mauve_accent() {
    check("theme-latte", &bar(255, r#", "theme": { "palette": "Catppuccin", "name": "Latte", "accent": "Mauve" }"#));
}

#[test]
fn base16_nord() {
    check("theme-nord", &bar(255, r#", "theme": { "palette": "Base16", "name": "Nord" }"#));
}

#[test]
fn base16_3024() {
    check("theme-3024", &bar(255, r#", "theme": { "palette": "Base16", "name": "3024" }"#));
}

#[test]
fn custom_palette() {
    let colours: Vec<String> = [
        "#101820", "#1b2a3a", "#2c3e50", "#34495e", "#7f8c8d", "#ecf0f1", "#f5f6fa", "#ffffff", "#e74c3c", "#e67e22",
        "#f1c40f", "#2ecc71", "#1abc9c", "#f39c12", "#9b59b6", "#c0392b",
    ]
    .iter()
    .enumerate()
    .map(|(index, hex)| format!(r#""base_0{index:x}": "{hex}""#))
    .collect();
    let theme = format!(r#", "theme": {{ "palette": "Custom", "colours": {{ {} }} }}"#, colours.join(", "));
    check("theme-custom", &bar(255, &theme));
}

#[test]
fn grouping_kinds() {
    for kind in ["None", "Bar", "Alignment", "Widget"] {
        // Groups show best on a see-through bar; without them the bar's own background shows.
        let (alpha, grouping) = match kind {
            "None" => (255, r#", "grouping": { "kind": "None" }"#.to_owned()),
            _ => (0, format!(r#", "grouping": {{ "kind": "{kind}", "rounding": 8, "transparency_alpha": 255 }}"#)),
        };
        check(&format!("grouping-{}", kind.to_lowercase()), &bar(alpha, &grouping));
    }
}

#[test]
fn grouping_styles() {
    let styles = [
        "Default",
        "DefaultWithShadowB4O1S3",
        "DefaultWithShadowB4O0S3",
        "DefaultWithShadowB0O1S3",
        "DefaultWithGlowB3O1S2",
        "DefaultWithGlowB3O0S2",
        "DefaultWithGlowB0O1S2",
    ];
    for style in styles {
        let grouping = format!(
            r#", "theme": {{ "palette": "Catppuccin", "name": "Latte" }}, "padding": {{ "horizontal": 14, "vertical": 8 }},
               "grouping": {{ "kind": "Widget", "style": "{style}", "rounding": 6, "transparency_alpha": 255 }}"#
        );
        check(&format!("style-{style}"), &bar(255, &grouping));
    }
}

#[test]
fn rounding_with_four_corners() {
    check(
        "rounding-four-corners",
        &bar(0, r#", "grouping": { "kind": "Alignment", "rounding": [0, 14, 4, 10], "transparency_alpha": 230 }"#),
    );
}

#[test]
fn padding_and_margin_forms() {
    let forms = [
        ("all", r#", "padding": 4, "margin": 6"#),
        (
            "individual",
            r#", "padding": { "top": 2, "bottom": 8, "left": 30, "right": 4 }, "margin": { "top": 0, "bottom": 4, "left": 0, "right": 40 }"#,
        ),
        (
            "grouped",
            r#", "padding": { "horizontal": 20, "vertical": 5 }, "margin": { "horizontal": [10, 60], "vertical": [6, 0] }"#,
        ),
        ("frame", r#", "frame": { "inner_margin": { "x": 50, "y": 12 } }"#),
    ];
    for (name, spacing) in forms {
        check(&format!("spacing-{name}"), &bar(255, spacing));
    }
}

#[test]
fn long_labels_are_cut_with_an_ellipsis() {
    let long = fixed(r#"[ { "icon": "\ue4e0", "text": "a window title far too long to be shown whole on any bar" } ]"#);
    let config = format!(
        r#"{{ "height": 30, "font_family": "DejaVu Sans", "max_label_width": 150, "left_widgets": [ {long} ], "right_widgets": [] }}"#
    );
    check("truncation", &config);
}

/// Many right widgets at a large font leave the centred clock no room in
/// the middle of the bar: it moves aside, and nothing overlaps.
#[test]
fn a_crowded_bar_keeps_its_centre_clear_of_the_sides() {
    let right = [
        r#"[ { "icon": "\ue610", "text": "12%" } ]"#,
        r#"[ { "icon": "\ue9c4", "text": "45%" } ]"#,
        r#"[ { "icon": "\ue2a0", "text": "/ 63%" } ]"#,
        r#"[ { "icon": "\ue518", "text": "1.2 MiB/s" }, { "icon": "\ue52e", "text": "310 KiB/s" },
            { "icon": "\ue524", "text": "12.4 GiB" }, { "icon": "\ue52a", "text": "3.1 GiB" } ]"#,
        r#"[ { "icon": "\ue030", "text": "v1.2.0", "selected": true } ]"#,
        r#"[ { "icon": "\ue5da", "text": "Terminal" } ]"#,
    ]
    .map(fixed)
    .join(", ");
    let config = format!(
        r#"{{ "height": 50, "font_size": 26, "font_family": "DejaVu Sans",
             "left_widgets": [ {} ], "center_widgets": [ {} ], "right_widgets": [ {right} ] }}"#,
        fixed(r#"[ { "text": "1" }, { "text": "2", "selected": true }, { "text": "3" } ]"#),
        fixed(r#"[ { "icon": "\ue19a", "text": "Monday 12:34:56" } ]"#),
    );
    check_at("crowded", &config, 1920);
}

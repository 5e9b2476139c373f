//! Obi in swaybar's and i3bar's place, with no config of its own: a
//! `bar { }` block naming Obi as its `swaybar_command` (`i3bar_command`),
//! with colours, a font, `position bottom` and an i3status
//! `status_command`. sway (i3) starts Obi as it starts its bar; the bar is
//! at the bottom of the screen in the block's colours, shows the
//! workspaces and i3status's blocks, and `swaymsg bar <id> mode hide`
//! (`i3-msg`) hides it. i3's block says `verbose yes`, which i3 passes on
//! as `-V`.

use crate::ocr::words_in;
use crate::support::{Frame, XSession, have_tools, obi_binary, same_colour, wait_for, workspace};
use crate::sway::SwaySession;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The block's background and its focused workspace's fill.
const BACKGROUND: [u8; 4] = [0x10, 0x20, 0x30, 255];
const FOCUSED: [u8; 4] = [0x00, 0xc0, 0x00, 255];

/// A `bar { }` block standing Obi in for the bar, as `command_key` names
/// the bar's program, with i3status's config at `i3status`, and `more`.
fn bar_block(command_key: &str, i3status: &Path, more: &str) -> String {
    format!(
        "bar {{\n    id obi-bar\n    {command_key} {obi}\n    position bottom\n    {more}\n    \
         status_command i3status -c {i3status}\n    font pango:DejaVu Sans 14\n    colors {{\n        \
         background #102030\n        statusline #f0f0f0\n        separator #808080\n        \
         focused_workspace #00c000 #00c000 #000000\n    }}\n}}\n",
        obi = obi_binary().display(),
        i3status = i3status.display(),
    )
}

/// An i3status config of one block that reads `TMP: yes`.
fn i3status_config(dir: &Path) -> std::path::PathBuf {
    let conf = dir.join("i3status.conf");
    std::fs::write(
        &conf,
        "general {\n output_format = \"i3bar\"\n colors = false\n interval = 1\n}\n\
         order += \"path_exists TMP\"\npath_exists TMP { path = \"/tmp\" }\n",
    )
    .unwrap();
    conf
}

/// How many pixels of `frame`'s rows `rows` are `colour`.
fn pixels_of(frame: &Frame, rows: std::ops::Range<u32>, colour: [u8; 4]) -> usize {
    let width = 1280;
    rows.flat_map(|y| (0..width).map(move |x| (x, y))).filter(|&(x, y)| same_colour(frame.pixel(x, y), colour)).count()
}

fn keep(png: &Path, name: &str) {
    let artifacts = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    std::fs::copy(png, artifacts.join(name)).unwrap();
}

/// A tiler that started Obi as its bar: how to see its screen, set one of
/// the bar's settings (`mode`, `hidden_state`) to a value, and read its log.
struct Tiler<'a> {
    grab: &'a dyn Fn() -> Frame,
    set: &'a dyn Fn(&str, &str) -> bool,
    log: &'a dyn Fn() -> String,
}

/// The bar is at the bottom in the block's background (and nowhere at the
/// top), shows i3status's block and the focused workspace in its fill; it
/// hides at `mode hide`, shows while `hidden_state show` and again at
/// `mode dock`. The screen as grabbed at `png` is kept as `artifact`.
fn shows_the_block(tiler: Tiler, png: &Path, artifact: &str) {
    let Tiler { grab, set, log } = tiler;
    // Tall enough for its 14-point font: more than 20 rows at the bottom.
    let at_bottom = |frame: &Frame| pixels_of(frame, 700..720, BACKGROUND) > 1280 * 10;
    let shown = wait_for(Duration::from_secs(30), || at_bottom(&grab()));
    assert!(shown, "the bar is at the bottom in its background; the tiler said:\n{}", log());
    let frame = grab();
    assert_eq!(pixels_of(&frame, 0..20, BACKGROUND), 0, "nothing of it at the top");
    let bar_top = (0..720).find(|&y| pixels_of(&frame.rows(y, 1), 0..1, BACKGROUND) > 640).unwrap();
    let strip = png.with_file_name("bar.png");
    let read = wait_for(Duration::from_secs(20), || {
        let frame = grab();
        let crop = format!("1280x{}+0+{bar_top}", 720 - bar_top);
        crate::support::run(Command::new("convert").arg(png).args(["-crop", &crop]).arg(&strip));
        let words: String = words_in(&strip).into_iter().map(|(word, _)| word).collect();
        words.contains("TMP:yes") && pixels_of(&frame, bar_top..720, FOCUSED) > 50
    });
    keep(png, artifact);
    assert!(read, "i3status's block and the focused workspace in its fill; the tiler said:\n{}", log());

    let steps = [
        ("mode", "hide", false),
        ("hidden_state", "show", true),
        ("hidden_state", "hide", false),
        ("mode", "dock", true),
    ];
    for (setting, value, shown) in steps {
        assert!(set(setting, value), "the tiler took `{setting} {value}`");
        let done = wait_for(Duration::from_secs(20), || at_bottom(&grab()) == shown);
        assert!(done, "after `{setting} {value}` the bar is shown: {}, not {shown}:\n{}", !shown, log());
    }
}

#[test]
fn sway_starts_obi_as_its_bar_at_the_bottom_in_the_blocks_colours() {
    if !have_tools("swaybar_command test", &["i3status", "grim", "convert", "tesseract"]) {
        return;
    }
    let conf_dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(conf_dir.path(), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let i3status = i3status_config(conf_dir.path());
    let Some(sway) = SwaySession::start_with("swaybar_command test", &bar_block("swaybar_command", &i3status, ""))
    else {
        return;
    };
    let png = sway.dir().join("screen.png");
    let grab = || {
        let grabbed = crate::support::run(Command::new("grim").arg(&png).envs(sway.env()));
        assert!(grabbed.status.success(), "grim: {grabbed:?}");
        Frame::read(&png)
    };
    let set = |setting: &str, value: &str| sway.swaymsg(&["bar", "obi-bar", setting, value]).status.success();
    shows_the_block(Tiler { grab: &grab, set: &set, log: &|| sway.log() }, &png, "sway-bar-block.png");
}

#[test]
fn i3_starts_obi_as_its_bar_at_the_bottom_in_the_blocks_colours() {
    if !have_tools("i3bar_command test", &["Xvfb", "i3", "i3-msg", "i3status", "import", "convert", "tesseract"]) {
        return;
    }
    let conf_dir = tempfile::tempdir().unwrap();
    let i3status = i3status_config(conf_dir.path());
    let session = XSession::start_with(1280, 720, &bar_block("i3bar_command", &i3status, "verbose yes"));
    let png = session.dir().join("screen.png");
    let grab = || {
        let into = format!("PNG32:{}", png.display());
        let grabbed = crate::support::run(session.command("import").args(["-window", "root"]).arg(into));
        assert!(grabbed.status.success(), "import: {grabbed:?}");
        Frame::read(&png)
    };
    let set = |setting: &str, value: &str| {
        crate::support::run(session.command("i3-msg").args(["bar", setting, value, "obi-bar"])).status.success()
    };
    shows_the_block(Tiler { grab: &grab, set: &set, log: &|| session.i3_log() }, &png, "i3-bar-block.png");
}

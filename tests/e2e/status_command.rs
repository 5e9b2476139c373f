//! The StatusCommand widget in the bar with real status programs under
//! Xvfb: i3status's blocks read back with their colour, i3blocks' block in
//! its colour with a click reaching its script with the button; a block's
//! background and border (Debian's i3blocks 1.4 gives neither: a script
//! does), and a hidden bar stopping the program (its state in `/proc`)
//! while a shown one continues it; and programs that flood, print a line
//! without end or die leave the bar ticking, its memory bounded.

use crate::ocr::words_on_bar;
use crate::popup::popup_text;
use crate::support::{Frame, XSession, config_file, have_tools, obi, run, same_colour, wait_for, workspace};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

const TOOLS: &[&str] = &["Xvfb", "i3", "xwininfo", "xdotool", "import", "convert", "tesseract"];

/// A bar 40 pixels high showing `widgets` on its left.
fn bar_config(widgets: serde_json::Value) -> (tempfile::TempDir, std::path::PathBuf) {
    let config = serde_json::json!({ "height": 40, "font_size": 18, "right_widgets": [], "left_widgets": widgets });
    config_file(&config.to_string())
}

fn status_command(command: String) -> serde_json::Value {
    serde_json::json!({ "StatusCommand": { "enable": true, "command": command } })
}

/// How many pixels of the bar's left 700 columns are `colour`.
fn pixels_of(frame: &Frame, colour: [u8; 4]) -> usize {
    (0..40).flat_map(|y| (0..700).map(move |x| (x, y))).filter(|&(x, y)| same_colour(frame.pixel(x, y), colour)).count()
}

fn keep(session: &XSession, name: &str) {
    let artifacts = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    run(session
        .command("import")
        .args(["-window", "root", "-crop", "1280x40+0+0", "+repage"])
        .arg(artifacts.join(name)));
}

fn installed(program: &str) -> bool {
    if Path::new(&format!("/usr/bin/{program}")).exists() {
        return true;
    }
    assert!(std::env::var_os("CI").is_none(), "{program} is not installed (apt-get install {program})");
    eprintln!("SKIPPED: {program} is not installed");
    false
}

#[test]
fn i3status_blocks_are_read_back_in_their_colour() {
    if !have_tools("status command test", TOOLS) || !installed("i3status") {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let conf = work.path().join("i3status.conf");
    std::fs::write(
        &conf,
        "general {\n output_format = \"i3bar\"\n colors = true\n color_good = \"#00FF00\"\n interval = 1\n}\n\
         order += \"path_exists TMP\"\norder += \"load\"\n\
         path_exists TMP { path = \"/tmp\" }\nload { format = \"load %1min\" }\n",
    )
    .unwrap();
    let (dir, config) = bar_config(serde_json::json!([status_command(format!("i3status -c '{}'", conf.display()))]));
    let session = XSession::start(1280, 720);
    let (_bar, _window) = session.start_bar(&config, Stdio::null());
    let mut words = Vec::new();
    let read = wait_for(Duration::from_secs(20), || {
        words = words_on_bar(&session, dir.path(), 700);
        // The separator between two blocks may be read as a letter.
        let line: String = words.iter().map(|(word, _)| word.as_str()).collect();
        line.contains("TMP:yes") && line.contains("load")
    });
    assert!(read, "i3status's blocks are on the bar: it reads {words:?}");
    let green = pixels_of(&session.grab().rows(0, 40), [0, 255, 0, 255]);
    assert!(green > 40, "the good block is drawn in its colour, #00FF00 ({green} pixels)");
    keep(&session, "status-command-i3status.png");
}

#[test]
fn an_i3blocks_block_is_drawn_in_its_colours_and_a_click_reaches_its_script() {
    if !have_tools("status command test", TOOLS) || !installed("i3blocks") {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let conf = work.path().join("i3blocks.conf");
    std::fs::write(
        &conf,
        "[hello]\ncommand=echo \"button ${BLOCK_BUTTON:-none}\"\ninterval=once\ncolor=#FFFF00\nmin_width=300\n\
         align=center\n",
    )
    .unwrap();
    let (dir, config) = bar_config(serde_json::json!([status_command(format!("i3blocks -c '{}'", conf.display()))]));
    let session = XSession::start(1280, 720);
    let (_bar, _window) = session.start_bar(&config, Stdio::null());
    let mut text = String::new();
    let says = |text: &mut String, wanted: &str| {
        wait_for(Duration::from_secs(20), || {
            words_on_bar(&session, dir.path(), 700);
            *text = popup_text(&dir.path().join("bar.png"));
            text.contains(wanted)
        })
    };
    assert!(says(&mut text, "button none"), "the block is on the bar: it reads {text:?}");
    let yellow = pixels_of(&session.grab().rows(0, 40), [255, 255, 0, 255]);
    assert!(yellow > 20, "its text is in its colour ({yellow} pixels)");
    keep(&session, "status-command-i3blocks.png");
    // The block, 300 pixels wide, starts at the bar's left.
    run(session.command("xdotool").args(["mousemove", "150", "20", "click", "3"]));
    assert!(says(&mut text, "button 3"), "a right click ran its script with button 3: {text:?}");
    run(session.command("xdotool").args(["mousemove", "150", "20", "click", "5"]));
    assert!(says(&mut text, "button 5"), "a scroll down is button 5: {text:?}");
}

/// The state letter of `pid` in /proc (`T` stopped, `S` sleeping).
fn state(pid: u32) -> char {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    stat.rsplit_once(") ").and_then(|(_, rest)| rest.chars().next()).unwrap_or('?')
}

#[test]
fn a_hidden_bar_stops_its_status_program_and_a_shown_one_continues_it() {
    if !have_tools("status command test", TOOLS) {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let script = work.path().join("ticking-status.sh");
    std::fs::write(
        &script,
        r##"echo '{"version":1}'; echo '['; n=0
while true; do
  n=$((n+1))
  echo "[{\"full_text\":\"Tick $n\",\"background\":\"#0000FF\",\"border\":\"#FF0000\",\"border_top\":0,\"border_bottom\":0,\"border_left\":6,\"border_right\":6,\"min_width\":300}],"
  sleep 0.5
done
"##,
    )
    .unwrap();
    let (dir, config) = bar_config(serde_json::json!([status_command(format!("sh '{}'", script.display()))]));
    let runtime = tempfile::tempdir().unwrap();
    let session = XSession::start(1280, 720);
    let (bar, _window) =
        session.start_bar_with_env(&config, Stdio::null(), &[("XDG_RUNTIME_DIR", runtime.path().as_os_str())]);
    let mut words = Vec::new();
    let ticking = wait_for(Duration::from_secs(20), || {
        words = words_on_bar(&session, dir.path(), 700);
        words.iter().any(|(word, _)| word == "Tick")
    });
    assert!(ticking, "the program's lines are on the bar: {words:?}");
    let frame = session.grab().rows(0, 40);
    let (blue, red) = (pixels_of(&frame, [0, 0, 255, 255]), pixels_of(&frame, [255, 0, 0, 255]));
    keep(&session, "status-command-background.png");
    // 300 pixels wide within its borders, the bar's content high.
    assert!(blue > 250 * 15, "its background fills its least width ({blue} pixels)");
    assert!(red >= 2 * 6 * 15, "its left and right borders ({red} pixels)");
    let found = run(std::process::Command::new("pgrep").arg("-f").arg(script.to_str().unwrap()));
    let pid: u32 = String::from_utf8_lossy(&found.stdout).lines().next().expect("the program runs").parse().unwrap();
    let msg = |what: &str| {
        let asked =
            run(obi().env("XDG_RUNTIME_DIR", runtime.path()).args(["msg", "--pid", &bar.0.id().to_string(), what]));
        assert!(asked.status.success(), "obi msg {what}: {}", String::from_utf8_lossy(&asked.stdout));
    };
    msg("hide");
    assert!(wait_for(Duration::from_secs(10), || state(pid) == 'T'), "stopped while hidden: {}", state(pid));
    msg("show");
    assert!(wait_for(Duration::from_secs(10), || state(pid) != 'T'), "continued when shown: {}", state(pid));
    let tick = |words: &[(String, u32)]| {
        words.windows(2).find(|pair| pair[0].0 == "Tick").and_then(|pair| pair[1].0.parse::<u32>().ok())
    };
    let before = tick(&words_on_bar(&session, dir.path(), 700));
    let goes_on = wait_for(Duration::from_secs(10), || tick(&words_on_bar(&session, dir.path(), 700)) > before);
    assert!(goes_on, "it ticks on once shown (from {before:?})");
}

/// The resident memory of process `pid`, in kB.
fn resident_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the bar is running");
    let value = status.lines().find_map(|row| row.strip_prefix("VmRSS:")).expect("VmRSS");
    value.trim().trim_end_matches(" kB").parse().unwrap()
}

#[test]
fn programs_that_flood_print_without_end_or_die_leave_the_bar_ticking() {
    if !have_tools("status command test", TOOLS) {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let count = work.path().join("count");
    let counter = format!(
        "n=$(( $(cat '{count}' 2>/dev/null || echo 0) + 1 )); echo $n > '{count}'; echo \"Count $n\"",
        count = count.display()
    );
    let header = r#"echo '{"version":1}'; echo '['"#;
    let (dir, config) = bar_config(serde_json::json!([
        { "Custom": { "enable": true, "exec": counter, "interval": 1 } },
        status_command(format!(r#"{header}; yes '[{{"full_text":"flood"}}],'"#)),
        status_command(format!("{header}; tr '\\0' 'a' < /dev/zero")),
        status_command(format!(r#"{header}; echo '[{{"full_text":"alive"}}]'; sleep 1; echo 'gone away' >&2; exit 3"#)),
    ]));
    let session = XSession::start(1280, 720);
    let (bar, _window) = session.start_bar(&config, Stdio::null());
    let pid = bar.0.id();
    let counted = |words: &[(String, u32)]| {
        words.windows(2).find(|pair| pair[0].0 == "Count").and_then(|pair| pair[1].0.parse::<u32>().ok())
    };
    let mut words = Vec::new();
    let started = wait_for(Duration::from_secs(20), || {
        words = words_on_bar(&session, dir.path(), 700);
        counted(&words).is_some()
    });
    assert!(started, "the counter shows: {words:?}");
    let memory_before = resident_kb(pid);
    let first = counted(&words);
    let ticked = wait_for(Duration::from_secs(20), || {
        words = words_on_bar(&session, dir.path(), 700);
        counted(&words) >= first.map(|n| n + 5)
    });
    assert!(ticked, "the counter goes on beside them (from {first:?}): {words:?}");
    let mut text = String::new();
    let died = wait_for(Duration::from_secs(20), || {
        words_on_bar(&session, dir.path(), 1280);
        text = popup_text(&dir.path().join("bar.png"));
        // The last letter at the fill's end may go unread.
        text.contains("exited with 3: gone aw")
    });
    keep(&session, "status-command-hostile.png");
    assert!(died, "how the dying one ended is said in its place: {text:?}");
    assert!(words.iter().any(|(word, _)| word == "flood"), "the flooding one shows its line: {words:?}");
    let grown = resident_kb(pid).saturating_sub(memory_before);
    assert!(grown < 32 << 10, "the bar's memory grew by {grown} kB");
}

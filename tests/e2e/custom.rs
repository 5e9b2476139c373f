//! The Custom widget in the bar with real commands: a script that prints a
//! JSON line with a count that goes up at each run changes the bar's text,
//! and its `urgent` class selects the item; a command that fails shows its
//! error in place. A command kept running updates the bar at each line,
//! shows how it failed when it dies, and is started again; `obi msg
//! refresh NAME` runs a command again before its interval is up, and
//! `pkill -RTMIN+N` (or `obi msg signal N`) one whose `signal` is N.

use crate::ocr::words_on_bar;
use crate::popup::popup_text;
use crate::support::{XSession, config_file, have_tools, obi, run, same_colour, wait_for, workspace};
use std::process::Stdio;
use std::time::Duration;

#[test]
fn a_scripts_json_lines_change_the_bar_and_a_failing_one_shows_its_error() {
    if !have_tools("custom command test", &["Xvfb", "i3", "xwininfo", "import", "convert", "tesseract"]) {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let count = work.path().join("count");
    // Each run counts one more; from the fifth on it asks for attention.
    let script = format!(
        r#"n=$(( $(cat '{count}' 2>/dev/null || echo 0) + 1 )); echo $n > '{count}'; \
           if [ $n -ge 5 ]; then class=urgent; else class=ok; fi; \
           printf '{{"text": "Runs %s", "class": "%s"}}\n' $n $class"#,
        count = count.display()
    );
    let config = serde_json::json!({
        "height": 40, "font_size": 18, "right_widgets": [],
        "left_widgets": [
            { "Custom": { "enable": true, "exec": script, "interval": 1, "return-type": "json" } },
            { "Custom": { "enable": true, "exec": "echo 'no such mailbox' >&2; exit 4", "interval": "once" } }
        ]
    });
    let (dir, config) = config_file(&config.to_string());
    let session = XSession::start(1280, 720);
    let (_bar, _window) = session.start_bar(&config, Stdio::null());
    // Read as it is too (see `popup_text`): on a busy machine the bar may
    // first be read after the fifth run, in the urgent fill.
    let mut text = String::new();
    let counted = wait_for(Duration::from_secs(20), || {
        words_on_bar(&session, dir.path(), 700);
        text = popup_text(&dir.path().join("bar.png"));
        let counts = text.split("Runs ").skip(1).filter_map(|after| after.split_whitespace().next());
        counts.filter_map(|count| count.parse::<u32>().ok()).any(|n| n >= 2)
    });
    assert!(counted, "the count goes up on the bar: it reads {text:?}");
    let failed = wait_for(Duration::from_secs(10), || {
        words_on_bar(&session, dir.path(), 700);
        text = popup_text(&dir.path().join("bar.png"));
        text.contains("no such mailbox")
    });
    assert!(failed, "the failing command's error is shown: the bar reads {text:?}");
    // Selected from the fifth run: the theme's selected fill behind the text.
    let obi::colour::Rgba(r, g, b, _) = obi::theme::Theme::from_config(None, 255).selected_fill;
    let mut filled = 0;
    let selected = wait_for(Duration::from_secs(20), || {
        let frame = session.grab().rows(0, 40);
        let pixels = (0..40).flat_map(|y| (0..300).map(move |x| (x, y)));
        filled = pixels.filter(|&(x, y)| same_colour(frame.pixel(x, y), [r, g, b, 255])).count();
        filled > 100
    });
    assert!(selected, "the urgent class selects the item ({filled} pixels in the selected fill)");
    let artifacts = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    run(session
        .command("import")
        .args(["-window", "root", "-crop", "700x40+0+0", "+repage"])
        .arg(artifacts.join("custom-bar.png")));
}

#[test]
fn a_command_kept_running_updates_per_line_and_a_refresh_runs_one_again() {
    if !have_tools("custom command test", &["Xvfb", "i3", "xwininfo", "import", "convert", "tesseract"]) {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let (starts, stamps) = (work.path().join("starts"), work.path().join("stamps"));
    // Three lines a second apart, then it dies saying why; each start is noted.
    let ticking = format!(
        "echo start >> '{starts}'; for n in 1 2 3; do echo \"Tick $n\"; sleep 1; done; \
         echo 'lost the feed' >&2; exit 2",
        starts = starts.display()
    );
    let stamp = format!(
        "n=$(( $(cat '{stamps}' 2>/dev/null || echo 0) + 1 )); echo $n > '{stamps}'; echo \"Stamp $n\"",
        stamps = stamps.display()
    );
    let config = serde_json::json!({
        "height": 40, "font_size": 18, "right_widgets": [],
        "left_widgets": [
            { "Custom": { "enable": true, "exec": ticking } },
            { "Custom": { "enable": true, "name": "stamp", "exec": stamp, "interval": 3600 } }
        ]
    });
    let (dir, config) = config_file(&config.to_string());
    let runtime = tempfile::tempdir().unwrap();
    let session = XSession::start(1280, 720);
    let (bar, _window) =
        session.start_bar_with_env(&config, Stdio::null(), &[("XDG_RUNTIME_DIR", runtime.path().as_os_str())]);
    let mut words = Vec::new();
    let mut seen = Vec::new();
    let ticked = wait_for(Duration::from_secs(20), || {
        words = words_on_bar(&session, dir.path(), 700);
        let tick = words.iter().position(|(word, _)| word == "Tick").and_then(|at| words.get(at + 1));
        if let Some((n, _)) = tick.filter(|(n, _)| !seen.contains(n)) {
            seen.push(n.clone());
        }
        seen.len() >= 2
    });
    assert!(ticked, "the bar shows each line: it read {seen:?}, now {words:?}");
    let mut text = String::new();
    let failed = wait_for(Duration::from_secs(20), || {
        words_on_bar(&session, dir.path(), 700);
        text = popup_text(&dir.path().join("bar.png"));
        text.contains("lost the feed")
    });
    assert!(failed, "how it died is shown: the bar reads {text:?}");
    let artifacts = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    std::fs::copy(dir.path().join("bar.png"), artifacts.join("custom-kept-running-failed.png")).unwrap();
    let started = || std::fs::read_to_string(&starts).unwrap_or_default().lines().count();
    assert!(wait_for(Duration::from_secs(20), || started() >= 2), "started again ({} starts)", started());
    let ticks_again = wait_for(Duration::from_secs(20), || {
        words = words_on_bar(&session, dir.path(), 700);
        words.iter().any(|(word, _)| word == "Tick")
    });
    assert!(ticks_again, "its lines show again once it runs: {words:?}");

    let mut stamped = |n: &str| {
        wait_for(Duration::from_secs(20), || {
            words = words_on_bar(&session, dir.path(), 700);
            words.windows(2).any(|pair| pair[0].0 == "Stamp" && pair[1].0 == n)
        })
    };
    assert!(stamped("1"), "the stamp ran at the start: {words:?}");
    let asked = run(obi().env("XDG_RUNTIME_DIR", runtime.path()).args([
        "msg",
        "--pid",
        &bar.0.id().to_string(),
        "refresh",
        "stamp",
    ]));
    let reply = String::from_utf8_lossy(&asked.stdout).trim().to_owned();
    assert!(asked.status.success() && reply.ends_with(": ok"), "obi msg refresh stamp: {reply}");
    assert!(stamped("2"), "a refresh ran it again within its hour: {words:?}");
    let asked = run(obi().env("XDG_RUNTIME_DIR", runtime.path()).args(["msg", "refresh", "nothing"]));
    let reply = String::from_utf8_lossy(&asked.stdout).trim().to_owned();
    assert!(!asked.status.success() && reply.contains("no widget is named \"nothing\""), "{reply}");
}

/// Waybar's `signal`: a command with `"signal": 8` and no interval runs at
/// the start and again at each `pkill -RTMIN+8`, as `pkill -RTMIN+8
/// waybar` has it do; a real-time signal no widget listens to leaves the
/// bar running (unhandled, it would end the process).
#[test]
fn pkill_rtmin_runs_a_command_whose_signal_it_is_again() {
    if !have_tools("custom signal test", &["Xvfb", "i3", "xwininfo", "import", "convert", "tesseract", "pkill"]) {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let stamps = work.path().join("stamps");
    let stamp = format!(
        "n=$(( $(cat '{stamps}' 2>/dev/null || echo 0) + 1 )); echo $n > '{stamps}'; echo \"Signalled $n\"",
        stamps = stamps.display()
    );
    let config = serde_json::json!({
        "height": 40, "font_size": 18, "right_widgets": [],
        "left_widgets": [ { "Custom": { "enable": true, "exec": stamp, "signal": 8 } } ]
    });
    let (dir, config) = config_file(&config.to_string());
    let runtime = tempfile::tempdir().unwrap();
    let session = XSession::start(1280, 720);
    let (mut bar, _window) =
        session.start_bar_with_env(&config, Stdio::null(), &[("XDG_RUNTIME_DIR", runtime.path().as_os_str())]);
    let pid_file = work.path().join("obi.pid");
    std::fs::write(&pid_file, bar.0.id().to_string()).unwrap();
    let mut words = Vec::new();
    let mut signalled = |n: &str| {
        wait_for(Duration::from_secs(20), || {
            words = words_on_bar(&session, dir.path(), 700);
            words.windows(2).any(|pair| pair[0].0 == "Signalled" && pair[1].0 == n)
        })
    };
    assert!(signalled("1"), "it ran at the start: {words:?}");
    let pkill = |signal: &str| {
        let sent = run(std::process::Command::new("pkill").arg(format!("-{signal}")).arg("-F").arg(&pid_file));
        assert!(sent.status.success(), "pkill -{signal}: {}", String::from_utf8_lossy(&sent.stderr));
    };
    pkill("RTMIN+8");
    assert!(signalled("2"), "pkill -RTMIN+8 ran it again: {words:?}");
    pkill("RTMIN+3");
    std::thread::sleep(Duration::from_millis(500));
    assert!(bar.0.try_wait().unwrap().is_none(), "a signal no widget listens to leaves the bar running");
    let asked = run(obi().env("XDG_RUNTIME_DIR", runtime.path()).args(["msg", "signal", "8"]));
    let reply = String::from_utf8_lossy(&asked.stdout).trim().to_owned();
    assert!(asked.status.success() && reply.ends_with(": ok"), "obi msg signal 8: {reply}");
    assert!(signalled("3"), "obi msg signal 8 ran it again: {words:?}");
    assert_eq!(std::fs::read_to_string(&stamps).unwrap().trim(), "3", "run at the start and twice on its signal");
}

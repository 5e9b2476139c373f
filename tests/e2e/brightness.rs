//! The Brightness widget in the bar, over a backlight folder of the test's
//! own (`OBI_BACKLIGHT_DIR`, laid out as the kernel's class) and logind as
//! python3-dbusmock simulates it on a private bus the bar takes for the
//! system bus: the panel's level shows, a scroll tick and a drag of the
//! popup's slider reach logind's `SetBrightness` on the caller's session,
//! whose level (written into the folder, as the kernel would) shows in
//! turn; under Xvfb and i3.

use crate::ocr::words_on_bar;
use crate::popup::open_popup_with;
use crate::support::{XSession, config_file, have_tools, run, wait_for};
use obi_test_support::system_services::SystemServices;
use std::ffi::OsStr;
use std::process::Stdio;
use std::time::Duration;

const TOOLS: &[&str] = &["Xvfb", "i3", "xwininfo", "xdotool", "import", "convert", "tesseract", "dbus-daemon"];

/// The levels logind was asked for, oldest first.
fn levels_asked(services: &SystemServices) -> Vec<u32> {
    let calls = services.python(
        "for _, method, args in mock('org.freedesktop.login1', '/org/freedesktop/login1/session/auto').GetCalls():\n    \
         if method == 'SetBrightness' and args[0] == 'backlight' and args[1] == 'panel': print(args[2])",
    );
    calls.lines().map(|level| level.parse().unwrap()).collect()
}

#[test]
fn the_panels_level_shows_and_a_scroll_and_the_slider_set_it_through_logind() {
    if !have_tools("brightness test", TOOLS) {
        return;
    }
    let Some(mut services) = SystemServices::for_tests("brightness test") else { return };
    let class = tempfile::tempdir().unwrap();
    let panel = class.path().join("panel");
    std::fs::create_dir(&panel).unwrap();
    for (file, text) in [("type", "firmware"), ("max_brightness", "100"), ("actual_brightness", "50")] {
        std::fs::write(panel.join(file), format!("{text}\n")).unwrap();
    }
    services.logind_setting_backlight(class.path(), None);

    let session = XSession::start(1280, 720);
    let (dir, config) = config_file(
        r#"{ "height": 40, "font_size": 18, "right_widgets": [],
             "left_widgets": [ { "Brightness": { "enable": true, "label_prefix": "IconAndText", "step": 5 } } ] }"#,
    );
    let env =
        [("DBUS_SYSTEM_BUS_ADDRESS", OsStr::new(services.address())), ("OBI_BACKLIGHT_DIR", class.path().as_os_str())];
    let (_bar, _window) = session.start_bar_with_env(&config, Stdio::null(), &env);
    let mut words = Vec::new();
    let shows = |words: &mut Vec<(String, u32)>, percent: &str| {
        wait_for(Duration::from_secs(10), || {
            *words = words_on_bar(&session, dir.path(), 400);
            words.iter().any(|(word, _)| word == "Brightness:") && words.iter().any(|(word, _)| word == percent)
        })
    };
    assert!(shows(&mut words, "50%"), "the bar reads {words:?}");

    // A click of the wheel up is two notches under winit (its press and
    // its release): 50 goes to 60.
    run(session.command("xdotool").args(["mousemove", "40", "20", "click", "4"]));
    assert!(shows(&mut words, "60%"), "the bar reads {words:?}; logind was asked {:?}", levels_asked(&services));
    // The second notch may come while logind is still asked the first,
    // and of levels waiting only the newest is sent.
    let asked = levels_asked(&services);
    assert!(asked == [55, 60] || asked == [60], "logind was asked {asked:?}");

    // The slider, dragged from its left end to three quarters along.
    let popup = open_popup_with(&session, "1");
    let (x, y, width, height) = session.geometry(&popup);
    assert_eq!(y, 40, "right under the bar");
    let middle = (y + height as i32 / 2).to_string();
    let along = |fraction: f32| (x + (width as f32 * fraction) as i32).to_string();
    // Each step is waited for: of levels waiting, only the newest is sent,
    // and on a busy machine a quick drag is one level.
    let reached = |levels: std::ops::RangeInclusive<u32>| {
        wait_for(Duration::from_secs(10), || levels_asked(&services).last().is_some_and(|last| levels.contains(last)))
    };
    run(session.command("xdotool").args(["mousemove", &along(0.1), &middle, "mousedown", "1"]));
    assert!(reached(0..=25), "the press set a low level: logind was asked {:?}", levels_asked(&services));
    run(session.command("xdotool").args(["mousemove", &along(0.5), &middle]));
    assert!(reached(35..=65), "half way set half: logind was asked {:?}", levels_asked(&services));
    run(session.command("xdotool").args(["mousemove", &along(0.75), &middle]));
    run(session.command("xdotool").args(["mouseup", "1"]));
    let mut asked = Vec::new();
    let settled = wait_for(Duration::from_secs(10), || {
        asked = levels_asked(&services);
        asked.last().is_some_and(|&last| (60..=90).contains(&last))
    });
    assert!(settled, "the drag ended three quarters along: logind was asked {asked:?}");
    let last = format!("{}%", asked.last().unwrap());
    assert!(shows(&mut words, &last), "the bar shows the level logind set, {last}: it reads {words:?}");
    assert!(asked.len() >= 4, "the drag set levels as it went: {asked:?}");
}

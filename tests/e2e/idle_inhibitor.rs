//! The IdleInhibitor widget on a real sway, whose idling swayidle reads
//! (its idle timeout, which sway holds back while an idle inhibitor is
//! shown): off, sway goes idle a second after the last input; a click on
//! the inhibitor holds idling off, an idle inhibitor on the bar's layer
//! surface, and sway stays awake; another click lets it go, and sway goes
//! idle again, as it does when a reload leaves the inhibitor out.

use crate::support::{Reaped, have_tools, wait_for};
use crate::sway::SwaySession;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The bar's height, and where the inhibitor's item is on it.
const BAR: i64 = 40;
const INHIBITOR: (i64, i64) = (30, BAR / 2);

#[test]
fn on_sway_the_inhibitor_holds_idling_off_while_on() {
    let Some(sway) = SwaySession::start("idle inhibitor on sway") else { return };
    if !have_tools("idle inhibitor on sway", &["swayidle"]) {
        return;
    }
    let _bar = sway.start_bar(
        r#"{ "height": 40, "font_size": 18, "font_family": "DejaVu Sans", "right_widgets": [],
             "left_widgets": [ { "IdleInhibitor": { "enable": true, "label_prefix": "IconAndText" } } ] }"#,
        &[],
    );
    sway.wait_for_words((0, 0, 400, BAR), &["Idle:", "off"], "sway-idle-off");

    // swayidle writes a line when sway says it went idle, and when it
    // came back.
    let said = sway.dir().join("idle.log");
    let _swayidle = Reaped(
        Command::new("swayidle")
            .args(["timeout", "1", &format!("echo idle >> {0}", said.display())])
            .args(["resume", &format!("echo resume >> {0}", said.display())])
            .envs(sway.env())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting swayidle"),
    );
    let idled = || std::fs::read_to_string(&said).unwrap_or_default().matches("idle").count();
    assert!(wait_for(Duration::from_secs(10), || idled() >= 1), "sway never went idle without input");

    sway.click(INHIBITOR.0, INHIBITOR.1, 1);
    sway.wait_for_words((0, 0, 400, BAR), &["Idle:", "on"], "sway-idle-on");
    // Input (which sway follows with an idle timeout of a second anew),
    // then five seconds without: no idling.
    let held = idled();
    sway.point(600, 400);
    let watched = Instant::now();
    while watched.elapsed() < Duration::from_secs(5) {
        assert_eq!(idled(), held, "sway went idle while the inhibitor was on: {}", sway.bar_log());
        std::thread::sleep(Duration::from_millis(100));
    }

    sway.click(INHIBITOR.0, INHIBITOR.1, 1);
    sway.wait_for_words((0, 0, 400, BAR), &["Idle:", "off"], "sway-idle-off-again");
    assert!(wait_for(Duration::from_secs(10), || idled() > held), "sway did not go idle once it was let go");

    // On again, then a saved config leaves the inhibitor out: the hold
    // goes with the last widget that showed it.
    sway.click(INHIBITOR.0, INHIBITOR.1, 1);
    sway.wait_for_words((0, 0, 400, BAR), &["Idle:", "on"], "sway-idle-on-again");
    let held = idled();
    let config = sway.dir().join("bar.json");
    let saved = sway.dir().join("bar.json.new");
    std::fs::write(&saved, r#"{ "height": 40, "font_size": 18, "font_family": "DejaVu Sans", "right_widgets": [],
        "left_widgets": [ { "Date": { "enable": true, "format": { "Custom": "Reloaded" }, "label_prefix": "None" } } ] }"#)
    .unwrap();
    std::fs::rename(&saved, &config).unwrap();
    sway.wait_for_words((0, 0, 400, BAR), &["Reloaded"], "sway-idle-reloaded");
    assert!(
        wait_for(Duration::from_secs(10), || idled() > held),
        "sway did not go idle once a reload left the inhibitor out: {}",
        sway.bar_log()
    );
}

//! The backlight set through logind, as python3-dbusmock simulates it on a
//! private bus the capability takes for the system bus: a level asked
//! reaches logind's `SetBrightness` on the caller's session in the panel's
//! own steps, and comes back as the panel's new level; a logind that never
//! answers keeps no caller waiting, and the panel is still followed.

#![cfg(target_os = "linux")]

use obi::capabilities::{Backlight, BacklightStatus, SystemBacklight};
use obi::wake::Waker;
use obi_test_support::system_services::SystemServices;
use std::time::{Duration, Instant};

fn calls(services: &SystemServices) -> String {
    services.python(
        "for _, method, args in mock('org.freedesktop.login1', '/org/freedesktop/login1/session/auto').GetCalls():\n    \
         print(method, *args)",
    )
}

fn read_until(backlight: &SystemBacklight, wanted: u32) -> BacklightStatus {
    let waker = Waker::new(|| {});
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let status = backlight.status(&waker);
        let reached = matches!(&status, BacklightStatus::Level { percent, .. } if *percent == wanted);
        if reached || Instant::now() > deadline {
            return status;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_level_goes_through_logind_and_one_it_never_answers_keeps_nobody_waiting() {
    let Some(mut services) = SystemServices::for_tests("backlight through logind") else { return };
    let class = tempfile::tempdir().unwrap();
    let panel = class.path().join("panel");
    std::fs::create_dir(&panel).unwrap();
    for (file, text) in [("type", "raw"), ("max_brightness", "200"), ("actual_brightness", "100")] {
        std::fs::write(panel.join(file), format!("{text}\n")).unwrap();
    }
    // 14 steps (7 %) are set and never answered.
    services.logind_setting_backlight(class.path(), Some(14));
    // The capability's connection reads this when it first sets a level.
    // SAFETY: this file's only test, before the thread that reads it starts.
    unsafe { std::env::set_var("DBUS_SYSTEM_BUS_ADDRESS", services.address()) };

    let backlight = SystemBacklight::at(class.path().to_owned());
    let half = BacklightStatus::Level { device: "panel".into(), percent: 50 };
    assert_eq!(read_until(&backlight, 50), half);
    backlight.set_percent(32).unwrap();
    let asked = BacklightStatus::Level { device: "panel".into(), percent: 32 };
    assert_eq!(read_until(&backlight, 32), asked, "logind set it: {}", calls(&services));
    assert_eq!(calls(&services), "SetBrightness backlight panel 64\n", "in the panel's steps, of 200");
    assert!(backlight.set_percent(101).unwrap_err().contains("not 101"));

    // 14 steps, which logind takes and never answers.
    backlight.set_percent(7).unwrap();
    assert_eq!(read_until(&backlight, 7), BacklightStatus::Level { device: "panel".into(), percent: 7 });
    let started = Instant::now();
    backlight.set_percent(60).unwrap();
    backlight.set_percent(61).unwrap();
    assert!(started.elapsed() < Duration::from_millis(500), "asking waits for no answer");
    std::fs::write(panel.join("actual_brightness"), "180\n").unwrap();
    let followed = BacklightStatus::Level { device: "panel".into(), percent: 90 };
    assert_eq!(read_until(&backlight, 90), followed, "the panel is followed while logind does not answer");
}

//! Power profiles from power-profiles-daemon as python3-dbusmock simulates
//! it on a private bus the capability takes for the system bus: the
//! profiles offered and the one in use, a profile set through the
//! capability and one set by another program followed, the daemon going;
//! and a daemon that owns its name and never answers, which keeps no
//! caller waiting.

#![cfg(target_os = "linux")]

use obi::capabilities::{PowerProfiles, ProfilesStatus, SystemPowerProfiles};
use obi::wake::Waker;
use obi_test_support::system_services::SystemServices;
use std::time::{Duration, Instant};

fn offered(active: &str) -> ProfilesStatus {
    let profiles = ["power-saver", "balanced", "performance"].map(String::from).to_vec();
    ProfilesStatus::Offered { active: active.into(), profiles }
}

/// The status once `done` says it is the one wanted, or after ten seconds;
/// no reading may wait on the bus.
fn read_until(profiles: &SystemPowerProfiles, done: impl Fn(&ProfilesStatus) -> bool) -> ProfilesStatus {
    let waker = Waker::new(|| {});
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let asked = Instant::now();
        let status = profiles.status(&waker);
        assert!(asked.elapsed() < Duration::from_millis(200), "a reading waited on the bus");
        if done(&status) || Instant::now() > deadline {
            return status;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_daemons_profiles_are_followed_and_set_and_one_that_never_answers_keeps_nobody_waiting() {
    let Some(mut services) = SystemServices::for_tests("power profiles") else { return };
    services.simulate("power_profiles_daemon", "net.hadess.PowerProfiles");
    // SAFETY: this file's only test, before the thread that reads it starts.
    unsafe { std::env::set_var("DBUS_SYSTEM_BUS_ADDRESS", services.address()) };

    let profiles = SystemPowerProfiles::new();
    assert_eq!(read_until(&profiles, |status| *status == offered("balanced")), offered("balanced"));
    profiles.set_active("performance").unwrap();
    assert_eq!(read_until(&profiles, |status| *status == offered("performance")), offered("performance"));
    let active = services.python(
        "print(bus.get_object('net.hadess.PowerProfiles', '/net/hadess/PowerProfiles')\
         .Get('net.hadess.PowerProfiles', 'ActiveProfile', dbus_interface='org.freedesktop.DBus.Properties'))",
    );
    assert_eq!(active.trim(), "performance", "the daemon was told");
    let error = profiles.set_active("turbo").unwrap_err();
    assert!(error.contains("no power profile is named \"turbo\""), "{error}");

    // Another program changes it (as the daemon's own tool would).
    services.python(
        "bus.get_object('net.hadess.PowerProfiles', '/net/hadess/PowerProfiles')\
         .Set('net.hadess.PowerProfiles', 'ActiveProfile', 'power-saver', dbus_interface='org.freedesktop.DBus.Properties')",
    );
    assert_eq!(read_until(&profiles, |status| *status == offered("power-saver")), offered("power-saver"));

    services.stop_simulators();
    let gone = ProfilesStatus::Unavailable("power-profiles-daemon is not running".into());
    assert_eq!(read_until(&profiles, |status| *status == gone), gone, "the daemon went");
    assert!(profiles.set_active("balanced").is_err(), "nothing to set without a daemon");

    // A daemon that takes the name and never answers.
    let silent = zbus::blocking::connection::Builder::address(services.address())
        .unwrap()
        .name("net.hadess.PowerProfiles")
        .unwrap()
        .build()
        .unwrap();
    let unanswered = read_until(&profiles, |status| *status != gone);
    let ProfilesStatus::Unavailable(why) = &unanswered else { panic!("{unanswered:?}") };
    assert!(why.contains("cannot be read") && why.contains("timed out"), "{why}");
    drop(silent);
}

//! Idling held off through logind, as python3-dbusmock simulates it on a
//! private bus the capability takes for the system bus: holding takes an
//! `idle` inhibitor lock logind lists, letting go closes it and logind
//! lists none; without logind the status says why.

#![cfg(target_os = "linux")]

use obi::capabilities::{IdleInhibition, IdleStatus};
use obi::wake::Waker;
use obi_test_support::system_services::SystemServices;
use std::time::{Duration, Instant};

fn read_until(inhibition: &IdleInhibition, done: impl Fn(&IdleStatus) -> bool) -> IdleStatus {
    let waker = Waker::new(|| {});
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let status = inhibition.status(&waker);
        if done(&status) || Instant::now() > deadline {
            return status;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// What logind lists: each inhibitor's what, who, why and mode.
fn inhibitors(services: &SystemServices) -> String {
    services.python(
        "manager = dbus.Interface(bus.get_object('org.freedesktop.login1', '/org/freedesktop/login1'), \
         'org.freedesktop.login1.Manager')\n\
         for what, who, why, mode, *_ in manager.ListInhibitors(): print(what, who, why, mode, sep='|')",
    )
}

#[test]
fn holding_takes_an_idle_lock_from_logind_and_letting_go_closes_it() {
    let Some(mut services) = SystemServices::for_tests("idle inhibitor") else { return };
    // SAFETY: this file's only test, before the thread that reads it starts.
    unsafe { std::env::set_var("DBUS_SYSTEM_BUS_ADDRESS", services.address()) };
    let inhibition = IdleInhibition::default();

    inhibition.set_held(true);
    let why = read_until(&inhibition, |status| matches!(status, IdleStatus::Unavailable(_)));
    let IdleStatus::Unavailable(why) = why else { panic!("held without logind: {why:?}") };
    assert!(why.contains("logind did not take the idle inhibitor"), "{why}");

    services.simulate("logind", "org.freedesktop.login1");
    inhibition.set_held(true);
    assert_eq!(read_until(&inhibition, |status| *status == IdleStatus::Held), IdleStatus::Held);
    assert_eq!(inhibitors(&services), "idle|Obi|the bar's idle inhibitor is on|block\n");

    inhibition.set_held(false);
    assert_eq!(read_until(&inhibition, |status| *status == IdleStatus::NotHeld), IdleStatus::NotHeld);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !inhibitors(&services).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(inhibitors(&services), "", "the lock was closed");
}

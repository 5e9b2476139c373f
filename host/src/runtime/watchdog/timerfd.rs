//! The watchdog's alarm on Linux: a timerfd, set and cleared by the calling
//! thread with one system call each, so that only an alarm that goes off
//! wakes the watchdog.

use rustix::fd::OwnedFd;
use rustix::time::{Itimerspec, TimerfdClockId, TimerfdFlags, TimerfdTimerFlags, Timespec};
use std::io;
use std::time::Duration;

pub struct Alarm {
    timer: OwnedFd,
}

impl Alarm {
    pub fn new() -> io::Result<Alarm> {
        Ok(Alarm { timer: rustix::time::timerfd_create(TimerfdClockId::Monotonic, TimerfdFlags::CLOEXEC)? })
    }

    /// Goes off `after` from now; `None` clears it.
    pub fn set(&self, after: Option<Duration>) {
        // A zero value would clear the timer: "now" is one nanosecond.
        let value = after.map_or(Duration::ZERO, |after| after.max(Duration::from_nanos(1)));
        let zero = Timespec { tv_sec: 0, tv_nsec: 0 };
        let spec = Itimerspec {
            it_interval: zero,
            it_value: Timespec { tv_sec: value.as_secs() as _, tv_nsec: value.subsec_nanos() as _ },
        };
        rustix::time::timerfd_settime(&self.timer, TimerfdTimerFlags::empty(), &spec)
            .expect("setting the widget watchdog's timer");
    }

    /// Blocks until the alarm goes off.
    pub fn wait(&self) {
        let mut expirations = [0u8; 8];
        loop {
            match rustix::io::read(&self.timer, &mut expirations) {
                Ok(_) => return,
                Err(rustix::io::Errno::INTR) => continue,
                Err(error) => panic!("waiting on the widget watchdog's timer: {error}"),
            }
        }
    }
}

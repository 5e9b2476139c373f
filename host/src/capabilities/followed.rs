//! Commands that keep running and print a line per update (a Custom
//! widget's `exec` without an `interval`, Waybar's continuous scripts):
//! each runs in the shell, in a process group of its own, read line by line
//! on a thread of its own; only the newest line matters, so the widget is
//! woken when the reader has caught up with what was printed, at most every
//! [`NEWEST_EVERY`]. Meanwhile the pipe fills and a command that prints
//! without end (`yes`) waits on it: it costs the bar a pipe's worth of
//! reading each time, not a core. One that ends is started again after the
//! wait the user gave, or one that grows while it keeps ending soon after
//! it starts ([`Backoff`]), and says how it ended until it prints again. Dropping the handle stops
//! it and all it started.

use super::shell::{drain_to_tail, how_it_ended, shell, stop_group};
use crate::backoff::Backoff;
use crate::sync::lock;
use crate::wake::Waker;
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

/// The longest line kept; the rest of a longer one is read and dropped.
pub const MAX_LINE: usize = 64 << 10;

/// How often the newest line is handed on at most: as often as the bar
/// refreshes a widget.
pub const NEWEST_EVERY: Duration = Duration::from_millis(100);

/// What a followed command has said.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Followed {
    /// The last line it printed; none before its first.
    pub last_line: Option<String>,
    /// How it last ended when it failed ("exited with 2: no such file"),
    /// until it prints again.
    pub failure: Option<String>,
}

/// A command kept running; dropping it stops the command.
pub trait Following: Send {
    fn state(&self) -> Followed;
}

#[derive(Default)]
struct Shared {
    said: Mutex<Followed>,
    stopped: AtomicBool,
    /// The process running now, to stop.
    running: Mutex<Option<u32>>,
}

impl Shared {
    fn stopped(&self) -> bool {
        self.stopped.load(Ordering::SeqCst)
    }
}

pub struct FollowedCommand {
    shared: Arc<Shared>,
    /// The thread that runs it, woken from its wait to see it is stopped.
    thread: Thread,
}

impl FollowedCommand {
    /// Starts `command` for the widget `widget` (named in the log), which
    /// `waker` wakes at each line and each end; when it ends, it starts
    /// again after `restart_wait`, or a growing wait when none is given.
    pub fn start(
        widget: &str,
        command: &str,
        restart_wait: Option<Duration>,
        waker: Waker,
    ) -> Result<FollowedCommand, String> {
        let shared = Arc::new(Shared::default());
        let (following, widget, command) = (shared.clone(), widget.to_owned(), command.to_owned());
        let thread = thread::Builder::new()
            .name("obi-followed".into())
            .spawn(move || keep_running(&widget, &command, restart_wait, &following, &waker))
            .map_err(|error| format!("cannot follow the command: {error}"))?;
        Ok(FollowedCommand { shared, thread: thread.thread().clone() })
    }
}

impl Following for FollowedCommand {
    fn state(&self) -> Followed {
        lock(&self.shared.said).clone()
    }
}

impl Drop for FollowedCommand {
    fn drop(&mut self) {
        self.shared.stopped.store(true, Ordering::SeqCst);
        if let Some(pid) = *lock(&self.shared.running) {
            stop_group(pid);
        }
        self.thread.unpark();
    }
}

fn keep_running(widget: &str, command: &str, restart_wait: Option<Duration>, shared: &Shared, waker: &Waker) {
    let ran = Restarting { widget, command, restart_wait, stopped: &shared.stopped, waker };
    ran.keep_restarting(
        |backoff| run_once(command, shared, waker, backoff),
        |failure| {
            lock(&shared.said).failure = failure;
        },
    );
}

/// A command run again each time it ends, until it is stopped (its
/// handle dropped, which unparks the thread running it).
pub(super) struct Restarting<'a> {
    pub widget: &'a str,
    pub command: &'a str,
    /// The wait the user gave before each start again; else a growing one.
    pub restart_wait: Option<Duration>,
    pub stopped: &'a AtomicBool,
    pub waker: &'a Waker,
}

impl Restarting<'_> {
    /// Runs `run_once` (how it failed, if it did) again and again; each end
    /// is logged when it failed, handed to `ended` and wakes the widget.
    pub fn keep_restarting(
        &self,
        mut run_once: impl FnMut(&mut Backoff) -> Option<String>,
        mut ended: impl FnMut(Option<String>),
    ) {
        let stopped = || self.stopped.load(Ordering::SeqCst);
        let mut backoff = Backoff::default();
        while !stopped() {
            let failure = run_once(&mut backoff);
            if stopped() {
                return;
            }
            if let Some(failure) = &failure {
                tracing::warn!(target: "obi::widget", widget = self.widget, "`{}` {failure}", self.command);
            }
            ended(failure);
            self.waker.wake();
            let wait = backoff.next_wait(Instant::now());
            let until = Instant::now() + self.restart_wait.unwrap_or(wait);
            while !stopped() && Instant::now() < until {
                thread::park_timeout(until.saturating_duration_since(Instant::now()));
            }
        }
    }
}

/// Runs `command` once, to its end; how it failed, if it did.
fn run_once(command: &str, shared: &Shared, waker: &Waker, backoff: &mut Backoff) -> Option<String> {
    let spawned = shell(command).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(error) => return Some(format!("cannot start the shell: {error}")),
    };
    *lock(&shared.running) = Some(child.id());
    // Stopped while it started: the drop found nothing to stop.
    if shared.stopped() {
        stop_group(child.id());
    }
    backoff.connected();
    let stderr = child.stderr.take().map(|stream| thread::spawn(move || drain_to_tail(stream)));
    if let Some(stdout) = child.stdout.take() {
        let mut stdout = BufReader::with_capacity(MAX_LINE, stdout);
        let mut line = Vec::new();
        while let Ok(true) = next_line(&mut stdout, &mut line, LongLine::DropRest) {
            // Lines already read and waiting behind this one make it old.
            if !stdout.buffer().is_empty() {
                continue;
            }
            *lock(&shared.said) = Followed { last_line: Some(text(&line)), failure: None };
            waker.wake();
            // Meanwhile the pipe holds what comes next, and a command that
            // prints faster waits on it.
            thread::sleep(NEWEST_EVERY);
        }
    }
    let status = child.wait();
    *lock(&shared.running) = None;
    let said = stderr.and_then(|reader| reader.join().ok()).unwrap_or_default();
    match status {
        Ok(status) if status.success() => None,
        Ok(status) => Some(how_it_ended(status, &said)),
        Err(error) => Some(format!("could not be waited for: {error}")),
    }
}

/// What becomes of a line longer than [`MAX_LINE`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum LongLine {
    /// Its rest is read and dropped.
    DropRest,
    /// It is read no further: its first [`MAX_LINE`] bytes are the line.
    StopReading,
}

/// Reads the next line of `reader` into `line`, without its line ending,
/// cut at [`MAX_LINE`] bytes; false at the end, when there is none.
pub(super) fn next_line(reader: &mut impl BufRead, line: &mut Vec<u8>, long: LongLine) -> std::io::Result<bool> {
    line.clear();
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok(!line.is_empty());
        }
        let newline = available.iter().position(|&byte| byte == b'\n');
        let end = newline.unwrap_or(available.len());
        let room = MAX_LINE.saturating_sub(line.len());
        line.extend_from_slice(&available[..end.min(room)]);
        if long == LongLine::StopReading && newline.is_none() && end >= room {
            reader.consume(room);
            return Ok(true);
        }
        reader.consume(newline.map_or(end, |at| at + 1));
        if newline.is_some() {
            return Ok(true);
        }
    }
}

pub(super) fn text(line: &[u8]) -> String {
    String::from_utf8_lossy(line).trim_end_matches('\r').to_owned()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use obi_test_support::wait::until;
    use std::io::Cursor;
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    fn waker() -> (Waker, Arc<AtomicUsize>) {
        let wakes = Arc::new(AtomicUsize::new(0));
        let counted = wakes.clone();
        let waker = Waker::new(move || {
            counted.fetch_add(1, Ordering::SeqCst);
        });
        (waker, wakes)
    }

    fn wait_for(followed: &FollowedCommand, wanted: impl Fn(&Followed) -> bool) -> Followed {
        until(Duration::from_secs(10), || wanted(&followed.state()));
        followed.state()
    }

    #[test]
    fn lines_are_read_whole_and_cut_when_too_long() {
        let mut reader = Cursor::new(format!("one\r\ntwo\n{}\nlast", "x".repeat(MAX_LINE + 10)));
        let mut line = Vec::new();
        let mut next = || next_line(&mut reader, &mut line, LongLine::DropRest).unwrap().then(|| text(&line));
        assert_eq!(next().as_deref(), Some("one"));
        assert_eq!(next().as_deref(), Some("two"));
        assert_eq!(next().map(|line| line.len()), Some(MAX_LINE));
        assert_eq!(next().as_deref(), Some("last"));
        assert_eq!(next(), None);
    }

    /// `yes` prints without end: the widget is woken about every
    /// [`NEWEST_EVERY`], not at every line (each queued a wake, and the
    /// bar's queue grew by 400 MB a second).
    #[test]
    fn a_command_printing_without_end_is_read_at_the_bars_pace() {
        let (waker, _) = waker();
        let seconds = 2;
        let followed = FollowedCommand::start("w", "yes", None, waker.clone()).unwrap();
        std::thread::sleep(Duration::from_secs(seconds));
        assert_eq!(followed.state().last_line.as_deref(), Some("y"));
        let woken = waker.take();
        let most = (u128::from(seconds) * 1000 / NEWEST_EVERY.as_millis()) as usize + 2;
        assert!((1..=most).contains(&woken), "woken {woken} times in {seconds} s");
    }

    #[test]
    fn each_line_wakes_the_widget_and_the_last_is_kept() {
        let (waker, wakes) = waker();
        let followed =
            FollowedCommand::start("w", "for n in 1 2 3; do echo \"line $n\"; done; sleep 30", None, waker).unwrap();
        let said = wait_for(&followed, |said| said.last_line.as_deref() == Some("line 3"));
        assert_eq!(said, Followed { last_line: Some("line 3".into()), failure: None });
        assert!(wakes.load(Ordering::SeqCst) >= 1);
    }

    #[test]
    fn a_command_that_fails_says_how_and_is_started_again() {
        let dir = tempfile::tempdir().unwrap();
        let runs = dir.path().join("runs");
        let command = format!("echo started >> '{}'; echo up; echo 'no more input' >&2; exit 3", runs.display());
        let (waker, _) = waker();
        let followed = FollowedCommand::start("w", &command, None, waker).unwrap();
        let said = wait_for(&followed, |said| said.failure.is_some());
        assert_eq!(said.failure.as_deref(), Some("exited with 3: no more input"));
        assert_eq!(said.last_line.as_deref(), Some("up"), "the last line stays");
        let started = || std::fs::read_to_string(&runs).unwrap_or_default().lines().count();
        assert!(until(Duration::from_secs(10), || started() >= 2), "started again after a second");
    }

    /// A `restart_interval` of 3 s: started again after 3 s each time, not
    /// after the growing wait (1 s, then 2 s).
    #[test]
    fn a_command_given_a_restart_wait_starts_again_after_it() {
        let dir = tempfile::tempdir().unwrap();
        let runs = dir.path().join("runs");
        let command = format!("date +%s.%N >> '{}'; echo up", runs.display());
        let (waker, _) = waker();
        let _followed = FollowedCommand::start("w", &command, Some(Duration::from_secs(3)), waker).unwrap();
        let starts = || -> Vec<f64> {
            let runs = std::fs::read_to_string(&runs).unwrap_or_default();
            runs.lines().filter_map(|line| line.parse().ok()).collect()
        };
        assert!(until(Duration::from_secs(20), || starts().len() >= 3), "started three times");
        let starts = starts();
        for gap in starts.windows(2).map(|pair| pair[1] - pair[0]) {
            assert!((2.9..5.0).contains(&gap), "started again {gap:.2} s after the last start: {starts:?}");
        }
    }

    #[test]
    fn dropping_it_stops_the_command_and_what_it_started() {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("pid");
        let command = format!("sleep 300 & echo $! > '{}'; echo ready; wait", pid_file.display());
        let (waker, _) = waker();
        let followed = FollowedCommand::start("w", &command, None, waker).unwrap();
        wait_for(&followed, |said| said.last_line.is_some());
        let pid: i32 = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
        // A process stopped but not yet reaped by whoever inherited it is a zombie.
        let alive = |pid: i32| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            stat.rsplit_once(") ").is_some_and(|(_, rest)| !rest.starts_with('Z'))
        };
        assert!(alive(pid));
        drop(followed);
        assert!(until(Duration::from_secs(10), || !alive(pid)), "the sleep it started was stopped");
    }
}

//! Running the command lines the user declared for a widget (the
//! `commands` and `process` capabilities) through the platform's shell, as
//! a user typing them would: the shell resolves environment variables
//! (`$HOME`, `%USERPROFILE%`). A command is either started and left to run
//! (logged with what it printed on stderr when it fails), or run for its
//! output, bounded in time and size, or kept running for the lines it
//! prints ([`super::followed`]), or as a status program
//! ([`super::status_program`]). None ever takes the bar down.

use super::followed::{FollowedCommand, Following};
use super::shell::{drain_to_tail, how_it_ended, shell, stop_group};
use super::status_program::{StatusProgram, StatusSource};
use crate::sync::lock;
use crate::wake::Waker;
use std::io::Read;
use std::process::{Child, Stdio};
use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

pub trait Processes: Send + Sync {
    /// Starts `command` for the widget `widget` (named in the log).
    fn spawn(&self, widget: &str, command: &str) -> Result<(), String>;
    /// Runs `command` to its end and returns what it printed, blocking:
    /// called off the widgets' thread.
    fn run(&self, command: &str) -> Result<CommandOutput, String>;
    /// Keeps `command` running for the widget `widget`, which `waker`
    /// wakes at each line it prints and each time it ends, until the
    /// handle is dropped; when it ends it starts again after
    /// `restart_wait`, or after a wait that grows when none is given.
    fn follow(
        &self,
        widget: &str,
        command: &str,
        restart_wait: Option<Duration>,
        waker: Waker,
    ) -> Result<Box<dyn Following>, String>;
    /// Keeps the status program `command` (the i3bar protocol) running for
    /// the widget `widget`, which `waker` wakes at each status line and
    /// each time it ends, until the handle is dropped.
    fn run_status_program(&self, widget: &str, command: &str, waker: Waker) -> Result<Box<dyn StatusSource>, String>;
}

/// How a command run for its output ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandOutput {
    /// None when a signal ended it.
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Output kept of each stream: a widget shows a line or a few, and its
/// memory is capped.
pub const MAX_OUTPUT: usize = 64 << 10;

/// A command run for its output that takes longer is stopped.
pub const RUN_TIMEOUT: Duration = Duration::from_secs(60);

pub struct SystemProcesses;

impl Processes for SystemProcesses {
    fn spawn(&self, widget: &str, command: &str) -> Result<(), String> {
        let (widget, line) = (widget.to_owned(), command.to_owned());
        launch(command, move |ended| {
            if let Err(failure) = ended {
                tracing::warn!(target: "obi::widget", widget, "`{line}` {failure}");
            }
        })
    }

    fn run(&self, command: &str) -> Result<CommandOutput, String> {
        run_for_output(command, RUN_TIMEOUT)
    }

    fn follow(
        &self,
        widget: &str,
        command: &str,
        restart_wait: Option<Duration>,
        waker: Waker,
    ) -> Result<Box<dyn Following>, String> {
        Ok(Box::new(FollowedCommand::start(widget, command, restart_wait, waker)?))
    }

    fn run_status_program(&self, widget: &str, command: &str, waker: Waker) -> Result<Box<dyn StatusSource>, String> {
        Ok(Box::new(StatusProgram::start(widget, command, waker)?))
    }
}

/// Runs `command` in the shell with its output captured (the first
/// [`MAX_OUTPUT`] bytes of each stream; the rest is read and dropped, so a
/// chatty program never blocks), stopping it and all it started after
/// `timeout`. The run ends when the shell does: what the command left
/// running in the background (`cmd; sleep 300 &`), holding its output
/// open, does not hold up the answer, and is stopped at the same deadline.
pub fn run_for_output(command: &str, timeout: Duration) -> Result<CommandOutput, String> {
    let deadline = Instant::now() + timeout;
    let mut child = shell(command)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| format!("cannot start the shell: {error}"))?;
    let ended = Arc::new(Ended::default());
    let stdout = Head::read(child.stdout.take(), &ended);
    let stderr = Head::read(child.stderr.take(), &ended);
    let pid = child.id();
    let (exits, exited) = mpsc::channel();
    let keeping = ended.clone();
    thread::spawn(move || {
        let _ = exits.send(exit_code_keeping_group(&mut child));
        // Until the shell is reaped its process group keeps its id, so
        // stopping the group at the deadline stops what it left, no other.
        if !keeping.all(deadline) && cfg!(target_os = "linux") {
            stop_group(pid);
        }
        let _ = child.wait();
    });
    let code = match exited.recv_timeout(timeout) {
        Ok(code) => code?,
        Err(_) => {
            stop_group(pid);
            return Err(format!("ran over its {} seconds and was stopped", timeout.as_secs()));
        }
    };
    // What it printed before it ended is in the pipes: a moment reads it.
    ended.all(Instant::now() + Duration::from_millis(100));
    Ok(CommandOutput { code, stdout: stdout.taken(), stderr: stderr.taken() })
}

/// How many of a command's two streams have ended, for those who wait on
/// them.
#[derive(Default)]
struct Ended {
    count: Mutex<usize>,
    changed: Condvar,
}

impl Ended {
    fn one(&self) {
        *lock(&self.count) += 1;
        self.changed.notify_all();
    }

    /// Whether both ended by `until`.
    fn all(&self, until: Instant) -> bool {
        let mut count = lock(&self.count);
        while *count < 2 {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            count = self.changed.wait_timeout(count, left).unwrap_or_else(|poisoned| poisoned.into_inner()).0;
        }
        true
    }
}

/// The first [`MAX_OUTPUT`] bytes of a stream, read to its end on a thread
/// of its own; what has come can be taken at any time.
struct Head(Arc<Mutex<Vec<u8>>>);

impl Head {
    fn read(stream: Option<impl Read + Send + 'static>, ended: &Arc<Ended>) -> Head {
        let head = Arc::new(Mutex::new(Vec::new()));
        let (filling, ended) = (head.clone(), ended.clone());
        thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            if let Some(mut stream) = stream {
                while let Ok(read) = stream.read(&mut buffer) {
                    if read == 0 {
                        break;
                    }
                    let mut head = lock(&filling);
                    let room = MAX_OUTPUT.saturating_sub(head.len());
                    head.extend_from_slice(&buffer[..read.min(room)]);
                }
            }
            ended.one();
        });
        Head(head)
    }

    fn taken(&self) -> String {
        String::from_utf8_lossy(&std::mem::take(&mut *lock(&self.0))).into_owned()
    }
}

/// Waits for the shell to exit and gives its code (none: a signal ended
/// it). On Linux the shell is left unreaped, so its process group's id
/// stays its own until the caller reaps it.
#[cfg(target_os = "linux")]
fn exit_code_keeping_group(child: &mut Child) -> Result<Option<i32>, String> {
    use rustix::process::{Pid, WaitId, WaitIdOptions, waitid};
    let pid = Pid::from_child(child);
    loop {
        match waitid(WaitId::Pid(pid), WaitIdOptions::EXITED | WaitIdOptions::NOWAIT) {
            Ok(Some(status)) => return Ok(status.exit_status()),
            Ok(None) | Err(rustix::io::Errno::INTR) => continue,
            Err(error) => return Err(format!("could not be waited for: {error}")),
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn exit_code_keeping_group(child: &mut Child) -> Result<Option<i32>, String> {
    child.wait().map(|status| status.code()).map_err(|error| format!("could not be waited for: {error}"))
}

/// Starts `command` in the shell, in a process group of its own (a Ctrl-C
/// meant for the bar leaves it running), and calls `ended` from a thread of
/// its own when it ends: `Err` says how it failed.
pub fn launch(command: &str, ended: impl FnOnce(Result<(), String>) + Send + 'static) -> Result<(), String> {
    let mut child = shell(command)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| format!("cannot start the shell: {error}"))?;
    let stderr = child.stderr.take();
    thread::Builder::new()
        .name("obi-process".into())
        .spawn(move || {
            // Reading to the end keeps a chatty program from blocking on a full pipe.
            let tail = stderr.map(drain_to_tail).unwrap_or_default();
            ended(match child.wait() {
                Ok(status) if status.success() => Ok(()),
                Ok(status) => Err(how_it_ended(status, &tail)),
                Err(error) => Err(format!("could not be waited for: {error}")),
            })
        })
        .map(drop)
        .map_err(|error| format!("cannot watch the command: {error}"))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    fn run(command: &str) -> Result<(), String> {
        let (sender, ended) = mpsc::channel();
        launch(command, move |result| sender.send(result).unwrap()).unwrap();
        ended.recv_timeout(Duration::from_secs(10)).expect("the command ended")
    }

    #[test]
    fn the_shell_resolves_environment_variables() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out");
        run(&format!("printf %s \"$PATH\" > '{}'", target.display())).unwrap();
        assert_eq!(std::fs::read_to_string(target).unwrap(), std::env::var("PATH").unwrap());
    }

    #[test]
    fn a_failing_command_says_how_and_what_it_printed() {
        let failure = run("obi-no-such-program --flag").unwrap_err();
        assert!(failure.contains("127") && failure.contains("not found"), "{failure}");
        let failure = run("echo first >&2; echo 'last words' >&2; exit 3").unwrap_err();
        assert!(failure.starts_with("exited with 3: ") && failure.ends_with("last words"), "{failure}");
        assert_eq!(run("true"), Ok(()));
    }

    #[test]
    fn a_run_returns_the_code_and_what_was_printed() {
        let output = run_for_output("echo out; echo err >&2; exit 4", RUN_TIMEOUT).unwrap();
        assert_eq!(output, CommandOutput { code: Some(4), stdout: "out\n".into(), stderr: "err\n".into() });
    }

    /// A command that leaves a child running in the background, holding its
    /// output open: the run ends with the shell, and the child is stopped at
    /// the deadline (the run waited for it, and it outlived the deadline).
    #[test]
    fn what_a_run_leaves_in_the_background_ends_at_its_deadline() {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("pid");
        let command = format!("echo done; sleep 300 & echo $! > '{}'", pid_file.display());
        let started = Instant::now();
        let output = run_for_output(&command, Duration::from_secs(2)).unwrap();
        assert!(started.elapsed() < Duration::from_secs(1), "the run took {:?}", started.elapsed());
        assert_eq!((output.code, output.stdout.as_str()), (Some(0), "done\n"));
        let pid: i32 = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
        let alive = || {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            stat.rsplit_once(") ").is_some_and(|(_, rest)| !rest.starts_with('Z'))
        };
        assert!(alive(), "the background child runs on for now");
        let stopped = obi_test_support::wait::until(Duration::from_secs(10), || !alive());
        assert!(stopped && started.elapsed() >= Duration::from_secs(2), "stopped at the deadline, not before");
    }

    #[test]
    fn a_run_keeps_the_head_of_a_flood_and_stops_at_its_timeout() {
        let output = run_for_output("head -c 1000000 /dev/zero | tr '\\0' x; echo", RUN_TIMEOUT).unwrap();
        assert_eq!(output.stdout.len(), MAX_OUTPUT);
        let started = std::time::Instant::now();
        let error = run_for_output("sleep 30 & sleep 30", Duration::from_millis(300)).unwrap_err();
        assert!(error.contains("stopped"), "{error}");
        assert!(started.elapsed() < Duration::from_secs(10), "the group was killed, so its pipes closed");
    }
}

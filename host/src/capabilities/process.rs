//! The `process` capability: running a command line through the platform's
//! shell, as a user typing it would, without waiting for it. The shell
//! resolves environment variables (`$HOME`, `%USERPROFILE%`). A command that
//! cannot start, or ends in failure, is logged with what it printed on
//! stderr; it never takes the bar down.

use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::thread;

pub trait Processes: Send + Sync {
    /// Starts `command` for the widget `widget` (named in the log).
    fn spawn(&self, widget: &str, command: &str) -> Result<(), String>;
}

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
}

/// What a failing command printed last on stderr, at most.
const STDERR_TAIL: usize = 2048;

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
                Ok(status) => Err(describe(status, &tail)),
                Err(error) => Err(format!("could not be waited for: {error}")),
            })
        })
        .map(drop)
        .map_err(|error| format!("cannot watch the command: {error}"))
}

#[cfg(unix)]
fn shell(command: &str) -> Command {
    use std::os::unix::process::CommandExt;
    let mut shell = Command::new("/bin/sh");
    shell.arg("-c").arg(command).process_group(0);
    shell
}

#[cfg(windows)]
fn shell(command: &str) -> Command {
    let mut shell = Command::new("cmd");
    shell.arg("/C").arg(command);
    shell
}

fn drain_to_tail(mut stream: impl Read) -> String {
    let mut tail = Vec::new();
    let mut buffer = [0u8; 4096];
    while let Ok(read) = stream.read(&mut buffer) {
        if read == 0 {
            break;
        }
        tail.extend_from_slice(&buffer[..read]);
        if tail.len() > STDERR_TAIL {
            tail.drain(..tail.len() - STDERR_TAIL);
        }
    }
    String::from_utf8_lossy(&tail).trim().to_owned()
}

fn describe(status: ExitStatus, stderr: &str) -> String {
    match stderr.lines().last() {
        Some(said) => format!("failed ({status}): {said}"),
        None => format!("failed ({status})"),
    }
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
        assert!(failure.contains("exit status: 3") && failure.ends_with("last words"), "{failure}");
        assert_eq!(run("true"), Ok(()));
    }

    #[test]
    fn only_the_end_of_a_long_stderr_is_kept() {
        let tail = drain_to_tail(std::io::Cursor::new(format!("{}end", "x".repeat(100_000))));
        assert_eq!(tail.len(), STDERR_TAIL);
        assert!(tail.ends_with("end"));
    }
}

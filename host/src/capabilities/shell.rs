//! The platform's shell, as the commands the user declared run in it: a
//! command line started in a process group of its own (a Ctrl-C meant for
//! the bar leaves it running), the whole group stopped at once, and the
//! end of what it said on stderr kept.

use std::io::Read;
use std::process::{Command, ExitStatus};

#[cfg(unix)]
pub fn shell(command: &str) -> Command {
    use std::os::unix::process::CommandExt;
    let mut shell = Command::new("/bin/sh");
    shell.arg("-c").arg(command).process_group(0);
    shell
}

#[cfg(windows)]
pub fn shell(command: &str) -> Command {
    let mut shell = Command::new("cmd");
    shell.arg("/C").arg(command);
    shell
}

/// The last [`STDERR_TAIL`] bytes of `stream`, read to its end, trimmed.
pub fn drain_to_tail(mut stream: impl Read) -> String {
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

/// How a command that failed ended, for a log or a widget: "exited with 2:
/// what it said last on stderr", or "was ended by a signal".
pub fn how_it_ended(status: ExitStatus, stderr: &str) -> String {
    let how = match status.code() {
        Some(code) => format!("exited with {code}"),
        None => "was ended by a signal".to_owned(),
    };
    match stderr.lines().last() {
        Some(said) => format!("{how}: {said}"),
        None => how,
    }
}

/// Stops the command's whole process group: the shell and what it started
/// (on Windows its process tree).
pub fn stop_group(pid: u32) {
    #[cfg(target_os = "linux")]
    if let Some(group) = rustix::process::Pid::from_raw(pid as i32) {
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
    #[cfg(windows)]
    let _ = Command::new("taskkill").args(["/T", "/F", "/PID", &pid.to_string()]).output();
    #[cfg(not(any(target_os = "linux", windows)))]
    let _ = Command::new("kill").arg("-9").arg(format!("-{pid}")).status();
}

/// What a failing command printed last on stderr, at most.
const STDERR_TAIL: usize = 2048;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_end_of_a_long_stderr_is_kept() {
        let tail = drain_to_tail(std::io::Cursor::new(format!("{}end", "x".repeat(100_000))));
        assert_eq!(tail.len(), STDERR_TAIL);
        assert!(tail.ends_with("end"));
    }
}

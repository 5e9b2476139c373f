//! The control socket, so that `obi msg toggle` (from a key binding)
//! reaches running bars. Each obi process listens on its own local socket,
//! `bar-<pid>.sock` in `$XDG_RUNTIME_DIR/obi/` (or `obi-<uid>` in the
//! temporary directory), and `obi msg` talks to every running process, or
//! to one by its pid, as `polybar-msg` does. A request is one line: the
//! command, and which of the process's bars it is for (`bar N`, by order,
//! or `monitor M`; all of them when it names none); the reply is one line.
//!
//! Whoever can reach the socket can quit the bar, so the folder must be the
//! user's own ([`OwnDir`]: one another user made or may write to is refused,
//! by the bar and by `obi msg`) and the socket is the user's alone (0600).
//! A request is read for at most a second and a line's length; `obi msg`
//! waits a few seconds for each answer and says which bar gave none.

use crate::files::OwnDir;
use anyhow::Context;
use interprocess::local_socket::prelude::*;
use interprocess::local_socket::{GenericFilePath, ListenerOptions, Stream};
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::mpsc;
use std::time::Duration;
use std::{env, fs, thread};

/// The longest request: a command, its target and its newline.
const MAX_REQUEST: u64 = 64;
/// The longest answer read from a bar.
const MAX_REPLY: u64 = 4096;
/// How long the bar waits for a client's request.
const REQUEST_TIME: Duration = Duration::from_secs(1);
/// How long `obi msg` waits for a bar's answer.
const ANSWER_TIME: Duration = Duration::from_secs(3);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Toggle,
    Show,
    Hide,
    Reload,
    Quit,
}

impl FromStr for Command {
    type Err = String;

    fn from_str(text: &str) -> Result<Command, String> {
        Ok(match text.trim() {
            "toggle" => Command::Toggle,
            "show" => Command::Show,
            "hide" => Command::Hide,
            "reload" => Command::Reload,
            "quit" => Command::Quit,
            other => return Err(format!("unknown command {other:?}; known: toggle, show, hide, reload, quit")),
        })
    }
}

impl Command {
    fn word(self) -> &'static str {
        match self {
            Command::Toggle => "toggle",
            Command::Show => "show",
            Command::Hide => "hide",
            Command::Reload => "reload",
            Command::Quit => "quit",
        }
    }
}

/// Which of a process's bars a command is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    All,
    /// The bar at this place in the process's order (from 0).
    Bar(usize),
    /// The bars on the monitor with this number (from 0).
    Monitor(usize),
}

/// A command and the bars it is for, as one line of the protocol:
/// `toggle`, `hide bar 1`, `show monitor 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    pub command: Command,
    pub target: Target,
}

impl FromStr for Request {
    type Err = String;

    fn from_str(text: &str) -> Result<Request, String> {
        let mut words = text.split_whitespace();
        let command = words.next().unwrap_or_default().parse()?;
        let target = match (words.next(), words.next()) {
            (None, _) => Target::All,
            (Some(kind @ ("bar" | "monitor")), Some(number)) => {
                let number = number.parse().map_err(|_| format!("{kind} {number:?}: not a number"))?;
                if kind == "bar" { Target::Bar(number) } else { Target::Monitor(number) }
            }
            (Some(other), _) => return Err(format!("{other:?}: a command is for `bar N` or `monitor M`")),
        };
        match words.next() {
            Some(extra) => Err(format!("{extra:?} after the request")),
            None => Ok(Request { command, target }),
        }
    }
}

impl std::fmt::Display for Request {
    fn fmt(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str(self.command.word())?;
        match self.target {
            Target::All => Ok(()),
            Target::Bar(number) => write!(formatter, " bar {number}"),
            Target::Monitor(number) => write!(formatter, " monitor {number}"),
        }
    }
}

/// Where the sockets of this user's bars live.
pub fn socket_dir() -> PathBuf {
    match env::var_os("XDG_RUNTIME_DIR") {
        Some(runtime) => PathBuf::from(runtime).join("obi"),
        None => env::temp_dir().join(format!("obi-{}", user_id())),
    }
}

#[cfg(unix)]
fn user_id() -> String {
    rustix::process::geteuid().as_raw().to_string()
}

#[cfg(not(unix))]
fn user_id() -> String {
    env::var("USERNAME").unwrap_or_else(|_| "user".into())
}

/// The folder of this user's sockets, when it is theirs alone.
fn own_socket_dir() -> anyhow::Result<OwnDir> {
    OwnDir::new(&socket_dir()).context("the control folder cannot be used")
}

fn socket_path(dir: &Path, pid: u32) -> PathBuf {
    dir.join(format!("bar-{pid}.sock"))
}

/// Removes the socket file when the bar stops.
pub struct ControlServer {
    path: PathBuf,
}

impl Drop for ControlServer {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// How long the bar has to answer a request.
const REPLY_TIME: Duration = Duration::from_secs(2);

/// Listens for requests; `deliver` hands each to the bars with where their
/// answer goes, and says whether it arrived.
pub fn serve(
    deliver: impl Fn(Request, mpsc::Sender<String>) -> bool + Send + 'static,
) -> anyhow::Result<ControlServer> {
    let dir = own_socket_dir()?;
    let path = socket_path(dir.path(), std::process::id());
    let name = path.as_path().to_fs_name::<GenericFilePath>().with_context(|| format!("{}", path.display()))?;
    let listener = ListenerOptions::new()
        .name(name)
        .try_overwrite(true)
        .create_sync()
        .with_context(|| format!("listening on {}", path.display()))?;
    let server = ControlServer { path };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&server.path, fs::Permissions::from_mode(0o600))
            .with_context(|| format!("making {} private", server.path.display()))?;
    }
    thread::Builder::new()
        .name("obi-control".into())
        .spawn(move || {
            for connection in listener.incoming().filter_map(Result::ok) {
                // A client that says nothing, or floods, holds the bar's
                // control for a second at most, and no more memory than a line.
                if connection.set_recv_timeout(Some(REQUEST_TIME)).is_err() {
                    continue;
                }
                let _ = connection.set_send_timeout(Some(REQUEST_TIME));
                let mut reader = BufReader::new(connection);
                let mut line = String::new();
                let reply = match (&mut reader).take(MAX_REQUEST).read_line(&mut line) {
                    Err(error) => format!("error: no request ({error})"),
                    Ok(read) if read as u64 == MAX_REQUEST && !line.ends_with('\n') => {
                        "error: a request is one short line".to_owned()
                    }
                    Ok(_) => match line.parse::<Request>() {
                        Ok(request) => {
                            let (reply, answer) = mpsc::channel();
                            match deliver(request, reply) {
                                true => answer
                                    .recv_timeout(REPLY_TIME)
                                    .unwrap_or_else(|_| "error: the bar did not answer".to_owned()),
                                false => "error: the bar is shutting down".to_owned(),
                            }
                        }
                        Err(error) => format!("error: {error}"),
                    },
                };
                let _ = writeln!(reader.get_mut(), "{reply}");
            }
        })
        .context("starting the control thread")?;
    Ok(server)
}

/// Makes SIGTERM and SIGINT (a session ending, Ctrl-C) a `quit`, so the
/// bar ends as `obi msg quit` ends it: its socket removed, its struts
/// given back. `quit` hands the command to the bars.
#[cfg(unix)]
pub fn quit_on_signals(quit: impl Fn() -> bool + Send + 'static) -> anyhow::Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGINT]).context("handling SIGTERM and SIGINT")?;
    thread::Builder::new()
        .name("obi-signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                tracing::info!("signal {signal}: quitting");
                if !quit() {
                    // The bar is ending already, or its loop is gone: end now.
                    std::process::exit(0);
                }
            }
        })
        .map(drop)
        .context("starting the signal thread")
}

/// Sends `request` to the process with `pid`, or to every running one.
/// Returns each process's pid and reply; sockets of processes that are
/// gone are cleaned up.
pub fn send(request: Request, pid: Option<u32>) -> anyhow::Result<Vec<(u32, String)>> {
    let own = own_socket_dir()?;
    let dir = own.path();
    let pids: Vec<u32> = match pid {
        Some(pid) => vec![pid],
        None => fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .filter_map(|entry| {
                        entry.file_name().to_str()?.strip_prefix("bar-")?.strip_suffix(".sock")?.parse().ok()
                    })
                    .collect()
            })
            .unwrap_or_default(),
    };
    let mut replies = Vec::new();
    for pid in pids {
        let path = socket_path(dir, pid);
        match ask(&path, request) {
            Ok(reply) => replies.push((pid, reply)),
            Err(_) if !Path::new(&format!("/proc/{pid}")).exists() && cfg!(target_os = "linux") => {
                let _ = fs::remove_file(&path);
            }
            Err(error) if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                replies.push((pid, format!("error: no answer within {} s", ANSWER_TIME.as_secs())));
            }
            Err(error) => replies.push((pid, format!("error: {error}"))),
        }
    }
    if replies.is_empty() {
        match pid {
            Some(pid) => anyhow::bail!("no obi bar with pid {pid} is running"),
            None => anyhow::bail!("no obi bar is running (no sockets in {})", dir.display()),
        }
    }
    Ok(replies)
}

fn ask(path: &Path, request: Request) -> std::io::Result<String> {
    let name = path.to_fs_name::<GenericFilePath>()?;
    let mut stream = Stream::connect(name)?;
    stream.set_recv_timeout(Some(ANSWER_TIME))?;
    stream.set_send_timeout(Some(ANSWER_TIME))?;
    writeln!(stream, "{request}")?;
    let mut reply = String::new();
    BufReader::new(stream).take(MAX_REPLY).read_line(&mut reply)?;
    Ok(reply.trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse_and_unknown_ones_are_named() {
        assert_eq!("toggle\n".parse::<Command>(), Ok(Command::Toggle));
        assert_eq!("quit".parse::<Command>(), Ok(Command::Quit));
        assert!("explode".parse::<Command>().unwrap_err().contains("\"explode\""));
    }

    #[test]
    fn requests_name_their_bars_and_read_back_as_written() {
        for line in ["toggle", "hide bar 1", "show monitor 0", "quit bar 12"] {
            assert_eq!(line.parse::<Request>().unwrap().to_string(), line);
        }
        assert_eq!("reload\n".parse(), Ok(Request { command: Command::Reload, target: Target::All }));
        assert_eq!("hide bar 2".parse(), Ok(Request { command: Command::Hide, target: Target::Bar(2) }));
        assert!("hide bar".parse::<Request>().unwrap_err().contains("bar N"));
        assert!("hide bar two".parse::<Request>().unwrap_err().contains("not a number"));
        assert!("hide screen 1".parse::<Request>().unwrap_err().contains("\"screen\""));
        assert!("hide bar 1 now".parse::<Request>().unwrap_err().contains("\"now\""));
    }
}

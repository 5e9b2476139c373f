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
//! On Windows a local socket is a named pipe, which lives outside the file
//! system (`\\.\pipe\obi-bar-<pid>`, refusing remote clients, writable
//! by its owner alone, as a pipe is by default): the bar's file in the
//! folder is then an empty one that says the pipe is there.
//! A request is read for at most a second all told, however slowly it
//! comes (on Windows, whose pipes keep no time, until its client hangs up),
//! and a line's length, on a thread of its own, a few at once; a client
//! beyond them waits its turn. `obi msg` waits a few seconds for each
//! answer and says which bar gave none.

use crate::files::OwnDir;
use crate::sync::lock;
use anyhow::Context;
use interprocess::local_socket::prelude::*;
use interprocess::local_socket::{ListenerOptions, Name, Stream};
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};
use std::{env, fs, thread};

/// The longest request: a command, a widget's name, its target and its newline.
const MAX_REQUEST: u64 = 256;
/// The longest answer read from a bar.
const MAX_REPLY: u64 = 4096;
/// How long the bar waits for a client's request.
const REQUEST_TIME: Duration = Duration::from_secs(1);
/// How long `obi msg` waits for a bar's answer.
const ANSWER_TIME: Duration = Duration::from_secs(3);

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Toggle,
    Show,
    Hide,
    Reload,
    Quit,
    /// The widgets of this name read afresh now (a Custom's command, the
    /// weather), as Waybar's signals have its modules do.
    Refresh(String),
    /// The widgets that listen to this real-time signal (a Custom's
    /// `signal`) read afresh now: `SIGRTMIN+N`, or `signal N` where the
    /// platform has no such signals.
    Signal(u8),
    /// One bar takes the keyboard, or gives it back when it holds it.
    Focus,
}

const KNOWN: &str = "known: toggle, show, hide, reload, quit, refresh NAME, signal N, focus";

impl Command {
    /// The command the first of `words` names, with the words it takes.
    fn read<'a>(words: &mut impl Iterator<Item = &'a str>) -> Result<Command, String> {
        Ok(match words.next().unwrap_or_default() {
            "toggle" => Command::Toggle,
            "show" => Command::Show,
            "hide" => Command::Hide,
            "reload" => Command::Reload,
            "quit" => Command::Quit,
            "focus" => Command::Focus,
            "refresh" => match words.next() {
                Some(name) => Command::Refresh(name.to_owned()),
                None => return Err("`refresh` names the widgets to refresh: `refresh NAME`".into()),
            },
            "signal" => match words.next().map(|number| (number, number.parse::<u8>())) {
                Some((_, Ok(number))) => Command::Signal(number),
                Some((number, Err(_))) => return Err(format!("signal {number:?}: not a number from 0 to 255")),
                None => return Err("`signal` names the widgets' signal: `signal N`".into()),
            },
            other => return Err(format!("unknown command {other:?}; {KNOWN}")),
        })
    }
}

impl FromStr for Command {
    type Err = String;

    fn from_str(text: &str) -> Result<Command, String> {
        let mut words = text.split_whitespace();
        let command = Command::read(&mut words)?;
        match words.next() {
            Some(extra) => Err(format!("{extra:?} after the command")),
            None => Ok(command),
        }
    }
}

impl std::fmt::Display for Command {
    fn fmt(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str(match self {
            Command::Toggle => "toggle",
            Command::Show => "show",
            Command::Hide => "hide",
            Command::Reload => "reload",
            Command::Quit => "quit",
            Command::Focus => "focus",
            Command::Refresh(name) => return write!(formatter, "refresh {name}"),
            Command::Signal(number) => return write!(formatter, "signal {number}"),
        })
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
/// `toggle`, `hide bar 1`, `show monitor 0`, `refresh mail bar 0`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub command: Command,
    pub target: Target,
}

impl FromStr for Request {
    type Err = String;

    fn from_str(text: &str) -> Result<Request, String> {
        let mut words = text.split_whitespace();
        let command = Command::read(&mut words)?;
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
        write!(formatter, "{}", self.command)?;
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

/// The name the bar whose file is `path` listens on: that file, a socket.
#[cfg(unix)]
fn listening_name(path: &Path) -> std::io::Result<Name<'_>> {
    use interprocess::local_socket::GenericFilePath;
    path.to_fs_name::<GenericFilePath>()
}

/// The name the bar whose file is `path` listens on: the named pipe
/// `obi-bar-<pid>`, after the file.
#[cfg(windows)]
fn listening_name(path: &Path) -> std::io::Result<Name<'static>> {
    use interprocess::local_socket::GenericNamespaced;
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    format!("obi-{stem}").to_ns_name::<GenericNamespaced>()
}

/// Whether the bar `pid` is gone, as `error` in reaching it says, so that
/// its file is left over: its process is not there (Linux), or its pipe
/// is not (Windows).
fn bar_is_gone(pid: u32, error: &std::io::Error) -> bool {
    if cfg!(target_os = "linux") {
        !Path::new(&format!("/proc/{pid}")).exists()
    } else {
        cfg!(windows) && error.kind() == ErrorKind::NotFound
    }
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
/// How many requests are taken at once.
const CONVERSATIONS: usize = 4;

/// Listens for requests; `deliver` hands each to the bars with where their
/// answer goes, and says whether it arrived.
pub fn serve(
    deliver: impl Fn(Request, mpsc::Sender<String>) -> bool + Send + Sync + 'static,
) -> anyhow::Result<ControlServer> {
    let dir = own_socket_dir()?;
    let path = socket_path(dir.path(), std::process::id());
    let name = listening_name(&path).with_context(|| format!("{}", path.display()))?;
    let listener = ListenerOptions::new()
        .name(name)
        .try_overwrite(true)
        .create_sync()
        .with_context(|| format!("listening on {}", path.display()))?;
    #[cfg(windows)]
    fs::write(&path, "").with_context(|| format!("announcing the control pipe in {}", path.display()))?;
    let server = ControlServer { path };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&server.path, fs::Permissions::from_mode(0o600))
            .with_context(|| format!("making {} private", server.path.display()))?;
    }
    let deliver = Arc::new(deliver);
    let talking = Arc::new(Talking::default());
    thread::Builder::new()
        .name("obi-control".into())
        .spawn(move || {
            loop {
                // Past the conversations going on, connections wait, in the
                // order they came, for one to end.
                let conversation = Conversation::begin(&talking);
                let connection = match listener.accept() {
                    Ok(connection) => connection,
                    Err(error) => {
                        tracing::debug!("the control socket did not take a connection: {error}");
                        thread::sleep(Duration::from_millis(10));
                        continue;
                    }
                };
                let deliver = deliver.clone();
                let _ = thread::Builder::new().name("obi-control-request".into()).spawn(move || {
                    converse(connection, &*deliver);
                    drop(conversation);
                });
            }
        })
        .context("starting the control thread")?;
    Ok(server)
}

/// How many conversations go on now.
#[derive(Default)]
struct Talking {
    count: Mutex<usize>,
    ended: Condvar,
}

/// One of the conversations going on at once, of which there are at most
/// [`CONVERSATIONS`].
struct Conversation(Arc<Talking>);

impl Conversation {
    /// A conversation, once fewer than [`CONVERSATIONS`] go on.
    fn begin(talking: &Arc<Talking>) -> Conversation {
        let mut count = lock(&talking.count);
        while *count >= CONVERSATIONS {
            count = talking.ended.wait(count).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        *count += 1;
        Conversation(talking.clone())
    }
}

impl Drop for Conversation {
    fn drop(&mut self) {
        *lock(&self.0.count) -= 1;
        self.0.ended.notify_one();
    }
}

/// Reads one request from `connection`, hands it to the bars, and writes
/// their answer back.
fn converse(connection: Stream, deliver: &dyn Fn(Request, mpsc::Sender<String>) -> bool) {
    // A client that says nothing, drips, or floods, holds its conversation
    // for a second at most, and no more memory than a line; on Windows,
    // whose pipes keep no time, until it hangs up (only the user's own
    // programs can open the pipe, and they can end the bar anyway).
    let mut reader = BufReader::new(Until { stream: connection, deadline: Instant::now() + REQUEST_TIME });
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
                    true => {
                        answer.recv_timeout(REPLY_TIME).unwrap_or_else(|_| "error: the bar did not answer".to_owned())
                    }
                    false => "error: the bar is shutting down".to_owned(),
                }
            }
            Err(error) => format!("error: {error}"),
        },
    };
    let _ = writeln!(reader.get_mut().stream, "{reply}");
}

/// A stream read until its deadline and no longer, however slowly it
/// comes: each read may wait only for what is left of the time.
struct Until {
    stream: Stream,
    deadline: Instant,
}

impl Read for Until {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ErrorKind::TimedOut.into());
        }
        limit_time(&self.stream, left)?;
        self.stream.read(buffer)
    }
}

/// Gives `stream`'s reads and writes `limit` each, where it keeps time:
/// Unix sockets do, Windows' named pipes do not.
fn limit_time(stream: &Stream, limit: Duration) -> std::io::Result<()> {
    match stream.set_recv_timeout(Some(limit)).and_then(|()| stream.set_send_timeout(Some(limit))) {
        Err(error) if error.kind() == ErrorKind::Unsupported => Ok(()),
        limited => limited,
    }
}

/// Makes SIGTERM and SIGINT (a session ending, Ctrl-C) a `quit`, so the
/// bar ends as `obi msg quit` ends it: its socket removed, its struts
/// given back; and, on Linux, `SIGRTMIN+N` a `signal N`, as Waybar takes
/// `pkill -RTMIN+N waybar` (a real-time signal nobody handles would end
/// the process). `obey` hands each command to the bars.
#[cfg(unix)]
pub fn obey_signals(obey: impl Fn(Command) -> bool + Send + 'static) -> anyhow::Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGINT]).context("handling SIGTERM and SIGINT")?;
    #[cfg(target_os = "linux")]
    for number in obi_widget_config::REAL_TIME_SIGNALS {
        signals.add_signal(libc::SIGRTMIN() + i32::from(number)).context("handling the real-time signals")?;
    }
    thread::Builder::new()
        .name("obi-signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                if let Some(number) = real_time_number(signal) {
                    tracing::debug!("signal SIGRTMIN+{number}: refreshing its widgets");
                    obey(Command::Signal(number));
                    continue;
                }
                tracing::info!("signal {signal}: quitting");
                if !obey(Command::Quit) {
                    // The bar is ending already, or its loop is gone: end now.
                    std::process::exit(0);
                }
            }
        })
        .map(drop)
        .context("starting the signal thread")
}

/// `N` of a signal `SIGRTMIN+N`.
#[cfg(target_os = "linux")]
fn real_time_number(signal: i32) -> Option<u8> {
    let number = u8::try_from(signal - libc::SIGRTMIN()).ok();
    number.filter(|number| obi_widget_config::REAL_TIME_SIGNALS.contains(number))
}

/// Elsewhere `obi msg signal N` stands in for real-time signals.
#[cfg(all(unix, not(target_os = "linux")))]
fn real_time_number(_signal: i32) -> Option<u8> {
    None
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
        match ask_within(&path, request.clone(), ANSWER_TIME) {
            Ok(reply) => replies.push((pid, reply)),
            Err(error) if bar_is_gone(pid, &error) => {
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

/// The answer of the bar listening at `path` to `request`, if it comes
/// within `limit`: asked on a thread of its own, since a pipe keeps no time.
fn ask_within(path: &Path, request: Request, limit: Duration) -> std::io::Result<String> {
    let (answer, answered) = mpsc::channel();
    let path = path.to_owned();
    thread::Builder::new().name("obi-msg".into()).spawn(move || answer.send(ask(&path, request, limit)))?;
    answered.recv_timeout(limit).unwrap_or_else(|_| Err(ErrorKind::TimedOut.into()))
}

fn ask(path: &Path, request: Request, limit: Duration) -> std::io::Result<String> {
    let mut stream = Stream::connect(listening_name(path)?)?;
    limit_time(&stream, limit)?;
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
        assert_eq!("refresh mail".parse::<Command>(), Ok(Command::Refresh("mail".into())));
        assert!("refresh".parse::<Command>().unwrap_err().contains("refresh NAME"));
        assert_eq!("signal 8".parse::<Command>(), Ok(Command::Signal(8)));
        assert!("signal eight".parse::<Command>().unwrap_err().contains("not a number"));
        assert!("signal".parse::<Command>().unwrap_err().contains("signal N"));
        assert!("toggle now".parse::<Command>().unwrap_err().contains("\"now\""));
    }

    #[test]
    fn requests_name_their_bars_and_read_back_as_written() {
        for line in [
            "toggle",
            "hide bar 1",
            "show monitor 0",
            "quit bar 12",
            "refresh mail",
            "refresh mail bar 1",
            "signal 8",
            "focus bar 1",
        ] {
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

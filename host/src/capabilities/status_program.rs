//! A status program speaking the i3bar protocol (i3status, i3blocks,
//! i3status-rust): kept running in a process group of its own, its stream
//! read as i3bar reads it — the header line (`version`, `click_events`,
//! `stop_signal`, `cont_signal`), then the endless array, one status line
//! per text line (a `,` leading or ending it dropped) — and only the
//! newest complete status line kept; the widget parses its blocks. A line
//! past [`MAX_LINE`] is no status line: the program is ended, as one that
//! prints what is not the protocol is, rather than read without end.
//! Click events go to its stdin as i3bar writes them (`[`, then one object
//! a line, each after the first led by `,`), through a queue that drops
//! them when the program does not read, so the bar never waits on it. It is
//! stopped with its `stop_signal` while the bar is hidden and continued
//! with `cont_signal` when shown; one that ends is started again after a
//! growing wait, saying how it ended until it prints again.

use super::followed::{LongLine, MAX_LINE, NEWEST_EVERY, Restarting, next_line, text};
use super::shell::{drain_to_tail, how_it_ended, shell, stop_group};
use crate::backoff::Backoff;
use crate::sync::lock;
use crate::wake::Waker;
use std::io::{BufReader, Write};
use std::process::{ChildStdin, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex, Weak};
use std::thread::{self, Thread};

/// Click events waiting for a program that does not read them: past this,
/// clicks are dropped rather than kept.
const CLICKS_WAITING: usize = 16;

/// What the program's header says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub version: u32,
    pub click_events: bool,
    /// Sent while the bar is hidden; 0: never stopped.
    pub stop_signal: i32,
    pub cont_signal: i32,
}

/// SIGSTOP and SIGCONT, the protocol's defaults.
const STOP: i32 = 19;
const CONT: i32 = 18;

/// What the program has said.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StatusRead {
    pub header: Option<Header>,
    /// The newest complete status line: a JSON array of blocks, as printed.
    pub line: Option<String>,
    /// How it last ended, or what it said that is not the protocol, until
    /// it prints a status line again.
    pub failure: Option<String>,
}

#[derive(Default)]
struct Shared {
    read: Mutex<StatusRead>,
    stopped: AtomicBool,
    /// The bar is hidden: the program is (to be) stopped.
    hidden: AtomicBool,
    /// The process running now.
    running: Mutex<Option<u32>>,
}

/// A status program kept running; dropping it stops the program.
pub trait StatusSource: Send + Sync {
    fn read(&self) -> StatusRead;
    /// Hands `click` to the program, when its header asked for clicks.
    fn click(&self, click: &Click);
    /// Stops the program while the bar is hidden, and continues it when
    /// shown, with the signals its header names.
    fn set_hidden(&self, hidden: bool);
}

/// A click on one of the program's blocks, as the protocol writes it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Click {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instance: Option<String>,
    pub button: u32,
    pub event: u32,
    pub x: i32,
    pub y: i32,
    pub relative_x: i32,
    pub relative_y: i32,
    pub output_x: i32,
    pub output_y: i32,
    pub width: i32,
    pub height: i32,
    pub scale: f32,
}

/// Whether a bar is hidden, for the status programs its widgets run:
/// each is stopped while it is.
#[derive(Default)]
pub struct Hiding {
    hidden: AtomicBool,
    programs: Mutex<Vec<Weak<dyn StatusSource>>>,
}

impl Hiding {
    pub fn set_hidden(&self, hidden: bool) {
        self.hidden.store(hidden, Ordering::SeqCst);
        let mut programs = lock(&self.programs);
        programs.retain(|program| program.upgrade().inspect(|program| program.set_hidden(hidden)).is_some());
    }

    /// Has `program` stopped while the bar is hidden, from now on.
    pub fn watch(&self, program: &Arc<dyn StatusSource>) {
        let mut programs = lock(&self.programs);
        program.set_hidden(self.hidden.load(Ordering::SeqCst));
        programs.retain(|program| program.strong_count() > 0);
        programs.push(Arc::downgrade(program));
    }
}

/// The status program of [`StatusSource`] on this system.
pub struct StatusProgram {
    shared: Arc<Shared>,
    clicks: SyncSender<String>,
    thread: Thread,
}

impl StatusProgram {
    /// Starts `command` for the widget `widget` (named in the log), which
    /// `waker` wakes at each status line and each end.
    pub fn start(widget: &str, command: &str, waker: Waker) -> Result<StatusProgram, String> {
        let shared = Arc::new(Shared::default());
        let (clicks, waiting) = sync_channel(CLICKS_WAITING);
        let (running, widget, command) = (shared.clone(), widget.to_owned(), command.to_owned());
        let thread = thread::Builder::new()
            .name("obi-status".into())
            .spawn(move || keep_running(&widget, &command, &running, &waiting, &waker))
            .map_err(|error| format!("cannot run the status program: {error}"))?;
        Ok(StatusProgram { shared, clicks, thread: thread.thread().clone() })
    }
}

impl StatusSource for StatusProgram {
    fn read(&self) -> StatusRead {
        lock(&self.shared.read).clone()
    }

    /// Dropped when the program has not read the clicks before.
    fn click(&self, click: &Click) {
        let wants = lock(&self.shared.read).header.is_some_and(|header| header.click_events);
        let event = serde_json::to_string(click).expect("a click serializes");
        if wants && let Err(TrySendError::Full(_)) = self.clicks.try_send(event) {
            tracing::debug!("a click event is dropped: the status program reads none");
        }
    }

    fn set_hidden(&self, hidden: bool) {
        if self.shared.hidden.swap(hidden, Ordering::SeqCst) == hidden {
            return;
        }
        let header = lock(&self.shared.read).header;
        if let (Some(header), Some(pid)) = (header, *lock(&self.shared.running)) {
            signal_group(pid, if hidden { header.stop_signal } else { header.cont_signal });
        }
    }
}

impl Drop for StatusProgram {
    fn drop(&mut self) {
        self.shared.stopped.store(true, Ordering::SeqCst);
        if let Some(pid) = *lock(&self.shared.running) {
            // A stopped program ends only once continued.
            signal_group(pid, CONT);
            stop_group(pid);
        }
        self.thread.unpark();
    }
}

fn keep_running(widget: &str, command: &str, shared: &Shared, clicks: &Receiver<String>, waker: &Waker) {
    let ran = Restarting { widget, command, restart_wait: None, stopped: &shared.stopped, waker };
    // A status program runs for ever: however it ended, it is said.
    ran.keep_restarting(
        |backoff| Some(run_once(command, shared, clicks, waker, backoff)),
        |failure| {
            lock(&shared.read).failure = failure;
        },
    );
}

/// Runs the program once, to its end; how it ended.
fn run_once(command: &str, shared: &Shared, clicks: &Receiver<String>, waker: &Waker, backoff: &mut Backoff) -> String {
    let spawned = shell(command).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(error) => return format!("cannot start the shell: {error}"),
    };
    *lock(&shared.running) = Some(child.id());
    if shared.stopped.load(Ordering::SeqCst) {
        stop_group(child.id());
    }
    backoff.connected();
    let stderr = child.stderr.take().map(|stream| thread::spawn(move || drain_to_tail(stream)));
    let ended = AtomicBool::new(false);
    let (stdin, stdout, pid) = (child.stdin.take(), child.stdout.take(), child.id());
    // The stream is read beside, and clicks written here, until it ends.
    let said = thread::scope(|scope| {
        let reader = stdout.map(|stdout| {
            scope.spawn(|| {
                let said = read_stream(stdout, shared, waker, pid);
                ended.store(true, Ordering::SeqCst);
                if said.is_err() {
                    // Not the protocol: it is ended, and with it a write it blocks.
                    stop_group(pid);
                }
                said
            })
        });
        if let (Some(stdin), Some(_)) = (stdin, &reader) {
            write_clicks(ClickWriter { stdin, started: false }, clicks, &ended);
        }
        reader.map(|reader| reader.join().unwrap_or_else(|_| Err("its reader panicked".to_owned())))
    });
    let status = child.wait();
    *lock(&shared.running) = None;
    let last_words = stderr.and_then(|reader| reader.join().ok()).unwrap_or_default();
    match (said, status) {
        (Some(Err(not_the_protocol)), _) => not_the_protocol,
        (_, Ok(status)) if status.success() => "ended".to_owned(),
        (_, Ok(status)) => how_it_ended(status, &last_words),
        (_, Err(error)) => format!("could not be waited for: {error}"),
    }
}

/// Reads the header and the status lines to the stream's end; an error
/// when it is not the protocol.
fn read_stream(stdout: impl std::io::Read, shared: &Shared, waker: &Waker, pid: u32) -> Result<(), String> {
    let mut stdout = BufReader::with_capacity(MAX_LINE, stdout);
    let mut line = Vec::new();
    if !next_line(&mut stdout, &mut line, LongLine::StopReading).unwrap_or(false) {
        return Ok(());
    }
    let header = read_header(&text(&line))?;
    lock(&shared.read).header = Some(header);
    if shared.hidden.load(Ordering::SeqCst) {
        signal_group(pid, header.stop_signal);
    }
    let mut opened = false;
    while let Ok(true) = next_line(&mut stdout, &mut line, LongLine::StopReading) {
        // No status line is that long: the program is not speaking the protocol.
        if line.len() >= MAX_LINE {
            return Err(format!("printed a line longer than {} KiB", MAX_LINE >> 10));
        }
        let status = text(&line);
        // Between two status lines stands a comma: leading the next
        // (i3status) or ending the one before (many scripts).
        let mut status = status.trim().trim_start_matches(',').trim_end_matches(',').trim();
        // The endless array's `[`: on a line of its own (i3status), or
        // before the first status line (i3blocks' `[[]`).
        if !opened && let Some(rest) = status.strip_prefix('[') {
            opened = true;
            status = rest.trim_start();
        }
        if status.is_empty() {
            continue;
        }
        if !status.starts_with('[') {
            return Err(format!("printed a line that is no status line: {}", obi_markup::cut(status.to_owned(), 80)));
        }
        // Lines waiting behind this one make it old.
        if !stdout.buffer().is_empty() {
            continue;
        }
        *lock(&shared.read) = StatusRead { header: Some(header), line: Some(status.to_owned()), failure: None };
        waker.wake();
        thread::sleep(NEWEST_EVERY);
    }
    Ok(())
}

/// The header line: `{"version": 1, …}`.
fn read_header(line: &str) -> Result<Header, String> {
    let not_a_header =
        || format!("did not begin with the i3bar protocol's header: {}", obi_markup::cut(line.to_owned(), 80));
    let value: serde_json::Value = serde_json::from_str(line).map_err(|_| not_a_header())?;
    let version = value.get("version").and_then(serde_json::Value::as_u64).ok_or_else(not_a_header)?;
    let signal = |key: &str, default: i32| {
        let signal = value.get(key).and_then(serde_json::Value::as_i64).map_or(default, |signal| signal as i32);
        // Only signals a program may be sent: not SIGKILL's kin.
        if (0..=64).contains(&signal) { signal } else { default }
    };
    Ok(Header {
        version: version.min(u64::from(u32::MAX)) as u32,
        click_events: value.get("click_events").and_then(serde_json::Value::as_bool).unwrap_or(false),
        stop_signal: signal("stop_signal", STOP),
        cont_signal: signal("cont_signal", CONT),
    })
}

/// Writes the clicks handed over to the program until its run has ended
/// (a write it does not read blocks until it is ended).
fn write_clicks(mut writer: ClickWriter, clicks: &Receiver<String>, ended: &AtomicBool) {
    while !ended.load(Ordering::SeqCst) {
        match clicks.recv_timeout(NEWEST_EVERY) {
            Ok(click) => writer.write(&click),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}

/// The program's stdin, as i3bar writes click events to it.
struct ClickWriter {
    stdin: ChildStdin,
    started: bool,
}

impl ClickWriter {
    fn write(&mut self, event: &str) {
        let lead = if self.started { "," } else { "[\n" };
        self.started = true;
        // A program that closed its stdin takes no clicks: nothing to do.
        let _ = writeln!(self.stdin, "{lead}{event}").and_then(|()| self.stdin.flush());
    }
}

/// Sends `signal` (none when 0) to the program's process group.
fn signal_group(pid: u32, signal: i32) {
    #[cfg(target_os = "linux")]
    if let (Some(group), Some(signal)) = (rustix::process::Pid::from_raw(pid as i32), signal_of(signal)) {
        let _ = rustix::process::kill_process_group(group, signal);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (pid, signal);
}

#[cfg(target_os = "linux")]
fn signal_of(number: i32) -> Option<rustix::process::Signal> {
    (number > 0).then(|| rustix::process::Signal::from_named_raw(number)).flatten()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use obi_test_support::wait::until;
    use std::time::Duration;

    /// A left click at the screen's corner.
    fn click() -> Click {
        let (name, instance) = (None, None);
        let (x, y, relative_x, relative_y, output_x, output_y, width, height) = (0, 0, 0, 0, 0, 0, 0, 0);
        Click {
            name,
            instance,
            button: 1,
            event: 0x110,
            x,
            y,
            relative_x,
            relative_y,
            output_x,
            output_y,
            width,
            height,
            scale: 1.0,
        }
    }

    fn program(command: &str) -> StatusProgram {
        StatusProgram::start("w", command, Waker::new(|| {})).unwrap()
    }

    fn read_until(program: &StatusProgram, wanted: impl Fn(&StatusRead) -> bool) -> StatusRead {
        until(Duration::from_secs(10), || wanted(&program.read()));
        program.read()
    }

    /// The state letter of `pid` in /proc (`T` stopped, `S` sleeping).
    fn state(pid: u32) -> char {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        stat.rsplit_once(") ").and_then(|(_, rest)| rest.chars().next()).unwrap_or('?')
    }

    #[test]
    fn the_header_and_the_newest_status_line_are_read() {
        let script = r#"echo '{"version":1,"click_events":true,"stop_signal":10}'; echo '['; echo '[{"full_text":"one"}]'; echo ',[{"full_text":"two"}]'; sleep 30"#;
        let program = program(script);
        let read = read_until(&program, |read| read.line.as_deref() == Some(r#"[{"full_text":"two"}]"#));
        assert_eq!(read.header, Some(Header { version: 1, click_events: true, stop_signal: 10, cont_signal: CONT }));
        assert_eq!(read.failure, None);
    }

    #[test]
    fn a_comma_ending_a_status_line_is_dropped_as_one_leading_it_is() {
        let script =
            r#"echo '{"version":1}'; echo '['; echo '[{"full_text":"one"}],'; echo '[{"full_text":"two"}],'; sleep 30"#;
        let program = program(script);
        let two = Some(r#"[{"full_text":"two"}]"#);
        let read = read_until(&program, |read| read.line.as_deref() == two);
        assert_eq!((read.line.as_deref(), read.failure), (two, None));
    }

    #[test]
    fn what_is_not_the_protocol_is_said_and_the_program_started_again() {
        let program = program("echo 'hello'; sleep 30");
        let read = read_until(&program, |read| read.failure.is_some());
        assert!(read.failure.unwrap().contains("did not begin with the i3bar protocol's header: hello"));
        let lines = program_lines("echo '{\"version\":1}'; echo '['; echo 'plain text'; sleep 30");
        assert!(lines.contains("no status line: plain text"), "{lines}");
    }

    /// Read to its end, a line without one would take a core for ever.
    #[test]
    fn a_line_without_end_is_not_the_protocol() {
        let failure = program_lines(r#"echo '{"version":1}'; echo '['; tr '\0' 'a' < /dev/zero"#);
        assert!(failure.contains("printed a line longer than 64 KiB"), "{failure}");
    }

    fn program_lines(command: &str) -> String {
        let program = program(command);
        read_until(&program, |read| read.failure.is_some()).failure.unwrap()
    }

    /// i3status itself, as Debian has it: its header, and lines of blocks
    /// with their colours.
    #[test]
    fn i3status_is_read() {
        if !std::path::Path::new("/usr/bin/i3status").exists() {
            assert!(std::env::var_os("CI").is_none(), "i3status is not installed (apt-get install i3status)");
            eprintln!("SKIPPED: i3status is not installed");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("i3status.conf");
        std::fs::write(
            &config,
            "general {\n output_format = \"i3bar\"\n colors = true\n color_good = \"#00ff00\"\n interval = 1\n}\norder += \"load\"\nload { format = \"load %1min\" }\n",
        )
        .unwrap();
        let program = program(&format!("i3status -c '{}'", config.display()));
        let read = read_until(&program, |read| read.line.is_some());
        assert_eq!(read.header.map(|header| header.version), Some(1));
        let blocks: serde_json::Value = serde_json::from_str(read.line.as_deref().unwrap()).unwrap();
        assert!(blocks[0]["full_text"].as_str().unwrap().starts_with("load "), "{blocks}");
    }

    /// i3blocks, as Debian has it: its array opens on the line of its
    /// first status line, and a click reaches the block's script with its
    /// button (`BLOCK_BUTTON`).
    #[test]
    fn an_i3blocks_click_reaches_its_script() {
        if !std::path::Path::new("/usr/bin/i3blocks").exists() {
            assert!(std::env::var_os("CI").is_none(), "i3blocks is not installed (apt-get install i3blocks)");
            eprintln!("SKIPPED: i3blocks is not installed");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("i3blocks.conf");
        std::fs::write(&config, "[hello]\ncommand=echo \"button ${BLOCK_BUTTON:-none}\"\ninterval=once\n").unwrap();
        let program = program(&format!("i3blocks -c '{}'", config.display()));
        let says =
            |text: &'static str| move |read: &StatusRead| read.line.as_deref().is_some_and(|line| line.contains(text));
        let read = read_until(&program, says("button none"));
        assert_eq!(read.header.map(|header| header.click_events), Some(true));
        let blocks: serde_json::Value = serde_json::from_str(read.line.as_deref().unwrap()).unwrap();
        assert!(blocks.as_array().is_some(), "a status line: {blocks}");
        program.click(&Click { name: Some("hello".into()), instance: Some(String::new()), button: 3, ..click() });
        let read = read_until(&program, says("button 3"));
        assert!(read.line.unwrap().contains("button 3"), "the script ran again with the button");
    }

    #[test]
    fn a_hidden_bar_stops_the_program_and_a_shown_one_continues_it() {
        let program =
            program(r#"echo '{"version":1}'; echo '['; while true; do echo ',[{"full_text":"x"}]'; sleep 0.2; done"#);
        read_until(&program, |read| read.line.is_some());
        let pid = lock(&program.shared.running).unwrap();
        program.set_hidden(true);
        assert!(until(Duration::from_secs(5), || state(pid) == 'T'), "stopped: {}", state(pid));
        program.set_hidden(false);
        assert!(until(Duration::from_secs(5), || state(pid) != 'T'), "continued: {}", state(pid));
    }

    #[test]
    fn clicks_reach_stdin_as_i3bar_writes_them() {
        let dir = tempfile::tempdir().unwrap();
        let heard = dir.path().join("heard");
        let script = format!(
            r#"echo '{{"version":1,"click_events":true}}'; echo '['; echo '[{{"full_text":"x"}}]'; while read -r click; do echo "$click" >> '{}'; echo ',[{{"full_text":"y"}}]'; done"#,
            heard.display()
        );
        let program = program(&script);
        read_until(&program, |read| read.line.is_some());
        program.click(&Click { name: Some("a".into()), button: 1, ..click() });
        program.click(&Click { button: 3, x: 12, relative_x: 2, scale: 1.5, ..click() });
        let written = || std::fs::read_to_string(&heard).unwrap_or_default();
        assert!(until(Duration::from_secs(10), || written().lines().count() >= 3), "{:?}", written());
        let first = r#"{"name":"a","button":1,"event":272,"x":0,"y":0,"relative_x":0,"relative_y":0,"output_x":0,"output_y":0,"width":0,"height":0,"scale":1.0}"#;
        let second = r#"{"button":3,"event":272,"x":12,"y":0,"relative_x":2,"relative_y":0,"output_x":0,"output_y":0,"width":0,"height":0,"scale":1.5}"#;
        assert_eq!(written(), format!("[\n{first}\n,{second}\n"));
    }
}

//! A Hyprland for tests, following the protocol note
//! (`reference/hyprland-ipc.md`): in its instance's folder it answers
//! requests on `.socket.sock` (one a connection, read to its end: the
//! `j/...` queries from its state, `[[BATCH]]` ones joined by blank lines,
//! `dispatch` and `reload` recorded and answered `ok`, anything else
//! `unknown request`) and writes events, a line each, to every client of
//! `.socket2.sock`.

use serde_json::Value;
use std::io::{Read, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

pub struct HyprlandSimulator {
    dir: PathBuf,
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
}

struct Shared {
    /// `monitors`, `workspaces`, `clients`, `activewindow`, `devices` and,
    /// when set, `status`: what each query answers.
    state: Mutex<Value>,
    received: Mutex<Vec<String>>,
    listeners: Mutex<Vec<UnixStream>>,
    stopping: AtomicBool,
}

impl HyprlandSimulator {
    /// Starts answering in `dir` (the instance's folder, which must exist).
    pub fn start(dir: &Path, state: Value) -> HyprlandSimulator {
        let bind = |name: &str| {
            let path = dir.join(name);
            let _ = std::fs::remove_file(&path);
            let listener = UnixListener::bind(&path).unwrap();
            listener.set_nonblocking(true).unwrap();
            listener
        };
        let (requests, events) = (bind(".socket.sock"), bind(".socket2.sock"));
        let shared = Arc::new(Shared {
            state: Mutex::new(state),
            received: Mutex::new(Vec::new()),
            listeners: Mutex::new(Vec::new()),
            stopping: AtomicBool::new(false),
        });
        let (answering, listening) = (shared.clone(), shared.clone());
        let threads = vec![
            thread::spawn(move || serve(&requests, &answering, answer)),
            thread::spawn(move || {
                serve(&events, &listening, |stream, shared| shared.listeners.lock().unwrap().push(stream))
            }),
        ];
        HyprlandSimulator { dir: dir.to_owned(), shared, threads }
    }

    pub fn set_state(&self, state: Value) {
        *self.shared.state.lock().unwrap() = state;
    }

    /// The requests that changed something (`dispatch`, `reload`), in order.
    pub fn received(&self) -> Vec<String> {
        self.shared.received.lock().unwrap().clone()
    }

    pub fn wait_for_request(&self, expected: &str, timeout: Duration) -> bool {
        super::wait::until(timeout, || self.received().iter().any(|received| received == expected))
    }

    /// Whether a client listens to the events.
    pub fn wait_for_listener(&self, timeout: Duration) -> bool {
        super::wait::until(timeout, || !self.shared.listeners.lock().unwrap().is_empty())
    }

    /// Writes `line` and a newline to every client of the events.
    pub fn event(&self, line: &str) {
        for listener in self.shared.listeners.lock().unwrap().iter_mut() {
            let _ = listener.write_all(format!("{line}\n").as_bytes());
        }
    }

    /// Stops as a Hyprland that exits does: its sockets close and go.
    pub fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        self.shared.stopping.store(true, Ordering::SeqCst);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
        self.shared.listeners.lock().unwrap().clear();
        let _ = std::fs::remove_file(self.dir.join(".socket.sock"));
        let _ = std::fs::remove_file(self.dir.join(".socket2.sock"));
    }
}

impl Drop for HyprlandSimulator {
    fn drop(&mut self) {
        if !self.threads.is_empty() {
            self.halt();
        }
    }
}

fn serve(listener: &UnixListener, shared: &Shared, handle: fn(UnixStream, &Shared)) {
    while !shared.stopping.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((stream, _)) => {
                stream.set_nonblocking(false).unwrap();
                handle(stream, shared);
            }
            Err(_) => thread::sleep(Duration::from_millis(5)),
        }
    }
}

fn answer(mut stream: UnixStream, shared: &Shared) {
    stream.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
    let mut request = String::new();
    let _ = stream.read_to_string(&mut request);
    let reply = match request.strip_prefix("[[BATCH]]") {
        Some(batch) => batch.split(';').map(|one| reply_to(one, shared)).collect::<Vec<_>>().join("\n\n\n"),
        None => reply_to(&request, shared),
    };
    let _ = stream.write_all(reply.as_bytes());
}

fn reply_to(request: &str, shared: &Shared) -> String {
    let state = shared.state.lock().unwrap().clone();
    match request.trim() {
        "j/monitors" => state["monitors"].to_string(),
        "j/workspaces" => state["workspaces"].to_string(),
        "j/clients" => state["clients"].to_string(),
        "j/activewindow" => state["activewindow"].to_string(),
        "j/devices" => state["devices"].to_string(),
        "j/status" if !state["status"].is_null() => state["status"].to_string(),
        changing if changing.starts_with("dispatch ") || changing == "reload" => {
            shared.received.lock().unwrap().push(changing.to_owned());
            "ok".into()
        }
        _ => "unknown request".into(),
    }
}

/// A Hyprland state of one monitor, `DP-1`, with workspaces 1 and 2 (a
/// terminal on each) and `focused` the active one.
pub fn two_workspaces(focused: i64) -> Value {
    serde_json::json!({
        "monitors": [ { "id": 0, "name": "DP-1", "activeWorkspace": { "id": focused, "name": focused.to_string() }, "focused": true } ],
        "workspaces": [
            { "id": 1, "name": "1", "monitor": "DP-1", "windows": 1 },
            { "id": 2, "name": "2", "monitor": "DP-1", "windows": 1 }
        ],
        "clients": [
            { "address": "0xa1", "workspace": { "id": 1, "name": "1" }, "class": "foot", "title": "one", "fullscreen": 0 },
            { "address": "0xa2", "workspace": { "id": 2, "name": "2" }, "class": "foot", "title": "two", "fullscreen": 0 }
        ],
        "activewindow": { "address": if focused == 1 { "0xa1" } else { "0xa2" } },
        "devices": { "keyboards": [ { "name": "kb", "layout": "us,de", "active_keymap": "English (US)", "active_layout_index": 0, "main": true } ] }
    })
}

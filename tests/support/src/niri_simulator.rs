//! A niri for tests, following the protocol note (`reference/niri-ipc.md`):
//! on one socket it reads a request a line, as JSON; `"EventStream"` is
//! answered `{"Ok":"Handled"}`, then the whole state as events, then every
//! event a test sends; `"Outputs"` the outputs; an action is recorded and
//! answered `{"Ok":"Handled"}`; anything else with an error.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

pub struct NiriSimulator {
    path: PathBuf,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

struct Shared {
    /// `workspaces`, `windows`, `keyboard_layouts`, `outputs`.
    state: Mutex<Value>,
    actions: Mutex<Vec<Value>>,
    streams: Mutex<Vec<UnixStream>>,
    stopping: AtomicBool,
}

impl NiriSimulator {
    /// Listens at `path` with `state`.
    pub fn start(path: &Path, state: Value) -> NiriSimulator {
        let _ = std::fs::remove_file(path);
        let listener = UnixListener::bind(path).unwrap();
        listener.set_nonblocking(true).unwrap();
        let shared = Arc::new(Shared {
            state: Mutex::new(state),
            actions: Mutex::new(Vec::new()),
            streams: Mutex::new(Vec::new()),
            stopping: AtomicBool::new(false),
        });
        let serving = shared.clone();
        let thread = thread::spawn(move || {
            while !serving.stopping.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((stream, _)) => answer(stream, &serving),
                    Err(_) => thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        NiriSimulator { path: path.to_owned(), shared, thread: Some(thread) }
    }

    /// The actions asked for, in order.
    pub fn actions(&self) -> Vec<Value> {
        self.shared.actions.lock().unwrap().clone()
    }

    pub fn wait_for_action(&self, expected: &Value, timeout: Duration) -> bool {
        super::wait::until(timeout, || self.actions().iter().any(|action| action == expected))
    }

    pub fn wait_for_stream(&self, timeout: Duration) -> bool {
        super::wait::until(timeout, || !self.shared.streams.lock().unwrap().is_empty())
    }

    /// Writes `line` and a newline to every event stream.
    pub fn event(&self, line: &str) {
        for stream in self.shared.streams.lock().unwrap().iter_mut() {
            let _ = stream.write_all(format!("{line}\n").as_bytes());
        }
    }

    /// Stops as a niri that exits does.
    pub fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        self.shared.stopping.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        self.shared.streams.lock().unwrap().clear();
        let _ = std::fs::remove_file(&self.path);
    }
}

impl Drop for NiriSimulator {
    fn drop(&mut self) {
        if self.thread.is_some() {
            self.halt();
        }
    }
}

fn answer(stream: UnixStream, shared: &Shared) {
    stream.set_nonblocking(false).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
    let mut line = String::new();
    if BufReader::new(&stream).read_line(&mut line).is_err() {
        return;
    }
    let request: Value = serde_json::from_str(&line).unwrap_or_default();
    let state = shared.state.lock().unwrap().clone();
    let reply = match &request {
        Value::String(name) if name == "EventStream" => {
            let mut stream = stream;
            let _ = writeln!(stream, "{}", json!({ "Ok": "Handled" }));
            for event in [
                json!({ "WorkspacesChanged": { "workspaces": state["workspaces"] } }),
                json!({ "WindowsChanged": { "windows": state["windows"] } }),
                json!({ "KeyboardLayoutsChanged": { "keyboard_layouts": state["keyboard_layouts"] } }),
            ] {
                let _ = writeln!(stream, "{event}");
            }
            shared.streams.lock().unwrap().push(stream);
            return;
        }
        Value::String(name) if name == "Outputs" => json!({ "Ok": { "Outputs": state["outputs"] } }),
        Value::Object(object) if object.contains_key("Action") => {
            shared.actions.lock().unwrap().push(request["Action"].clone());
            json!({ "Ok": "Handled" })
        }
        _ => json!({ "Err": format!("error parsing request: {}", line.trim()) }),
    };
    let _ = writeln!(&stream, "{reply}");
}

/// A niri state of one output, `DP-1`, with workspaces 1 (a terminal on
/// it, focused) and 2 (named `web`, a browser), and niri's empty last one.
pub fn two_workspaces() -> Value {
    json!({
        "workspaces": [
            { "id": 11, "idx": 1, "name": null, "output": "DP-1", "is_urgent": false, "is_active": true, "is_focused": true, "active_window_id": 1 },
            { "id": 12, "idx": 2, "name": "web", "output": "DP-1", "is_urgent": false, "is_active": false, "is_focused": false, "active_window_id": 2 },
            { "id": 13, "idx": 3, "name": null, "output": "DP-1", "is_urgent": false, "is_active": false, "is_focused": false, "active_window_id": null }
        ],
        "windows": [
            { "id": 1, "title": "one", "app_id": "foot", "pid": 10, "workspace_id": 11, "is_focused": true, "is_floating": false, "is_urgent": false },
            { "id": 2, "title": "news", "app_id": "firefox", "pid": 20, "workspace_id": 12, "is_focused": false, "is_floating": false, "is_urgent": false }
        ],
        "keyboard_layouts": { "names": ["English (US)", "German"], "current_idx": 0 },
        "outputs": { "DP-1": { "name": "DP-1", "logical": { "x": 0, "y": 0, "width": 1920, "height": 1080, "scale": 1.0, "transform": "Normal" } } }
    })
}

//! A komorebi for tests, following the protocol note: it listens on
//! `komorebi.sock` in a directory of its own, reads each connection to its
//! end (a message, or a batch of lines), answers a `State` query with its
//! state, keeps the subscribers that ask to be told, and tells them: for a
//! notification it connects to the subscriber's socket, writes one JSON
//! document and closes; when it stops, it connects and closes at once.
//! Everything it receives is recorded, byte for byte, one entry a connection.

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

pub struct Simulator {
    dir: PathBuf,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

#[derive(Default)]
struct Shared {
    state: Mutex<Value>,
    received: Mutex<Vec<String>>,
    subscribers: Mutex<Vec<String>>,
    stopping: AtomicBool,
}

impl Simulator {
    /// Starts listening in `dir` (which must exist) with `state`.
    pub fn start(dir: &Path, state: Value) -> Simulator {
        let socket = dir.join("komorebi.sock");
        let _ = std::fs::remove_file(&socket);
        let listener = UnixListener::bind(&socket).unwrap();
        listener.set_nonblocking(true).unwrap();
        let shared = Arc::new(Shared { state: Mutex::new(state), ..Shared::default() });
        let serving = shared.clone();
        let thread = thread::spawn(move || serve(&listener, &serving));
        Simulator { dir: dir.to_owned(), shared, thread: Some(thread) }
    }

    pub fn set_state(&self, state: Value) {
        *self.shared.state.lock().unwrap() = state;
    }

    /// What each connection carried, in order.
    pub fn received(&self) -> Vec<String> {
        self.shared.received.lock().unwrap().clone()
    }

    /// Waits until a connection carried `expected` exactly; false if none did within `timeout`.
    pub fn wait_for(&self, expected: &str, timeout: Duration) -> bool {
        super::wait::until(timeout, || self.received().iter().any(|received| received == expected))
    }

    pub fn subscribers(&self) -> Vec<String> {
        self.shared.subscribers.lock().unwrap().clone()
    }

    /// Waits until someone subscribed.
    pub fn wait_for_subscriber(&self, timeout: Duration) -> bool {
        super::wait::until(timeout, || !self.subscribers().is_empty())
    }

    /// Tells every subscriber that `event` happened, with the state it left.
    pub fn notify(&self, event: Value) {
        let state = self.shared.state.lock().unwrap().clone();
        self.notify_raw(&json!({ "event": event, "state": state }).to_string());
    }

    /// Writes `bytes` to every subscriber as one notification.
    pub fn notify_raw(&self, bytes: &str) {
        for name in self.subscribers() {
            if let Ok(mut stream) = UnixStream::connect(self.dir.join(&name)) {
                let _ = stream.write_all(bytes.as_bytes());
            }
        }
    }

    /// Stops as komorebi does: an empty notification to every subscriber,
    /// then its socket is gone.
    pub fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        self.notify_raw("");
        self.shared.stopping.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        let _ = std::fs::remove_file(self.dir.join("komorebi.sock"));
    }
}

impl Drop for Simulator {
    fn drop(&mut self) {
        if self.thread.is_some() {
            self.halt();
        }
    }
}

fn serve(listener: &UnixListener, shared: &Shared) {
    while !shared.stopping.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((stream, _)) => answer(stream, shared),
            Err(_) => thread::sleep(Duration::from_millis(5)),
        }
    }
}

fn answer(mut stream: UnixStream, shared: &Shared) {
    stream.set_nonblocking(false).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
    let mut text = String::new();
    let _ = stream.read_to_string(&mut text);
    shared.received.lock().unwrap().push(text.clone());
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let Ok(message) = serde_json::from_str::<Value>(line) else { continue };
        match message["type"].as_str() {
            Some("State") => {
                let state = shared.state.lock().unwrap().to_string();
                let _ = stream.write_all(state.as_bytes());
            }
            Some("AddSubscriberSocket") => subscribe(shared, &message["content"]),
            Some("AddSubscriberSocketWithOptions") => subscribe(shared, &message["content"][0]),
            Some("RemoveSubscriberSocket") => {
                shared.subscribers.lock().unwrap().retain(|name| Some(name.as_str()) != message["content"].as_str());
            }
            _ => {}
        }
    }
}

fn subscribe(shared: &Shared, name: &Value) {
    if let Some(name) = name.as_str() {
        let mut subscribers = shared.subscribers.lock().unwrap();
        if !subscribers.iter().any(|known| known == name) {
            subscribers.push(name.to_owned());
        }
    }
}

/// A window of komorebi's state.
pub fn window(title: &str, exe: &str) -> Value {
    json!({ "hwnd": 1, "title": title, "exe": exe, "class": "Class", "rect": { "left": 0, "top": 0, "right": 0, "bottom": 0 } })
}

/// A workspace with one container per window list, the `focused` one focused.
pub fn workspace(name: Option<&str>, containers: &[&[Value]], focused: usize, layout: &str) -> Value {
    let containers: Vec<Value> = containers
        .iter()
        .map(|windows| json!({ "id": "c", "windows": { "elements": windows, "focused": 0 } }))
        .collect();
    json!({
        "name": name,
        "containers": { "elements": containers, "focused": focused },
        "monocle_container": null,
        "maximized_window": null,
        "floating_windows": { "elements": [], "focused": 0 },
        "layout": { "Default": layout },
        "tile": true,
        "layer": "Tiling"
    })
}

/// komorebi's state with one monitor holding `workspaces`, the `focused` one focused.
pub fn state(workspaces: Vec<Value>, focused: usize) -> Value {
    json!({
        "monitors": { "elements": [ {
            "id": 65537, "name": "DISPLAY1", "device": "BOE0900",
            "size": { "left": 0, "top": 0, "right": 1920, "bottom": 1080 },
            "workspaces": { "elements": workspaces, "focused": focused }
        } ], "focused": 0 },
        "monitor_usr_idx_map": { "0": 0 },
        "is_paused": false,
        "mouse_follows_focus": true
    })
}

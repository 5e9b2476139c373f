//! A web server on a local port for the widgets that fetch (Update,
//! Weather, a player's cover): it answers every request with one body
//! (JSON, or bytes of a type it is given), notes each request's first line,
//! and can be taken down (requests then go unanswered, as from a server
//! that is gone).

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

pub struct WebServer {
    /// `http://127.0.0.1:PORT`, without a path: every path gets the body.
    pub url: String,
    up: Arc<AtomicBool>,
    requests: Arc<Mutex<Vec<String>>>,
}

impl WebServer {
    /// Serves the JSON `body` until the test process ends.
    pub fn serving(body: impl Into<String>) -> WebServer {
        WebServer::serving_bytes(body.into().into_bytes(), "application/json")
    }

    /// Serves `body` as `content_type` until the test process ends.
    pub fn serving_bytes(body: Vec<u8>, content_type: &'static str) -> WebServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let (up, requests) = (Arc::new(AtomicBool::new(true)), Arc::new(Mutex::new(Vec::new())));
        let (serving, noting) = (up.clone(), requests.clone());
        std::thread::spawn(move || {
            for mut stream in listener.incoming().flatten() {
                if !serving.load(Ordering::SeqCst) {
                    continue;
                }
                let mut request = [0u8; 4096];
                let read = stream.read(&mut request).unwrap_or(0);
                let line = String::from_utf8_lossy(&request[..read]).lines().next().unwrap_or_default().to_owned();
                noting.lock().unwrap().push(line);
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes()).and_then(|_| stream.write_all(&body));
            }
        });
        WebServer { url, up, requests }
    }

    /// The first line of each request answered, oldest first.
    pub fn requests(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }

    /// Takes the server down (`false`) or brings it back.
    pub fn set_up(&self, up: bool) {
        self.up.store(up, Ordering::SeqCst);
    }
}

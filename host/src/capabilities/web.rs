//! The `web` capability: fetching a document over HTTP(S) and opening a
//! page in the user's browser. A fetch can take seconds, so it never runs
//! in a widget's call: it is one of the widget's [`Errands`].

use super::errands::{Errand, Errands};
use crate::wake::Waker;
use std::io::Read;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    pub body: String,
}

pub trait Web: Send + Sync {
    /// Fetches `url`, blocking: called off the widgets' thread.
    fn get(&self, url: &str) -> Result<Response, String>;
    /// Opens `url` in the user's browser.
    fn open(&self, url: &str) -> Result<(), String>;
}

/// A body over this is refused: a widget's memory is capped, and a release
/// feed is a few kilobytes.
pub const MAX_BODY: u64 = 2 << 20;

/// A fetch that takes longer than this has failed.
const TIMEOUT: Duration = Duration::from_secs(30);

pub struct SystemWeb {
    agent: ureq::Agent,
}

impl SystemWeb {
    pub fn new() -> SystemWeb {
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(TIMEOUT))
            // A status is an answer the widget reads, not an error.
            .http_status_as_error(false)
            .user_agent(concat!("obi/", env!("CARGO_PKG_VERSION")))
            .tls_config(tls_config())
            .build();
        SystemWeb { agent: config.into() }
    }
}

#[cfg(any(windows, target_os = "macos"))]
fn tls_config() -> ureq::tls::TlsConfig {
    use ureq::tls::{RootCerts, TlsConfig, TlsProvider};
    TlsConfig::builder().provider(TlsProvider::NativeTls).root_certs(RootCerts::PlatformVerifier).build()
}

#[cfg(not(any(windows, target_os = "macos")))]
fn tls_config() -> ureq::tls::TlsConfig {
    ureq::tls::TlsConfig::default()
}

impl Default for SystemWeb {
    fn default() -> Self {
        SystemWeb::new()
    }
}

impl SystemWeb {
    /// The status and the body of `url`, when the body is at most `limit` bytes.
    pub fn get_bytes(&self, url: &str, limit: u64) -> Result<(u16, Vec<u8>), String> {
        check_scheme(url)?;
        let mut response = self.agent.get(url).call().map_err(|error| error.to_string())?;
        let status = response.status().as_u16();
        let mut body = Vec::new();
        let read = response.body_mut().as_reader().take(limit + 1).read_to_end(&mut body);
        read.map_err(|error| format!("reading the response: {error}"))?;
        if body.len() as u64 > limit {
            return Err(format!("the response is over {} MiB", limit >> 20));
        }
        Ok((status, body))
    }
}

impl Web for SystemWeb {
    fn get(&self, url: &str) -> Result<Response, String> {
        let (status, body) = self.get_bytes(url, MAX_BODY)?;
        Ok(Response { status, body: String::from_utf8_lossy(&body).into_owned() })
    }

    fn open(&self, url: &str) -> Result<(), String> {
        check_scheme(url)?;
        // The URL is one argument, never a shell line.
        let (program, arguments): (&str, &[&str]) = if cfg!(windows) {
            ("rundll32", &["url.dll,FileProtocolHandler"])
        } else if cfg!(target_os = "macos") {
            ("open", &[])
        } else {
            ("xdg-open", &[])
        };
        let mut child = std::process::Command::new(program)
            .args(arguments)
            .arg(url)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .spawn()
            .map_err(|error| format!("cannot run {program}: {error}"))?;
        // Reaped off the caller's thread: the opener may wait for the browser.
        thread::spawn(move || child.wait());
        Ok(())
    }
}

/// Only the web: a widget must not reach local files or other schemes this way.
fn check_scheme(url: &str) -> Result<(), String> {
    let lower = url.to_ascii_lowercase();
    if lower.starts_with("https://") || lower.starts_with("http://") {
        Ok(())
    } else {
        Err(format!("{url:?} is not an http or https URL"))
    }
}

/// One widget's fetches, by URL.
pub type Fetches = Errands<Response>;

/// How a fetch stands, as the widget sees it.
pub type FetchState = Errand<Response>;

/// Starts fetching `url` for a widget, or says how its fetch stands.
pub fn poll(fetches: &mut Fetches, url: &str, web: &Arc<dyn Web>, waker: &Waker) -> FetchState {
    let (web, owned) = (web.clone(), url.to_owned());
    fetches.poll(url, waker, "obi-fetch", move || web.get(&owned))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::net::TcpListener;
    use std::sync::mpsc;

    /// Answers each connection with `status` and `body`, as many times as asked.
    fn serve(status: &'static str, body: String, times: usize) -> String {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/feed", listener.local_addr().unwrap());
        thread::spawn(move || {
            for stream in listener.incoming().take(times) {
                let mut stream = stream.unwrap();
                let mut request = [0u8; 4096];
                let _ = stream.read(&mut request);
                let head = format!("HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
                let _ = stream.write_all(head.as_bytes()).and_then(|_| stream.write_all(body.as_bytes()));
            }
        });
        url
    }

    fn web() -> Arc<dyn Web> {
        Arc::new(SystemWeb::new())
    }

    #[test]
    fn a_fetch_is_pending_then_done_once_and_wakes_the_widget() {
        let url = serve("200 OK", "{\"tag_name\":\"v1.0.0\"}".into(), 2);
        let (web, mut fetches) = (web(), Fetches::default());
        let (woken, wakes) = mpsc::channel();
        let waker = Waker::new(move || woken.send(()).unwrap());
        assert_eq!(poll(&mut fetches, &url, &web, &waker), FetchState::Pending);
        wakes.recv_timeout(Duration::from_secs(10)).expect("woken when the fetch ended");
        let expected = Response { status: 200, body: "{\"tag_name\":\"v1.0.0\"}".into() };
        assert_eq!(poll(&mut fetches, &url, &web, &waker), FetchState::Done(expected));
        assert_eq!(poll(&mut fetches, &url, &web, &waker), FetchState::Pending, "a new fetch");
    }

    #[test]
    fn a_status_is_an_answer_and_a_closed_port_a_failure() {
        let web = web();
        assert_eq!(web.get(&serve("404 Not Found", "gone".into(), 1)).unwrap().status, 404);
        let closed = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
        assert!(web.get(&format!("http://{closed}/feed")).is_err());
    }

    #[test]
    fn only_http_urls_and_bounded_bodies() {
        let web = web();
        assert!(web.get("file:///etc/passwd").unwrap_err().contains("not an http"));
        assert!(web.open("file:///etc/passwd").unwrap_err().contains("not an http"));
        let huge = serve("200 OK", "x".repeat(MAX_BODY as usize + 10), 1);
        assert!(web.get(&huge).unwrap_err().contains("over 2 MiB"));
    }
}

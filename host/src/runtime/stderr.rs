//! A widget's stderr: always writable, however much the widget prints. Each
//! line goes to the bar's log under the widget's name (at most
//! [`LINES_PER_MINUTE`], then a count of those left out), and the last
//! [`TAIL_BYTES`] are kept to explain a trap: a Rust guest prints its panic
//! message there just before it traps.

use crate::sync::lock;
use bytes::Bytes;
use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamResult};

pub const TAIL_BYTES: usize = 4096;
pub const LINES_PER_MINUTE: usize = 60;
/// A line longer than this is logged cut.
const LINE_BYTES: usize = 1024;

#[derive(Clone)]
pub struct WidgetStderr(Arc<Mutex<Printed>>);

struct Printed {
    widget: String,
    tail: VecDeque<u8>,
    line: Vec<u8>,
    /// When the current minute of logging began, and the lines logged and
    /// left out in it.
    minute: Instant,
    logged: usize,
    left_out: usize,
}

impl WidgetStderr {
    pub fn new(widget: &str) -> WidgetStderr {
        WidgetStderr(Arc::new(Mutex::new(Printed {
            widget: widget.to_owned(),
            tail: VecDeque::with_capacity(TAIL_BYTES),
            line: Vec::new(),
            minute: Instant::now(),
            logged: 0,
            left_out: 0,
        })))
    }

    /// The last bytes printed.
    pub fn tail(&self) -> Vec<u8> {
        self.printed().tail.iter().copied().collect()
    }

    fn printed(&self) -> std::sync::MutexGuard<'_, Printed> {
        lock(&self.0)
    }

    fn print(&self, bytes: &[u8]) {
        let mut printed = self.printed();
        let kept = &bytes[bytes.len().saturating_sub(TAIL_BYTES)..];
        let overflow = (printed.tail.len() + kept.len()).saturating_sub(TAIL_BYTES);
        printed.tail.drain(..overflow);
        printed.tail.extend(kept);
        for &byte in bytes {
            if byte == b'\n' {
                let line = std::mem::take(&mut printed.line);
                printed.log(&line);
            } else if printed.line.len() < LINE_BYTES {
                printed.line.push(byte);
            }
        }
    }
}

impl Printed {
    fn log(&mut self, line: &[u8]) {
        if self.minute.elapsed() >= Duration::from_secs(60) {
            if self.left_out > 0 {
                tracing::info!("widget {}: {} more lines on stderr not logged", self.widget, self.left_out);
            }
            (self.minute, self.logged, self.left_out) = (Instant::now(), 0, 0);
        }
        if self.logged < LINES_PER_MINUTE {
            self.logged += 1;
            tracing::info!("widget {}: {}", self.widget, String::from_utf8_lossy(line).trim_end());
        } else {
            self.left_out += 1;
        }
    }
}

impl OutputStream for WidgetStderr {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        self.print(&bytes);
        Ok(())
    }

    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }

    fn check_write(&mut self) -> StreamResult<usize> {
        Ok(64 << 10)
    }
}

#[async_trait::async_trait]
impl Pollable for WidgetStderr {
    async fn ready(&mut self) {}
}

impl tokio::io::AsyncWrite for WidgetStderr {
    fn poll_write(self: Pin<&mut Self>, _: &mut Context<'_>, bytes: &[u8]) -> Poll<std::io::Result<usize>> {
        self.print(bytes);
        Poll::Ready(Ok(bytes.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

impl IsTerminal for WidgetStderr {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for WidgetStderr {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_last_bytes_are_kept() {
        let stderr = WidgetStderr::new("test");
        for _ in 0..100 {
            stderr.print(&[b'a'; 1000]);
        }
        stderr.print(b"the end\n");
        let tail = stderr.tail();
        assert_eq!(tail.len(), TAIL_BYTES);
        assert!(tail.ends_with(b"aaathe end\n"));
    }

    #[test]
    fn lines_past_the_minutes_share_are_counted_not_logged() {
        let stderr = WidgetStderr::new("test");
        for line in 0..LINES_PER_MINUTE + 5 {
            stderr.print(format!("line {line}\n").as_bytes());
        }
        let printed = stderr.printed();
        assert_eq!((printed.logged, printed.left_out), (LINES_PER_MINUTE, 5));
    }
}

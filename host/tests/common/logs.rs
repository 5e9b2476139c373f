//! Everything the bar logs in a test process, for the tests that check a
//! line was logged.
#![allow(dead_code)]

use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

/// What was logged so far (at info and above), from the first call on.
pub fn logs() -> Arc<Mutex<Vec<u8>>> {
    static LOGS: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        let logs = Arc::new(Mutex::new(Vec::new()));
        let writer = logs.clone();
        tracing_subscriber::fmt()
            .with_writer(move || Sink(writer.clone()))
            .with_ansi(false)
            .with_max_level(tracing::Level::INFO)
            .init();
        logs
    })
    .clone()
}

/// The log so far, as text.
pub fn logged() -> String {
    String::from_utf8_lossy(&logs().lock().unwrap()).into_owned()
}

struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

//! Reading a tiler's socket within a time limit: a reply read whole by a
//! deadline ([`Within`]), and a line or frame that may be waited for as
//! long as it takes to begin, then read whole by a deadline ([`Begun`],
//! [`read_lines`]). A peer that sends a byte now and then cannot stretch
//! either for ever.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

/// A connection whose reads all end by a deadline: each waits only for the
/// time left.
pub struct Within<'a> {
    stream: &'a UnixStream,
    until: Instant,
    limit: Duration,
}

impl<'a> Within<'a> {
    /// Reads that end `limit` from now.
    pub fn new(stream: &'a UnixStream, limit: Duration) -> Within<'a> {
        Within { stream, until: Instant::now() + limit, limit }
    }
}

impl Read for Within<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            let message = format!("no whole reply within {} s", self.limit.as_secs());
            return Err(io::Error::new(io::ErrorKind::TimedOut, message));
        }
        self.stream.set_read_timeout(Some(left))?;
        (&mut &*self.stream).read(buffer)
    }
}

impl Write for Within<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        (&mut &*self.stream).write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        (&mut &*self.stream).flush()
    }
}

/// A connection of events: the next one is waited for as long as it takes
/// to begin, and then read whole within `limit`. [`Begun::next`] starts the
/// wait for the next.
pub struct Begun<'a> {
    stream: &'a UnixStream,
    limit: Duration,
    began: Option<Instant>,
}

impl<'a> Begun<'a> {
    pub fn new(stream: &'a UnixStream, limit: Duration) -> Begun<'a> {
        Begun { stream, limit, began: None }
    }

    /// What follows is a new event, waited for as long as it takes.
    pub fn next(&mut self) {
        self.began = None;
    }
}

impl Read for Begun<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let timeout = match self.began {
            None => None,
            Some(began) => {
                let left = self.limit.saturating_sub(began.elapsed());
                if left.is_zero() {
                    return Err(io::Error::new(io::ErrorKind::TimedOut, "an event not finished in time"));
                }
                Some(left)
            }
        };
        self.stream.set_read_timeout(timeout)?;
        let read = (&mut &*self.stream).read(buffer)?;
        self.began.get_or_insert_with(Instant::now);
        Ok(read)
    }
}

/// Reads `stream` a line at a time (each waited for as long as it takes to
/// begin, then read whole within `limit`, at most `max` bytes), handing
/// each to `handle` with whether more has come already (a burst is worth
/// showing once, at its end), until the connection ends; what ended it. A
/// line `handle` refuses is skipped, and said in the log at most every ten
/// seconds: a peer that writes nonsense without end must not fill it.
pub fn read_lines(
    stream: &UnixStream,
    limit: Duration,
    max: u64,
    tiler: &str,
    mut handle: impl FnMut(&str, bool) -> anyhow::Result<()>,
) -> io::Error {
    let mut reader = BufReader::new(Begun::new(stream, limit));
    let mut last_warning: Option<Instant> = None;
    loop {
        reader.get_mut().next();
        let mut line = Vec::new();
        match (&mut reader).take(max).read_until(b'\n', &mut line) {
            Ok(0) => return io::Error::new(io::ErrorKind::UnexpectedEof, "the connection closed"),
            Ok(_) if !line.ends_with(b"\n") => {
                return io::Error::new(io::ErrorKind::InvalidData, "a line without its end");
            }
            Ok(_) => {}
            Err(error) => return error,
        }
        let text = String::from_utf8_lossy(&line);
        let more = !reader.buffer().is_empty();
        if let Err(why) = handle(text.trim_end_matches('\n'), more)
            && last_warning.is_none_or(|at| at.elapsed() > Duration::from_secs(10))
        {
            tracing::warn!("{tiler} sent a line Obi cannot read ({why:#}), skipped");
            last_warning = Some(Instant::now());
        }
    }
}

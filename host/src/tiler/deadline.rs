//! Reading a tiler's socket within a time limit: a reply read whole by a
//! deadline ([`Within`]), and a line or frame that may be waited for as
//! long as it takes to begin, then read whole by a deadline ([`Begun`]). A
//! peer that sends a byte now and then cannot stretch either for ever.

use std::io::{self, Read, Write};
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

//! i3's IPC framing, which sway speaks too: every message, each way, is the
//! magic `i3-ipc`, the payload's length and the message's type (32 bits
//! each, in the machine's byte order), then the payload (JSON). Events, on
//! a connection that subscribed to them, have the high bit of their type set.

use std::io::{self, Read, Write};

pub const RUN_COMMAND: u32 = 0;
pub const SUBSCRIBE: u32 = 2;
pub const GET_OUTPUTS: u32 = 3;
pub const GET_TREE: u32 = 4;
pub const GET_BINDING_STATE: u32 = 12;
/// sway's own: its input devices.
pub const GET_INPUTS: u32 = 100;

/// Set on the type of every event.
pub const EVENT: u32 = 1 << 31;
pub const EVENT_MODE: u32 = EVENT | 2;
pub const EVENT_SHUTDOWN: u32 = EVENT | 6;

const MAGIC: &[u8; 6] = b"i3-ipc";
/// A tree of thousands of windows is a few megabytes; more is not i3.
const MAX_PAYLOAD: u32 = 64 << 20;

/// One message ready to write.
pub fn encode(kind: u32, payload: &[u8]) -> Vec<u8> {
    let mut frame = Vec::with_capacity(14 + payload.len());
    frame.extend_from_slice(MAGIC);
    frame.extend_from_slice(&(payload.len() as u32).to_ne_bytes());
    frame.extend_from_slice(&kind.to_ne_bytes());
    frame.extend_from_slice(payload);
    frame
}

/// Reads one message: its type and payload. Anything that is not a
/// message (a wrong magic, an absurd length) is an `InvalidData` error.
pub fn read_frame(reader: &mut impl Read) -> io::Result<(u32, Vec<u8>)> {
    let mut header = [0u8; 14];
    reader.read_exact(&mut header)?;
    if &header[..6] != MAGIC {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "not an i3 IPC message (wrong magic)"));
    }
    let length = u32::from_ne_bytes(header[6..10].try_into().expect("four bytes"));
    let kind = u32::from_ne_bytes(header[10..14].try_into().expect("four bytes"));
    if length > MAX_PAYLOAD {
        return Err(io::Error::new(io::ErrorKind::InvalidData, format!("an i3 IPC message of {length} bytes")));
    }
    let mut payload = vec![0; length as usize];
    reader.read_exact(&mut payload)?;
    Ok((kind, payload))
}

/// Writes a request and reads its reply, passing over events (which a
/// subscribed connection may have queued before it).
pub fn request(stream: &mut (impl Read + Write), kind: u32, payload: &[u8]) -> io::Result<Vec<u8>> {
    stream.write_all(&encode(kind, payload))?;
    loop {
        let (reply, payload) = read_frame(stream)?;
        if reply == kind {
            return Ok(payload);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_reads_back_as_written() {
        let frame = encode(GET_TREE, b"{}");
        assert_eq!(&frame[..6], b"i3-ipc");
        assert_eq!(read_frame(&mut frame.as_slice()).unwrap(), (GET_TREE, b"{}".to_vec()));
    }

    #[test]
    fn garbage_is_refused_not_trusted() {
        let mut wrong = encode(GET_TREE, b"{}");
        wrong[0] = b'x';
        assert_eq!(read_frame(&mut wrong.as_slice()).unwrap_err().kind(), io::ErrorKind::InvalidData);
        let mut huge = encode(GET_TREE, b"");
        huge[6..10].copy_from_slice(&u32::MAX.to_ne_bytes());
        assert_eq!(read_frame(&mut huge.as_slice()).unwrap_err().kind(), io::ErrorKind::InvalidData);
        let short = &encode(GET_TREE, b"{\"a\":1}")[..16];
        assert_eq!(read_frame(&mut &short[..]).unwrap_err().kind(), io::ErrorKind::UnexpectedEof);
    }

    #[test]
    fn a_request_passes_over_queued_events() {
        let mut incoming = encode(EVENT | 3, b"{\"change\":\"focus\"}");
        incoming.extend(encode(RUN_COMMAND, b"[{\"success\":true}]"));
        let mut stream = Duplex { read: incoming.as_slice(), written: Vec::new() };
        assert_eq!(request(&mut stream, RUN_COMMAND, b"nop").unwrap(), b"[{\"success\":true}]");
        assert_eq!(stream.written, encode(RUN_COMMAND, b"nop"));
    }

    struct Duplex<'a> {
        read: &'a [u8],
        written: Vec<u8>,
    }

    impl Read for Duplex<'_> {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            self.read.read(buffer)
        }
    }

    impl Write for Duplex<'_> {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.written.write(bytes)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
}

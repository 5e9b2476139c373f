//! The sound server over PulseAudio's native protocol, on its Unix socket.
//! Two connections: one subscribed to the server's sink and server events,
//! read by the following thread, which reads the outputs again after each
//! burst of events and publishes them; and one for questions and requests,
//! shared with a thread that carries out the widgets' requests, so a slow
//! request holds up no reading. A message from the server is read whole
//! before it is read as a reply or an event: at most 16 MiB (as libpulse
//! reads them), and within a few seconds however slowly it comes (a reply
//! from the question on, an event from its first byte). A server that
//! breaks either rule, or stops answering, counts as gone. A server that is
//! not there is looked for again after 1 s, 2 s, 4 s … a minute at most.

use super::{AudioRequest, AudioStatus, MAX_PERCENT, Output};
use crate::files;
use crate::sync::lock;
use crate::wake::Pushed;
use anyhow::Context;
use pulseaudio::protocol::{self, ChannelVolume, Command, CommandReply, Props, Volume};
use std::ffi::CString;
use std::io::{BufRead, BufReader, Cursor, ErrorKind, Read};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a question to the server may take, or an event once begun.
const ANSWER_TIME: Duration = Duration::from_secs(3);
/// The most a message from the server may hold, as libpulse reads them
/// (its `FRAME_SIZE_MAX_ALLOW`): a server name of 1.5 GB is no server's.
const MAX_MESSAGE: usize = 16 << 20;
const FIRST_WAIT: Duration = Duration::from_secs(1);
const LONGEST_WAIT: Duration = Duration::from_secs(60);
/// PulseAudio's cookie is 256 bytes.
const COOKIE_BYTES: u64 = 256;

/// The connection for questions and requests, while the server is there.
type Shared = Arc<Mutex<Option<Connection>>>;

/// Follows the server at `socket` (or the session's), again whenever it goes away.
pub fn follow(socket: Option<PathBuf>, shown: &Pushed<AudioStatus>, requests: Receiver<AudioRequest>) {
    let shared = Shared::default();
    let serving = shared.clone();
    let spawned =
        std::thread::Builder::new().name("obi-audio-requests".into()).spawn(move || serve(&serving, requests));
    if let Err(error) = spawned {
        tracing::warn!("audio: no thread for the requests: {error}");
    }
    let mut wait = FIRST_WAIT;
    loop {
        let lost = match socket.clone().or_else(session_socket) {
            None => "no sound server is running (no PulseAudio or PipeWire socket)".to_owned(),
            Some(socket) => match watch(&socket, &shared, shown) {
                Ok(never) => match never {},
                Err(error) if error.connected => {
                    wait = FIRST_WAIT;
                    tracing::info!("audio: lost the sound server at {}: {:#}", socket.display(), error.cause);
                    format!("the sound server went away: {:#}", error.cause)
                }
                Err(error) => format!("no sound server at {}: {:#}", socket.display(), error.cause),
            },
        };
        *lock(&shared) = None;
        shown.publish(AudioStatus::Unavailable(lost));
        std::thread::sleep(wait);
        wait = (wait * 2).min(LONGEST_WAIT);
    }
}

/// Where this session's server listens: `PULSE_SERVER`'s `unix:` path,
/// else `pulse/native` in the runtime folder.
fn session_socket() -> Option<PathBuf> {
    let named = std::env::var("PULSE_SERVER").ok().and_then(|server| server.strip_prefix("unix:").map(PathBuf::from));
    let runtime = std::env::var_os("XDG_RUNTIME_DIR").map(|dir| PathBuf::from(dir).join("pulse/native"));
    named.into_iter().chain(runtime).find(|path| path.exists())
}

/// Why following stopped, and whether it had got as far as a connection.
struct Lost {
    connected: bool,
    cause: anyhow::Error,
}

/// Connects, publishes the outputs, and again after every burst of events;
/// returns only when the server is lost.
fn watch(socket: &Path, shared: &Shared, shown: &Pushed<AudioStatus>) -> Result<std::convert::Infallible, Lost> {
    let not_yet = |cause| Lost { connected: false, cause };
    let mut events = Connection::open(socket).map_err(not_yet)?;
    events.subscribe().map_err(not_yet)?;
    let mut questions = Connection::open(socket).map_err(not_yet)?;
    shown.publish(AudioStatus::Connected(questions.outputs().map_err(not_yet)?));
    *lock(shared) = Some(questions);
    let lost = |cause| Lost { connected: true, cause };
    loop {
        events.next_event().map_err(lost)?;
        while events.has_buffered() {
            events.next_event().map_err(lost)?;
        }
        let outputs = match lock(shared).as_mut() {
            Some(questions) => questions.outputs().map_err(lost)?,
            None => return Err(lost(anyhow::anyhow!("the connection for questions was closed"))),
        };
        shown.publish(AudioStatus::Connected(outputs));
    }
}

/// Carries out the requests on the connection of the moment, those that
/// came while one was carried out together ([`latest_volumes`]); one the
/// server refuses is logged, and a server that is gone drops it.
fn serve(shared: &Shared, requests: Receiver<AudioRequest>) {
    while let Ok(first) = requests.recv() {
        let waiting = std::iter::once(first).chain(requests.try_iter()).collect();
        for request in latest_volumes(waiting) {
            let mut connection = lock(shared);
            let Some(questions) = connection.as_mut() else { continue };
            if let Err(error) = questions.carry_out(&request) {
                tracing::warn!("audio: the sound server did not take {request:?}: {error:#}");
                if is_connection_lost(&error) {
                    *connection = None;
                }
            }
        }
    }
}

/// `requests` without the volumes a later one for the same output sets
/// over: a slider dragged asks for many, and only where it stopped matters.
fn latest_volumes(requests: Vec<AudioRequest>) -> Vec<AudioRequest> {
    let mut kept: Vec<AudioRequest> = Vec::with_capacity(requests.len());
    for request in requests {
        if let AudioRequest::SetVolume { output, .. } = &request
            && let Some(AudioRequest::SetVolume { output: before, .. }) = kept.last()
            && before == output
        {
            kept.pop();
        }
        kept.push(request);
    }
    kept
}

/// Why the connection is no use any more: the server stopped answering,
/// went, or broke the protocol's bounds.
#[derive(Debug)]
struct Broken(String);

impl std::fmt::Display for Broken {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "the sound server is lost: {}", self.0)
    }
}

impl std::error::Error for Broken {}

fn is_connection_lost(error: &anyhow::Error) -> bool {
    use protocol::ProtocolError;
    error.downcast_ref::<Broken>().is_some()
        || matches!(error.downcast_ref::<ProtocolError>(), Some(ProtocolError::Io(_) | ProtocolError::Timeout))
}

/// One authenticated connection to the server.
struct Connection {
    stream: BufReader<UnixStream>,
    version: u16,
    sequence: u32,
}

impl Connection {
    fn open(socket: &Path) -> anyhow::Result<Connection> {
        let stream = UnixStream::connect(socket).context("cannot connect")?;
        stream.set_read_timeout(Some(ANSWER_TIME))?;
        stream.set_write_timeout(Some(ANSWER_TIME))?;
        let mut connection = Connection { stream: BufReader::new(stream), version: protocol::MAX_VERSION, sequence: 0 };
        let auth = protocol::AuthParams {
            version: protocol::MAX_VERSION,
            supports_shm: false,
            supports_memfd: false,
            cookie: cookie(),
        };
        let reply: protocol::AuthReply = connection.ask(Command::Auth(auth)).context("the server refused us")?;
        connection.version = reply.version.min(protocol::MAX_VERSION);
        let mut props = Props::new();
        props.set(protocol::Prop::ApplicationName, c"Obi");
        let _: protocol::SetClientNameReply = connection.ask(Command::SetClientName(props))?;
        Ok(connection)
    }

    /// Asks for sink and server events.
    fn subscribe(&mut self) -> anyhow::Result<()> {
        let mask = protocol::SubscriptionMask::SINK | protocol::SubscriptionMask::SERVER;
        self.tell(Command::Subscribe(mask)).context("cannot subscribe to its events")
    }

    /// Waits for the next event, without a time limit until it begins: an
    /// idle server says nothing for hours.
    fn next_event(&mut self) -> anyhow::Result<()> {
        self.stream.get_ref().set_read_timeout(None)?;
        self.stream.fill_buf()?;
        let mut message = self.next_message(Instant::now() + ANSWER_TIME)?;
        let (_, message) = protocol::read_command_message(&mut message, self.version)?;
        match message {
            Command::SubscribeEvent(_) => Ok(()),
            other => anyhow::bail!("the server sent {other:?} where an event belongs"),
        }
    }

    fn has_buffered(&self) -> bool {
        !self.stream.buffer().is_empty()
    }

    fn outputs(&mut self) -> anyhow::Result<Vec<Output>> {
        let server: protocol::ServerInfo = self.ask(Command::GetServerInfo).context("cannot read the server")?;
        let sinks: protocol::SinkInfoList = self.ask(Command::GetSinkInfoList).context("cannot read its outputs")?;
        let default = server.default_sink_name;
        Ok(sinks
            .into_iter()
            .map(|sink| Output {
                is_default: default.as_ref() == Some(&sink.name),
                description: sink.description.unwrap_or_else(|| sink.name.clone()).to_string_lossy().into_owned(),
                name: sink.name.to_string_lossy().into_owned(),
                volume_percent: percent(&sink.cvolume),
                muted: sink.muted,
            })
            .collect())
    }

    fn carry_out(&mut self, request: &AudioRequest) -> anyhow::Result<()> {
        let name = |output: &str| CString::new(output).context("an output's name has a NUL in it");
        match request {
            AudioRequest::SetVolume { output, percent } => {
                let sink_name = name(output)?;
                let query = protocol::GetSinkInfo { index: None, name: Some(sink_name.clone()) };
                let sink: protocol::SinkInfo = self.ask(Command::GetSinkInfo(query))?;
                let volume = at_percent(sink.cvolume.channels().len(), *percent);
                let params =
                    protocol::SetDeviceVolumeParams { device_index: None, device_name: Some(sink_name), volume };
                self.tell(Command::SetSinkVolume(params))
            }
            AudioRequest::SetMuted { output, muted } => {
                let params = protocol::SetDeviceMuteParams {
                    device_index: None,
                    device_name: Some(name(output)?),
                    mute: *muted,
                };
                self.tell(Command::SetSinkMute(params))
            }
            AudioRequest::SetDefault { output } => self.tell(Command::SetDefaultSink(name(output)?)),
        }
    }

    /// Sends `command` and reads its reply.
    fn ask<T: CommandReply>(&mut self, command: Command) -> anyhow::Result<T> {
        let sequence = self.send(&command)?;
        let mut message = self.next_message(Instant::now() + ANSWER_TIME)?;
        let (answered, reply) = protocol::read_reply_message::<T>(&mut message, self.version)?;
        anyhow::ensure!(answered == sequence, "the server answered message {answered} to message {sequence}");
        Ok(reply)
    }

    /// Sends `command` and waits for the server to acknowledge it.
    fn tell(&mut self, command: Command) -> anyhow::Result<()> {
        let sequence = self.send(&command)?;
        let mut message = self.next_message(Instant::now() + ANSWER_TIME)?;
        let answered = protocol::read_ack_message(&mut message)?;
        anyhow::ensure!(answered == sequence, "the server acknowledged message {answered} to message {sequence}");
        Ok(())
    }

    /// The server's next message whole, its header and its body, read by
    /// `deadline` and no later, and of at most [`MAX_MESSAGE`] bytes.
    fn next_message(&mut self, deadline: Instant) -> Result<Cursor<Vec<u8>>, Broken> {
        let mut message = vec![0; protocol::DESCRIPTOR_SIZE];
        self.read_by(&mut message, deadline)?;
        let length = u32::from_be_bytes(message[..4].try_into().unwrap()) as usize;
        if length > MAX_MESSAGE {
            return Err(Broken(format!("it sent a message of {length} bytes; at most {MAX_MESSAGE} are read")));
        }
        message.resize(protocol::DESCRIPTOR_SIZE + length, 0);
        self.read_by(&mut message[protocol::DESCRIPTOR_SIZE..], deadline)?;
        Ok(Cursor::new(message))
    }

    /// Fills `buffer` from the server by `deadline`, however slowly it comes.
    fn read_by(&mut self, mut buffer: &mut [u8], deadline: Instant) -> Result<(), Broken> {
        while !buffer.is_empty() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Broken(format!("it did not finish a message within {} s", ANSWER_TIME.as_secs())));
            }
            let read = self.stream.get_ref().set_read_timeout(Some(left)).and_then(|()| self.stream.read(buffer));
            match read {
                Ok(0) => return Err(Broken("it closed the connection".into())),
                Ok(read) => buffer = &mut buffer[read..],
                Err(error) if error.kind() == ErrorKind::Interrupted => {}
                Err(error) => return Err(Broken(error.to_string())),
            }
        }
        Ok(())
    }

    fn send(&mut self, command: &Command) -> anyhow::Result<u32> {
        self.sequence = self.sequence.wrapping_add(1);
        protocol::write_command_message(self.stream.get_mut(), self.sequence, command, self.version)?;
        Ok(self.sequence)
    }
}

/// PulseAudio's cookie, when the user has one: `PULSE_COOKIE`, else
/// `~/.config/pulse/cookie`. PipeWire and a server that knows us by our
/// user id need none.
fn cookie() -> Vec<u8> {
    let path = std::env::var_os("PULSE_COOKIE")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config/pulse/cookie")));
    path.and_then(|path| files::read_regular(&path, COOKIE_BYTES).ok()).unwrap_or_default()
}

/// The mean of the channels, in percent of the norm, as `pactl` rounds it.
fn percent(volume: &ChannelVolume) -> u32 {
    let channels = volume.channels();
    if channels.is_empty() {
        return 0;
    }
    let sum: u64 = channels.iter().map(|channel| u64::from(channel.as_u32())).sum();
    let mean = sum as f64 / channels.len() as f64;
    (mean * 100.0 / f64::from(Volume::NORM.as_u32())).round() as u32
}

/// `channels` channels at `percent` of the norm (at most [`MAX_PERCENT`]).
fn at_percent(channels: usize, percent: u32) -> ChannelVolume {
    let raw = u64::from(percent.min(MAX_PERCENT)) * u64::from(Volume::NORM.as_u32()) / 100;
    let mut volume = ChannelVolume::empty();
    for _ in 0..channels.max(1) {
        volume.push(Volume::from_u32_clamped(raw as u32));
    }
    volume
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::unix::net::UnixListener;

    /// A server at a socket in `dir` that answers its first client's first
    /// message with `reply`, written a piece every `pause`.
    fn hostile_server(dir: &Path, reply: Vec<u8>, pause: Duration) -> PathBuf {
        let socket = dir.join("native");
        let listener = UnixListener::bind(&socket).unwrap();
        std::thread::spawn(move || {
            let (mut client, _) = listener.accept().unwrap();
            let mut asked = [0u8; 64];
            let _ = client.read(&mut asked);
            for piece in reply.chunks(4) {
                if client.write_all(piece).is_err() {
                    return;
                }
                std::thread::sleep(pause);
            }
            std::thread::sleep(Duration::from_secs(30));
        });
        socket
    }

    /// A server that drips its answer, 4 bytes every half second: each read
    /// would come within its time; the answer as a whole does not.
    #[test]
    fn a_server_that_drips_its_answer_is_given_up_on_in_seconds() {
        let dir = tempfile::tempdir().unwrap();
        let mut answer = vec![0u8; 400];
        answer[..4].copy_from_slice(&380u32.to_be_bytes());
        let socket = hostile_server(dir.path(), answer, Duration::from_millis(500));
        let started = Instant::now();
        let error = format!("{:#}", Connection::open(&socket).err().expect("no connection"));
        assert!(error.contains("did not finish a message within 3 s"), "{error}");
        assert!(started.elapsed() < ANSWER_TIME + Duration::from_secs(1), "{:?}", started.elapsed());
    }

    /// A server whose answer claims 1.5 GB: refused from its header, before
    /// any of it is read (the name it held cost 1.66 GB).
    #[test]
    fn a_server_whose_answer_claims_gigabytes_is_refused_from_its_header() {
        let dir = tempfile::tempdir().unwrap();
        let mut header = vec![0u8; protocol::DESCRIPTOR_SIZE];
        header[..4].copy_from_slice(&1_500_000_000u32.to_be_bytes());
        let socket = hostile_server(dir.path(), header, Duration::ZERO);
        let error = format!("{:#}", Connection::open(&socket).err().expect("no connection"));
        assert!(error.contains("a message of 1500000000 bytes; at most 16777216 are read"), "{error}");
    }

    #[test]
    fn a_drag_sets_the_volume_where_it_stopped() {
        let volume = |output: &str, percent| AudioRequest::SetVolume { output: output.into(), percent };
        let mute = AudioRequest::SetMuted { output: "a".into(), muted: true };
        let dragged =
            vec![volume("a", 10), volume("a", 20), volume("a", 30), mute.clone(), volume("a", 40), volume("b", 5)];
        assert_eq!(latest_volumes(dragged), [volume("a", 30), mute, volume("a", 40), volume("b", 5)]);
    }

    #[test]
    fn percents_are_read_and_written_as_pactl_rounds_them() {
        // `pactl set-sink-volume … 37%` sets 37 × 65536 / 100, rounded down.
        let mut pactls = ChannelVolume::empty();
        pactls.push(Volume::from_u32_clamped(24248));
        pactls.push(Volume::from_u32_clamped(24248));
        assert_eq!(percent(&pactls), 37);
        assert_eq!(at_percent(2, 37), pactls);
        for set in [0, 1, 5, 37, 99, 100, 150] {
            assert_eq!(percent(&at_percent(2, set)), set);
        }
        assert_eq!(percent(&at_percent(2, 400)), MAX_PERCENT, "no louder than the most a request may ask");
        let mut uneven = ChannelVolume::empty();
        uneven.push(Volume::NORM);
        uneven.push(Volume::MUTED);
        assert_eq!(percent(&uneven), 50, "the mean of the channels");
        assert_eq!(percent(&ChannelVolume::empty()), 0);
    }
}

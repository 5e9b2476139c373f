//! The sound server over PulseAudio's native protocol, on its Unix socket.
//! Two connections: one subscribed to the server's events (its outputs,
//! inputs, streams both ways and defaults), read by the following thread,
//! which reads what the server has again after each burst of events and
//! publishes it; and one for questions and requests,
//! shared with a thread that carries out the widgets' requests, so a slow
//! request holds up no reading. A message from the server is read whole
//! before it is read as a reply or an event: at most 16 MiB (as libpulse
//! reads them), and within a few seconds however slowly it comes (a reply
//! from the question on, an event from its first byte). A server that
//! breaks either rule, or stops answering, counts as gone. A server that is
//! not there is looked for again after 1 s, 2 s, 4 s … a minute at most.

use super::app_icons::AppIcons;
use super::{AudioRequest, AudioStatus, Heard, Input, MAX_PERCENT, Output, Playing, Recording, Streams, StreamsStatus};
use crate::files;
use crate::sync::lock;
use crate::wake::Pushed;
use anyhow::Context;
use pulseaudio::protocol::{self, ChannelVolume, Command, CommandReply, Props, Volume};
use std::collections::HashSet;
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

/// Follows the server at `socket` (or the session's), again whenever it
/// goes away; applications' icons are held in `icons`.
pub fn follow(socket: Option<PathBuf>, icons: &mut AppIcons, shown: &Pushed<Heard>, requests: Receiver<AudioRequest>) {
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
            Some(socket) => match watch(&socket, &shared, icons, shown) {
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
        icons.keep_only(&HashSet::new());
        shown.publish(Heard::unavailable(lost));
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

/// Connects, publishes what the server has, and again after every burst
/// of events; returns only when the server is lost.
fn watch(
    socket: &Path,
    shared: &Shared,
    icons: &mut AppIcons,
    shown: &Pushed<Heard>,
) -> Result<std::convert::Infallible, Lost> {
    let not_yet = |cause| Lost { connected: false, cause };
    let mut events = Connection::open(socket).map_err(not_yet)?;
    events.subscribe().map_err(not_yet)?;
    let mut questions = Connection::open(socket).map_err(not_yet)?;
    shown.publish(questions.heard(icons).map_err(not_yet)?);
    *lock(shared) = Some(questions);
    let lost = |cause| Lost { connected: true, cause };
    loop {
        events.next_event().map_err(lost)?;
        while events.has_buffered() {
            events.next_event().map_err(lost)?;
        }
        let heard = match lock(shared).as_mut() {
            Some(questions) => questions.heard(icons).map_err(lost)?,
            None => return Err(lost(anyhow::anyhow!("the connection for questions was closed"))),
        };
        shown.publish(heard);
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

/// `requests` without the volumes a later one for the same target sets
/// over: a slider dragged asks for many, and only where it stopped matters.
fn latest_volumes(requests: Vec<AudioRequest>) -> Vec<AudioRequest> {
    let mut kept: Vec<AudioRequest> = Vec::with_capacity(requests.len());
    for request in requests {
        if request.sets_volume()
            && let Some(before) = kept.last()
            && before.sets_volume()
            && before.target() == request.target()
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

    /// Asks for the events of outputs, inputs, streams both ways and the server.
    fn subscribe(&mut self) -> anyhow::Result<()> {
        use protocol::SubscriptionMask as Events;
        let mask = Events::SINK | Events::SOURCE | Events::SINK_INPUT | Events::SOURCE_OUTPUT | Events::SERVER;
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

    /// What the server has now: its outputs, inputs and streams.
    fn heard(&mut self, icons: &mut AppIcons) -> anyhow::Result<Heard> {
        let server: protocol::ServerInfo = self.ask(Command::GetServerInfo).context("cannot read the server")?;
        let sinks: protocol::SinkInfoList = self.ask(Command::GetSinkInfoList).context("cannot read its outputs")?;
        let sources: protocol::SourceInfoList =
            self.ask(Command::GetSourceInfoList).context("cannot read its inputs")?;
        let mut playing: protocol::SinkInputInfoList =
            self.ask(Command::GetSinkInputInfoList).context("cannot read what plays")?;
        let mut recording: protocol::SourceOutputInfoList =
            self.ask(Command::GetSourceOutputInfoList).context("cannot read what records")?;

        // The server lists streams as its tables hold them; a popup that
        // reorders its applications as they come and go is hard to use.
        playing.sort_by_key(|stream| stream.index);
        recording.sort_by_key(|stream| stream.index);
        let default_sink = server.default_sink_name.as_ref();
        let outputs = sinks
            .into_iter()
            .map(|sink| Output {
                is_default: default_sink == Some(&sink.name),
                description: text(sink.description.as_ref().unwrap_or(&sink.name)),
                name: text(&sink.name),
                volume_percent: percent(&sink.cvolume),
                muted: sink.muted,
            })
            .collect();
        // An output's monitor records what it plays: no one's voice.
        let (monitors, microphones): (Vec<_>, Vec<_>) =
            sources.into_iter().partition(|source| source.monitor_of_sink_index.is_some());
        let monitors: HashSet<u32> = monitors.iter().map(|monitor| monitor.index).collect();
        let default_source = server.default_source_name.as_ref();
        let mut icons_shown = HashSet::new();
        let mut icon = |props: &Props| {
            let name = icon_name(props)?;
            let handle = icons.icon(&name);
            icons_shown.insert(name);
            handle
        };
        let streams = Streams {
            playing: playing
                .into_iter()
                .map(|stream| Playing {
                    id: stream.index,
                    application: application(&stream.props, &stream.name),
                    title: text(&stream.name),
                    icon: icon(&stream.props),
                    volume_percent: percent(&stream.cvolume),
                    muted: stream.muted,
                    paused: stream.corked,
                })
                .collect(),
            recording: recording
                .into_iter()
                .filter(|stream| !stream.corked && !monitors.contains(&stream.source_index))
                .filter(|stream| !is_level_meter(&stream.props, stream.resample_method.as_deref()))
                .filter_map(|stream| {
                    let input = microphones.iter().find(|source| source.index == stream.source_index)?;
                    Some(Recording {
                        application: application(&stream.props, &stream.name),
                        icon: icon(&stream.props),
                        input: text(&input.name),
                    })
                })
                .collect(),
            inputs: microphones
                .iter()
                .map(|source| Input {
                    is_default: default_source == Some(&source.name),
                    description: text(source.description.as_ref().unwrap_or(&source.name)),
                    name: text(&source.name),
                    volume_percent: percent(&source.cvolume),
                    muted: source.muted,
                })
                .collect(),
        };
        icons.keep_only(&icons_shown);
        Ok(Heard { outputs: AudioStatus::Connected(outputs), streams: StreamsStatus::Connected(streams) })
    }

    fn carry_out(&mut self, request: &AudioRequest) -> anyhow::Result<()> {
        let name = |device: &str| CString::new(device).context("a device's name has a NUL in it");
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
            AudioRequest::SetPlayingVolume { stream, percent } => {
                let playing: protocol::SinkInputInfo = self.ask(Command::GetSinkInputInfo(*stream))?;
                let volume = at_percent(playing.cvolume.channels().len(), *percent);
                self.tell(Command::SetSinkInputVolume(protocol::SetStreamVolumeParams { index: *stream, volume }))
            }
            AudioRequest::SetPlayingMuted { stream, muted } => {
                self.tell(Command::SetSinkInputMute(protocol::SetStreamMuteParams { index: *stream, mute: *muted }))
            }
            AudioRequest::SetInputVolume { input, percent } => {
                let source_name = name(input)?;
                let query = protocol::GetSourceInfo { index: None, name: Some(source_name.clone()) };
                let source: protocol::SourceInfo = self.ask(Command::GetSourceInfo(query))?;
                let volume = at_percent(source.cvolume.channels().len(), *percent);
                let params =
                    protocol::SetDeviceVolumeParams { device_index: None, device_name: Some(source_name), volume };
                self.tell(Command::SetSourceVolume(params))
            }
            AudioRequest::SetInputMuted { input, muted } => {
                let params =
                    protocol::SetDeviceMuteParams { device_index: None, device_name: Some(name(input)?), mute: *muted };
                self.tell(Command::SetSourceMute(params))
            }
            AudioRequest::SetDefaultInput { input } => self.tell(Command::SetDefaultSource(name(input)?)),
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

/// A name or a property the server sent, for people (not always UTF-8).
fn text(bytes: &std::ffi::CStr) -> String {
    bytes.to_string_lossy().into_owned()
}

/// A well-known property's value.
fn property(props: &Props, prop: protocol::Prop) -> Option<String> {
    property_named(props, prop.to_c_str())
}

/// A property's value: a string, sent with its terminating NUL.
fn property_named(props: &Props, key: &std::ffi::CStr) -> Option<String> {
    let value = props.get_bytes(key)?;
    let value = value.strip_suffix(&[0]).unwrap_or(value);
    (!value.is_empty()).then(|| String::from_utf8_lossy(value).into_owned())
}

/// Whether a recording only measures its input's level, as a mixer's meter
/// does (pavucontrol's beside each input): it hears no one. PulseAudio
/// reduces such a stream to its peaks; PipeWire marks it a monitor stream,
/// which Waybar's `privacy` leaves out too.
fn is_level_meter(props: &Props, resample_method: Option<&std::ffi::CStr>) -> bool {
    property_named(props, c"stream.monitor").as_deref() == Some("true") || resample_method == Some(c"peaks")
}

/// The name for people of the application a stream is from: its own, else
/// its program's, else the stream's.
fn application(props: &Props, stream: &std::ffi::CStr) -> String {
    property(props, protocol::Prop::ApplicationName)
        .or_else(|| property(props, protocol::Prop::ApplicationProcessBinary))
        .unwrap_or_else(|| text(stream))
}

/// The icon a stream's application names, else its program's name (which
/// icon themes name most applications' icons by).
fn icon_name(props: &Props) -> Option<String> {
    property(props, protocol::Prop::ApplicationIconName)
        .or_else(|| property(props, protocol::Prop::ApplicationProcessBinary))
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

        let stream = |stream, percent| AudioRequest::SetPlayingVolume { stream, percent };
        let input = |input: &str, percent| AudioRequest::SetInputVolume { input: input.into(), percent };
        let dragged = vec![stream(3, 10), stream(3, 20), input("a", 5), input("a", 6), stream(4, 1), volume("a", 2)];
        assert_eq!(latest_volumes(dragged), [stream(3, 20), input("a", 6), stream(4, 1), volume("a", 2)]);
    }

    #[test]
    fn a_level_meter_is_no_recording() {
        let mut props = Props::new();
        assert!(!is_level_meter(&props, Some(c"speex-float-1")), "a voice call's stream");
        assert!(is_level_meter(&props, Some(c"peaks")), "PulseAudio's peak detection");
        props.set_bytes(c"stream.monitor", b"true\0");
        assert!(is_level_meter(&props, None), "PipeWire's monitor stream");
        props.set_bytes(c"stream.monitor", b"false\0");
        assert!(!is_level_meter(&props, None));
    }

    #[test]
    fn a_stream_is_named_by_its_application_else_its_program_else_itself() {
        let mut props = Props::new();
        assert_eq!(application(&props, c"Playback"), "Playback");
        assert_eq!(icon_name(&props), None);
        props.set(protocol::Prop::ApplicationProcessBinary, c"mpv");
        assert_eq!(application(&props, c"Playback"), "mpv");
        assert_eq!(icon_name(&props).as_deref(), Some("mpv"));
        props.set(protocol::Prop::ApplicationName, c"Music Player");
        props.set(protocol::Prop::ApplicationIconName, c"multimedia-player");
        assert_eq!(application(&props, c"Playback"), "Music Player");
        assert_eq!(icon_name(&props).as_deref(), Some("multimedia-player"));
        props.set(protocol::Prop::ApplicationName, c"");
        assert_eq!(application(&props, c"Playback"), "mpv", "an empty name is no name");
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

//! A PulseAudio server of a test's own, which speaks the protocol PipeWire's
//! pulse server speaks too: two null sinks, `first` (the default, described
//! as "First") and `second` ("Second"), and a null source, `mic` ("Mic"),
//! the default input, on a socket in a private folder,
//! anyone on the machine let in (the bar under test may run as another
//! user); run as `nobody` when the tests run as root, which PulseAudio
//! refuses. `pactl` drives it as a user would, and `pacat` plays and
//! records as an application would. Stopped when dropped.

use crate::nobody::as_nobody_when_root;
use std::io;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;

pub struct SoundServer {
    daemon: Option<Child>,
    folder: TempDir,
    /// Where it listens.
    pub socket: PathBuf,
}

impl SoundServer {
    pub fn start() -> io::Result<SoundServer> {
        let folder = tempfile::Builder::new().prefix("obi-sound-").tempdir()?;
        let socket = folder.path().join("native");
        let mut server = SoundServer { daemon: None, folder, socket };
        server.start_again()?;
        Ok(server)
    }

    /// [`SoundServer::start`] for `tests`, or a loud skip (a failure under CI).
    pub fn for_tests(tests: &str) -> Option<SoundServer> {
        match SoundServer::start() {
            Ok(server) => Some(server),
            Err(error) => {
                crate::skip::unavailable(&format!("{tests}: no sound server ({error}; .ci/run installs pulseaudio)"));
                None
            }
        }
    }

    /// `PULSE_SERVER`'s value for it.
    pub fn address(&self) -> String {
        format!("unix:{}", self.socket.display())
    }

    /// Stops it; its socket goes with it.
    pub fn stop(&mut self) {
        if let Some(mut daemon) = self.daemon.take() {
            let _ = daemon.kill();
            let _ = daemon.wait();
        }
        let _ = std::fs::remove_file(&self.socket);
    }

    /// Starts it (again) on the same socket, with its sinks as new.
    pub fn start_again(&mut self) -> io::Result<()> {
        self.stop();
        let home = self.folder.path();
        let module = |line: &str| ["-L".to_owned(), line.to_owned()];
        let sink = |name: &str, description: &str| {
            module(&format!("module-null-sink sink_name={name} sink_properties=device.description={description}"))
        };
        let daemon = as_nobody_when_root("pulseaudio", &[home])
            .args(["-n", "--daemonize=no", "--use-pid-file=no", "--exit-idle-time=-1", "--disable-shm=yes"])
            .args(module(&format!("module-native-protocol-unix socket={} auth-anonymous=1", self.socket.display())))
            .args(sink("first", "First"))
            .args(sink("second", "Second"))
            .args(module("module-null-source source_name=mic description=Mic"))
            .env("HOME", home)
            .env("XDG_RUNTIME_DIR", home)
            .env_remove("DBUS_SESSION_BUS_ADDRESS")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        self.daemon = Some(daemon);
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if self.socket.exists() && self.try_pactl(&["info"]).is_ok() {
                return Ok(());
            }
            if let Some(ended) = self.daemon.as_mut().and_then(|daemon| daemon.try_wait().ok().flatten()) {
                return Err(io::Error::other(format!("pulseaudio ended at once: {ended}")));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Err(io::Error::other("pulseaudio did not open its socket within 10 s"))
    }

    /// An application named `application` playing silence to the default
    /// output until the stream is dropped; once the server lists it.
    pub fn play(&self, application: &str) -> Stream {
        self.pacat(application, &["--playback"], "sink-inputs")
    }

    /// An application named `application` recording from `input` until
    /// the stream is dropped; once the server lists it.
    pub fn record(&self, application: &str, input: &str) -> Stream {
        self.pacat(application, &["--record", &format!("--device={input}")], "source-outputs")
    }

    /// An application measuring `input`'s level, as a mixer's meter does,
    /// until the stream is dropped: a recording marked as PipeWire marks
    /// such streams (`stream.monitor`).
    pub fn measure_level(&self, application: &str, input: &str) -> Stream {
        let args = ["--record", &format!("--device={input}"), "--property=stream.monitor=true"];
        self.pacat(application, &args, "source-outputs")
    }

    fn pacat(&self, application: &str, args: &[&str], listed_in: &str) -> Stream {
        let name = format!("--property=application.name={application}");
        // The stream is named for its application, as many players name theirs.
        let stream = format!("--stream-name={application}");
        // It plays /dev/zero's endless silence, or records into /dev/null.
        let file = if args.contains(&"--playback") { "/dev/zero" } else { "/dev/null" };
        let child = Command::new("pacat")
            .args(args)
            .args([name.as_str(), stream.as_str(), "--raw", file])
            .env("PULSE_SERVER", self.address())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|error| panic!("pacat for {application}: {error}"));
        let stream = Stream(child);
        let named = format!("application.name = \"{application}\"");
        let deadline = Instant::now() + Duration::from_secs(10);
        while !self.pactl(&["list", listed_in]).contains(&named) {
            assert!(Instant::now() < deadline, "the server never listed {application}'s stream in {listed_in}");
            std::thread::sleep(Duration::from_millis(20));
        }
        stream
    }

    /// What `pactl args` printed; panics when it fails.
    pub fn pactl(&self, args: &[&str]) -> String {
        self.try_pactl(args).unwrap_or_else(|error| panic!("pactl {args:?}: {error}"))
    }

    fn try_pactl(&self, args: &[&str]) -> io::Result<String> {
        let output = Command::new("pactl").args(args).env("PULSE_SERVER", self.address()).output()?;
        match output.status.success() {
            true => Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned()),
            false => Err(io::Error::other(String::from_utf8_lossy(&output.stderr).trim().to_owned())),
        }
    }
}

/// An application's stream, played or recorded by `pacat`; it ends when dropped.
pub struct Stream(Child);

impl Drop for Stream {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for SoundServer {
    fn drop(&mut self) {
        self.stop();
    }
}

//! Capability readings a script sets and changes between refreshes (the
//! harness's tests, `obi widget test`), and a record of the commands
//! widgets asked to run and the pages they asked to open; the widget
//! reaches them through the same WIT imports as the system's. HTTP fetches
//! are real: a test serves its documents locally.

use crate::capabilities::IdleInhibition;
use crate::capabilities::Notifications;
use crate::capabilities::audio::{self, MAX_PERCENT, StreamsStatus};
use crate::capabilities::backlight::{self, LevelAsked};
use crate::capabilities::bluetooth::{self, Bluetooth, BluetoothRequest, BluetoothStatus};
use crate::capabilities::followed::{Followed, Following};
use crate::capabilities::power_profiles::{self, PowerProfiles, ProfilesStatus};
use crate::capabilities::web::Response;
use crate::capabilities::wifi::{self, Link, Wifi, WifiRequest, WifiStatus};
use crate::capabilities::{
    Audio, AudioRequest, AudioStatus, Backlight, BacklightStatus, Batteries, Battery, Capabilities, Click, Clock,
    CommandOutput, Control, Disk, Disks, Interface, Keyboard, Media, MemoryUsage, Metrics, Network, NowPlaying,
    Processes, StatusRead, StatusSource, SystemWeb, Tiler, Tray, TrayAction, TrayItem, Web,
};
use crate::notifications::{self, Service};
use crate::sync::lock;
use crate::tiler::{KeyboardLayout, Message, Status};
use crate::wake::{Subscribers, Waker};
use chrono::{DateTime, Utc};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

#[derive(Debug, Clone)]
struct Readings {
    now: DateTime<Utc>,
    first_weekday: u8,
    cpu: f32,
    memory: MemoryUsage,
    disks: Vec<Disk>,
    batteries: Vec<Battery>,
    interfaces: Vec<Interface>,
    spawned: Vec<String>,
    outputs: HashMap<String, Result<CommandOutput, String>>,
    ran: Vec<String>,
    opened: Vec<String>,
    tiler: Status,
    sent: Vec<Vec<String>>,
    keyboard: Option<KeyboardLayout>,
    playing: Option<NowPlaying>,
    cover: Option<u64>,
    controls: Vec<Control>,
    tray: Vec<TrayItem>,
    tray_actions: Vec<(String, TrayAction)>,
    sweeps: usize,
    audio: AudioStatus,
    streams: StreamsStatus,
    audio_requests: Vec<AudioRequest>,
    audio_answers_held: bool,
    backlight: BacklightStatus,
    backlight_asked: Vec<LevelAsked>,
    backlight_answers_held: bool,
    power_profiles: ProfilesStatus,
    bluetooth: BluetoothStatus,
    bluetooth_requests: Vec<BluetoothRequest>,
    wifi: WifiStatus,
    wifi_requests: Vec<WifiRequest>,
    profiles_asked: Vec<String>,
    followed: HashMap<String, Followed>,
    follows: Vec<String>,
    statuses: HashMap<String, StatusRead>,
    clicks: Vec<(String, Click)>,
}

/// The readings a harnessed widget sees. Clones share the readings, so a
/// test keeps one to change them while the widget runs.
#[derive(Clone)]
pub struct Script {
    readings: Arc<Mutex<Readings>>,
    /// The widgets that read the tiler, woken when a test changes its state.
    tiler_readers: Arc<Subscribers>,
    keyboard_readers: Arc<Subscribers>,
    media_readers: Arc<Subscribers>,
    tray_readers: Arc<Subscribers>,
    audio_readers: Arc<Subscribers>,
    backlight_readers: Arc<Subscribers>,
    power_profiles_readers: Arc<Subscribers>,
    bluetooth_readers: Arc<Subscribers>,
    wifi_readers: Arc<Subscribers>,
    idle_inhibition: Arc<IdleInhibition>,
    follow_readers: Arc<Subscribers>,
    /// The notification server's history, empty until the test starts one.
    notifications: Arc<Notifications>,
    /// Fetches are real, so a test serves its feed on a local port.
    web: Arc<SystemWeb>,
}

impl Script {
    /// The clock stands at `now` until moved, in a locale whose week starts
    /// on Monday; CPU and memory read 0, and
    /// there are no disks, no batteries, no network interfaces, no tiler and
    /// no sound server.
    pub fn at(now: DateTime<Utc>) -> Script {
        let readings = Readings {
            now,
            first_weekday: 0,
            cpu: 0.0,
            memory: MemoryUsage::default(),
            disks: Vec::new(),
            batteries: Vec::new(),
            interfaces: Vec::new(),
            spawned: Vec::new(),
            outputs: HashMap::new(),
            ran: Vec::new(),
            opened: Vec::new(),
            tiler: Status::Disconnected("no tiler in this script".into()),
            sent: Vec::new(),
            keyboard: None,
            playing: None,
            cover: None,
            controls: Vec::new(),
            tray: Vec::new(),
            tray_actions: Vec::new(),
            sweeps: 0,
            audio: AudioStatus::Unavailable("no sound server in this script".into()),
            streams: StreamsStatus::Unavailable("no sound server in this script".into()),
            audio_requests: Vec::new(),
            audio_answers_held: false,
            backlight: BacklightStatus::Absent("no backlight in this script".into()),
            backlight_asked: Vec::new(),
            backlight_answers_held: false,
            power_profiles: ProfilesStatus::Unavailable("no power profiles in this script".into()),
            bluetooth: BluetoothStatus::Absent("no Bluetooth in this script".into()),
            bluetooth_requests: Vec::new(),
            wifi: WifiStatus::Absent("no NetworkManager in this script".into()),
            wifi_requests: Vec::new(),
            profiles_asked: Vec::new(),
            followed: HashMap::new(),
            follows: Vec::new(),
            statuses: HashMap::new(),
            clicks: Vec::new(),
        };
        Script {
            readings: Arc::new(Mutex::new(readings)),
            tiler_readers: Arc::default(),
            keyboard_readers: Arc::default(),
            media_readers: Arc::default(),
            tray_readers: Arc::default(),
            audio_readers: Arc::default(),
            backlight_readers: Arc::default(),
            power_profiles_readers: Arc::default(),
            bluetooth_readers: Arc::default(),
            wifi_readers: Arc::default(),
            idle_inhibition: Arc::new(IdleInhibition::scripted()),
            follow_readers: Arc::default(),
            notifications: Arc::default(),
            web: Arc::new(SystemWeb::new()),
        }
    }

    pub fn set_now(&self, now: DateTime<Utc>) {
        self.readings().now = now;
    }

    /// The first day of the week in the scripted locale: 0 = Monday .. 6 = Sunday.
    pub fn set_first_weekday(&self, weekday: u8) {
        self.readings().first_weekday = weekday;
    }

    /// Moves the clock forward.
    pub fn advance(&self, by: Duration) {
        let mut readings = self.readings();
        readings.now += chrono::Duration::from_std(by).expect("a duration a clock can move by");
    }

    /// Average use of all cores, 0..=100.
    pub fn set_cpu(&self, percent: f32) {
        self.readings().cpu = percent;
    }

    pub fn set_memory(&self, memory: MemoryUsage) {
        self.readings().memory = memory;
    }

    pub fn set_disks(&self, disks: Vec<Disk>) {
        self.readings().disks = disks;
    }

    pub fn set_batteries(&self, batteries: Vec<Battery>) {
        self.readings().batteries = batteries;
    }

    /// The network interfaces with their traffic (rates in bytes a second).
    pub fn set_interfaces(&self, interfaces: Vec<Interface>) {
        self.readings().interfaces = interfaces;
    }

    /// The tiler's state (or why there is none); the widgets that read it
    /// are woken, as the bar wakes them.
    pub fn set_tiler(&self, status: Status) {
        self.readings().tiler = status;
        self.tiler_readers.wake_all();
    }

    /// The keyboard layout in use (none: the host cannot tell); the widgets
    /// that read it are woken.
    pub fn set_keyboard(&self, layout: Option<KeyboardLayout>) {
        self.readings().keyboard = layout;
        self.keyboard_readers.wake_all();
    }

    /// What the media player to show plays (none: no player); the widgets
    /// that read it are woken.
    pub fn set_playing(&self, playing: Option<NowPlaying>) {
        self.readings().playing = playing;
        self.media_readers.wake_all();
    }

    /// The held image of the cover of what plays (none: not come, or none);
    /// the widgets that read it are woken.
    pub fn set_cover(&self, cover: Option<u64>) {
        self.readings().cover = cover;
        self.media_readers.wake_all();
    }

    /// The controls widgets sent to the media player, oldest first.
    pub fn controls(&self) -> Vec<Control> {
        self.readings().controls.clone()
    }

    /// The tray's items; the widgets that read them are woken.
    pub fn set_tray(&self, items: Vec<TrayItem>) {
        self.readings().tray = items;
        self.tray_readers.wake_all();
    }

    /// What widgets asked of tray items, oldest first, by item key.
    pub fn tray_actions(&self) -> Vec<(String, TrayAction)> {
        self.readings().tray_actions.clone()
    }

    /// How many times widgets asked for a sweep of the tray.
    pub fn sweeps(&self) -> usize {
        self.readings().sweeps
    }

    /// The sound server's outputs (or why there is none); the widgets that
    /// read them are woken.
    pub fn set_audio(&self, status: AudioStatus) {
        self.readings().audio = status;
        self.audio_readers.wake_all();
    }

    /// The outputs as the widgets' requests have left them.
    pub fn audio(&self) -> AudioStatus {
        self.readings().audio.clone()
    }

    /// What plays and records, and the inputs (or why there is no server);
    /// the widgets that read sound are woken.
    pub fn set_streams(&self, status: StreamsStatus) {
        self.readings().streams = status;
        self.audio_readers.wake_all();
    }

    /// The streams and inputs as the widgets' requests have left them.
    pub fn streams(&self) -> StreamsStatus {
        self.readings().streams.clone()
    }

    /// From now on the sound server takes requests and never carries them
    /// out, as a server slower than the user: the test says with
    /// [`Script::set_audio`] and [`Script::set_streams`] what it reads
    /// back, and when.
    pub fn hold_audio_answers(&self) {
        self.readings().audio_answers_held = true;
    }

    /// What widgets asked of the sound server, oldest first.
    pub fn audio_requests(&self) -> Vec<AudioRequest> {
        self.readings().audio_requests.clone()
    }

    /// The backlight's level (or why there is none); what reads it is woken.
    pub fn set_backlight(&self, status: BacklightStatus) {
        self.readings().backlight = status;
        self.backlight_readers.wake_all();
    }

    /// From now on the backlight takes levels asked and never reaches them,
    /// as a login manager slower than the user: the test says with
    /// [`Script::set_backlight`] what it reads back, and when.
    pub fn hold_backlight_answers(&self) {
        self.readings().backlight_answers_held = true;
    }

    /// The levels widgets asked of the backlight, oldest first.
    pub fn backlight_asked(&self) -> Vec<LevelAsked> {
        self.readings().backlight_asked.clone()
    }

    /// The process's hold on idling, which holds at once as asked: what
    /// widgets asked is its status.
    pub fn idle_inhibition(&self) -> Arc<IdleInhibition> {
        self.idle_inhibition.clone()
    }

    /// The Bluetooth adapter (or why there is none); what reads it is woken.
    pub fn set_bluetooth(&self, status: BluetoothStatus) {
        self.readings().bluetooth = status;
        self.bluetooth_readers.wake_all();
    }

    /// What widgets asked of BlueZ, oldest first; each is carried out as
    /// BlueZ would.
    pub fn bluetooth_requests(&self) -> Vec<BluetoothRequest> {
        self.readings().bluetooth_requests.clone()
    }

    /// The Wi-Fi networks and VPNs (or why there are none); what reads them is woken.
    pub fn set_wifi(&self, status: WifiStatus) {
        self.readings().wifi = status;
        self.wifi_readers.wake_all();
    }

    /// What widgets asked of NetworkManager, oldest first; each is carried
    /// out as NetworkManager would, at once.
    pub fn wifi_requests(&self) -> Vec<WifiRequest> {
        self.readings().wifi_requests.clone()
    }

    /// The power profiles (or why there are none); what reads them is woken.
    pub fn set_power_profiles(&self, status: ProfilesStatus) {
        self.readings().power_profiles = status;
        self.power_profiles_readers.wake_all();
    }

    /// The profiles widgets asked the daemon to use, oldest first; each is
    /// made the active one.
    pub fn profiles_asked(&self) -> Vec<String> {
        self.readings().profiles_asked.clone()
    }

    /// The batches widgets sent to the tiler, oldest first, each message as
    /// the JSON komorebi would receive. The harness sends none of them.
    pub fn sent(&self) -> Vec<Vec<String>> {
        self.readings().sent.clone()
    }

    /// The commands widgets asked to run, oldest first. The harness runs
    /// none of them.
    pub fn spawned(&self) -> Vec<String> {
        self.readings().spawned.clone()
    }

    /// What running `command` for its output gives (`Err`: it could not be
    /// run); a command the script gives nothing for fails.
    pub fn set_command_output(&self, command: &str, output: Result<CommandOutput, String>) {
        self.readings().outputs.insert(command.to_owned(), output);
    }

    /// What the command `command`, kept running, has said (its last line,
    /// how it failed); the widgets that follow it are woken.
    pub fn set_followed(&self, command: &str, said: Followed) {
        self.readings().followed.insert(command.to_owned(), said);
        self.follow_readers.wake_all();
    }

    /// The commands widgets started following (kept running, or as status
    /// programs), oldest first. The harness runs none of them.
    pub fn follows(&self) -> Vec<String> {
        self.readings().follows.clone()
    }

    /// What the status program `command` has said (its header, its newest
    /// status line, how it failed); the widgets that run it are woken.
    pub fn set_status(&self, command: &str, read: StatusRead) {
        self.readings().statuses.insert(command.to_owned(), read);
        self.follow_readers.wake_all();
    }

    /// The clicks widgets handed to status programs, by command, oldest
    /// first.
    pub fn status_clicks(&self) -> Vec<(String, Click)> {
        self.readings().clicks.clone()
    }

    /// The commands widgets ran for their output, oldest first.
    pub fn ran(&self) -> Vec<String> {
        self.readings().ran.clone()
    }

    /// The pages widgets asked to open in the browser, oldest first. The
    /// harness opens none of them.
    pub fn opened(&self) -> Vec<String> {
        self.readings().opened.clone()
    }

    /// A notification server with `settings` that no bus reaches, whose
    /// history widgets read from now on: the test sends it notifications
    /// ([`Service::notify`]) and reads what widgets did to them. One per
    /// script: widgets keep reading the first.
    pub fn serve_notifications(&self, settings: notifications::Settings) -> Service {
        let service = Service::without_bus(settings);
        self.notifications.serve(Arc::new(service.clone()));
        service
    }

    /// These readings as the sources behind every capability.
    pub fn capabilities(&self) -> Capabilities {
        Capabilities {
            clock: Arc::new(self.clone()),
            metrics: Arc::new(self.clone()),
            disks: Arc::new(self.clone()),
            batteries: Arc::new(self.clone()),
            network: Arc::new(self.clone()),
            processes: Arc::new(self.clone()),
            web: Arc::new(self.clone()),
            tiler: Arc::new(self.clone()),
            keyboard: Arc::new(self.clone()),
            media: Arc::new(self.clone()),
            tray: Arc::new(self.clone()),
            audio: Arc::new(self.clone()),
            backlight: Arc::new(self.clone()),
            power_profiles: Arc::new(self.clone()),
            idle_inhibit: self.idle_inhibition.clone(),
            bluetooth: Arc::new(self.clone()),
            wifi: Arc::new(self.clone()),
            notifications: self.notifications.clone(),
            held: Default::default(),
            hiding: Default::default(),
        }
    }

    fn readings(&self) -> MutexGuard<'_, Readings> {
        lock(&self.readings)
    }
}

impl Clock for Script {
    fn now(&self) -> DateTime<Utc> {
        self.readings().now
    }

    fn first_weekday(&self) -> u8 {
        self.readings().first_weekday
    }
}

impl Metrics for Script {
    fn cpu_usage(&self) -> f32 {
        self.readings().cpu
    }

    fn memory(&self) -> MemoryUsage {
        self.readings().memory
    }
}

impl Disks for Script {
    fn disks(&self, _: &Waker) -> Vec<Disk> {
        self.readings().disks.clone()
    }
}

impl Batteries for Script {
    fn batteries(&self) -> Vec<Battery> {
        self.readings().batteries.clone()
    }
}

impl Network for Script {
    fn interfaces(&self, _: &Waker) -> Vec<Interface> {
        self.readings().interfaces.clone()
    }
}

impl Processes for Script {
    fn spawn(&self, _widget: &str, command: &str) -> Result<(), String> {
        self.readings().spawned.push(command.to_owned());
        Ok(())
    }

    fn run(&self, command: &str) -> Result<CommandOutput, String> {
        let mut readings = self.readings();
        readings.ran.push(command.to_owned());
        readings
            .outputs
            .get(command)
            .cloned()
            .unwrap_or_else(|| Err(format!("the script gives no output for `{command}`")))
    }

    fn follow(
        &self,
        _widget: &str,
        command: &str,
        _restart_wait: Option<Duration>,
        waker: Waker,
    ) -> Result<Box<dyn Following>, String> {
        self.readings().follows.push(command.to_owned());
        self.follow_readers.subscribe(&waker);
        Ok(Box::new(ScriptedFollow { script: self.clone(), command: command.to_owned() }))
    }

    fn run_status_program(&self, _widget: &str, command: &str, waker: Waker) -> Result<Box<dyn StatusSource>, String> {
        self.readings().follows.push(command.to_owned());
        self.follow_readers.subscribe(&waker);
        Ok(Box::new(ScriptedStatus { script: self.clone(), command: command.to_owned() }))
    }
}

/// A command the script says what it printed for.
struct ScriptedFollow {
    script: Script,
    command: String,
}

impl Following for ScriptedFollow {
    fn state(&self) -> Followed {
        self.script.readings().followed.get(&self.command).cloned().unwrap_or_default()
    }
}

/// A status program the script says what it printed for; the clicks it is
/// handed are kept, when its header asked for them.
struct ScriptedStatus {
    script: Script,
    command: String,
}

impl StatusSource for ScriptedStatus {
    fn read(&self) -> StatusRead {
        self.script.readings().statuses.get(&self.command).cloned().unwrap_or_default()
    }

    fn click(&self, click: &Click) {
        let mut readings = self.script.readings();
        let status = readings.statuses.get(&self.command);
        if status.and_then(|status| status.header).is_some_and(|header| header.click_events) {
            readings.clicks.push((self.command.clone(), click.clone()));
        }
    }

    fn set_hidden(&self, _: bool) {}
}

impl Web for Script {
    fn get(&self, url: &str) -> Result<Response, String> {
        self.web.get(url)
    }

    fn open(&self, url: &str) -> Result<(), String> {
        self.readings().opened.push(url.to_owned());
        Ok(())
    }
}

impl Tiler for Script {
    fn status(&self, waker: &Waker) -> Status {
        self.tiler_readers.subscribe(waker);
        self.readings().tiler.clone()
    }

    fn send(&self, messages: &[Message]) -> Result<(), String> {
        let mut readings = self.readings();
        if let Status::Disconnected(why) = &readings.tiler {
            return Err(format!("cannot send to the tiler: {why}"));
        }
        readings.sent.push(messages.iter().map(Message::to_json).collect());
        Ok(())
    }
}

impl Keyboard for Script {
    fn layout(&self, waker: &Waker) -> Option<KeyboardLayout> {
        self.keyboard_readers.subscribe(waker);
        self.readings().keyboard.clone()
    }
}

impl Media for Script {
    fn now_playing(&self, waker: &Waker) -> Option<NowPlaying> {
        self.media_readers.subscribe(waker);
        self.readings().playing.clone()
    }

    fn control(&self, control: Control) -> Result<(), String> {
        let mut readings = self.readings();
        if readings.playing.is_none() {
            return Err("no media player is there".into());
        }
        readings.controls.push(control);
        Ok(())
    }

    fn cover(&self, waker: &Waker) -> Option<u64> {
        self.media_readers.subscribe(waker);
        self.readings().cover
    }
}

impl Tray for Script {
    fn items(&self, waker: &Waker) -> Vec<TrayItem> {
        self.tray_readers.subscribe(waker);
        self.readings().tray.clone()
    }

    fn act(&self, key: &str, action: TrayAction) -> Result<(), String> {
        let mut readings = self.readings();
        if !readings.tray.iter().any(|item| item.key == key) {
            return Err(format!("no tray item {key}"));
        }
        readings.tray_actions.push((key.to_owned(), action));
        Ok(())
    }

    fn sweep(&self) {
        self.readings().sweeps += 1;
    }
}

/// A scripted server carries out requests as a real one would, and wakes
/// the widgets that read it.
impl Audio for Script {
    fn status(&self, waker: &Waker) -> AudioStatus {
        self.audio_readers.subscribe(waker);
        self.readings().audio.clone()
    }

    fn streams(&self, waker: &Waker) -> StreamsStatus {
        self.audio_readers.subscribe(waker);
        self.readings().streams.clone()
    }

    fn request(&self, request: AudioRequest) -> Result<(), String> {
        let mut readings = self.readings();
        audio::check(&readings.audio, &readings.streams, &request)?;
        readings.audio_requests.push(request.clone());
        if readings.audio_answers_held {
            return Ok(());
        }
        let Readings { audio, streams, .. } = &mut *readings;
        carry_out(audio, streams, &request);
        drop(readings);
        self.audio_readers.wake_all();
        Ok(())
    }
}

impl Bluetooth for Script {
    fn status(&self, waker: &Waker) -> BluetoothStatus {
        self.bluetooth_readers.subscribe(waker);
        self.readings().bluetooth.clone()
    }

    fn request(&self, request: BluetoothRequest) -> Result<(), String> {
        let mut readings = self.readings();
        bluetooth::check(&readings.bluetooth, &request)?;
        readings.bluetooth_requests.push(request.clone());
        if let BluetoothStatus::Present { powered, devices } = &mut readings.bluetooth {
            match request {
                BluetoothRequest::SetPowered(on) => *powered = on,
                BluetoothRequest::SetConnected { address, connected } => devices
                    .iter_mut()
                    .filter(|device| device.address == address)
                    .for_each(|device| device.connected = connected),
            }
        }
        drop(readings);
        self.bluetooth_readers.wake_all();
        Ok(())
    }
}

impl Wifi for Script {
    fn status(&self, waker: &Waker) -> WifiStatus {
        self.wifi_readers.subscribe(waker);
        self.readings().wifi.clone()
    }

    fn request(&self, request: WifiRequest) -> Result<(), String> {
        let mut readings = self.readings();
        wifi::check(&readings.wifi, &request)?;
        readings.wifi_requests.push(request.clone());
        if let WifiStatus::Present(networks) = &mut readings.wifi {
            let link = |on: bool| if on { Link::Connected } else { Link::Disconnected };
            match request {
                WifiRequest::SetEnabled(on) => networks.enabled = on,
                WifiRequest::SetConnected { ssid, connected } => {
                    for network in &mut networks.wifi {
                        if network.ssid == ssid {
                            network.link = link(connected);
                            network.known |= connected;
                        } else if connected {
                            network.link = Link::Disconnected;
                        }
                    }
                }
                WifiRequest::SetVpnOn { uuid, on } => {
                    networks.vpns.iter_mut().filter(|vpn| vpn.uuid == uuid).for_each(|vpn| vpn.link = link(on));
                }
            }
        }
        drop(readings);
        self.wifi_readers.wake_all();
        Ok(())
    }
}

impl PowerProfiles for Script {
    fn status(&self, waker: &Waker) -> ProfilesStatus {
        self.power_profiles_readers.subscribe(waker);
        self.readings().power_profiles.clone()
    }

    fn set_active(&self, profile: &str) -> Result<(), String> {
        let mut readings = self.readings();
        power_profiles::check(&readings.power_profiles, profile)?;
        readings.profiles_asked.push(profile.to_owned());
        if let ProfilesStatus::Offered { active, .. } = &mut readings.power_profiles {
            profile.clone_into(active);
        }
        drop(readings);
        self.power_profiles_readers.wake_all();
        Ok(())
    }
}

impl Backlight for Script {
    fn status(&self, waker: &Waker) -> BacklightStatus {
        self.backlight_readers.subscribe(waker);
        self.readings().backlight.clone()
    }

    fn set_percent(&self, percent: u32) -> Result<(), String> {
        let mut readings = self.readings();
        let asked = backlight::check(&readings.backlight, percent)?;
        readings.backlight_asked.push(asked.clone());
        if readings.backlight_answers_held {
            return Ok(());
        }
        readings.backlight = BacklightStatus::Level { device: asked.device, percent };
        drop(readings);
        self.backlight_readers.wake_all();
        Ok(())
    }
}

/// What a real server does with `request`.
fn carry_out(outputs: &mut AudioStatus, streams: &mut StreamsStatus, request: &AudioRequest) {
    if let AudioStatus::Connected(outputs) = outputs {
        for output in outputs {
            match request {
                AudioRequest::SetVolume { output: name, percent } if *name == output.name => {
                    output.volume_percent = (*percent).min(MAX_PERCENT);
                }
                AudioRequest::SetMuted { output: name, muted } if *name == output.name => output.muted = *muted,
                AudioRequest::SetDefault { output: name } => output.is_default = *name == output.name,
                _ => {}
            }
        }
    }
    let StreamsStatus::Connected(streams) = streams else { return };
    for playing in &mut streams.playing {
        match request {
            AudioRequest::SetPlayingVolume { stream, percent } if *stream == playing.id => {
                playing.volume_percent = (*percent).min(MAX_PERCENT);
            }
            AudioRequest::SetPlayingMuted { stream, muted } if *stream == playing.id => playing.muted = *muted,
            _ => {}
        }
    }
    for input in &mut streams.inputs {
        match request {
            AudioRequest::SetInputVolume { input: name, percent } if *name == input.name => {
                input.volume_percent = (*percent).min(MAX_PERCENT);
            }
            AudioRequest::SetInputMuted { input: name, muted } if *name == input.name => input.muted = *muted,
            AudioRequest::SetDefaultInput { input: name } => input.is_default = *name == input.name,
            _ => {}
        }
    }
}

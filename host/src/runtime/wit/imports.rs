//! The host side of every interface a widget imports, for the latest
//! release: each adapts a [`crate::capabilities`] source to the WIT types.
//! An interface never changes once released, so the linker serves an older
//! widget's import (`obi:widget/log@0.1.0`) with these (wasmtime links
//! semver-compatible names).

use super::foreign;
use super::latest::obi::widget as host;
use crate::capabilities::errands::Errand;
use crate::capabilities::{self, web};
use crate::capabilities::{
    AudioRequest, AudioStatus, BacklightStatus, BluetoothRequest, BluetoothStatus, Click, IdleStatus, ProfilesStatus,
    StatusSource, StreamsStatus, TrayAction, WifiRequest, WifiStatus, clock,
};
use crate::runtime::store::StoreState;
use crate::tiler;
use std::sync::Arc;

impl host::types::Host for StoreState {}
impl host::view::Host for StoreState {}
impl host::popup::Host for StoreState {}

impl host::log::Host for StoreState {
    fn log(&mut self, level: host::log::Level, message: String) {
        use host::log::Level;
        let widget = self.name.as_str();
        match level {
            Level::Trace => tracing::trace!(target: "obi::widget", widget, "{message}"),
            Level::Debug => tracing::debug!(target: "obi::widget", widget, "{message}"),
            Level::Info => tracing::info!(target: "obi::widget", widget, "{message}"),
            Level::Warn => tracing::warn!(target: "obi::widget", widget, "{message}"),
            Level::Error => tracing::error!(target: "obi::widget", widget, "{message}"),
        }
    }
}

impl host::clock::Host for StoreState {
    fn now(&mut self) -> host::clock::Instant {
        let now = self.capabilities.clock.now();
        host::clock::Instant { seconds: now.timestamp(), nanoseconds: now.timestamp_subsec_nanos() }
    }

    fn civil(&mut self, at: host::clock::Instant, timezone: Option<String>) -> Result<host::clock::CivilTime, String> {
        let civil = clock::civil(clock::from_unix(at.seconds, at.nanoseconds), timezone.as_deref())?;
        Ok(host::clock::CivilTime {
            year: civil.year,
            month: civil.month,
            day: civil.day,
            hour: civil.hour,
            minute: civil.minute,
            second: civil.second,
            nanosecond: civil.nanosecond,
            weekday: civil.weekday,
            day_of_year: civil.day_of_year,
            utc_offset_seconds: civil.utc_offset_seconds,
        })
    }

    fn format(
        &mut self,
        at: host::clock::Instant,
        pattern: String,
        timezone: Option<String>,
    ) -> Result<String, String> {
        clock::format(clock::from_unix(at.seconds, at.nanoseconds), &pattern, timezone.as_deref())
    }
}

impl host::calendar::Host for StoreState {
    fn first_weekday(&mut self) -> u8 {
        self.capabilities.clock.first_weekday().min(6)
    }
}

impl host::metrics::Host for StoreState {
    fn cpu_usage(&mut self) -> f32 {
        self.capabilities.metrics.cpu_usage()
    }

    fn memory(&mut self) -> host::metrics::MemoryUsage {
        let memory = self.capabilities.metrics.memory();
        host::metrics::MemoryUsage {
            total_bytes: memory.total_bytes,
            used_bytes: memory.used_bytes,
            available_bytes: memory.available_bytes,
        }
    }
}

impl host::disks::Host for StoreState {
    fn disks(&mut self) -> Vec<host::disks::Disk> {
        let disks = self.capabilities.disks.disks(&self.waker);
        disks
            .into_iter()
            .map(|disk| host::disks::Disk {
                mount_point: disk.mount_point,
                name: disk.name,
                total_bytes: disk.total_bytes,
                available_bytes: disk.available_bytes,
                read_only: disk.read_only,
                removable: disk.removable,
            })
            .collect()
    }
}

impl host::battery::Host for StoreState {
    fn batteries(&mut self) -> Vec<host::battery::Battery> {
        use crate::capabilities::ChargeState;
        use host::battery::{Battery, ChargeState as Wit};
        let batteries = self.capabilities.batteries.batteries();
        batteries
            .into_iter()
            .map(|battery| Battery {
                name: battery.name,
                percent: battery.percent,
                state: match battery.state {
                    ChargeState::Charging => Wit::Charging,
                    ChargeState::Discharging => Wit::Discharging,
                    ChargeState::Full => Wit::Full,
                    ChargeState::NotCharging => Wit::NotCharging,
                    ChargeState::Unknown => Wit::Unknown,
                },
            })
            .collect()
    }
}

impl host::network::Host for StoreState {
    fn interfaces(&mut self) -> Vec<host::network::NetworkInterface> {
        let interfaces = self.capabilities.network.interfaces(&self.waker);
        interfaces
            .into_iter()
            .map(|interface| host::network::NetworkInterface {
                name: interface.name,
                received_per_second: interface.received_per_second,
                transmitted_per_second: interface.transmitted_per_second,
                total_received: interface.total_received,
                total_transmitted: interface.total_transmitted,
                default_route: interface.default_route,
                wireless: interface.wireless,
            })
            .collect()
    }
}

/// 0.1.0 and 0.1.1 name the command line itself: it runs when the user
/// declared it for the widget.
impl host::process::Host for StoreState {
    fn spawn(&mut self, command: String) -> Result<(), String> {
        if !self.commands.values().any(|declared| *declared == command) {
            return Err(format!("`{command}` is not one of the commands declared for this widget"));
        }
        self.capabilities.processes.spawn(&self.name, &command)
    }
}

impl host::commands::Host for StoreState {
    fn launch(&mut self, id: String) -> Result<(), String> {
        let command = self.declared(&id)?;
        self.capabilities.processes.spawn(&self.name, &command)
    }

    fn run(&mut self, id: String) -> host::commands::RunState {
        use host::commands::{Output, RunState};
        let command = match self.declared(&id) {
            Ok(command) => command,
            Err(error) => return RunState::Failed(error),
        };
        let processes = self.capabilities.processes.clone();
        match self.runs.poll(&id, &self.waker, "obi-command", move || processes.run(&command)) {
            Errand::Pending => RunState::Pending,
            Errand::Done(output) => {
                RunState::Done(Output { code: output.code, stdout: output.stdout, stderr: output.stderr })
            }
            Errand::Failed(error) => RunState::Failed(error),
        }
    }
}

/// A widget may keep this many commands running.
const MAX_FOLLOWED: usize = 8;

impl host::command_lines::Host for StoreState {
    fn follow(&mut self, id: String) -> Result<host::command_lines::Followed, String> {
        if !self.followed.contains_key(&id) {
            let command = self.declared(&id)?;
            if self.followed.len() + self.status_programs.len() >= MAX_FOLLOWED {
                return Err(format!("{MAX_FOLLOWED} commands are kept running already"));
            }
            let restart_wait = self.restart_waits.get(&id).copied();
            let following =
                self.capabilities.processes.follow(&self.name, &command, restart_wait, self.waker.clone())?;
            self.followed.insert(id.clone(), following);
        }
        let said = self.followed[&id].state();
        Ok(host::command_lines::Followed { last_line: said.last_line, failure: said.failure })
    }
}

impl host::status_programs::Host for StoreState {
    fn read(&mut self, id: String) -> Result<host::status_programs::Status, String> {
        if !self.status_programs.contains_key(&id) {
            let command = self.declared(&id)?;
            if self.status_programs.len() + self.followed.len() >= MAX_FOLLOWED {
                return Err(format!("{MAX_FOLLOWED} commands are kept running already"));
            }
            let program: Arc<dyn StatusSource> =
                self.capabilities.processes.run_status_program(&self.name, &command, self.waker.clone())?.into();
            self.capabilities.hiding.watch(&program);
            self.status_programs.insert(id.clone(), program);
        }
        let read = self.status_programs[&id].read();
        Ok(host::status_programs::Status {
            click_events: read.header.is_some_and(|header| header.click_events),
            line: read.line,
            failure: read.failure,
        })
    }

    fn click(&mut self, id: String, click: host::status_programs::ClickEvent) -> Result<(), String> {
        let program = self.status_programs.get(&id).ok_or_else(|| format!("no status program {id:?} is running"))?;
        program.click(&Click {
            name: click.name,
            instance: click.instance,
            button: click.button,
            event: click.event,
            x: click.x,
            y: click.y,
            relative_x: click.relative_x,
            relative_y: click.relative_y,
            output_x: click.output_x,
            output_y: click.output_y,
            width: click.width,
            height: click.height,
            scale: click.scale,
        });
        Ok(())
    }
}

impl StoreState {
    /// The command line declared for the widget as `id`.
    fn declared(&self, id: &str) -> Result<String, String> {
        self.commands.get(id).cloned().ok_or_else(|| {
            let ids: Vec<&str> = self.commands.keys().map(String::as_str).collect();
            match ids.is_empty() {
                true => format!("no command is declared for this widget (asked for {id:?})"),
                false => format!("no command is declared as {id:?} (declared: {})", ids.join(", ")),
            }
        })
    }
}

impl host::web::Host for StoreState {
    fn fetch(&mut self, url: String) -> host::web::FetchState {
        use host::web::{FetchState as Wit, Response};
        match web::poll(&mut self.fetches, &url, &self.capabilities.web, &self.waker) {
            Errand::Pending => Wit::Pending,
            Errand::Done(response) => Wit::Done(Response { status: response.status, body: response.body }),
            Errand::Failed(error) => Wit::Failed(error),
        }
    }

    fn open(&mut self, url: String) -> Result<(), String> {
        self.capabilities.web.open(&url)
    }
}

impl host::tiler::Host for StoreState {
    fn status(&mut self) -> host::tiler::TilerStatus {
        match self.capabilities.tiler.status(&self.waker) {
            tiler::Status::Connected(state) => host::tiler::TilerStatus::Connected(state.into()),
            tiler::Status::Disconnected(why) => host::tiler::TilerStatus::Disconnected(why),
        }
    }

    fn send(&mut self, messages: Vec<String>) -> Result<(), String> {
        self.capabilities.tiler.send(&capabilities::tiler::read_messages(&messages)?)
    }
}

impl host::tiler_mode::Host for StoreState {
    fn mode_markup(&mut self) -> Option<String> {
        match self.capabilities.tiler.status(&self.waker) {
            tiler::Status::Connected(state) => state.mode.map(foreign),
            tiler::Status::Disconnected(_) => None,
        }
    }
}

impl host::keyboard::Host for StoreState {
    fn layout(&mut self) -> Option<host::keyboard::KeyboardLayout> {
        let layout = self.capabilities.keyboard.layout(&self.waker)?;
        Some(host::keyboard::KeyboardLayout {
            name: foreign(layout.name),
            short_name: foreign(layout.short_name),
            all: layout.all.into_iter().map(foreign).collect(),
        })
    }
}

impl host::media::Host for StoreState {
    fn now_playing(&mut self) -> Option<host::media::Track> {
        use crate::capabilities::Playback;
        use host::media::Playback as Wit;
        let playing = self.capabilities.media.now_playing(&self.waker)?;
        Some(host::media::Track {
            player: foreign(playing.player),
            title: foreign(playing.title),
            artist: foreign(playing.artist),
            album: foreign(playing.album),
            playback: match playing.playback {
                Playback::Playing => Wit::Playing,
                Playback::Paused => Wit::Paused,
                Playback::Stopped => Wit::Stopped,
            },
            can_go_previous: playing.can_go_previous,
            can_go_next: playing.can_go_next,
            can_play_pause: playing.can_play_pause,
        })
    }

    fn control(&mut self, action: host::media::Action) -> Result<(), String> {
        use crate::capabilities::Control;
        use host::media::Action as Wit;
        self.capabilities.media.control(match action {
            Wit::Previous => Control::Previous,
            Wit::PlayPause => Control::PlayPause,
            Wit::Next => Control::Next,
        })
    }
}

impl host::media_cover::Host for StoreState {
    fn cover(&mut self) -> Option<u64> {
        self.capabilities.media.cover(&self.waker)
    }
}

impl host::tray::Host for StoreState {
    fn items(&mut self) -> Vec<host::tray::TrayItem> {
        use crate::capabilities::ItemStatus;
        use host::tray::{ItemStatus as Wit, MenuEntry, TrayItem};
        let items = self.capabilities.tray.items(&self.waker);
        items
            .into_iter()
            .map(|item| TrayItem {
                key: item.key,
                id: foreign(item.id),
                title: foreign(item.title),
                exe: foreign(item.exe),
                status: match item.status {
                    ItemStatus::Passive => Wit::Passive,
                    ItemStatus::Active => Wit::Active,
                    ItemStatus::NeedsAttention => Wit::NeedsAttention,
                },
                icon: item.icon,
                tooltip: foreign(item.tooltip),
                menu: item
                    .menu
                    .into_iter()
                    .map(|entry| MenuEntry {
                        id: entry.id,
                        depth: entry.depth,
                        label: foreign(entry.label),
                        enabled: entry.enabled,
                        toggled: entry.toggled,
                        separator: entry.separator,
                        submenu: entry.submenu,
                    })
                    .collect(),
                item_is_menu: item.item_is_menu,
            })
            .collect()
    }

    fn activate(&mut self, key: String) -> Result<(), String> {
        self.capabilities.tray.act(&key, TrayAction::Activate)
    }

    fn secondary_activate(&mut self, key: String) -> Result<(), String> {
        self.capabilities.tray.act(&key, TrayAction::SecondaryActivate)
    }

    fn context_menu(&mut self, key: String) -> Result<(), String> {
        self.capabilities.tray.act(&key, TrayAction::ContextMenu)
    }

    fn scroll(&mut self, key: String, delta: i32, horizontal: bool) -> Result<(), String> {
        self.capabilities.tray.act(&key, TrayAction::Scroll { delta, horizontal })
    }

    fn choose(&mut self, key: String, id: i32) -> Result<(), String> {
        self.capabilities.tray.act(&key, TrayAction::MenuChosen(id))
    }

    fn sweep(&mut self) {
        self.capabilities.tray.sweep();
    }
}

impl host::audio::Host for StoreState {
    fn status(&mut self) -> host::audio::AudioStatus {
        use host::audio::{AudioStatus as Wit, Output};
        match self.capabilities.audio.status(&self.waker) {
            AudioStatus::Connected(outputs) => Wit::Connected(
                outputs
                    .into_iter()
                    .map(|output| Output {
                        name: output.name,
                        description: foreign(output.description),
                        volume_percent: output.volume_percent,
                        muted: output.muted,
                        is_default: output.is_default,
                    })
                    .collect(),
            ),
            AudioStatus::Unavailable(why) => Wit::Unavailable(why),
        }
    }

    fn set_volume(&mut self, output: String, percent: u32) -> Result<(), String> {
        self.capabilities.audio.request(AudioRequest::SetVolume { output, percent })
    }

    fn set_muted(&mut self, output: String, muted: bool) -> Result<(), String> {
        self.capabilities.audio.request(AudioRequest::SetMuted { output, muted })
    }

    fn set_default(&mut self, output: String) -> Result<(), String> {
        self.capabilities.audio.request(AudioRequest::SetDefault { output })
    }
}

impl host::audio_streams::Host for StoreState {
    fn status(&mut self) -> host::audio_streams::StreamsStatus {
        use host::audio_streams::{Input, Playing, Recording, Streams, StreamsStatus as Wit};
        match self.capabilities.audio.streams(&self.waker) {
            StreamsStatus::Connected(streams) => Wit::Connected(Streams {
                playing: (streams.playing.into_iter())
                    .map(|playing| Playing {
                        id: playing.id,
                        application: foreign(playing.application),
                        title: foreign(playing.title),
                        icon: playing.icon,
                        volume_percent: playing.volume_percent,
                        muted: playing.muted,
                        paused: playing.paused,
                    })
                    .collect(),
                inputs: (streams.inputs.into_iter())
                    .map(|input| Input {
                        name: input.name,
                        description: foreign(input.description),
                        volume_percent: input.volume_percent,
                        muted: input.muted,
                        is_default: input.is_default,
                    })
                    .collect(),
                recording: (streams.recording.into_iter())
                    .map(|recording| Recording {
                        application: foreign(recording.application),
                        icon: recording.icon,
                        input: recording.input,
                    })
                    .collect(),
            }),
            StreamsStatus::Unavailable(why) => Wit::Unavailable(why),
        }
    }

    fn set_playing_volume(&mut self, stream: u32, percent: u32) -> Result<(), String> {
        self.capabilities.audio.request(AudioRequest::SetPlayingVolume { stream, percent })
    }

    fn set_playing_muted(&mut self, stream: u32, muted: bool) -> Result<(), String> {
        self.capabilities.audio.request(AudioRequest::SetPlayingMuted { stream, muted })
    }

    fn set_input_volume(&mut self, input: String, percent: u32) -> Result<(), String> {
        self.capabilities.audio.request(AudioRequest::SetInputVolume { input, percent })
    }

    fn set_input_muted(&mut self, input: String, muted: bool) -> Result<(), String> {
        self.capabilities.audio.request(AudioRequest::SetInputMuted { input, muted })
    }

    fn set_default_input(&mut self, input: String) -> Result<(), String> {
        self.capabilities.audio.request(AudioRequest::SetDefaultInput { input })
    }
}

impl host::screen_casts::Host for StoreState {
    fn casts(&mut self) -> Vec<host::screen_casts::ScreenCast> {
        use host::screen_casts::ScreenCast as Wit;
        let tiler::Status::Connected(state) = self.capabilities.tiler.status(&self.waker) else { return Vec::new() };
        let cast = |cast| match cast {
            tiler::ScreenCast::Output(name) => Wit::Output(name.map(foreign)),
            tiler::ScreenCast::Window(title) => Wit::Window(title.map(foreign)),
        };
        state.screen_casts.into_iter().map(cast).collect()
    }
}

impl host::wifi::Host for StoreState {
    fn status(&mut self) -> host::wifi::WifiStatus {
        use crate::capabilities::wifi::{Link, Security};
        use host::wifi::{Link as WitLink, Network, Networks, Security as WitSecurity, Vpn, WifiStatus as Wit};
        let link = |link| match link {
            Link::Disconnected => WitLink::Disconnected,
            Link::Connecting => WitLink::Connecting,
            Link::Connected => WitLink::Connected,
        };
        match self.capabilities.wifi.status(&self.waker) {
            WifiStatus::Present(networks) => Wit::Present(Networks {
                has_wifi_device: networks.has_wifi_device,
                enabled: networks.enabled,
                hardware_enabled: networks.hardware_enabled,
                wifi: (networks.wifi.into_iter())
                    .map(|network| Network {
                        ssid: foreign(network.ssid),
                        strength: network.strength,
                        security: match network.security {
                            Security::Open => WitSecurity::Open,
                            Security::Wep => WitSecurity::Wep,
                            Security::Personal => WitSecurity::Personal,
                            Security::Enterprise => WitSecurity::Enterprise,
                        },
                        known: network.known,
                        link: link(network.link),
                    })
                    .collect(),
                vpns: (networks.vpns.into_iter())
                    .map(|vpn| Vpn { name: foreign(vpn.name), uuid: vpn.uuid, link: link(vpn.link) })
                    .collect(),
            }),
            WifiStatus::Absent(why) => Wit::Absent(why),
        }
    }

    fn set_enabled(&mut self, on: bool) -> Result<(), String> {
        self.capabilities.wifi.request(WifiRequest::SetEnabled(on))
    }

    fn set_connected(&mut self, ssid: String, connected: bool) -> Result<(), String> {
        self.capabilities.wifi.request(WifiRequest::SetConnected { ssid, connected })
    }

    fn set_vpn_on(&mut self, uuid: String, on: bool) -> Result<(), String> {
        self.capabilities.wifi.request(WifiRequest::SetVpnOn { uuid, on })
    }
}

impl host::notifications::Host for StoreState {
    fn status(&mut self) -> host::notifications::NotificationsStatus {
        use host::notifications::{NotificationsStatus, Standing};
        let overview = self.capabilities.notifications.overview(&self.waker);
        NotificationsStatus {
            standing: overview.not_serving.map_or(Standing::Serving, Standing::NotServing),
            do_not_disturb: overview.do_not_disturb,
            unseen: overview.unseen.try_into().unwrap_or(u32::MAX),
            kept: overview.kept.try_into().unwrap_or(u32::MAX),
        }
    }

    fn history(&mut self, most: u32) -> Vec<host::notifications::Notification> {
        let kept = self.capabilities.notifications.history(&self.waker, most as usize);
        kept.into_iter()
            .map(|kept| host::notifications::Notification {
                id: kept.id,
                app_name: foreign(kept.app_name),
                summary: foreign(kept.summary),
                body: foreign(kept.body),
                received_seconds: kept.received_seconds,
                critical: kept.critical,
                has_default_action: kept.has_default_action,
                on_screen: kept.on_screen,
                seen: kept.seen,
            })
            .collect()
    }

    fn set_do_not_disturb(&mut self, on: bool) {
        self.capabilities.notifications.set_do_not_disturb(on);
    }

    fn mark_seen(&mut self) {
        self.capabilities.notifications.mark_seen();
    }

    fn invoke(&mut self, id: u32) -> Result<(), String> {
        self.capabilities.notifications.invoke(id)
    }

    fn dismiss(&mut self, id: u32) -> Result<(), String> {
        self.capabilities.notifications.dismiss(id)
    }

    fn dismiss_all(&mut self) {
        self.capabilities.notifications.dismiss_all();
    }
}

impl host::backlight::Host for StoreState {
    fn status(&mut self) -> host::backlight::BacklightStatus {
        use host::backlight::{BacklightStatus as Wit, Panel};
        match self.capabilities.backlight.status(&self.waker) {
            BacklightStatus::Level { device, percent } => Wit::Level(Panel { device: foreign(device), percent }),
            BacklightStatus::Absent(why) => Wit::Absent(why),
        }
    }

    fn set_percent(&mut self, percent: u32) -> Result<(), String> {
        self.capabilities.backlight.set_percent(percent)
    }
}

impl host::power_profiles::Host for StoreState {
    fn status(&mut self) -> host::power_profiles::ProfilesStatus {
        use host::power_profiles::{OfferedProfiles, ProfilesStatus as Wit};
        match self.capabilities.power_profiles.status(&self.waker) {
            ProfilesStatus::Offered { active, profiles } => Wit::Offered(OfferedProfiles {
                active: foreign(active),
                profiles: profiles.into_iter().map(foreign).collect(),
            }),
            ProfilesStatus::Unavailable(why) => Wit::Unavailable(why),
        }
    }

    fn set_active(&mut self, profile: String) -> Result<(), String> {
        self.capabilities.power_profiles.set_active(&profile)
    }
}

impl host::idle_inhibit::Host for StoreState {
    fn status(&mut self) -> host::idle_inhibit::IdleStatus {
        use host::idle_inhibit::IdleStatus as Wit;
        self.use_idle_hold();
        match self.capabilities.idle_inhibit.status(&self.waker) {
            IdleStatus::Held => Wit::Held,
            IdleStatus::NotHeld => Wit::NotHeld,
            IdleStatus::Unavailable(why) => Wit::Unavailable(why),
        }
    }

    fn set_held(&mut self, held: bool) {
        self.use_idle_hold();
        self.capabilities.idle_inhibit.set_held(held);
    }
}

impl host::bluetooth::Host for StoreState {
    fn status(&mut self) -> host::bluetooth::BluetoothStatus {
        use host::bluetooth::{Adapter, BluetoothStatus as Wit, Device};
        match self.capabilities.bluetooth.status(&self.waker) {
            BluetoothStatus::Present { powered, devices } => Wit::Present(Adapter {
                powered,
                devices: devices
                    .into_iter()
                    .map(|device| Device {
                        address: device.address,
                        name: foreign(device.name),
                        connected: device.connected,
                        battery_percent: device.battery_percent,
                    })
                    .collect(),
            }),
            BluetoothStatus::Absent(why) => Wit::Absent(why),
        }
    }

    fn set_powered(&mut self, on: bool) -> Result<(), String> {
        self.capabilities.bluetooth.request(BluetoothRequest::SetPowered(on))
    }

    fn set_connected(&mut self, address: String, connected: bool) -> Result<(), String> {
        self.capabilities.bluetooth.request(BluetoothRequest::SetConnected { address, connected })
    }
}

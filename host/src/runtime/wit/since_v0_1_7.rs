//! `obi:widget@0.1.7`: the release before `backlight`, over the shapes of
//! its interfaces that later releases share (the table in [`super`]), so
//! its exports have their types.

wasmtime::component::bindgen!({
    world: "widget",
    path: "../wit/since_v0.1.7",
    with: {
        "obi:widget/types": super::types_v0_1_0,
        "obi:widget/view": super::view_v0_1_6,
        "obi:widget/popup": super::popup_v0_1_6,
        "obi:widget/log": super::log_v0_1_0,
        "obi:widget/clock": super::clock_v0_1_0,
        "obi:widget/calendar": super::calendar_v0_1_3,
        "obi:widget/metrics": super::metrics_v0_1_0,
        "obi:widget/disks": super::disks_v0_1_0,
        "obi:widget/battery": super::battery_v0_1_0,
        "obi:widget/network": super::network_v0_1_0,
        "obi:widget/process": super::process_v0_1_0,
        "obi:widget/commands": super::commands_v0_1_2,
        "obi:widget/command-lines": super::command_lines_v0_1_4,
        "obi:widget/status-programs": super::status_programs_v0_1_6,
        "obi:widget/web": super::web_v0_1_0,
        "obi:widget/tiler": super::tiler_v0_1_1,
        "obi:widget/tiler-mode": super::tiler_mode_v0_1_5,
        "obi:widget/keyboard": super::keyboard_v0_1_1,
        "obi:widget/media": super::media_v0_1_1,
        "obi:widget/media-cover": super::media_cover_v0_1_4,
        "obi:widget/tray": super::tray_v0_1_1,
        "obi:widget/audio": super::audio_v0_1_4,
        "obi:widget/notifications": super::notifications_v0_1_7,
    },
});

//! `obi:widget@0.1.3`: the `guest` interface of 0.1.4 before `audio`, over
//! the types of interfaces that have not changed since (its view and popup
//! as 0.1.4 has them, the others as the latest release does), so its
//! exports share those releases' types.

wasmtime::component::bindgen!({
    world: "widget",
    path: "../wit/since_v0.1.3",
    with: {
        "obi:widget/types": super::since_v0_1_5::obi::widget::types,
        "obi:widget/view": super::since_v0_1_4::obi::widget::view,
        "obi:widget/popup": super::since_v0_1_4::obi::widget::popup,
        "obi:widget/log": super::since_v0_1_5::obi::widget::log,
        "obi:widget/clock": super::since_v0_1_5::obi::widget::clock,
        "obi:widget/calendar": super::since_v0_1_5::obi::widget::calendar,
        "obi:widget/metrics": super::since_v0_1_5::obi::widget::metrics,
        "obi:widget/disks": super::since_v0_1_5::obi::widget::disks,
        "obi:widget/battery": super::since_v0_1_5::obi::widget::battery,
        "obi:widget/network": super::since_v0_1_5::obi::widget::network,
        "obi:widget/process": super::since_v0_1_5::obi::widget::process,
        "obi:widget/commands": super::since_v0_1_5::obi::widget::commands,
        "obi:widget/web": super::since_v0_1_5::obi::widget::web,
        "obi:widget/tiler": super::since_v0_1_5::obi::widget::tiler,
        "obi:widget/keyboard": super::since_v0_1_5::obi::widget::keyboard,
        "obi:widget/media": super::since_v0_1_5::obi::widget::media,
        "obi:widget/tray": super::since_v0_1_5::obi::widget::tray,
    },
});

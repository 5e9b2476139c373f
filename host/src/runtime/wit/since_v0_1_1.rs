//! `obi:widget@0.1.1`: bare exported functions, over the types of interfaces
//! that have not changed since (its view as 0.1.4 has it, the others as
//! the latest release does), so its exports share those releases' types.

wasmtime::component::bindgen!({
    world: "widget",
    path: "../wit/since_v0.1.1",
    with: {
        "obi:widget/types": super::since_v0_1_5::obi::widget::types,
        "obi:widget/view": super::since_v0_1_4::obi::widget::view,
        "obi:widget/log": super::since_v0_1_5::obi::widget::log,
        "obi:widget/clock": super::since_v0_1_5::obi::widget::clock,
        "obi:widget/metrics": super::since_v0_1_5::obi::widget::metrics,
        "obi:widget/disks": super::since_v0_1_5::obi::widget::disks,
        "obi:widget/battery": super::since_v0_1_5::obi::widget::battery,
        "obi:widget/network": super::since_v0_1_5::obi::widget::network,
        "obi:widget/process": super::since_v0_1_5::obi::widget::process,
        "obi:widget/web": super::since_v0_1_5::obi::widget::web,
        "obi:widget/tiler": super::since_v0_1_5::obi::widget::tiler,
        "obi:widget/keyboard": super::since_v0_1_5::obi::widget::keyboard,
        "obi:widget/media": super::since_v0_1_5::obi::widget::media,
        "obi:widget/tray": super::since_v0_1_5::obi::widget::tray,
    },
});

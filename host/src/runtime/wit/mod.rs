//! `obi:widget`, release by release, as Zed keeps its extension API: one
//! module of generated bindings per release the host serves
//! (`since_v0_1_0` … `since_v0_1_5`, from `wit/since_v*/`),
//! the host side of the imports once for the latest ([`imports`]), the
//! conversions to and from the host's models ([`convert`]), and the one
//! place that tells the releases apart: [`Release`], and [`Widget`], a
//! widget's exports as its release has them.
//!
//! Text other programs choose the length of (a window's title, a track's,
//! a tray item's) reaches a widget cut to
//! [`crate::view::limits::FOREIGN_TEXT_BYTES`] ([`foreign`]): a view's
//! limits catch a widget's own mistakes, not another program's data.
//!
//! Imports are implemented once: an interface never changes once released,
//! so an older widget's imports are served by the latest's. Exports differ
//! between releases; each release's bindings call its own.

mod convert;
mod imports;
mod since_v0_1_0;
mod since_v0_1_1;
mod since_v0_1_2;
mod since_v0_1_3;
mod since_v0_1_4;
mod since_v0_1_5;

use super::Schedule;
use super::store::StoreState;
use crate::capabilities::Capability;
use crate::view::popup::PopupInput;
use crate::view::{Input, View};
use std::collections::BTreeSet;
use wasmtime::Store;
use wasmtime::component::{HasSelf, InstancePre, Linker};

/// `text` from another program, as a widget may have it.
fn foreign(text: String) -> String {
    obi_markup::cut(text, crate::view::limits::FOREIGN_TEXT_BYTES)
}

/// The WIT package this host serves, at its latest release.
pub const WIT_PACKAGE: &str = "obi:widget@0.1.5";

/// A release of `obi:widget` a widget may be built against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Release {
    V0_1_0,
    V0_1_1,
    V0_1_2,
    V0_1_3,
    V0_1_4,
    V0_1_5,
}

impl Release {
    /// Every release this host serves, oldest first.
    pub const ALL: [Release; 6] =
        [Release::V0_1_0, Release::V0_1_1, Release::V0_1_2, Release::V0_1_3, Release::V0_1_4, Release::V0_1_5];
    pub const LATEST: Release = Release::V0_1_5;

    /// Its version, as an import names it: `0.1.3`.
    pub fn version(self) -> &'static str {
        match self {
            Release::V0_1_0 => "0.1.0",
            Release::V0_1_1 => "0.1.1",
            Release::V0_1_2 => "0.1.2",
            Release::V0_1_3 => "0.1.3",
            Release::V0_1_4 => "0.1.4",
            Release::V0_1_5 => "0.1.5",
        }
    }

    pub fn from_version(version: &str) -> Option<Release> {
        Release::ALL.into_iter().find(|release| release.version() == version)
    }
}

/// A kind's instance template: its component linked, and the release
/// whose exports it has.
#[derive(Clone)]
pub(super) struct Template {
    release: Release,
    linked: InstancePre<StoreState>,
}

impl Template {
    /// Checks that `linked` has the exports of `release`.
    pub fn new(release: Release, linked: InstancePre<StoreState>) -> wasmtime::Result<Template> {
        match release {
            Release::V0_1_0 => since_v0_1_0::WidgetIndices::new(&linked).map(drop),
            Release::V0_1_1 => since_v0_1_1::WidgetIndices::new(&linked).map(drop),
            Release::V0_1_2 => since_v0_1_2::WidgetIndices::new(&linked).map(drop),
            Release::V0_1_3 => since_v0_1_3::WidgetIndices::new(&linked).map(drop),
            Release::V0_1_4 => since_v0_1_4::WidgetIndices::new(&linked).map(drop),
            Release::V0_1_5 => since_v0_1_5::WidgetIndices::new(&linked).map(drop),
        }?;
        Ok(Template { release, linked })
    }

    pub fn instantiate(&self, store: &mut Store<StoreState>) -> wasmtime::Result<Widget> {
        let instance = self.linked.instantiate(&mut *store)?;
        Ok(match self.release {
            Release::V0_1_0 => Widget::V0_1_0(since_v0_1_0::Widget::new(store, &instance)?),
            Release::V0_1_1 => Widget::V0_1_1(since_v0_1_1::Widget::new(store, &instance)?),
            Release::V0_1_2 => Widget::V0_1_2(since_v0_1_2::Widget::new(store, &instance)?),
            Release::V0_1_3 => Widget::V0_1_3(since_v0_1_3::Widget::new(store, &instance)?),
            Release::V0_1_4 => Widget::V0_1_4(since_v0_1_4::Widget::new(store, &instance)?),
            Release::V0_1_5 => Widget::V0_1_5(since_v0_1_5::Widget::new(store, &instance)?),
        })
    }
}

/// A widget's exports, as the release it was built against has them; each
/// call is the same for every caller, whatever the release.
pub(super) enum Widget {
    V0_1_0(since_v0_1_0::Widget),
    V0_1_1(since_v0_1_1::Widget),
    V0_1_2(since_v0_1_2::Widget),
    V0_1_3(since_v0_1_3::Widget),
    V0_1_4(since_v0_1_4::Widget),
    V0_1_5(since_v0_1_5::Widget),
}

impl Widget {
    /// `init` with the widget's config, on the bar of `monitor`.
    pub fn call_init(
        &self,
        store: &mut Store<StoreState>,
        config: &str,
        monitor: Option<u32>,
    ) -> wasmtime::Result<Result<Schedule, String>> {
        let bar = since_v0_1_4::obi::widget::view::Bar { monitor };
        Ok(match self {
            Widget::V0_1_5(widget) => {
                let bar = since_v0_1_5::obi::widget::view::Bar { monitor };
                widget.obi_widget_guest().call_init(store, config, bar)?.map(Into::into)
            }
            Widget::V0_1_4(widget) => widget.obi_widget_guest().call_init(store, config, bar)?.map(Into::into),
            Widget::V0_1_3(widget) => widget.obi_widget_guest().call_init(store, config, bar)?.map(Into::into),
            Widget::V0_1_2(widget) => widget.obi_widget_guest().call_init(store, config, bar)?.map(Into::into),
            Widget::V0_1_1(widget) => widget.call_init(store, config, bar)?.map(Into::into),
            Widget::V0_1_0(widget) => widget.call_init(store, config)?.map(Into::into),
        })
    }

    /// `refresh`: the view with the widget's popup (releases before 0.1.3
    /// have none), and the milliseconds until the widget wants the next
    /// one (releases before 0.1.2 cannot say).
    pub fn call_refresh(&self, store: &mut Store<StoreState>) -> wasmtime::Result<(View, Option<u32>)> {
        Ok(match self {
            Widget::V0_1_5(widget) => {
                let frame = widget.obi_widget_guest().call_refresh(store)?;
                let view = View { popup: frame.popup.map(Into::into), ..frame.view.into() };
                (view, frame.next_refresh_ms)
            }
            Widget::V0_1_4(widget) => {
                let frame = widget.obi_widget_guest().call_refresh(store)?;
                let view = View { popup: frame.popup.map(Into::into), ..frame.view.into() };
                (view, frame.next_refresh_ms)
            }
            Widget::V0_1_3(widget) => {
                let frame = widget.obi_widget_guest().call_refresh(store)?;
                let view = View { popup: frame.popup.map(Into::into), ..frame.view.into() };
                (view, frame.next_refresh_ms)
            }
            Widget::V0_1_2(widget) => {
                let frame = widget.obi_widget_guest().call_refresh(store)?;
                (frame.view.into(), frame.next_refresh_ms)
            }
            Widget::V0_1_1(widget) => (widget.call_refresh(store)?.into(), None),
            Widget::V0_1_0(widget) => (widget.call_refresh(store)?.into(), None),
        })
    }

    pub fn call_on_input(&self, store: &mut Store<StoreState>, key: &str, input: Input) -> wasmtime::Result<()> {
        match self {
            Widget::V0_1_5(widget) => widget.obi_widget_guest().call_on_input(store, key, input.into()),
            Widget::V0_1_4(widget) => widget.obi_widget_guest().call_on_input(store, key, input.into()),
            Widget::V0_1_3(widget) => widget.obi_widget_guest().call_on_input(store, key, input.into()),
            Widget::V0_1_2(widget) => widget.obi_widget_guest().call_on_input(store, key, input.into()),
            Widget::V0_1_1(widget) => widget.call_on_input(store, key, input.into()),
            Widget::V0_1_0(widget) => widget.call_on_input(store, key, input.into()),
        }
    }

    /// Input on cell `cell` of the popup beside item `key`; none reaches a
    /// widget built before 0.1.3, which cannot have a popup open.
    pub fn call_on_popup_input(
        &self,
        store: &mut Store<StoreState>,
        key: &str,
        cell: &str,
        input: PopupInput,
    ) -> wasmtime::Result<()> {
        match self {
            Widget::V0_1_5(widget) => widget.obi_widget_guest().call_on_popup_input(store, key, cell, input.into()),
            Widget::V0_1_4(widget) => widget.obi_widget_guest().call_on_popup_input(store, key, cell, input.into()),
            Widget::V0_1_3(widget) => widget.obi_widget_guest().call_on_popup_input(store, key, cell, input.into()),
            Widget::V0_1_2(_) | Widget::V0_1_1(_) | Widget::V0_1_0(_) => Ok(()),
        }
    }

    /// The host closed the popup beside item `key`.
    pub fn call_on_popup_closed(&self, store: &mut Store<StoreState>, key: &str) -> wasmtime::Result<()> {
        match self {
            Widget::V0_1_5(widget) => widget.obi_widget_guest().call_on_popup_closed(store, key),
            Widget::V0_1_4(widget) => widget.obi_widget_guest().call_on_popup_closed(store, key),
            Widget::V0_1_3(widget) => widget.obi_widget_guest().call_on_popup_closed(store, key),
            Widget::V0_1_2(_) | Widget::V0_1_1(_) | Widget::V0_1_0(_) => Ok(()),
        }
    }

    /// The user asked that the widget read afresh; a widget built before
    /// 0.1.4 cannot be told, and is only refreshed.
    pub fn call_on_refresh_requested(&self, store: &mut Store<StoreState>) -> wasmtime::Result<()> {
        match self {
            Widget::V0_1_5(widget) => widget.obi_widget_guest().call_on_refresh_requested(store),
            Widget::V0_1_4(widget) => widget.obi_widget_guest().call_on_refresh_requested(store),
            Widget::V0_1_3(_) | Widget::V0_1_2(_) | Widget::V0_1_1(_) | Widget::V0_1_0(_) => Ok(()),
        }
    }

    /// The JSON schema of the widget's config, as it gives it; none before 0.1.2.
    pub fn call_config_schema(&self, store: &mut Store<StoreState>) -> wasmtime::Result<Option<String>> {
        match self {
            Widget::V0_1_5(widget) => widget.obi_widget_guest().call_config_schema(store),
            Widget::V0_1_4(widget) => widget.obi_widget_guest().call_config_schema(store),
            Widget::V0_1_3(widget) => widget.obi_widget_guest().call_config_schema(store),
            Widget::V0_1_2(widget) => widget.obi_widget_guest().call_config_schema(store),
            Widget::V0_1_1(_) | Widget::V0_1_0(_) => Ok(None),
        }
    }
}

/// Adds to `linker` the interfaces every widget may use (the shapes of
/// `types`, `view` and `popup`) and those of `grants`, no others.
pub(super) fn add_imports(linker: &mut Linker<StoreState>, grants: &BTreeSet<Capability>) -> wasmtime::Result<()> {
    use since_v0_1_5::obi::widget as wit;
    wit::types::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?;
    wit::view::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?;
    wit::popup::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?;
    for grant in grants {
        match grant {
            Capability::Log => wit::log::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?,
            Capability::Clock => {
                wit::clock::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?;
                wit::calendar::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?;
            }
            Capability::Metrics => wit::metrics::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?,
            Capability::Disks => wit::disks::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?,
            Capability::Battery => wit::battery::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?,
            Capability::Network => wit::network::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?,
            Capability::Process => wit::process::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?,
            Capability::Web => wit::web::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?,
            Capability::Tiler => {
                wit::tiler::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?;
                wit::tiler_mode::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?;
            }
            Capability::Keyboard => wit::keyboard::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?,
            Capability::Media => {
                wit::media::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?;
                wit::media_cover::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?;
            }
            Capability::Tray => wit::tray::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?,
            Capability::Commands => {
                wit::commands::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?;
                wit::command_lines::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?;
            }
            Capability::Audio => wit::audio::add_to_linker::<_, HasSelf<_>>(linker, |state| state)?,
        }
    }
    Ok(())
}

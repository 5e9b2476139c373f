//! `obi:widget@0.1.0`: its exports, and its view, in its own `types`
//! (the same shapes as 0.1.1's `types`, generated apart), converted here
//! through the shapes later releases share.

use self::obi::widget::types as old;
use super::types_v0_1_0 as wit;
use crate::{runtime, view};

wasmtime::component::bindgen!({
    world: "widget",
    path: "../wit/since_v0.1.0",
});

impl From<old::View> for view::View {
    fn from(view: old::View) -> view::View {
        view::View {
            items: view.items.into_iter().map(Into::into).collect(),
            item_spacing: view.item_spacing,
            popup: None,
        }
    }
}

/// A 0.1.0 item is selected or not, and takes every input (it could
/// not say which it answers).
impl From<old::Item> for view::Item {
    fn from(item: old::Item) -> view::Item {
        view::Item {
            key: item.key,
            pieces: item.pieces.into_iter().map(Into::into).collect(),
            emphasis: if item.selected { view::Emphasis::Selected } else { view::Emphasis::Normal },
            takes: view::Inputs::ALL,
            tooltip: item.tooltip,
            look: None,
        }
    }
}

impl From<old::Piece> for view::Piece {
    fn from(piece: old::Piece) -> view::Piece {
        match piece {
            old::Piece::Text(text) => view::Piece::Text(text),
            old::Piece::Icon(glyph) => view::Piece::Icon(glyph),
            old::Piece::Image(old::Image::Path(path)) => view::Piece::Image(wit::Image::Path(path).into()),
            old::Piece::Image(old::Image::Pixels(old::Pixels { width, height, rgba })) => {
                view::Piece::Image(wit::Image::Pixels(wit::Pixels { width, height, rgba }).into())
            }
            old::Piece::BinaryClock(clock) => view::Piece::BinaryClock(
                wit::BinaryClock {
                    hour: clock.hour,
                    minute: clock.minute,
                    second: clock.second,
                    style: match clock.style {
                        old::BinaryClockStyle::Circle => wit::BinaryClockStyle::Circle,
                        old::BinaryClockStyle::Rectangle => wit::BinaryClockStyle::Rectangle,
                    },
                }
                .into(),
            ),
        }
    }
}

impl From<view::Input> for old::Input {
    fn from(input: view::Input) -> old::Input {
        use old::ScrollDirection as Old;
        match wit::Input::from(input) {
            wit::Input::PrimaryClick => old::Input::PrimaryClick,
            wit::Input::DoubleClick => old::Input::DoubleClick,
            wit::Input::SecondaryClick => old::Input::SecondaryClick,
            wit::Input::MiddleClick => old::Input::MiddleClick,
            wit::Input::Extra1Click => old::Input::Extra1Click,
            wit::Input::Extra2Click => old::Input::Extra2Click,
            wit::Input::Scroll(direction) => old::Input::Scroll(match direction {
                wit::ScrollDirection::Up => Old::Up,
                wit::ScrollDirection::Down => Old::Down,
                wit::ScrollDirection::Left => Old::Left,
                wit::ScrollDirection::Right => Old::Right,
            }),
        }
    }
}

impl From<old::Schedule> for runtime::Schedule {
    fn from(schedule: old::Schedule) -> runtime::Schedule {
        runtime::Schedule { interval_ms: schedule.interval_ms, align_to_wall_clock: schedule.align_to_wall_clock }
    }
}

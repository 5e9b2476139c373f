//! `obi:widget@0.1.4`: the view and popup before styled text, and the
//! latest release's types for every interface that has not changed since.
//! Its views are lifted into the latest release's (every piece it can
//! give, the latest has), and so into the host's model; the releases
//! before it share its view.

use self::obi::widget::{popup, view};
use super::since_v0_1_5::obi::widget::{popup as latest_popup, view as latest};

wasmtime::component::bindgen!({
    world: "widget",
    path: "../wit/since_v0.1.4",
    with: {
        "obi:widget/types": super::since_v0_1_5::obi::widget::types,
        "obi:widget/log": super::since_v0_1_5::obi::widget::log,
        "obi:widget/clock": super::since_v0_1_5::obi::widget::clock,
        "obi:widget/calendar": super::since_v0_1_5::obi::widget::calendar,
        "obi:widget/metrics": super::since_v0_1_5::obi::widget::metrics,
        "obi:widget/disks": super::since_v0_1_5::obi::widget::disks,
        "obi:widget/battery": super::since_v0_1_5::obi::widget::battery,
        "obi:widget/network": super::since_v0_1_5::obi::widget::network,
        "obi:widget/process": super::since_v0_1_5::obi::widget::process,
        "obi:widget/commands": super::since_v0_1_5::obi::widget::commands,
        "obi:widget/command-lines": super::since_v0_1_5::obi::widget::command_lines,
        "obi:widget/web": super::since_v0_1_5::obi::widget::web,
        "obi:widget/tiler": super::since_v0_1_5::obi::widget::tiler,
        "obi:widget/keyboard": super::since_v0_1_5::obi::widget::keyboard,
        "obi:widget/media": super::since_v0_1_5::obi::widget::media,
        "obi:widget/media-cover": super::since_v0_1_5::obi::widget::media_cover,
        "obi:widget/tray": super::since_v0_1_5::obi::widget::tray,
        "obi:widget/audio": super::since_v0_1_5::obi::widget::audio,
    },
});

impl From<view::View> for crate::view::View {
    fn from(view: view::View) -> crate::view::View {
        latest::View::from(view).into()
    }
}

impl From<popup::Popup> for crate::view::popup::Popup {
    fn from(popup: popup::Popup) -> crate::view::popup::Popup {
        latest_popup::Popup::from(popup).into()
    }
}

impl From<view::View> for latest::View {
    fn from(view: view::View) -> latest::View {
        latest::View { items: view.items.into_iter().map(Into::into).collect(), item_spacing: view.item_spacing }
    }
}

impl From<view::Item> for latest::Item {
    fn from(item: view::Item) -> latest::Item {
        latest::Item {
            key: item.key,
            pieces: pieces(item.pieces),
            emphasis: item.emphasis.into(),
            takes: takes(item.takes),
            tooltip: item.tooltip,
        }
    }
}

fn takes(inputs: view::Inputs) -> latest::Inputs {
    use latest::Inputs as Latest;
    use view::Inputs as Old;
    [
        (Old::PRIMARY_CLICK, Latest::PRIMARY_CLICK),
        (Old::DOUBLE_CLICK, Latest::DOUBLE_CLICK),
        (Old::SECONDARY_CLICK, Latest::SECONDARY_CLICK),
        (Old::MIDDLE_CLICK, Latest::MIDDLE_CLICK),
        (Old::EXTRA1_CLICK, Latest::EXTRA1_CLICK),
        (Old::EXTRA2_CLICK, Latest::EXTRA2_CLICK),
        (Old::SCROLL, Latest::SCROLL),
    ]
    .into_iter()
    .filter(|(old, _)| inputs.contains(*old))
    .fold(Latest::empty(), |takes, (_, latest)| takes | latest)
}

fn pieces(pieces: Vec<view::Piece>) -> Vec<latest::Piece> {
    pieces.into_iter().map(Into::into).collect()
}

impl From<view::Piece> for latest::Piece {
    fn from(piece: view::Piece) -> latest::Piece {
        match piece {
            view::Piece::Text(text) => latest::Piece::Text(text),
            view::Piece::Icon(glyph) => latest::Piece::Icon(glyph),
            view::Piece::Image(image) => latest::Piece::Image(image),
            view::Piece::BinaryClock(clock) => latest::Piece::BinaryClock(clock),
            view::Piece::HeldImage(handle) => latest::Piece::HeldImage(handle),
        }
    }
}

impl From<view::Emphasis> for latest::Emphasis {
    fn from(emphasis: view::Emphasis) -> latest::Emphasis {
        match emphasis {
            view::Emphasis::Normal => latest::Emphasis::Normal,
            view::Emphasis::Selected => latest::Emphasis::Selected,
            view::Emphasis::Muted => latest::Emphasis::Muted,
            view::Emphasis::Urgent => latest::Emphasis::Urgent,
        }
    }
}

impl From<popup::Popup> for latest_popup::Popup {
    fn from(popup: popup::Popup) -> latest_popup::Popup {
        latest_popup::Popup { item_key: popup.item_key, blocks: popup.blocks.into_iter().map(Into::into).collect() }
    }
}

impl From<popup::Block> for latest_popup::Block {
    fn from(block: popup::Block) -> latest_popup::Block {
        match block {
            popup::Block::Line(cell) => latest_popup::Block::Line(cell.into()),
            popup::Block::Grid(rows) => latest_popup::Block::Grid(
                rows.into_iter().map(|row| row.into_iter().map(Into::into).collect()).collect(),
            ),
            popup::Block::Separator => latest_popup::Block::Separator,
        }
    }
}

impl From<popup::Cell> for latest_popup::Cell {
    fn from(cell: popup::Cell) -> latest_popup::Cell {
        latest_popup::Cell {
            key: cell.key,
            content: match cell.content {
                popup::Content::Label(label) => latest_popup::Content::Label(pieces(label)),
                popup::Content::Button(face) => latest_popup::Content::Button(pieces(face)),
                popup::Content::Slider(value) => latest_popup::Content::Slider(value),
            },
            emphasis: cell.emphasis.into(),
            takes: takes(cell.takes),
        }
    }
}

impl From<crate::view::popup::PopupInput> for popup::PopupInput {
    fn from(input: crate::view::popup::PopupInput) -> popup::PopupInput {
        match latest_popup::PopupInput::from(input) {
            latest_popup::PopupInput::Input(input) => popup::PopupInput::Input(input),
            latest_popup::PopupInput::Slide(value) => popup::PopupInput::Slide(value),
        }
    }
}

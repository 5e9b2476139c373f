//! `obi:widget@0.1.5`: the view and popup of styled text, before items
//! had looks of their own, over the shapes of its other interfaces that
//! later releases share (the table in [`super`]). Its views are lifted
//! into the next shapes (every item it can give, the next view has with
//! no look), and so into the host's model.

use self::obi::widget::{popup, view};
use super::{popup_v0_1_6 as next_popup, view_v0_1_6 as next_view};

wasmtime::component::bindgen!({
    world: "widget",
    path: "../wit/since_v0.1.5",
    with: {
        "obi:widget/types": super::types_v0_1_0,
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
        "obi:widget/web": super::web_v0_1_0,
        "obi:widget/tiler": super::tiler_v0_1_1,
        "obi:widget/tiler-mode": super::tiler_mode_v0_1_5,
        "obi:widget/keyboard": super::keyboard_v0_1_1,
        "obi:widget/media": super::media_v0_1_1,
        "obi:widget/media-cover": super::media_cover_v0_1_4,
        "obi:widget/tray": super::tray_v0_1_1,
        "obi:widget/audio": super::audio_v0_1_4,
    },
});

impl From<view::View> for crate::view::View {
    fn from(view: view::View) -> crate::view::View {
        next_view::View::from(view).into()
    }
}

impl From<popup::Popup> for crate::view::popup::Popup {
    fn from(popup: popup::Popup) -> crate::view::popup::Popup {
        next_popup::Popup::from(popup).into()
    }
}

impl From<view::View> for next_view::View {
    fn from(view: view::View) -> next_view::View {
        next_view::View { items: view.items.into_iter().map(Into::into).collect(), item_spacing: view.item_spacing }
    }
}

impl From<view::Item> for next_view::Item {
    fn from(item: view::Item) -> next_view::Item {
        next_view::Item {
            key: item.key,
            pieces: pieces(item.pieces),
            emphasis: item.emphasis.into(),
            takes: takes(item.takes),
            tooltip: item.tooltip,
            look: None,
        }
    }
}

fn takes(inputs: view::Inputs) -> next_view::Inputs {
    use next_view::Inputs as Next;
    use view::Inputs as Old;
    [
        (Old::PRIMARY_CLICK, Next::PRIMARY_CLICK),
        (Old::DOUBLE_CLICK, Next::DOUBLE_CLICK),
        (Old::SECONDARY_CLICK, Next::SECONDARY_CLICK),
        (Old::MIDDLE_CLICK, Next::MIDDLE_CLICK),
        (Old::EXTRA1_CLICK, Next::EXTRA1_CLICK),
        (Old::EXTRA2_CLICK, Next::EXTRA2_CLICK),
        (Old::SCROLL, Next::SCROLL),
    ]
    .into_iter()
    .filter(|(old, _)| inputs.contains(*old))
    .fold(Next::empty(), |takes, (_, next)| takes | next)
}

fn pieces(pieces: Vec<view::Piece>) -> Vec<next_view::Piece> {
    pieces.into_iter().map(Into::into).collect()
}

impl From<view::Piece> for next_view::Piece {
    fn from(piece: view::Piece) -> next_view::Piece {
        match piece {
            view::Piece::Text(text) => next_view::Piece::Text(text),
            view::Piece::Icon(glyph) => next_view::Piece::Icon(glyph),
            view::Piece::Image(image) => next_view::Piece::Image(image),
            view::Piece::BinaryClock(clock) => next_view::Piece::BinaryClock(clock),
            view::Piece::HeldImage(handle) => next_view::Piece::HeldImage(handle),
            view::Piece::Styled(spans) => next_view::Piece::Styled(spans.into_iter().map(Into::into).collect()),
        }
    }
}

impl From<view::Span> for next_view::Span {
    fn from(span: view::Span) -> next_view::Span {
        let colour = |view::Colour { red, green, blue, alpha }| next_view::Colour { red, green, blue, alpha };
        let length = |length| match length {
            view::Length::Ems(ems) => next_view::Length::Ems(ems),
            view::Length::Points(points) => next_view::Length::Points(points),
        };
        let style = span.style;
        next_view::Span {
            text: span.text,
            style: next_view::TextStyle {
                colour: style.colour.map(colour),
                background: style.background.map(colour),
                weight: style.weight,
                italic: style.italic,
                size: style.size.map(length),
                family: style.family,
                rise: style.rise.map(length),
                underline: style.underline,
                strikethrough: style.strikethrough,
            },
        }
    }
}

impl From<view::Emphasis> for next_view::Emphasis {
    fn from(emphasis: view::Emphasis) -> next_view::Emphasis {
        match emphasis {
            view::Emphasis::Normal => next_view::Emphasis::Normal,
            view::Emphasis::Selected => next_view::Emphasis::Selected,
            view::Emphasis::Muted => next_view::Emphasis::Muted,
            view::Emphasis::Urgent => next_view::Emphasis::Urgent,
        }
    }
}

impl From<popup::Popup> for next_popup::Popup {
    fn from(popup: popup::Popup) -> next_popup::Popup {
        next_popup::Popup { item_key: popup.item_key, blocks: popup.blocks.into_iter().map(Into::into).collect() }
    }
}

impl From<popup::Block> for next_popup::Block {
    fn from(block: popup::Block) -> next_popup::Block {
        match block {
            popup::Block::Line(cell) => next_popup::Block::Line(cell.into()),
            popup::Block::Grid(rows) => {
                next_popup::Block::Grid(rows.into_iter().map(|row| row.into_iter().map(Into::into).collect()).collect())
            }
            popup::Block::Separator => next_popup::Block::Separator,
        }
    }
}

impl From<popup::Cell> for next_popup::Cell {
    fn from(cell: popup::Cell) -> next_popup::Cell {
        next_popup::Cell {
            key: cell.key,
            content: match cell.content {
                popup::Content::Label(label) => next_popup::Content::Label(pieces(label)),
                popup::Content::Button(face) => next_popup::Content::Button(pieces(face)),
                popup::Content::Slider(value) => next_popup::Content::Slider(value),
            },
            emphasis: cell.emphasis.into(),
            takes: takes(cell.takes),
        }
    }
}

impl From<crate::view::popup::PopupInput> for popup::PopupInput {
    fn from(input: crate::view::popup::PopupInput) -> popup::PopupInput {
        match next_popup::PopupInput::from(input) {
            next_popup::PopupInput::Input(input) => popup::PopupInput::Input(input),
            next_popup::PopupInput::Slide(value) => popup::PopupInput::Slide(value),
        }
    }
}

//! Where everything on the bar goes, before anything is painted.
//!
//! The window is inset by `margin` to give the bar's background, which is
//! inset by `padding` to give the content box. Each side is measured, then
//! placed: left from the content's left edge, right ending at its right
//! edge, centre centred on the bar. Widgets are `widget_spacing` apart,
//! items of one widget half a font size apart; a group (whole bar, one per
//! side, or one per widget) adds a margin of its own around what it holds.

use super::geometry::Rect;
use super::grouping::GroupKind;
use super::{Scene, SceneWidget, Style};
use crate::config::Side;
use crate::view::look::{Align, LeastWidth};
use crate::view::{Emphasis, Inputs, Item, Piece, View, WidgetState};

/// One item, measured and placed.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedItem {
    /// The index of its widget in the scene.
    pub widget: usize,
    pub item: Item,
    /// Its pieces as drawn (text truncated), with their widths.
    pub pieces: Vec<(Piece, f32)>,
    pub rect: Rect,
    /// Where the separator line after it stands, when its look asks for
    /// one and another item of its widget follows.
    pub separator_at: Option<f32>,
}

impl PlacedItem {
    /// Where the item may leave ink in a `window`: its column of the
    /// window, a pixel wider either side. Its text and icons are centred
    /// on its row and reach past a row shorter than they are (a thick
    /// padding on a thin bar), and antialiasing a pixel past a glyph's box;
    /// a repaint that kept to `rect` would cut them. An item given no room
    /// (a padding wider than the bar) draws nothing.
    pub fn reach(&self, window: &Rect) -> Rect {
        const OVERHANG: f32 = 1.0;
        if self.rect.is_empty() {
            return self.rect;
        }
        let right = self.separator_at.map_or(self.rect.right(), |at| at.max(self.rect.right()) + SEPARATOR_WIDTH);
        Rect::new(self.rect.x - OVERHANG, window.y, right - self.rect.x + 2.0 * OVERHANG, window.height)
    }

    /// Where its pieces start: after its padding, or inside a look's
    /// border where its alignment puts them.
    pub fn content_x(&self, style: &Style) -> f32 {
        let Some(look) = &self.item.look else { return self.rect.x + item_padding(style) };
        let (left, right) = look.border.map_or((0.0, 0.0), |border| (border.left, border.right));
        let (left, right) = (left + look.padding, right + look.padding);
        let room = self.rect.width - left - right - content_width(&self.pieces, style);
        let offset = match look.align {
            Align::Left => 0.0,
            Align::Center => room / 2.0,
            Align::Right => room,
        };
        self.rect.x + left + offset.max(0.0)
    }
}

/// The width of a separator line, in logical pixels.
pub const SEPARATOR_WIDTH: f32 = 1.0;

/// The keyboard's ring around an item (see [`super::Frame::focus`]): its
/// width, and how far past the item it reaches.
pub const FOCUS_RING_WIDTH: f32 = 2.0;
pub const FOCUS_RING_REACH: f32 = 3.0;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Layout {
    /// The window, with the bar's background inside it at `background`.
    pub window: Rect,
    pub background: Rect,
    pub groups: Vec<Rect>,
    pub items: Vec<PlacedItem>,
}

/// The key of the item drawn in place of a failed widget.
pub const FAILED_KEY: &str = "\u{0}failed";

/// Phosphor's "warning" glyph, drawn in front of a failed widget's name.
const WARNING_GLYPH: &str = "\u{e4e0}";

/// Lays out `scene` on a `width` x `height` window. `fit` gives each piece
/// as it will be drawn (text cut to the width it is given) and its width.
///
/// The sides never overlap: the left side keeps its room, the right side
/// gets what the left leaves, and the centre, centred on the bar if it can
/// be, is shifted into the room between them, then squeezed into it.
/// Squeezing cuts the widest label first; when labels are as short as
/// they go, the items farthest from the side's anchor are left out.
pub fn lay_out(scene: &Scene, width: f32, height: f32, fit: &mut dyn FnMut(&Piece, f32) -> (Piece, f32)) -> Layout {
    let style = &scene.style;
    let window = Rect::new(0.0, 0.0, width, height);
    let background = window.inset(style.margin);
    let content = background.inset(style.padding);
    let group_margin = group_margin(style);
    let mut layout = Layout { window, background, groups: Vec::new(), items: Vec::new() };

    let kind = style.grouping.kind;
    // A whole-bar group spans the content box; what it holds keeps clear of its edges.
    let (inner_left, inner_right) = match kind {
        GroupKind::Bar => (content.x + group_margin, content.right() - group_margin),
        _ => (content.x, content.right()),
    };
    if kind == GroupKind::Bar && scene.widgets.iter().any(shows_anything) {
        layout.groups.push(content);
    }
    let side_margin = if kind == GroupKind::Alignment { group_margin } else { 0.0 };
    let widget_margin = if kind == GroupKind::Widget { group_margin } else { 0.0 };
    let row = |widgets| Row { widgets, spacing: style.widget_spacing, side_margin, widget_margin };

    let left = row(measure_side(scene, Side::Left, fit));
    let mut center = row(measure_side(scene, Side::Center, fit));
    let mut right = row(measure_side(scene, Side::Right, fit));
    let spacing = style.widget_spacing;
    let left_end = inner_left + left.width();
    let right_from = if left.is_empty() { inner_left } else { left_end + spacing };
    right.squeeze(inner_right - right_from, Drop::First, style, fit);
    let right_start = inner_right - right.width();
    let room_from = if left.is_empty() { inner_left } else { left_end + spacing };
    let room_to = if right.is_empty() { inner_right } else { right_start - spacing };
    center.squeeze(room_to - room_from, Drop::Last, style, fit);
    let centred = background.x + (background.width - center.width()) / 2.0;
    let center_start = centred.min(room_to - center.width()).max(room_from);

    for (row, start) in [(left, inner_left), (center, center_start), (right, right_start)] {
        if row.is_empty() {
            continue;
        }
        if side_margin > 0.0 {
            layout.groups.push(Rect::new(start, content.y, row.width(), content.height));
        }
        let mut x = start + side_margin;
        for items in row.widgets {
            let width = row_width(&items) + 2.0 * widget_margin;
            if widget_margin > 0.0 {
                layout.groups.push(Rect::new(x, content.y, width, content.height));
            }
            let mut item_x = x + widget_margin;
            let last = items.len().saturating_sub(1);
            for (index, Measured { widget, item, pieces, width, room_after }) in items.into_iter().enumerate() {
                let separated = index < last && item.look.as_ref().is_some_and(|look| look.separator);
                let separator_at = separated.then(|| item_x + width + (room_after - SEPARATOR_WIDTH) / 2.0);
                let rect = Rect::new(item_x, content.y, width, content.height);
                layout.items.push(PlacedItem { widget, item, pieces, rect, separator_at });
                item_x += width + room_after;
            }
            x += width + spacing;
        }
    }
    layout
}

/// One item, measured: its widget's index in the scene, the item, its
/// pieces as they fit with their widths, its width, and the room after it
/// when another of its widget's items follows.
struct Measured {
    widget: usize,
    item: Item,
    pieces: Vec<(Piece, f32)>,
    width: f32,
    room_after: f32,
}

impl Measured {
    fn new(
        widget: usize,
        item: Item,
        gap: f32,
        style: &Style,
        fit: &mut dyn FnMut(&Piece, f32) -> (Piece, f32),
    ) -> Self {
        let pieces: Vec<(Piece, f32)> = item.pieces.iter().map(|piece| fit(piece, style.max_label_width)).collect();
        let room_after = item.look.as_ref().and_then(|look| look.room_after).unwrap_or(gap);
        let mut measured = Measured { widget, item, pieces, width: 0.0, room_after };
        measured.width = measured.width_of_pieces(style, fit);
        measured
    }

    /// Its width with the pieces it has: theirs and its padding, or its
    /// look's least width and border.
    fn width_of_pieces(&self, style: &Style, fit: &mut dyn FnMut(&Piece, f32) -> (Piece, f32)) -> f32 {
        let content = content_width(&self.pieces, style);
        let Some(look) = &self.item.look else { return content + 2.0 * item_padding(style) };
        let least = match &look.least_width {
            Some(LeastWidth::Pixels(pixels)) => *pixels,
            Some(LeastWidth::TextOf(text)) => fit(&Piece::Text(text.clone()), f32::MAX).1,
            None => 0.0,
        };
        let border = look.border.map_or(0.0, |border| border.left + border.right);
        (content + 2.0 * look.padding).max(least) + border
    }

    /// Takes its look's short form, when it has one.
    fn shorten(&mut self, style: &Style, fit: &mut dyn FnMut(&Piece, f32) -> (Piece, f32)) {
        let Some(short) = self.item.look.as_mut().and_then(|look| look.short.take()) else { return };
        self.pieces = short.iter().map(|piece| fit(piece, style.max_label_width)).collect();
        self.item.pieces = short;
        self.width = self.width_of_pieces(style, fit);
    }
}

/// The width of `pieces` side by side.
fn content_width(pieces: &[(Piece, f32)], style: &Style) -> f32 {
    pieces.iter().map(|(_, width)| width).sum::<f32>() + piece_gap(style) * pieces.len().saturating_sub(1) as f32
}

/// The widgets of one side that show something, each as its measured
/// items, with the room groups keep around them.
struct Row {
    widgets: Vec<Vec<Measured>>,
    spacing: f32,
    /// Around the whole side (alignment grouping).
    side_margin: f32,
    /// Around each widget (widget grouping).
    widget_margin: f32,
}

/// Which items a side that cannot be squeezed further leaves out.
#[derive(Clone, Copy)]
enum Drop {
    /// The first ones (the right side's, nearest the centre).
    First,
    /// The last ones (the centre's, at its end).
    Last,
}

/// A label is not cut shorter than this many font sizes.
const SHORTEST_LABEL: f32 = 2.0;

impl Row {
    fn is_empty(&self) -> bool {
        self.widgets.is_empty()
    }

    fn width(&self) -> f32 {
        if self.widgets.is_empty() {
            return 0.0;
        }
        let widgets: f32 = self.widgets.iter().map(|items| row_width(items) + 2.0 * self.widget_margin).sum();
        widgets + self.spacing * (self.widgets.len() - 1) as f32 + 2.0 * self.side_margin
    }

    /// Where the widest text label longer than `shortest` is: widget, item and piece.
    fn widest_label(&self, shortest: f32) -> Option<(usize, usize, usize)> {
        let mut widest: Option<((usize, usize, usize), f32)> = None;
        for (w, items) in self.widgets.iter().enumerate() {
            for (i, Measured { item, pieces, .. }) in items.iter().enumerate() {
                for (p, ((_, width), original)) in pieces.iter().zip(&item.pieces).enumerate() {
                    if matches!(original, Piece::Text(_) | Piece::Styled(_))
                        && *width > shortest
                        && widest.is_none_or(|(_, widest)| *width > widest)
                    {
                        widest = Some(((w, i, p), *width));
                    }
                }
            }
        }
        widest.map(|(at, _)| at)
    }

    /// Makes the row fit in `room`: items that have a short form take it
    /// (all of them, as i3bar's blocks do), then its widest labels are
    /// cut, then items are left out from the `drop` end.
    fn squeeze(&mut self, room: f32, drop: Drop, style: &Style, fit: &mut dyn FnMut(&Piece, f32) -> (Piece, f32)) {
        if self.width() > room {
            self.widgets.iter_mut().flatten().for_each(|measured| measured.shorten(style, fit));
        }
        let shortest = style.font_size * SHORTEST_LABEL;
        while self.width() > room {
            let Some((widget, item, piece)) = self.widest_label(shortest) else { break };
            let overflow = self.width() - room;
            let measured = &mut self.widgets[widget][item];
            let fitted_width = measured.pieces[piece].1;
            let (cut, cut_width) = fit(&measured.item.pieces[piece], (fitted_width - overflow).max(shortest));
            if cut_width >= fitted_width {
                break;
            }
            measured.pieces[piece] = (cut, cut_width);
            measured.width = measured.width_of_pieces(style, fit);
        }
        while self.width() > room && !self.widgets.is_empty() {
            let (index, end) = match drop {
                Drop::First => (0, 0),
                Drop::Last => (self.widgets.len() - 1, self.widgets[self.widgets.len() - 1].len() - 1),
            };
            self.widgets[index].remove(end);
            if self.widgets[index].is_empty() {
                self.widgets.remove(index);
            }
        }
    }
}

/// The side's widgets that show something, each as its measured items.
fn measure_side(scene: &Scene, side: Side, fit: &mut dyn FnMut(&Piece, f32) -> (Piece, f32)) -> Vec<Vec<Measured>> {
    let style = &scene.style;
    scene
        .widgets
        .iter()
        .enumerate()
        .filter(|(_, widget)| widget.side == side)
        .map(|(index, widget)| {
            let gap = match &widget.state {
                WidgetState::Ready(View { item_spacing: Some(spacing), .. }) => *spacing,
                _ => item_gap(style),
            };
            displayed_items(widget).into_iter().map(|item| Measured::new(index, item, gap, style, fit)).collect()
        })
        .filter(|items: &Vec<Measured>| !items.is_empty())
        .collect()
}

/// The width of one widget's items, with the room between them.
fn row_width(items: &[Measured]) -> f32 {
    let between: f32 = items.iter().rev().skip(1).map(|measured| measured.room_after).sum();
    items.iter().map(|measured| measured.width).sum::<f32>() + between
}

/// The items a widget shows: its view, or one warning item when it failed.
fn displayed_items(widget: &SceneWidget) -> Vec<Item> {
    match &widget.state {
        WidgetState::Pending => Vec::new(),
        WidgetState::Ready(view) => view.items.clone(),
        WidgetState::Failed { message } => vec![Item {
            key: FAILED_KEY.into(),
            pieces: vec![Piece::Icon(WARNING_GLYPH.into()), Piece::Text(widget.name.clone())],
            emphasis: Emphasis::Normal,
            takes: Inputs::NONE,
            tooltip: Some(message.clone()),
            look: None,
        }],
    }
}

fn shows_anything(widget: &SceneWidget) -> bool {
    match &widget.state {
        WidgetState::Pending => false,
        WidgetState::Ready(view) => !view.items.is_empty(),
        WidgetState::Failed { .. } => true,
    }
}

/// The room a group keeps between its edge and what it holds.
pub fn group_margin(style: &Style) -> f32 {
    style.font_size * 0.4
}

pub fn item_gap(style: &Style) -> f32 {
    style.font_size * 0.5
}

pub fn item_padding(style: &Style) -> f32 {
    style.font_size * 0.4
}

pub fn piece_gap(style: &Style) -> f32 {
    style.font_size * 0.35
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::colour::Rgba;
    use crate::config::model::SpacingKind;
    use crate::render::{Grouping, Insets};
    use crate::theme::Theme;
    use crate::view::look::{Border, Look};

    fn style(kind: GroupKind) -> Style {
        Style {
            height: 40.0,
            font_size: 10.0,
            icon_scale: 1.0,
            widget_spacing: 10.0,
            margin: Insets { top: 2.0, bottom: 4.0, left: 6.0, right: 8.0 },
            padding: Insets { top: 5.0, bottom: 5.0, left: 10.0, right: 20.0 },
            max_label_width: 400.0,
            theme: Theme::from_config(None, 255),
            grouping: Grouping { kind, ..Grouping::default() },
            see_through: true,
            text_font: None,
        }
    }

    fn widget(side: Side, texts: &[&str]) -> SceneWidget {
        let items = texts
            .iter()
            .map(|text| Item {
                key: (*text).into(),
                pieces: vec![Piece::Text((*text).into())],
                emphasis: Emphasis::Normal,
                takes: Inputs::NONE,
                tooltip: None,
                look: None,
            })
            .collect();
        SceneWidget { side, name: "test".into(), state: WidgetState::Ready(View::of(items)) }
    }

    /// Every character is 10 px wide; a text cut to fit keeps the
    /// characters that fit and ends in "…".
    fn fit_fixed(piece: &Piece, max_width: f32) -> (Piece, f32) {
        match piece {
            Piece::Text(text) if 10.0 * text.chars().count() as f32 > max_width => {
                let kept: String = text.chars().take((max_width / 10.0) as usize - 1).collect();
                let cut = format!("{kept}…");
                let width = 10.0 * cut.chars().count() as f32;
                (Piece::Text(cut), width)
            }
            Piece::Text(text) => (piece.clone(), 10.0 * text.chars().count() as f32),
            _ => (piece.clone(), 10.0),
        }
    }

    fn lay_out_fixed(scene: &Scene) -> Layout {
        lay_out(scene, 500.0, 40.0, &mut fit_fixed)
    }

    fn scene(kind: GroupKind) -> Scene {
        Scene {
            style: style(kind),
            widgets: vec![
                widget(Side::Left, &["ab", "c"]),
                widget(Side::Left, &["d"]),
                widget(Side::Center, &["center"]),
                widget(Side::Right, &["xyz"]),
                SceneWidget { side: Side::Right, name: "pending".into(), state: WidgetState::Pending },
            ],
        }
    }

    fn xs(layout: &Layout) -> Vec<(f32, f32)> {
        layout.items.iter().map(|item| (item.rect.x, item.rect.width)).collect()
    }

    #[test]
    fn margin_then_padding_then_sides() {
        let layout = lay_out_fixed(&scene(GroupKind::None));
        assert_eq!(layout.background, Rect::new(6.0, 2.0, 486.0, 34.0));
        // Items are the content box's height; each has 4 px of padding either side.
        assert!(layout.items.iter().all(|item| item.rect.y == 7.0 && item.rect.height == 24.0));
        // Left: 16 + "ab" (28) + gap 5 + "c" (18) + spacing 10 + "d" (18).
        // Centre: "center" (68) centred on the background (6 + 486 / 2 = 249).
        // Right: "xyz" (38) ending at 500 - 8 - 20.
        assert_eq!(xs(&layout), [(16.0, 28.0), (49.0, 18.0), (77.0, 18.0), (215.0, 68.0), (434.0, 38.0)]);
        assert!(layout.groups.is_empty());
    }

    #[test]
    fn a_widget_may_space_its_own_items() {
        let mut scene = scene(GroupKind::None);
        if let WidgetState::Ready(view) = &mut scene.widgets[0].state {
            view.item_spacing = Some(12.0);
        }
        let layout = lay_out_fixed(&scene);
        // "ab" at 16 (28 wide), then "c" 12 px on instead of the 5 px gap.
        assert_eq!(xs(&layout)[..3], [(16.0, 28.0), (56.0, 18.0), (84.0, 18.0)]);
    }

    #[test]
    fn each_grouping_kind_puts_its_groups_around_what_it_holds() {
        let bar = lay_out_fixed(&scene(GroupKind::Bar));
        assert_eq!(bar.groups, [Rect::new(16.0, 7.0, 456.0, 24.0)]);
        assert_eq!(bar.items[0].rect.x, 20.0, "the group's margin is kept on the left");
        assert_eq!(bar.items[4].rect.right(), 468.0, "and on the right");

        let sides = lay_out_fixed(&scene(GroupKind::Alignment));
        assert_eq!(
            sides.groups,
            [Rect::new(16.0, 7.0, 87.0, 24.0), Rect::new(211.0, 7.0, 76.0, 24.0), Rect::new(426.0, 7.0, 46.0, 24.0)]
        );

        let widgets = lay_out_fixed(&scene(GroupKind::Widget));
        let groups: Vec<(f32, f32)> = widgets.groups.iter().map(|group| (group.x, group.width)).collect();
        // The pending widget shows nothing and gets no group.
        assert_eq!(groups, [(16.0, 59.0), (85.0, 26.0), (211.0, 76.0), (426.0, 46.0)]);
        assert_eq!(widgets.items[1].rect.right() + 4.0, 75.0, "an item keeps the group's margin from its edge");
    }

    fn crowded(left: &str, center: &[&str], right: &str) -> Layout {
        let scene = Scene {
            style: style(GroupKind::None),
            widgets: vec![widget(Side::Left, &[left]), widget(Side::Center, center), widget(Side::Right, &[right])],
        };
        lay_out_fixed(&scene)
    }

    fn side_of(layout: &Layout, widget: usize) -> Vec<&PlacedItem> {
        layout.items.iter().filter(|item| item.widget == widget).collect()
    }

    #[test]
    fn a_crowded_right_side_shifts_the_centre_out_of_its_way() {
        // Right: 20 characters, 208 wide, from 264; the centre (68 wide) would start at 215.
        let layout = crowded("ab", &["center"], &"x".repeat(20));
        let right = side_of(&layout, 2)[0].rect;
        let center = side_of(&layout, 1)[0].rect;
        assert_eq!((right.x, center.width), (264.0, 68.0));
        assert_eq!(center.right(), 254.0, "the centre ends a widget spacing before the right side");
    }

    #[test]
    fn a_centre_wider_than_its_room_is_cut() {
        // Right: 30 characters from 164; the room is 54..154.
        let layout = crowded("ab", &["centre of attention"], &"x".repeat(30));
        let center = side_of(&layout, 1)[0];
        assert!(center.rect.x >= 54.0 && center.rect.right() <= 154.0, "{:?}", center.rect);
        match &center.pieces[0].0 {
            Piece::Text(text) => assert!(text.ends_with('…') && text.starts_with("centre"), "{text}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_right_side_never_reaches_into_the_left() {
        let layout = crowded(&"l".repeat(25), &[], &"r".repeat(25));
        let left = side_of(&layout, 0)[0].rect;
        let right = side_of(&layout, 2)[0].rect;
        assert_eq!(left.width, 258.0, "the left side keeps its room");
        assert!(right.x >= left.right() + 10.0 && right.right() <= 472.0, "{left:?} {right:?}");
    }

    #[test]
    fn labels_are_cut_before_items_are_left_out_from_the_end() {
        // Room: 174..254 (80 px) for 121 px: "abcdefgh" is cut, and "cd" still fits.
        let layout = crowded(&"l".repeat(14), &["abcdefgh", "cd"], &"r".repeat(20));
        let kept: Vec<(f32, f32)> = side_of(&layout, 1).iter().map(|item| (item.rect.x, item.rect.right())).collect();
        assert_eq!(kept.len(), 2);
        assert!(kept.iter().all(|&(from, to)| from >= 174.0 && to <= 254.0), "{kept:?}");
        // Room: 234..254 (20 px): labels of one character cannot be cut, so "d" goes.
        let layout = crowded(&"l".repeat(20), &["c", "d"], &"r".repeat(20));
        let kept: Vec<&str> = side_of(&layout, 1).iter().map(|item| item.item.key.as_str()).collect();
        assert_eq!(kept, ["c"]);
    }

    fn with_looks(side: Side, items: Vec<(&str, Look)>) -> SceneWidget {
        let items = items
            .into_iter()
            .map(|(text, look)| Item {
                key: text.into(),
                pieces: vec![Piece::Text(text.into())],
                emphasis: Emphasis::Normal,
                takes: Inputs::NONE,
                tooltip: None,
                look: Some(Box::new(look)),
            })
            .collect();
        SceneWidget { side, name: "blocks".into(), state: WidgetState::Ready(View::of(items)) }
    }

    #[test]
    fn an_item_with_a_look_is_its_least_width_inside_its_border_and_keeps_its_own_room() {
        let border = Border { colour: Rgba::rgb(255, 0, 0), top: 1.0, right: 3.0, bottom: 1.0, left: 2.0 };
        let blocks = with_looks(
            Side::Left,
            vec![
                ("ab", Look { room_after: Some(9.0), separator: true, border: Some(border), ..Look::default() }),
                ("c", Look { least_width: Some(LeastWidth::Pixels(50.0)), align: Align::Center, ..Look::default() }),
                (
                    "d",
                    Look { least_width: Some(LeastWidth::TextOf("wxyz".into())), separator: true, ..Look::default() },
                ),
            ],
        );
        let scene = Scene { style: style(GroupKind::None), widgets: vec![blocks] };
        let layout = lay_out_fixed(&scene);
        // No padding: "ab" is 20 wide and its border 2 + 3; 9 px after it,
        // then the theme's gap (5) after "c", 50 wide, and "d" as wide as "wxyz".
        assert_eq!(xs(&layout), [(16.0, 25.0), (50.0, 50.0), (105.0, 40.0)]);
        assert_eq!(layout.items[0].separator_at, Some(41.0 + 4.0), "halfway across the 9 px after it");
        assert_eq!(layout.items[2].separator_at, None, "none after the widget's last item");
        assert_eq!(layout.items[0].content_x(&scene.style), 18.0, "inside the left border");
        assert_eq!(layout.items[1].content_x(&scene.style), 50.0 + 20.0, "centred in its 50 px");
        assert_eq!(layout.items[0].reach(&layout.window).right(), 41.0 + 4.0 + SEPARATOR_WIDTH + 1.0);
    }

    #[test]
    fn a_looks_padding_is_inside_its_border_on_both_sides() {
        let border = Border { colour: Rgba::rgb(255, 0, 0), top: 1.0, right: 1.0, bottom: 1.0, left: 1.0 };
        let button = Look { padding: 5.0, border: Some(border), align: Align::Center, ..Look::default() };
        let scene =
            Scene { style: style(GroupKind::None), widgets: vec![with_looks(Side::Left, vec![("ab", button)])] };
        let layout = lay_out_fixed(&scene);
        assert_eq!(xs(&layout), [(16.0, 1.0 + 5.0 + 20.0 + 5.0 + 1.0)]);
        assert_eq!(layout.items[0].content_x(&scene.style), 16.0 + 1.0 + 5.0);
    }

    #[test]
    fn a_crowded_row_takes_every_short_form_before_cutting_labels() {
        let short = |text: &str| Look { short: Some(vec![Piece::Text(text.into())]), ..Look::default() };
        let blocks = |side| with_looks(side, vec![("long text one", short("one")), ("long text two", short("2"))]);
        let scene = |width: f32| {
            let scene = Scene { style: style(GroupKind::None), widgets: vec![blocks(Side::Right)] };
            lay_out(&scene, width, 40.0, &mut fit_fixed)
        };
        let texts = |layout: &Layout| -> Vec<String> {
            layout
                .items
                .iter()
                .map(|item| format!("{:?}", item.pieces.iter().map(|(p, _)| p).collect::<Vec<_>>()))
                .collect()
        };
        let roomy = scene(500.0);
        assert_eq!(texts(&roomy), [r#"[Text("long text one")]"#, r#"[Text("long text two")]"#]);
        // 130 + 5 + 130 px do not fit in 240; "one" and "2" do, both shortened.
        let crowded = scene(270.0);
        assert_eq!(texts(&crowded), [r#"[Text("one")]"#, r#"[Text("2")]"#]);
        assert_eq!(xs(&crowded), [(197.0, 30.0), (232.0, 10.0)]);
    }

    #[test]
    fn negative_and_oversized_spacing_cannot_turn_the_bar_inside_out() {
        let mut scene = scene(GroupKind::None);
        scene.style.margin = Insets::from_spacing(&SpacingKind::All(-5.0));
        scene.style.padding = Insets::from_spacing(&SpacingKind::All(300.0));
        let layout = lay_out_fixed(&scene);
        assert_eq!(layout.background, Rect::new(0.0, 0.0, 500.0, 40.0));
        assert!(layout.items.iter().all(|item| item.rect.height == 0.0 && item.reach(&layout.window).is_empty()));
    }
}

//! What has to be painted again: the region two layouts differ in.

use super::Style;
use super::geometry::Rect;
use super::layout::Layout;

/// The smallest rectangle holding everything drawn differently in `after`
/// than in `before`; `None` when they draw the same. Both are of `style`.
pub fn damage(before: &Layout, after: &Layout, style: &Style) -> Option<Rect> {
    if before.window != after.window || before.background != after.background {
        return Some(after.window);
    }
    let mut region = Rect::default();
    let reach = style.grouping.reach();
    for (these, those) in [(&before.groups, &after.groups), (&after.groups, &before.groups)] {
        for group in these.iter().filter(|group| !those.contains(group)) {
            region = region.union(&group.grow(reach));
        }
    }
    for (these, those) in [(&before.items, &after.items), (&after.items, &before.items)] {
        for item in these.iter().filter(|item| !those.contains(item)) {
            region = region.union(&item.reach(&after.window));
        }
    }
    (!region.is_empty()).then_some(region)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::layout::PlacedItem;
    use crate::render::{GroupKind, Grouping, Insets};
    use crate::theme::Theme;
    use crate::view::{Emphasis, Inputs, Item, Piece};

    fn style() -> Style {
        let theme = Theme::from_config(None, 255);
        let grouping = serde_json::json!({ "kind": "Widget", "style": "DefaultWithShadowB4O1S3" });
        let grouping = Grouping::from_config(Some(&serde_json::from_value(grouping).unwrap()), &theme);
        assert_eq!(grouping.kind, GroupKind::Widget);
        Style {
            height: 30.0,
            font_size: 12.0,
            icon_scale: 1.0,
            widget_spacing: 10.0,
            margin: Insets::default(),
            padding: Insets::default(),
            max_label_width: 100.0,
            theme,
            grouping,
            see_through: true,
            text_font: None,
        }
    }

    fn item(text: &str, x: f32) -> PlacedItem {
        PlacedItem {
            widget: 0,
            item: Item {
                key: "k".into(),
                pieces: vec![Piece::Text(text.into())],
                emphasis: Emphasis::Normal,
                takes: Inputs::NONE,
                tooltip: None,
                look: None,
            },
            pieces: vec![(Piece::Text(text.into()), 20.0)],
            rect: Rect::new(x, 0.0, 30.0, 30.0),
            separator_at: None,
        }
    }

    fn layout(items: Vec<PlacedItem>, groups: Vec<Rect>) -> Layout {
        let window = Rect::new(0.0, 0.0, 500.0, 30.0);
        Layout { window, background: window, groups, items }
    }

    #[test]
    fn an_unchanged_layout_has_no_damage() {
        let before = layout(vec![item("12:00:00", 400.0)], vec![Rect::new(395.0, 0.0, 40.0, 30.0)]);
        assert_eq!(damage(&before, &before.clone(), &style()), None);
    }

    #[test]
    fn a_changed_item_damages_only_itself() {
        let before = layout(vec![item("a", 10.0), item("12:00:00", 400.0)], vec![]);
        let after = layout(vec![item("a", 10.0), item("12:00:01", 400.0)], vec![]);
        assert_eq!(damage(&before, &after, &style()), Some(Rect::new(399.0, 0.0, 32.0, 30.0)));
    }

    #[test]
    fn an_item_in_a_thin_row_damages_its_whole_column() {
        let before = layout(vec![], vec![]);
        let mut thin = item("1", 20.0);
        thin.rect = Rect::new(20.0, 10.0, 30.0, 10.0);
        let after = layout(vec![thin], vec![]);
        assert_eq!(damage(&before, &after, &style()), Some(Rect::new(19.0, 0.0, 32.0, 30.0)));
    }

    #[test]
    fn a_moved_group_damages_both_places_and_its_shadow() {
        let before = layout(vec![], vec![Rect::new(100.0, 5.0, 40.0, 20.0)]);
        let after = layout(vec![], vec![Rect::new(110.0, 5.0, 40.0, 20.0)]);
        // Shadow B4 O1 S3 reaches 8 px past the group.
        assert_eq!(damage(&before, &after, &style()), Some(Rect::new(92.0, -3.0, 66.0, 36.0)));
    }

    #[test]
    fn a_resized_window_is_damaged_whole() {
        let before = layout(vec![], vec![]);
        let mut after = before.clone();
        after.window.width = 600.0;
        assert_eq!(damage(&before, &after, &style()), Some(after.window));
    }
}

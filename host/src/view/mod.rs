//! What a widget shows, as the host keeps it: plain data, checked once when
//! it crosses the sandbox boundary, then handed to layout and painting.

pub mod images;
pub mod look;
pub mod popup;
#[cfg(windows)]
pub mod program_icons;

use look::Look;
pub use obi_markup::{Length, Span, SpanStyle};
use popup::Popup;
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq)]
pub struct View {
    pub items: Vec<Item>,
    /// Pixels between two of these items, when the widget sets its own.
    pub item_spacing: Option<f32>,
    /// The widget's open popup, beside one of these items.
    pub popup: Option<Popup>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub key: String,
    pub pieces: Vec<Piece>,
    pub emphasis: Emphasis,
    /// The inputs the item answers; the others go to the bar's `mouse` config.
    pub takes: Inputs,
    pub tooltip: Option<String>,
    /// Its own look (a status program's block); none: as every item looks.
    pub look: Option<Box<Look>>,
}

impl Item {
    pub fn is_selected(&self) -> bool {
        self.emphasis == Emphasis::Selected
    }
}

/// How an item stands out; the theme gives each its colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Emphasis {
    #[default]
    Normal,
    Selected,
    /// Faded: there, but idle.
    Muted,
    /// Asks for attention.
    Urgent,
}

/// A set of kinds of input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Inputs(u8);

impl Inputs {
    pub const NONE: Inputs = Inputs(0);
    pub const PRIMARY_CLICK: Inputs = Inputs(1);
    pub const DOUBLE_CLICK: Inputs = Inputs(1 << 1);
    pub const SECONDARY_CLICK: Inputs = Inputs(1 << 2);
    pub const MIDDLE_CLICK: Inputs = Inputs(1 << 3);
    pub const EXTRA1_CLICK: Inputs = Inputs(1 << 4);
    pub const EXTRA2_CLICK: Inputs = Inputs(1 << 5);
    pub const SCROLL: Inputs = Inputs(1 << 6);
    pub const ALL: Inputs = Inputs(0x7f);

    /// The kind of `input`.
    pub fn of(input: Input) -> Inputs {
        match input {
            Input::PrimaryClick => Inputs::PRIMARY_CLICK,
            Input::DoubleClick => Inputs::DOUBLE_CLICK,
            Input::SecondaryClick => Inputs::SECONDARY_CLICK,
            Input::MiddleClick => Inputs::MIDDLE_CLICK,
            Input::Extra1Click => Inputs::EXTRA1_CLICK,
            Input::Extra2Click => Inputs::EXTRA2_CLICK,
            Input::Scroll(_) => Inputs::SCROLL,
        }
    }

    pub fn takes(self, input: Input) -> bool {
        self.0 & Inputs::of(input).0 != 0
    }

    /// Whether any click is among them (a scroll is not one).
    pub fn takes_a_click(self) -> bool {
        self.first_click().is_some()
    }

    /// The first click among them, the primary first: what a keyboard's
    /// Return, or assistive technology's click, does to an item.
    pub fn first_click(self) -> Option<Input> {
        let clicks = [Input::PrimaryClick, Input::DoubleClick, Input::SecondaryClick, Input::MiddleClick];
        clicks.into_iter().chain([Input::Extra1Click, Input::Extra2Click]).find(|click| self.takes(*click))
    }
}

impl std::ops::BitOr for Inputs {
    type Output = Inputs;

    fn bitor(self, other: Inputs) -> Inputs {
        Inputs(self.0 | other.0)
    }
}

/// A mouse event on the bar, as widgets and the `mouse` config know them.
/// Read by name (`primary_click`, `scroll_up`), as test scripts give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(try_from = "String")]
pub enum Input {
    PrimaryClick,
    DoubleClick,
    SecondaryClick,
    MiddleClick,
    Extra1Click,
    Extra2Click,
    /// One tick of scrolling (see the `mouse` config's thresholds).
    Scroll(ScrollDirection),
}

impl Input {
    /// Every input, with its name (`primary_click`, `scroll_up` …).
    pub const NAMED: [(Input, &'static str); 10] = [
        (Input::PrimaryClick, "primary_click"),
        (Input::DoubleClick, "double_click"),
        (Input::SecondaryClick, "secondary_click"),
        (Input::MiddleClick, "middle_click"),
        (Input::Extra1Click, "extra1_click"),
        (Input::Extra2Click, "extra2_click"),
        (Input::Scroll(ScrollDirection::Up), "scroll_up"),
        (Input::Scroll(ScrollDirection::Down), "scroll_down"),
        (Input::Scroll(ScrollDirection::Left), "scroll_left"),
        (Input::Scroll(ScrollDirection::Right), "scroll_right"),
    ];
}

impl TryFrom<String> for Input {
    type Error = String;

    fn try_from(name: String) -> Result<Input, String> {
        Input::NAMED.iter().find(|(_, known)| *known == name).map(|(input, _)| *input).ok_or_else(|| {
            let known: Vec<&str> = Input::NAMED.iter().map(|(_, name)| *name).collect();
            format!("unknown input {name:?}; known: {}", known.join(", "))
        })
    }
}

/// Where the pointer was at an input, in logical pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pointer {
    /// On the bar, from its top left corner.
    pub x: f32,
    pub y: f32,
    /// The bar's top left corner on the screen.
    pub bar_x: f32,
    pub bar_y: f32,
    /// The top left corner of the bar's output on the screen.
    pub output_x: f32,
    pub output_y: f32,
    /// The item's box on the bar.
    pub item_x: f32,
    pub item_y: f32,
    pub item_width: f32,
    pub item_height: f32,
    /// Device pixels per logical pixel.
    pub scale: f32,
}

/// At the corner of an item at the corner of a bar at the corner of the
/// screen, at scale 1 (where input was not given a place: a script's).
impl Default for Pointer {
    fn default() -> Pointer {
        let (x, y, bar_x, bar_y, output_x, output_y, item_x, item_y, item_width, item_height) = Default::default();
        Pointer { x, y, bar_x, bar_y, output_x, output_y, item_x, item_y, item_width, item_height, scale: 1.0 }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScrollDirection {
    Up,
    Down,
    Left,
    Right,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    Text(String),
    Icon(String),
    Image(Image),
    BinaryClock(BinaryClock),
    /// An image a capability holds (a window's icon), by its handle.
    HeldImage(u64),
    /// Text in spans of their own style, laid out as one text.
    Styled(Vec<Span>),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Image {
    /// A file the widget names: the runtime reads it and puts the image it
    /// holds in its place, so no view with one reaches the painter.
    Path(String),
    Pixels(Arc<Pixels>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Pixels {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

impl Pixels {
    /// The most pixels a side an image may have: a small file may claim to
    /// be vast, and the bar's memory is not the file's to set. At most 64
    /// MiB of pixels are made for one image, for a moment, before it is
    /// made smaller.
    pub const MAX_SIDE: u32 = 4096;

    /// Refuses an image of `width` × `height` pixels before any of them are
    /// made: empty, or past [`Pixels::MAX_SIDE`] a side.
    pub fn check_size(width: u32, height: u32) -> anyhow::Result<()> {
        anyhow::ensure!(width > 0 && height > 0, "it is empty ({width}×{height} pixels)");
        anyhow::ensure!(
            width <= Self::MAX_SIDE && height <= Self::MAX_SIDE,
            "it is {width}×{height} pixels, more than the {} a side an image may have",
            Self::MAX_SIDE
        );
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryClockStyle {
    Circle,
    Rectangle,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BinaryClock {
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
    pub style: BinaryClockStyle,
}

/// What the bar shows for one widget.
#[derive(Debug, Clone, PartialEq)]
pub enum WidgetState {
    /// Not refreshed yet.
    Pending,
    Ready(View),
    /// The widget failed (config error, trap, deadline, memory, bad view);
    /// the message says which and when it will be restarted.
    Failed {
        message: String,
    },
}

/// Bounds on what a widget may hand back; past them the view is rejected
/// as the widget's fault, like a trap.
pub mod limits {
    pub const ITEMS: usize = 256;
    pub const PIECES_PER_ITEM: usize = 32;
    pub const TEXT_BYTES: usize = 4096;
    /// The most of a text another program hands the bar (a window's title,
    /// what plays, a tray item's tooltip) that reaches a widget; the rest is
    /// cut with "…". Other programs choose these lengths, not the widget,
    /// which may join eight of them into one text of its view.
    pub const FOREIGN_TEXT_BYTES: usize = TEXT_BYTES / 8;
    /// The most windows of the tiler's state that reach a widget, all
    /// workspaces together: a list of them is cut to [`ITEMS`], and the
    /// state to this (other programs choose how many windows they open).
    pub const FOREIGN_WINDOWS: usize = 4 * ITEMS;
    pub const IMAGE_SIDE: u32 = 1024;
    /// Spans in one styled text, at most.
    pub const SPANS: usize = 64;
    /// Bytes in a span's family name, at most.
    pub const FAMILY_BYTES: usize = 256;
    /// Pixels between items, at most (wider than any screen is a mistake).
    pub const MAX_SPACING: f32 = 1000.0;
}

impl View {
    /// Items at the theme's spacing.
    pub fn of(items: Vec<Item>) -> View {
        View { items, item_spacing: None, popup: None }
    }

    /// Checks the limits above, that item keys are unique, and the popup.
    pub fn validate(&self) -> Result<(), String> {
        use limits::*;
        if let Some(spacing) = self.item_spacing.filter(|spacing| !(0.0..=MAX_SPACING).contains(spacing)) {
            return Err(format!("item spacing {spacing} is outside 0..={MAX_SPACING}"));
        }
        if self.items.len() > ITEMS {
            return Err(format!("view has {} items; at most {ITEMS} are allowed", self.items.len()));
        }
        let mut keys = std::collections::HashSet::with_capacity(self.items.len());
        for item in &self.items {
            if !keys.insert(item.key.as_str()) {
                return Err(format!("item key {:?} is used twice", item.key));
            }
            let owner = format!("item {:?}", item.key);
            check_pieces(&owner, &item.pieces, item.tooltip.as_deref().into_iter().chain([item.key.as_str()]))?;
            if let Some(look) = &item.look {
                look.validate(&owner)?;
                check_pieces(&owner, look.short.as_deref().unwrap_or_default(), look.texts())?;
            }
        }
        match &self.popup {
            Some(popup) => popup.validate(&self.items),
            None => Ok(()),
        }
    }

    /// Every piece, in the items (their short forms too) and the popup.
    pub fn pieces_mut(&mut self) -> impl Iterator<Item = &mut Piece> {
        let in_popup = self.popup.iter_mut().flat_map(|popup| popup.cells_mut()).flat_map(|cell| cell.pieces_mut());
        let in_items = self.items.iter_mut().flat_map(|item| {
            let short = item.look.as_mut().and_then(|look| look.short.as_mut());
            item.pieces.iter_mut().chain(short.into_iter().flatten())
        });
        in_items.chain(in_popup)
    }
}

/// Checks the pieces of `owner` (an item, a popup's cell) and its other
/// texts against the limits above.
fn check_pieces<'a>(
    owner: &str,
    pieces: &'a [Piece],
    other_texts: impl IntoIterator<Item = &'a str>,
) -> Result<(), String> {
    use limits::*;
    if pieces.len() > PIECES_PER_ITEM {
        return Err(format!("{owner} has {} pieces; at most {PIECES_PER_ITEM} are allowed", pieces.len()));
    }
    let texts = pieces.iter().filter_map(|piece| match piece {
        Piece::Text(text) | Piece::Icon(text) => Some(text.len()),
        Piece::Styled(spans) => Some(spans.iter().map(|span| span.text.len()).sum()),
        _ => None,
    });
    if let Some(bytes) = texts.chain(other_texts.into_iter().map(str::len)).find(|bytes| *bytes > TEXT_BYTES) {
        return Err(format!("{owner} has a text of {bytes} bytes; at most {TEXT_BYTES} are allowed"));
    }
    for piece in pieces {
        match piece {
            Piece::Image(Image::Pixels(pixels)) => {
                let expected = pixels.width as usize * pixels.height as usize * 4;
                if pixels.width > IMAGE_SIDE || pixels.height > IMAGE_SIDE {
                    return Err(format!(
                        "{owner} has a {}x{} image; at most {IMAGE_SIDE} pixels a side",
                        pixels.width, pixels.height
                    ));
                }
                if pixels.rgba.len() != expected {
                    return Err(format!(
                        "{owner} has an image of {} bytes; {}x{} RGBA needs {expected}",
                        pixels.rgba.len(),
                        pixels.width,
                        pixels.height
                    ));
                }
            }
            Piece::BinaryClock(clock) if clock.hour > 23 || clock.minute > 59 || clock.second > 60 => {
                return Err(format!("{owner} has a binary clock at {}:{}:{}", clock.hour, clock.minute, clock.second));
            }
            Piece::Styled(spans) => check_spans(owner, spans)?,
            _ => {}
        }
    }
    Ok(())
}

/// Checks a styled text's spans: how many, their family names, and that
/// their lengths are numbers (how large they may be is the painter's to
/// bound: it clamps them).
fn check_spans(owner: &str, spans: &[Span]) -> Result<(), String> {
    use limits::*;
    if spans.len() > SPANS {
        return Err(format!("{owner} has a styled text of {} spans; at most {SPANS} are allowed", spans.len()));
    }
    for span in spans {
        let style = &span.style;
        if let Some(family) = style.family.as_ref().filter(|family| family.len() > FAMILY_BYTES) {
            return Err(format!("{owner} names a family of {} bytes; at most {FAMILY_BYTES}", family.len()));
        }
        let lengths = [("size", style.size), ("rise", style.rise)];
        for (name, length) in lengths {
            if let Some(Length::Ems(value) | Length::Points(value)) = length
                && !value.is_finite()
            {
                return Err(format!("{owner} has a span whose {name} is {value}"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_item(key: &str, text: &str) -> Item {
        Item {
            key: key.into(),
            pieces: vec![Piece::Text(text.into())],
            emphasis: Emphasis::Normal,
            takes: Inputs::NONE,
            tooltip: None,
            look: None,
        }
    }

    #[test]
    fn accepts_an_ordinary_view() {
        let view = View::of(vec![text_item("a", "CPU: 3%"), text_item("b", "12:00")]);
        assert_eq!(view.validate(), Ok(()));
    }

    #[test]
    fn rejects_duplicate_keys() {
        let view = View::of(vec![text_item("a", "1"), text_item("a", "2")]);
        assert!(view.validate().unwrap_err().contains("used twice"));
    }

    #[test]
    fn rejects_too_many_items_and_long_texts() {
        let many = View::of((0..=limits::ITEMS).map(|n| text_item(&n.to_string(), "x")).collect());
        assert!(many.validate().unwrap_err().contains("items"));
        let long = View::of(vec![text_item("a", &"x".repeat(limits::TEXT_BYTES + 1))]);
        assert!(long.validate().unwrap_err().contains("bytes"));
    }

    #[test]
    fn rejects_pixels_that_do_not_match_their_size() {
        let pixels = Arc::new(Pixels { width: 2, height: 2, rgba: vec![0; 15] });
        let item = Item { pieces: vec![Piece::Image(Image::Pixels(pixels))], ..text_item("i", "") };
        assert!(View::of(vec![item]).validate().unwrap_err().contains("RGBA"));
        for spacing in [-1.0, f32::NAN, f32::INFINITY] {
            let view = View { item_spacing: Some(spacing), ..View::of(Vec::new()) };
            assert!(view.validate().unwrap_err().contains("spacing"), "{spacing}");
        }
    }

    #[test]
    fn rejects_styled_texts_past_their_limits() {
        let styled = |spans: Vec<Span>| Item { pieces: vec![Piece::Styled(spans)], ..text_item("s", "") };
        let span = |text: &str, style: SpanStyle| Span { text: text.into(), style };
        let fine = styled(vec![span("hot", SpanStyle { size: Some(Length::Ems(9.0)), ..SpanStyle::default() })]);
        assert_eq!(View::of(vec![fine]).validate(), Ok(()), "sizes are clamped when drawn, not refused");
        let many = styled((0..=limits::SPANS).map(|_| span("x", SpanStyle::default())).collect());
        assert!(View::of(vec![many]).validate().unwrap_err().contains("spans"));
        let long = styled(vec![span(&"x".repeat(limits::TEXT_BYTES), SpanStyle::default()); 2]);
        assert!(View::of(vec![long]).validate().unwrap_err().contains("bytes"));
        let family = SpanStyle { family: Some("f".repeat(limits::FAMILY_BYTES + 1)), ..SpanStyle::default() };
        assert!(View::of(vec![styled(vec![span("x", family)])]).validate().unwrap_err().contains("family"));
        let risen = SpanStyle { rise: Some(Length::Points(f32::NAN)), ..SpanStyle::default() };
        assert!(View::of(vec![styled(vec![span("x", risen)])]).validate().unwrap_err().contains("rise"));
    }

    #[test]
    fn rejects_looks_past_their_limits() {
        use look::{Border, LeastWidth, Look};
        let looked = |look: Look| View::of(vec![Item { look: Some(Box::new(look)), ..text_item("b", "x") }]);
        let border = |width: f32| Border {
            colour: crate::colour::Rgba::rgb(0, 0, 0),
            top: width,
            right: 0.0,
            bottom: 0.0,
            left: 0.0,
        };
        assert_eq!(looked(Look { border: Some(border(64.0)), ..Look::default() }).validate(), Ok(()));
        assert!(
            looked(Look { border: Some(border(65.0)), ..Look::default() }).validate().unwrap_err().contains("border")
        );
        for width in [f32::NAN, -1.0, 5000.0] {
            let wide = Look { least_width: Some(LeastWidth::Pixels(width)), ..Look::default() };
            assert!(looked(wide).validate().unwrap_err().contains("least width"), "{width}");
        }
        assert!(looked(Look { padding: 65.0, ..Look::default() }).validate().unwrap_err().contains("padding"));
        let room = Look { room_after: Some(limits::MAX_SPACING + 1.0), ..Look::default() };
        assert!(looked(room).validate().unwrap_err().contains("after it"));
        let long = "x".repeat(limits::TEXT_BYTES + 1);
        let short = Look { short: Some(vec![Piece::Text(long.clone())]), ..Look::default() };
        assert!(looked(short).validate().unwrap_err().contains("bytes"));
        let least = Look { least_width: Some(LeastWidth::TextOf(long)), ..Look::default() };
        assert!(looked(least).validate().unwrap_err().contains("bytes"));
    }

    #[test]
    fn inputs_are_read_by_their_names_and_unknown_ones_listed() {
        for (input, name) in Input::NAMED {
            assert_eq!(serde_json::from_value::<Input>(serde_json::json!(name)).unwrap(), input);
        }
        let unknown = serde_json::from_value::<Input>(serde_json::json!("triple_click")).unwrap_err().to_string();
        assert!(unknown.contains("\"triple_click\"") && unknown.contains("scroll_right"), "{unknown}");
    }
}

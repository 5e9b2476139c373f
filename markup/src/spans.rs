//! Pango markup read into spans: runs of text, each with the style its
//! enclosing tags give it. What Pango draws and a bar can too is kept —
//! colours, background, weight, slant, size, family, rise, underline,
//! strikethrough, from `<span>` and the short tags (`<b>`, `<i>`, `<u>`,
//! `<s>`, `<sup>`, `<sub>`, `<small>`, `<big>`, `<tt>`); what a bar does
//! not draw (letter spacing, gravity, fallback switches, a tag it does not
//! know) is dropped and its text kept. Nothing makes reading fail: a
//! program's line is shown, whatever it holds.

/// A run of text and how it is drawn.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Span {
    pub text: String,
    pub style: SpanStyle,
}

/// How a span differs from the text around it; the default is no
/// difference.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SpanStyle {
    /// RGBA.
    pub colour: Option<[u8; 4]>,
    pub background: Option<[u8; 4]>,
    /// CSS's weights: 400 is normal, 700 bold.
    pub weight: Option<u16>,
    pub italic: bool,
    pub size: Option<Length>,
    /// A family by name, or `monospace`, `sans-serif`, `serif`.
    pub family: Option<String>,
    /// How far the baseline is raised (lowered when negative).
    pub rise: Option<Length>,
    pub underline: bool,
    pub strikethrough: bool,
}

/// A length as markup gives it: relative to the text's size, or in points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Length {
    /// Times the size of the text around it.
    Ems(f32),
    Points(f32),
}

/// Pango's step between two named sizes (`small` to `medium`, `<big>`).
const SIZE_STEP: f32 = 1.2;

/// `markup` as spans, in reading order; neighbours of one style are one
/// span. Entities are read; an entity the bar does not know is kept as
/// written, and an unclosed tag is cut off.
pub fn spans(markup: &str) -> Vec<Span> {
    let mut spans: Vec<Span> = Vec::new();
    // The open tags by name, with the style inside each.
    let mut open: Vec<(&str, SpanStyle)> = Vec::new();
    let mut rest = markup;
    let mut push = |text: &str, style: &SpanStyle| {
        if text.is_empty() {
            return;
        }
        match spans.last_mut() {
            Some(last) if last.style == *style => last.text.push_str(text),
            _ => spans.push(Span { text: text.to_owned(), style: style.clone() }),
        }
    };
    let style_of = |open: &[(&str, SpanStyle)]| open.last().map(|(_, style)| style.clone()).unwrap_or_default();
    while let Some(at) = rest.find(['<', '&']) {
        let style = style_of(&open);
        push(&rest[..at], &style);
        rest = &rest[at..];
        if rest.starts_with('<') {
            let Some(end) = rest.find('>') else { break };
            let tag = &rest[1..end];
            rest = &rest[end + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                // The nearest tag of that name closes, with those it holds.
                if let Some(at) = open.iter().rposition(|(open, _)| open.eq_ignore_ascii_case(name.trim())) {
                    open.truncate(at);
                }
            } else if !tag.ends_with('/') {
                let (name, attributes) = tag.split_once(char::is_whitespace).unwrap_or((tag, ""));
                let mut inner = style.clone();
                apply_tag(&mut inner, &name.to_ascii_lowercase(), attributes);
                open.push((name, inner));
            }
            continue;
        }
        match rest.find(';').and_then(|end| Some((entity(&rest[1..end])?, end))) {
            Some((character, end)) => {
                push(character.encode_utf8(&mut [0; 4]), &style);
                rest = &rest[end + 1..];
            }
            None => {
                push("&", &style);
                rest = &rest[1..];
            }
        }
    }
    if !rest.starts_with('<') {
        push(rest, &style_of(&open));
    }
    spans
}

/// `markup` without its tags, its entities read.
pub fn plain_text(markup: &str) -> String {
    spans(markup).into_iter().map(|span| span.text).collect()
}

/// `text` as markup that shows it as written: its `&`, `<`, `>`, quotes
/// as entities.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            other => escaped.push(other),
        }
    }
    escaped
}

/// The character an entity's name (between `&` and `;`) stands for.
fn entity(name: &str) -> Option<char> {
    let number = |digits: &str, radix| u32::from_str_radix(digits, radix).ok().and_then(char::from_u32);
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        _ => match name.strip_prefix('#')? {
            hex if hex.starts_with(['x', 'X']) => number(&hex[1..], 16),
            decimal => number(decimal, 10),
        },
    }
}

/// The style inside tag `name` with `attributes`, over `style`.
fn apply_tag(style: &mut SpanStyle, name: &str, attributes: &str) {
    match name {
        "b" => style.weight = Some(700),
        "i" => style.italic = true,
        "u" => style.underline = true,
        "s" => style.strikethrough = true,
        "tt" => style.family = Some("monospace".into()),
        "big" => scale(style, SIZE_STEP),
        "small" => scale(style, 1.0 / SIZE_STEP),
        // Pango's own: a smaller text, raised or lowered by a third of the size around it.
        "sup" | "sub" => {
            let rise = if name == "sup" { 1.0 / 3.0 } else { -1.0 / 5.0 };
            style.rise = Some(Length::Ems(rise));
            scale(style, 1.0 / SIZE_STEP);
        }
        "span" => {
            for (attribute, value) in attribute_pairs(attributes) {
                apply_attribute(style, &attribute.to_ascii_lowercase(), &value);
            }
        }
        _ => {}
    }
}

fn apply_attribute(style: &mut SpanStyle, attribute: &str, value: &str) {
    match attribute {
        "foreground" | "fgcolor" | "color" => style.colour = colour(value).or(style.colour),
        "background" | "bgcolor" => style.background = colour(value).or(style.background),
        // Over the text's own colour it would need the theme's: dropped.
        "alpha" | "fgalpha" => {
            if let (Some(alpha), Some(colour)) = (alpha(value), style.colour.as_mut()) {
                colour[3] = alpha;
            }
        }
        "bgalpha" => {
            if let (Some(alpha), Some(colour)) = (alpha(value), style.background.as_mut()) {
                colour[3] = alpha;
            }
        }
        "weight" | "font_weight" => style.weight = weight(value).or(style.weight),
        "style" | "font_style" => match value.to_ascii_lowercase().as_str() {
            "italic" | "oblique" => style.italic = true,
            "normal" => style.italic = false,
            _ => {}
        },
        "size" | "font_size" => size(style, value),
        "face" | "font_family" => style.family = family(value).or(style.family.take()),
        "font_desc" | "font" => font_description(style, value),
        "rise" => style.rise = points_or_pango_units(value).map(Length::Points).or(style.rise),
        "underline" => style.underline = !matches!(value.to_ascii_lowercase().as_str(), "none" | "false"),
        "strikethrough" => style.strikethrough = value.eq_ignore_ascii_case("true"),
        _ => {}
    }
}

/// `name='value' other="value"`, as pairs; a pair it cannot read ends the list.
fn attribute_pairs(mut attributes: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    loop {
        attributes = attributes.trim_start();
        let Some((name, after)) = attributes.split_once('=') else { break };
        let after = after.trim_start();
        let Some(quote) = after.chars().next().filter(|quote| *quote == '\'' || *quote == '"') else { break };
        let Some((value, rest)) = after[1..].split_once(quote) else { break };
        pairs.push((name.trim().to_owned(), plain_text(value)));
        attributes = rest;
    }
    pairs
}

/// The size of `style` times `by`; as it was where that is no number (a
/// `<big>` nested hundreds of times).
fn scale(style: &mut SpanStyle, by: f32) {
    let scaled = match style.size {
        Some(Length::Ems(ems)) => Length::Ems(ems * by),
        Some(Length::Points(points)) => Length::Points(points * by),
        None => Length::Ems(by),
    };
    if let Length::Ems(value) | Length::Points(value) = scaled
        && value.is_finite()
    {
        style.size = Some(scaled);
    }
}

/// `text` as a number, when it is a finite one (`inf` and `NaN` are not).
fn number(text: &str) -> Option<f32> {
    text.trim().parse::<f32>().ok().filter(|number| number.is_finite())
}

/// Pango's sizes: a number of 1024ths of a point, `12pt`, `150%`, a name
/// (`xx-small` … `xx-large`), `smaller`, `larger`.
fn size(style: &mut SpanStyle, value: &str) {
    let value = value.trim().to_ascii_lowercase();
    let named = ["xx-small", "x-small", "small", "medium", "large", "x-large", "xx-large"];
    if let Some(step) = named.iter().position(|name| *name == value) {
        style.size = Some(Length::Ems(SIZE_STEP.powi(step as i32 - 3)));
    } else if value == "smaller" {
        scale(style, 1.0 / SIZE_STEP);
    } else if value == "larger" {
        scale(style, SIZE_STEP);
    } else if let Some(percent) = value.strip_suffix('%').and_then(number) {
        style.size = Some(Length::Ems(percent / 100.0));
    } else if let Some(points) = points_or_pango_units(&value).filter(|points| *points > 0.0) {
        style.size = Some(Length::Points(points));
    }
}

/// `12pt`, or a number of Pango units (1024ths of a point).
fn points_or_pango_units(value: &str) -> Option<f32> {
    let value = value.trim();
    match value.strip_suffix("pt") {
        Some(points) => number(points),
        None => Some(number(value)? / 1024.0),
    }
}

/// `#rgb`, `#rrggbb`, `#rrggbbaa`, `#rrrrggggbbbb` or a colour's name.
pub fn colour(value: &str) -> Option<[u8; 4]> {
    let value = value.trim();
    let Some(hex) = value.strip_prefix('#') else { return named_colour(value) };
    if !hex.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return None;
    }
    let channel = |at: usize, digits: usize| {
        let value = u32::from_str_radix(&hex[at * digits..(at + 1) * digits], 16).ok()?;
        // A channel of `digits` hex digits, scaled to 8 bits.
        Some((value * 255 / ((1 << (4 * digits)) - 1)) as u8)
    };
    match hex.len() {
        3 => Some([channel(0, 1)?, channel(1, 1)?, channel(2, 1)?, 255]),
        6 => Some([channel(0, 2)?, channel(1, 2)?, channel(2, 2)?, 255]),
        8 => Some([channel(0, 2)?, channel(1, 2)?, channel(2, 2)?, channel(3, 2)?]),
        12 => Some([channel(0, 4)?, channel(1, 4)?, channel(2, 4)?, 255]),
        _ => None,
    }
}

/// The colours people name in bar scripts: CSS's basic sixteen, and those of
/// X11's list that status scripts use most.
fn named_colour(name: &str) -> Option<[u8; 4]> {
    let rgb: u32 = match name.to_ascii_lowercase().replace([' ', '_'], "").as_str() {
        "black" => 0x000000,
        "silver" => 0xc0c0c0,
        "gray" | "grey" => 0xbebebe,
        "white" => 0xffffff,
        "maroon" => 0xb03060,
        "red" => 0xff0000,
        "purple" => 0xa020f0,
        "fuchsia" | "magenta" => 0xff00ff,
        "green" => 0x00ff00,
        "lime" => 0x00ff00,
        "olive" => 0x808000,
        "yellow" => 0xffff00,
        "navy" => 0x000080,
        "blue" => 0x0000ff,
        "teal" => 0x008080,
        "aqua" | "cyan" => 0x00ffff,
        "orange" => 0xffa500,
        "darkorange" => 0xff8c00,
        "orangered" => 0xff4500,
        "gold" => 0xffd700,
        "pink" => 0xffc0cb,
        "hotpink" => 0xff69b4,
        "brown" => 0xa52a2a,
        "violet" => 0xee82ee,
        "darkgray" | "darkgrey" => 0xa9a9a9,
        "lightgray" | "lightgrey" => 0xd3d3d3,
        "darkred" => 0x8b0000,
        "darkgreen" => 0x006400,
        "lightgreen" => 0x90ee90,
        "lightblue" => 0xadd8e6,
        "skyblue" => 0x87ceeb,
        "steelblue" => 0x4682b4,
        "tomato" => 0xff6347,
        "salmon" => 0xfa8072,
        "coral" => 0xff7f50,
        "crimson" => 0xdc143c,
        "khaki" => 0xf0e68c,
        "turquoise" => 0x40e0d0,
        "indigo" => 0x4b0082,
        _ => return None,
    };
    let [_, red, green, blue] = rgb.to_be_bytes();
    Some([red, green, blue, 255])
}

/// An alpha as `50%` or a number 1…65535.
fn alpha(value: &str) -> Option<u8> {
    let value = value.trim();
    let fraction = match value.strip_suffix('%') {
        Some(percent) => number(percent)? / 100.0,
        None => number(value)? / 65535.0,
    };
    Some((fraction.clamp(0.0, 1.0) * 255.0).round() as u8)
}

/// A weight by number (100 … 1000) or by Pango's name for it.
fn weight(value: &str) -> Option<u16> {
    let value = value.trim().to_ascii_lowercase();
    if let Ok(number) = value.parse::<u16>() {
        return (100..=1000).contains(&number).then_some(number);
    }
    Some(match value.replace(['-', '_'], "").as_str() {
        "thin" => 100,
        "ultralight" | "extralight" => 200,
        "light" => 300,
        "semilight" | "book" => 350,
        "normal" | "regular" => 400,
        "medium" => 500,
        "semibold" | "demibold" => 600,
        "bold" => 700,
        "ultrabold" | "extrabold" => 800,
        "heavy" | "black" => 900,
        "ultraheavy" => 1000,
        _ => return None,
    })
}

/// The first family of a comma-separated list, with Pango's generic names.
fn family(value: &str) -> Option<String> {
    let first = value.split(',').next()?.trim();
    let generic = match first.to_ascii_lowercase().as_str() {
        "monospace" | "mono" => "monospace",
        "sans" | "sans-serif" => "sans-serif",
        "serif" => "serif",
        _ => first,
    };
    (!generic.is_empty()).then(|| generic.to_owned())
}

/// A Pango font description: `[FAMILY-LIST] [STYLE-OPTIONS] [SIZE]`
/// (`Sans Bold 12`, `DejaVu Sans Mono Italic`, `Monospace 10px`).
fn font_description(style: &mut SpanStyle, description: &str) {
    let mut words: Vec<&str> = description.split_whitespace().collect();
    if let Some(last) = words.last() {
        if let Some(pixels) = last.strip_suffix("px").and_then(number) {
            style.size = Some(Length::Points(pixels * 0.75));
            words.pop();
        } else if let Some(points) = number(last) {
            style.size = Some(Length::Points(points));
            words.pop();
        }
    }
    while let Some(last) = words.last() {
        let word = last.to_ascii_lowercase();
        if word == "italic" || word == "oblique" {
            style.italic = true;
        } else if let Some(weight) = weight(&word) {
            style.weight = Some(weight);
        } else if !matches!(word.as_str(), "condensed" | "expanded" | "semi-condensed" | "small-caps") {
            break;
        }
        words.pop();
    }
    if let Some(named) = family(&words.join(" ")) {
        style.family = Some(named);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn styled(text: &str, style: SpanStyle) -> Span {
        Span { text: text.into(), style }
    }

    #[test]
    fn tags_go_and_entities_are_read() {
        assert_eq!(plain_text("<b>resize</b>"), "resize");
        let system = r#"<span foreground="red">System</span> (l)ock &amp; (e)xit &lt;3 &#x2192; &#8594;"#;
        assert_eq!(plain_text(system), "System (l)ock & (e)xit <3 → →");
        assert_eq!(plain_text("plain"), "plain");
    }

    #[test]
    fn escaped_text_reads_back_as_written() {
        let text = r#"a <b> & "c" 'd'"#;
        assert_eq!(plain_text(&escape(text)), text);
        assert_eq!(spans(&escape(text)).len(), 1);
    }

    #[test]
    fn what_is_not_markup_is_kept_as_written() {
        assert_eq!(plain_text("fish & chips"), "fish & chips");
        assert_eq!(plain_text("&unknown; &#xZZ; &"), "&unknown; &#xZZ; &");
        assert_eq!(plain_text("cut <b"), "cut ", "an unclosed tag is cut off");
    }

    #[test]
    fn a_span_carries_its_colours_and_the_short_tags_their_styles() {
        let read = spans("<span foreground='#ff8000' background=\"#00f\">hot</span> <b>bold</b> <i>it</i>");
        let orange =
            SpanStyle { colour: Some([255, 128, 0, 255]), background: Some([0, 0, 255, 255]), ..SpanStyle::default() };
        assert_eq!(
            read,
            [
                styled("hot", orange),
                styled(" ", SpanStyle::default()),
                styled("bold", SpanStyle { weight: Some(700), ..SpanStyle::default() }),
                styled(" ", SpanStyle::default()),
                styled("it", SpanStyle { italic: true, ..SpanStyle::default() }),
            ]
        );
    }

    #[test]
    fn styles_nest_and_close_with_their_tags() {
        let read = spans("<span color='red'>a<b>b<u>c</u></b>d</span>e");
        let red = SpanStyle { colour: Some([255, 0, 0, 255]), ..SpanStyle::default() };
        let bold_red = SpanStyle { weight: Some(700), ..red.clone() };
        assert_eq!(
            read,
            [
                styled("a", red.clone()),
                styled("b", bold_red.clone()),
                styled("c", SpanStyle { underline: true, ..bold_red }),
                styled("d", red),
                styled("e", SpanStyle::default()),
            ]
        );
        // A closing tag with nothing open, and an unknown tag, change nothing.
        assert_eq!(spans("</b>x<blink>y</blink>"), [styled("xy", SpanStyle::default())]);
    }

    #[test]
    fn sizes_rises_and_families_are_read_as_pango_reads_them() {
        let style = |markup: &str| spans(markup).remove(0).style;
        assert_eq!(style("<span size='x-large'>x</span>").size, Some(Length::Ems(1.44)));
        assert_eq!(style("<span size='12pt'>x</span>").size, Some(Length::Points(12.0)));
        assert_eq!(style("<span size='10240'>x</span>").size, Some(Length::Points(10.0)));
        assert_eq!(style("<span size='150%'>x</span>").size, Some(Length::Ems(1.5)));
        assert_eq!(style("<big><big>x</big></big>").size, Some(Length::Ems(SIZE_STEP * SIZE_STEP)));
        assert_eq!(style("<span rise='-2048'>x</span>").rise, Some(Length::Points(-2.0)));
        let sup = style("<sup>2</sup>");
        assert!(matches!(sup.rise, Some(Length::Ems(rise)) if rise > 0.0));
        assert!(matches!(sup.size, Some(Length::Ems(size)) if size < 1.0));
        assert_eq!(style("<tt>x</tt>").family.as_deref(), Some("monospace"));
        assert_eq!(style("<span face='Noto Sans, sans'>x</span>").family.as_deref(), Some("Noto Sans"));
        let described = style("<span font_desc='DejaVu Sans Mono Bold Italic 9'>x</span>");
        assert_eq!(described.family.as_deref(), Some("DejaVu Sans Mono"));
        assert_eq!((described.weight, described.italic, described.size), (Some(700), true, Some(Length::Points(9.0))));
        assert_eq!(style("<span weight='600' strikethrough='true' underline='single'>x</span>").weight, Some(600));
    }

    /// What a view refuses (a size or rise that is no number) markup never
    /// gives, whatever a script prints.
    #[test]
    fn sizes_and_rises_are_always_numbers() {
        let finite = |length: Option<Length>| match length {
            Some(Length::Ems(value) | Length::Points(value)) => value.is_finite(),
            None => true,
        };
        let nested = format!("{}x", "<big>".repeat(1000));
        let markups = [
            "<span size='inf%'>x</span>",
            "<span size='NaN'>x</span>",
            "<span size='infpt' rise='-inf'>x</span>",
            "<span font_desc='Sans inf'>x</span>",
            "<span font='Sans NaNpx'>x</span>",
            nested.as_str(),
        ];
        for markup in markups {
            for span in spans(markup) {
                assert!(finite(span.style.size) && finite(span.style.rise), "{markup:?}: {:?}", span.style);
            }
        }
    }

    #[test]
    fn colours_come_in_every_form_and_a_bad_one_is_dropped() {
        assert_eq!(colour("#fff"), Some([255, 255, 255, 255]));
        assert_eq!(colour("#11223380"), Some([0x11, 0x22, 0x33, 0x80]));
        assert_eq!(colour("#ffff00000000"), Some([255, 0, 0, 255]));
        assert_eq!(colour("Orange"), Some([255, 165, 0, 255]));
        assert_eq!(colour("#12"), None);
        assert_eq!(colour("#gggggg"), None);
        assert_eq!(colour("no-such-colour"), None);
        let read = spans("<span foreground='nonsense' alpha='50%'>x</span>");
        assert_eq!(read[0].style.colour, None);
        let faded = spans("<span foreground='#ff0000' alpha='50%'>x</span>");
        assert_eq!(faded[0].style.colour, Some([255, 0, 0, 128]));
    }
}

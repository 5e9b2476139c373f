//! Waybar's format strings, as a Custom module writes them (`"{icon} {}"`,
//! `"{percentage:>3}%"`): {fmt}'s syntax, with the fields a custom module
//! has. A field is named (`{text}`, `{alt}`, `{icon}`, `{percentage}`), by
//! its place (`{0}` … `{3}`, in that order), or next in turn (`{}`: the
//! first is the text), and may say its width, alignment and fill (`{:^8}`,
//! `{percentage:03}`); `{{` and `}}` are braces. What {fmt} would refuse,
//! or what a custom module has no value for, is refused when the config is
//! read, with what and where.

/// A value a format string shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// What the command printed (its JSON line's `text`).
    Text,
    /// A JSON line's `alt`.
    Alt,
    /// `format_icons`' icon for the percentage or the `alt`.
    Icon,
    /// A JSON line's `percentage`, rounded.
    Percentage,
}

/// In {fmt}'s order of the arguments Waybar passes.
const FIELDS: [(&str, Field); 4] =
    [("text", Field::Text), ("alt", Field::Alt), ("icon", Field::Icon), ("percentage", Field::Percentage)];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Align {
    Left,
    Centre,
    Right,
}

/// How a field is laid out in its width: `[[fill]align][0][width]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Spec {
    fill: char,
    /// None: text to the left, numbers to the right, as {fmt} has them.
    align: Option<Align>,
    /// `0`: a number padded with zeros after its sign.
    zeros: bool,
    width: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Literal(String),
    Field(Field, Spec),
}

/// A format string, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    parts: Vec<Part>,
}

/// What a template is filled with; the text, alt and icon as markup.
pub struct Values<'a> {
    pub text: &'a str,
    pub alt: &'a str,
    pub icon: &'a str,
    pub percentage: i64,
}

impl Template {
    /// Reads `format`; the error says what is wrong and where.
    pub fn parse(format: &str) -> Result<Template, String> {
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut next_in_turn = 0;
        let mut chars = format.char_indices().peekable();
        while let Some((at, char)) = chars.next() {
            match char {
                '{' if chars.peek().map(|&(_, next)| next) == Some('{') => {
                    chars.next();
                    literal.push('{');
                }
                '}' if chars.peek().map(|&(_, next)| next) == Some('}') => {
                    chars.next();
                    literal.push('}');
                }
                '}' => return Err(format!("a lone `}}` at character {} (write `}}}}` for a brace)", at + 1)),
                '{' => {
                    let inside: String = chars.by_ref().map(|(_, char)| char).take_while(|&char| char != '}').collect();
                    let closed = format[at + 1..].contains('}');
                    if !closed {
                        return Err(format!("the `{{` at character {} is never closed", at + 1));
                    }
                    if !literal.is_empty() {
                        parts.push(Part::Literal(std::mem::take(&mut literal)));
                    }
                    let (name, spec) = inside.split_once(':').unwrap_or((&inside, ""));
                    let field = field_named(name.trim(), &mut next_in_turn)
                        .map_err(|why| format!("{why}, in `{{{inside}}}` at character {}", at + 1))?;
                    let spec =
                        read_spec(spec).map_err(|why| format!("{why}, in `{{{inside}}}` at character {}", at + 1))?;
                    parts.push(Part::Field(field, spec));
                }
                char => literal.push(char),
            }
        }
        if !literal.is_empty() {
            parts.push(Part::Literal(literal));
        }
        Ok(Template { parts })
    }

    /// Whether it shows `field` anywhere.
    pub fn shows(&self, field: Field) -> bool {
        self.parts.iter().any(|part| matches!(part, Part::Field(shown, _) if *shown == field))
    }

    pub fn fill(&self, values: &Values) -> String {
        let mut filled = String::new();
        for part in &self.parts {
            match part {
                Part::Literal(text) => filled.push_str(text),
                Part::Field(Field::Percentage, spec) => filled.push_str(&laid_out_number(values.percentage, spec)),
                Part::Field(field, spec) => {
                    let value = match field {
                        Field::Text => values.text,
                        Field::Alt => values.alt,
                        Field::Icon => values.icon,
                        Field::Percentage => unreachable!("numbers are laid out above"),
                    };
                    filled.push_str(&laid_out(value, spec, Align::Left));
                }
            }
        }
        filled
    }
}

/// The field `name` names (empty: the next in turn).
fn field_named(name: &str, next_in_turn: &mut usize) -> Result<Field, String> {
    let known = || FIELDS.map(|(name, _)| format!("{{{name}}}")).join(", ");
    let place = if name.is_empty() {
        *next_in_turn += 1;
        *next_in_turn - 1
    } else if let Ok(place) = name.parse::<usize>() {
        place
    } else {
        return FIELDS
            .iter()
            .find(|(known, _)| *known == name)
            .map(|&(_, field)| field)
            .ok_or_else(|| format!("a custom module has no `{name}` (it has {{}}, {})", known()));
    };
    FIELDS
        .get(place)
        .map(|&(_, field)| field)
        .ok_or_else(|| format!("a custom module has four values, not {}", place + 1))
}

/// `[[fill]align][0][width]`: what {fmt} takes for a string or an integer,
/// but for signs, `#`, precision and types, which a custom module's values
/// have no use for.
fn read_spec(spec: &str) -> Result<Spec, String> {
    let align_of = |char: char| match char {
        '<' => Some(Align::Left),
        '^' => Some(Align::Centre),
        '>' => Some(Align::Right),
        _ => None,
    };
    let chars: Vec<char> = spec.chars().collect();
    let (fill, align, rest) = match chars.as_slice() {
        [fill, align, rest @ ..] if align_of(*align).is_some() => (*fill, align_of(*align), rest),
        [align, rest @ ..] if align_of(*align).is_some() => (' ', align_of(*align), rest),
        rest => (' ', None, rest),
    };
    let (zeros, digits) = match rest {
        ['0', digits @ ..] => (true, digits),
        digits => (false, digits),
    };
    if !digits.iter().all(char::is_ascii_digit) {
        return Err(format!("`{spec}` is not a width and alignment such as `>4` or `^8`"));
    }
    let digits: String = digits.iter().collect();
    let width = if digits.is_empty() { 0 } else { digits.parse().map_err(|_| format!("`{digits}` is no width"))? };
    // A width past a bar's is a mistake, not a layout.
    if width > 256 {
        return Err(format!("a width of {width} characters"));
    }
    Ok(Spec { fill, align, zeros, width })
}

fn laid_out(value: &str, spec: &Spec, default: Align) -> String {
    let room = spec.width.saturating_sub(value.chars().count());
    let fill = |count: usize| std::iter::repeat_n(spec.fill, count).collect::<String>();
    match spec.align.unwrap_or(default) {
        Align::Left => format!("{value}{}", fill(room)),
        Align::Right => format!("{}{value}", fill(room)),
        Align::Centre => format!("{}{value}{}", fill(room / 2), fill(room - room / 2)),
    }
}

fn laid_out_number(number: i64, spec: &Spec) -> String {
    if spec.zeros && spec.align.is_none() {
        let digits = number.unsigned_abs().to_string();
        let sign = if number < 0 { "-" } else { "" };
        let zeros = spec.width.saturating_sub(sign.len() + digits.len());
        return format!("{sign}{}{digits}", "0".repeat(zeros));
    }
    laid_out(&number.to_string(), spec, Align::Right)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled(format: &str) -> String {
        let values = Values { text: "up", alt: "wifi", icon: "", percentage: 7 };
        Template::parse(format).unwrap().fill(&values)
    }

    #[test]
    fn fields_by_name_place_and_turn() {
        assert_eq!(filled("{}"), "up");
        assert_eq!(filled("{icon} {text} ({alt})"), " up (wifi)");
        assert_eq!(filled("{} {}"), "up wifi", "each `{{}}` is the next value, as {{fmt}} has them");
        assert_eq!(filled("{3}% {0}"), "7% up");
        assert_eq!(filled("{{{}}}"), "{up}");
        assert_eq!(filled("no fields"), "no fields");
    }

    #[test]
    fn widths_alignments_and_fills() {
        assert_eq!(filled("[{:>4}]"), "[  up]");
        assert_eq!(filled("[{:^5}]"), "[ up  ]");
        assert_eq!(filled("[{text:*<4}]"), "[up**]");
        assert_eq!(filled("[{percentage:3}]"), "[  7]", "numbers go right");
        assert_eq!(filled("[{percentage:03}]"), "[007]");
        assert_eq!(filled("[{percentage:<3}]"), "[7  ]");
        assert_eq!(filled("[{:1}]"), "[up]", "a width is the least");
        let negative = Values { text: "", alt: "", icon: "", percentage: -4 };
        assert_eq!(Template::parse("{percentage:04}").unwrap().fill(&negative), "-004");
    }

    #[test]
    fn what_it_cannot_show_is_refused_with_where() {
        let error = |format: &str| Template::parse(format).unwrap_err();
        assert!(error("{volume}").contains("no `volume`"), "{}", error("{volume}"));
        assert!(error("{} {} {} {} {}").contains("four values"));
        assert!(error("{:%H:%M}").contains("`%H:%M` is not a width"));
        assert!(error("{:.1f}").contains("not a width"));
        assert!(error("ends {").contains("never closed"));
        assert!(error("a } b").contains("character 3"));
        assert!(error("{:>9999}").contains("9999"));
    }

    #[test]
    fn it_knows_what_it_shows() {
        let template = Template::parse("{icon} {percentage}%").unwrap();
        assert!(template.shows(Field::Icon) && template.shows(Field::Percentage));
        assert!(!template.shows(Field::Text));
    }
}

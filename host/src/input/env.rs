//! Environment variables in a `mouse` command, in the three spellings
//! komorebi-bar resolves before it runs one: CMD's `%VAR%`, PowerShell's
//! `$Env:VAR` and the shells' `$VAR` (or `${VAR}`). A variable that is not
//! set is left as written.
//!
//! A value is data, never shell code: komorebi-bar pastes values into the
//! line, so a value holding `";id;"` runs `id`. On Unix each set variable
//! becomes a reference the shell expands itself (`${VAR}`, and
//! `'"${VAR}"'` inside single quotes, where komorebi-bar's pasting shows the
//! value too): an expanded value is split into words, never parsed as
//! commands. cmd, Windows' shell, parses what it expands, so there a value
//! is pasted only when it holds nothing cmd or PowerShell reads as syntax
//! (a path, a name); a line whose value does is not run.

/// A variable whose value the shell would read as more than text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotText {
    pub variable: String,
    /// The first character of its value the shell would parse.
    pub syntax: char,
}

impl std::fmt::Display for NotText {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let NotText { variable, syntax } = self;
        write!(formatter, "the value of {variable} holds {syntax:?}, which the shell would read as more than text")
    }
}

impl std::error::Error for NotText {}

/// `text` made ready for the platform's shell, or why it must not run.
pub fn for_the_shell(text: &str, lookup: impl Fn(&str) -> Option<String>) -> Result<String, NotText> {
    #[cfg(windows)]
    return for_cmd(text, lookup);
    #[cfg(not(windows))]
    return Ok(for_sh(text, lookup));
}

/// What the POSIX shell is reading at a point of the line.
#[cfg(any(not(windows), test))]
#[derive(Clone, Copy, PartialEq)]
enum Quoting {
    None,
    Single,
    Double,
}

/// Each set variable as a reference `sh` expands from the environment it
/// passes on, which holds the variable already.
#[cfg(any(not(windows), test))]
fn for_sh(text: &str, lookup: impl Fn(&str) -> Option<String>) -> String {
    let mut line = String::with_capacity(text.len());
    let mut quoting = Quoting::None;
    let mut rest = text;
    while let Some(sign) = rest.chars().next() {
        if let Some((name, written)) = variable(rest).filter(|(name, _)| lookup(name).is_some()) {
            line.push_str(&match quoting {
                Quoting::Single => format!("'\"${{{name}}}\"'"),
                Quoting::None | Quoting::Double => format!("${{{name}}}"),
            });
            rest = &rest[written..];
            continue;
        }
        let mut taken = sign.len_utf8();
        match (quoting, sign) {
            (Quoting::None, '\'') => quoting = Quoting::Single,
            (Quoting::Single, '\'') | (Quoting::Double, '"') => quoting = Quoting::None,
            (Quoting::None, '"') => quoting = Quoting::Double,
            // A backslash keeps the next character from opening or closing a quote.
            (Quoting::None | Quoting::Double, '\\') => taken += rest[1..].chars().next().map_or(0, char::len_utf8),
            _ => {}
        }
        line.push_str(&rest[..taken]);
        rest = &rest[taken..];
    }
    line
}

/// Each set variable's value, pasted as komorebi-bar pastes it, when it
/// holds only characters that are text to cmd and to PowerShell.
#[cfg(any(windows, test))]
fn for_cmd(text: &str, lookup: impl Fn(&str) -> Option<String>) -> Result<String, NotText> {
    let plain = |c: char| c.is_alphanumeric() || " \\/:._-~+,=".contains(c);
    let mut line = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['%', '$']) {
        line.push_str(&rest[..at]);
        rest = &rest[at..];
        match variable(rest).and_then(|(name, written)| Some((name, written, lookup(name)?))) {
            Some((name, written, value)) => {
                if let Some(syntax) = value.chars().find(|&c| !plain(c)) {
                    return Err(NotText { variable: name.to_owned(), syntax });
                }
                line.push_str(&value);
                rest = &rest[written..];
            }
            None => {
                line.push(rest.as_bytes()[0] as char);
                rest = &rest[1..];
            }
        }
    }
    line.push_str(rest);
    Ok(line)
}

/// The variable `text` starts with, and how many bytes it is written in.
fn variable(text: &str) -> Option<(&str, usize)> {
    let name_length = |text: &str| text.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(text.len());
    let is_name = |name: &str| !name.is_empty() && name_length(name) == name.len();
    if let Some(inside) = text.strip_prefix('%') {
        let end = inside.find('%')?;
        let name = &inside[..end];
        return is_name(name).then_some((name, end + 2));
    }
    let after = text.strip_prefix('$')?;
    if let Some(inside) = after.strip_prefix('{') {
        // `${VAR:-default}` and the like are the shell's own to expand.
        let end = inside.find('}')?;
        let name = &inside[..end];
        return is_name(name).then_some((name, end + 3));
    }
    let (prefix, name_at) = match after.get(..4) {
        Some(env) if env.eq_ignore_ascii_case("env:") => (5, &after[4..]),
        _ => (1, after),
    };
    let length = name_length(name_at);
    (length > 0 && !name_at.starts_with(|c: char| c.is_ascii_digit())).then_some((&name_at[..length], prefix + length))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(name: &str) -> Option<String> {
        match name {
            "HOME" => Some("/home/me".into()),
            "USERPROFILE" => Some("C:\\Users\\me".into()),
            "EDITOR" => Some("vim".into()),
            "EVIL" => Some("\";id>f;echo '".into()),
            _ => None,
        }
    }

    #[test]
    fn the_three_spellings_become_references_the_shell_expands() {
        assert_eq!(for_sh("%HOME%/bin/x", lookup), "${HOME}/bin/x");
        assert_eq!(for_sh("$Env:EDITOR notes.md", lookup), "${EDITOR} notes.md");
        assert_eq!(for_sh("$env:HOME/x", lookup), "${HOME}/x");
        assert_eq!(for_sh("$EDITOR \"$HOME/notes\"", lookup), "${EDITOR} \"${HOME}/notes\"");
        assert_eq!(for_sh("${HOME}x", lookup), "${HOME}x");
        assert_eq!(for_sh("echo 'at %HOME% now'", lookup), "echo 'at '\"${HOME}\"' now'");
        assert_eq!(for_sh("echo \\'%HOME%'", lookup), "echo \\'${HOME}'", "an escaped quote opens nothing");
    }

    #[test]
    fn what_is_not_a_set_variable_stays_as_written() {
        let line = "echo 100% $NOPE %NOPE% $Env:NOPE $1 ${HOME:-x} $";
        assert_eq!(for_sh(line, lookup), line);
        assert_eq!(for_cmd(line, lookup).unwrap(), line);
        assert_eq!(for_sh("50%% and 20%", lookup), "50%% and 20%");
        assert_eq!(for_sh("häh $HOME", lookup), "häh ${HOME}");
    }

    #[test]
    fn cmd_gets_plain_values_pasted_and_refuses_values_it_would_parse() {
        assert_eq!(for_cmd("%USERPROFILE%\\bin\\x.exe", lookup).unwrap(), "C:\\Users\\me\\bin\\x.exe");
        assert_eq!(for_cmd("$Env:EDITOR notes.md", lookup).unwrap(), "vim notes.md");
        assert_eq!(for_cmd("häh ${HOME}", lookup).unwrap(), "häh /home/me");
        let refused = for_cmd("echo %EVIL%", lookup).unwrap_err();
        assert_eq!(refused, NotText { variable: "EVIL".into(), syntax: '"' });
        assert!(refused.to_string().starts_with("the value of EVIL holds '\"'"), "{refused}");
    }

    /// The line as the real shell runs it, with EVIL set in its environment.
    #[cfg(unix)]
    fn run_in_sh(written: &str, dir: &std::path::Path) -> String {
        let evil = lookup("EVIL").unwrap();
        let line = for_sh(written, |name| if name == "EVIL" { Some(evil.clone()) } else { None });
        let output = std::process::Command::new("/bin/sh")
            .arg("-c")
            .arg(&line)
            .env("EVIL", &evil)
            .current_dir(dir)
            .output()
            .unwrap();
        String::from_utf8(output.stdout).unwrap()
    }

    #[cfg(unix)]
    #[test]
    fn a_value_with_quotes_and_semicolons_runs_nothing_in_any_quoting() {
        let dir = tempfile::tempdir().unwrap();
        let evil = lookup("EVIL").unwrap();
        for written in ["echo %EVIL%", "echo \"$Env:EVIL\"", "echo '$EVIL'", "echo 'x'${EVIL}\"y\""] {
            let printed = run_in_sh(written, dir.path());
            assert!(!dir.path().join("f").exists(), "{written:?} ran the value's `id`");
            assert!(printed.contains(&evil), "{written:?} printed {printed:?}, not the value");
        }
    }
}

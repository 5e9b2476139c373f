//! Environment variables in a `mouse` command, in the three spellings
//! komorebi-bar resolves before it runs one: CMD's `%VAR%`, PowerShell's
//! `$Env:VAR` and the shells' `$VAR` (or `${VAR}`). A variable that is not
//! set is left as written.

/// `text` with every set variable replaced by its value; `lookup` gives values.
pub fn resolve_variables(text: &str, lookup: impl Fn(&str) -> Option<String>) -> String {
    let mut resolved = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['%', '$']) {
        resolved.push_str(&rest[..at]);
        rest = &rest[at..];
        let (name, written) = match variable(rest) {
            Some(found) => found,
            None => {
                let sign = rest.chars().next().expect("at a % or $");
                resolved.push(sign);
                rest = &rest[sign.len_utf8()..];
                continue;
            }
        };
        match lookup(name) {
            Some(value) => resolved.push_str(&value),
            None => resolved.push_str(&rest[..written]),
        }
        rest = &rest[written..];
    }
    resolved.push_str(rest);
    resolved
}

/// The variable `text` starts with, and how many bytes it is written in.
fn variable(text: &str) -> Option<(&str, usize)> {
    let name_length = |text: &str| text.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(text.len());
    if let Some(inside) = text.strip_prefix('%') {
        let end = inside.find('%')?;
        let name = &inside[..end];
        return (!name.is_empty() && name_length(name) == name.len()).then_some((name, end + 2));
    }
    let after = text.strip_prefix('$')?;
    if let Some(inside) = after.strip_prefix('{') {
        let end = inside.find('}')?;
        return (end > 0).then_some((&inside[..end], end + 3));
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

    fn resolve(text: &str) -> String {
        resolve_variables(text, |name| match name {
            "HOME" => Some("/home/me".into()),
            "USERPROFILE" => Some("C:\\Users\\me".into()),
            "EDITOR" => Some("vim".into()),
            _ => None,
        })
    }

    #[test]
    fn cmd_powershell_and_shell_spellings_are_resolved() {
        assert_eq!(resolve("%USERPROFILE%\\bin\\x.exe"), "C:\\Users\\me\\bin\\x.exe");
        assert_eq!(resolve("$Env:EDITOR notes.md"), "vim notes.md");
        assert_eq!(resolve("$env:HOME/x"), "/home/me/x");
        assert_eq!(resolve("$EDITOR $HOME/notes"), "vim /home/me/notes");
        assert_eq!(resolve("${HOME}x"), "/home/mex");
    }

    #[test]
    fn what_is_not_a_set_variable_stays_as_written() {
        assert_eq!(resolve("echo 100% $NOPE %NOPE% $Env:NOPE $1 $"), "echo 100% $NOPE %NOPE% $Env:NOPE $1 $");
        assert_eq!(resolve("50%% and 20%"), "50%% and 20%");
        assert_eq!(resolve("häh $HOME"), "häh /home/me");
    }
}

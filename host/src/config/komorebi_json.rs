//! komorebi's own `komorebi.json`, for the one thing a bar takes from it:
//! `bar_configurations`, the `komorebi.bar.json` files komorebi starts a
//! bar for. komorebi looks for its file in `$KOMOREBI_CONFIG_HOME`, else
//! in the home folder; its paths may name variables the PowerShell way
//! (`$Env:USERPROFILE`) as well as the shell's (`$HOME`, `~`).

use super::{CONFIG_FILE_BYTES, parse_lenient, resolve_path};
use anyhow::{Context, anyhow, bail};
use std::path::{Path, PathBuf};

/// Where komorebi reads `komorebi.json` from.
pub fn default_path() -> anyhow::Result<PathBuf> {
    Ok(config_home()?.join("komorebi.json"))
}

/// Where komorebi-bar reads `komorebi.bar.json` from when it is given no
/// config, as komorebi reads its own: beside `komorebi.json`.
pub fn default_bar_path() -> anyhow::Result<PathBuf> {
    Ok(config_home()?.join("komorebi.bar.json"))
}

/// komorebi's config folder: `$KOMOREBI_CONFIG_HOME`, else the home.
fn config_home() -> anyhow::Result<PathBuf> {
    std::env::var_os("KOMOREBI_CONFIG_HOME")
        .filter(|folder| !folder.is_empty())
        .or_else(|| std::env::var_os(if cfg!(windows) { "USERPROFILE" } else { "HOME" }))
        .map(PathBuf::from)
        .context("komorebi's config folder is unknown: neither KOMOREBI_CONFIG_HOME nor the home is set")
}

/// The bar configurations `komorebi.json` at `path` lists, resolved: a
/// relative path is taken from the file's folder.
pub fn bar_configurations(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    listed_bars(path).with_context(|| path.display().to_string())
}

fn listed_bars(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    // It names the configs that run: trusted as they are.
    let bytes = crate::files::read_config(path, CONFIG_FILE_BYTES).context("cannot read")?;
    let text = String::from_utf8(bytes).context("not UTF-8 text")?;
    let json = parse_lenient(&text)?;
    let listed = match json.get("bar_configurations") {
        Some(serde_json::Value::Array(listed)) => listed,
        Some(_) => bail!("bar_configurations is not a list of paths"),
        None => bail!("it lists no bar_configurations"),
    };
    let folder = path.parent().unwrap_or(Path::new(""));
    listed
        .iter()
        .enumerate()
        .map(|(index, entry)| {
            let raw = entry.as_str().ok_or_else(|| anyhow!("bar_configurations[{index}] is not a path"))?;
            let resolved =
                resolve_path(&shell_variables(raw)).with_context(|| format!("bar_configurations[{index}]"))?;
            Ok(folder.join(resolved))
        })
        .collect()
}

/// `$Env:NAME` (any case of `Env`) written as the shell's `${NAME}`.
fn shell_variables(raw: &str) -> String {
    let mut written = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = rest.find('$') {
        written.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        match after.get(..4).filter(|prefix| prefix.eq_ignore_ascii_case("env:")) {
            Some(_) => {
                let name_length =
                    after[4..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(after.len() - 4);
                written.push_str(&format!("${{{}}}", &after[4..4 + name_length]));
                rest = &after[4 + name_length..];
            }
            None => {
                written.push('$');
                rest = after;
            }
        }
    }
    written.push_str(rest);
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powershell_variables_are_read_as_the_shells() {
        assert_eq!(shell_variables("$Env:USERPROFILE/komorebi.bar.json"), "${USERPROFILE}/komorebi.bar.json");
        assert_eq!(shell_variables("$env:KOMOREBI_CONFIG_HOME\\bar.json"), "${KOMOREBI_CONFIG_HOME}\\bar.json");
        assert_eq!(shell_variables("$HOME/a.json"), "$HOME/a.json");
        assert_eq!(shell_variables("~/$Env:X$Env:Y"), "~/${X}${Y}");
        assert_eq!(shell_variables("plain.json"), "plain.json");
    }

    #[test]
    fn the_listed_paths_are_resolved_from_the_files_folder() {
        let dir = tempfile::tempdir().unwrap();
        let komorebi = dir.path().join("komorebi.json");
        // SAFETY: tests that read OBI_TEST_BAR set it themselves and read it alone.
        unsafe { std::env::set_var("OBI_TEST_BAR", "/bars") };
        let text = r#"{ "bar_configurations": [ "left.json", "$Env:OBI_TEST_BAR/right.json", ], // komorebi's comment
        }"#;
        std::fs::write(&komorebi, text).unwrap();
        assert_eq!(
            bar_configurations(&komorebi).unwrap(),
            [dir.path().join("left.json"), PathBuf::from("/bars/right.json")]
        );
        std::fs::write(&komorebi, r#"{ "bar_configurations": [ 3 ] }"#).unwrap();
        assert!(
            format!("{:#}", bar_configurations(&komorebi).unwrap_err())
                .ends_with("bar_configurations[0] is not a path")
        );
        std::fs::write(&komorebi, r#"{ "monitors": [] }"#).unwrap();
        assert!(
            format!("{:#}", bar_configurations(&komorebi).unwrap_err()).ends_with("it lists no bar_configurations")
        );
    }
}

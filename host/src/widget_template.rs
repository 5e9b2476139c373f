//! `obi widget new NAME`: a widget crate that builds for wasm32-wasip2,
//! tests with the harness and loads in the bar, made from the template in
//! `host/templates/widget/`. Its SDK and harness are those of an Obi source
//! tree (by default the one this `obi` was built from).

use anyhow::Context;
use std::fs;
use std::path::{Path, PathBuf};

const CARGO_TOML: &str = include_str!("../templates/widget/Cargo.toml.in");
/// The tutorial widget, shown in the README.
pub const LIB_RS: &str = include_str!("../templates/widget/lib.rs");
const WIDGET_TEST_RS: &str = include_str!("../templates/widget/widget_test.rs");
const README_MD: &str = include_str!("../templates/widget/README.md.in");
const GITIGNORE: &str = include_str!("../templates/widget/gitignore");

/// The Obi source tree this binary was built from.
pub fn own_source() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Creates the crate `name` in the new directory `directory`, depending on
/// the SDK and harness of the Obi source tree `obi_source`; gives the files
/// it wrote.
pub fn create(directory: &Path, name: &str, obi_source: &Path) -> anyhow::Result<Vec<PathBuf>> {
    if !is_widget_name(name) {
        anyhow::bail!("{name:?} is not a crate name: lowercase letters, digits, - and _, starting with a letter");
    }
    let sdk = obi_source.join("sdk");
    if !sdk.join("Cargo.toml").is_file() {
        // An obi installed from a package was built elsewhere.
        anyhow::bail!(
            "no Obi source tree at {} (its sdk/ is missing): name a checkout of Obi with --obi-source",
            obi_source.display()
        );
    }
    let slashes = |path: PathBuf| path.to_string_lossy().replace('\\', "/");
    let fill = |template: &str| {
        template
            .replace("{{name}}", name)
            .replace("{{crate}}", &name.replace('-', "_"))
            .replace("{{sdk}}", &slashes(sdk.clone()))
            .replace("{{harness}}", &slashes(sdk.join("harness")))
    };
    let files = [
        ("Cargo.toml", fill(CARGO_TOML)),
        ("src/lib.rs", LIB_RS.to_owned()),
        ("tests/widget.rs", WIDGET_TEST_RS.to_owned()),
        ("README.md", fill(README_MD)),
        (".gitignore", GITIGNORE.to_owned()),
    ];
    write_new(directory, files.map(|(relative, contents)| (relative.to_owned(), contents)))
}

/// Whether `name` may name a new widget (its crate, its script): lowercase
/// letters, digits, - and _, starting with a letter.
pub(crate) fn is_widget_name(name: &str) -> bool {
    name.chars().next().is_some_and(|first| first.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

/// Writes `files` (each a path under `directory` and its contents) into
/// `directory`, which must not exist yet; gives the files it wrote.
pub(crate) fn write_new(
    directory: &Path,
    files: impl IntoIterator<Item = (String, String)>,
) -> anyhow::Result<Vec<PathBuf>> {
    if directory.exists() {
        anyhow::bail!("{} exists already", directory.display());
    }
    let mut written = Vec::new();
    for (relative, contents) in files {
        let path = directory.join(relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
        }
        fs::write(&path, contents).with_context(|| format!("writing {}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crate_names_its_sdk_and_harness_and_bad_names_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let widget = dir.path().join("my-widget");
        create(&widget, "my-widget", &own_source()).unwrap();
        let manifest = fs::read_to_string(widget.join("Cargo.toml")).unwrap();
        assert!(manifest.contains("name = \"my-widget\""), "{manifest}");
        let sdk = own_source().join("sdk").to_string_lossy().replace('\\', "/");
        assert!(manifest.contains(&format!("obi-sdk = {{ path = \"{sdk}\" }}")), "{manifest}");
        assert!(fs::read_to_string(widget.join("README.md")).unwrap().contains("my_widget.wasm"));

        assert!(create(&widget, "my-widget", &own_source()).unwrap_err().to_string().contains("exists already"));
        assert!(
            create(&dir.path().join("x"), "My Widget", &own_source())
                .unwrap_err()
                .to_string()
                .contains("not a crate name")
        );
        assert!(create(&dir.path().join("y"), "y", dir.path()).unwrap_err().to_string().contains("no Obi source tree"));
    }

    /// The tutorial widget fits in a page, and the README shows it as made.
    #[test]
    fn the_tutorial_widget_is_short_and_the_one_the_readme_shows() {
        assert!(LIB_RS.lines().count() < 50, "{} lines", LIB_RS.lines().count());
        let readme = include_str!("../../README.md");
        assert!(readme.contains(&format!("```rust\n{LIB_RS}```")), "README.md shows another tutorial widget");
    }
}

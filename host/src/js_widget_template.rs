//! `obi widget new --js NAME`: a widget in one JavaScript file, with a test
//! script for `obi widget test`, TypeScript declarations of `obi:widget`
//! (generated from its WIT when the bar is built) and the editor settings
//! that check the file against them, made from `host/templates/js-widget/`.
//! Nothing in it needs Rust, npm or the Obi source tree.

use crate::widget_template::{is_widget_name, write_new};
use std::path::{Path, PathBuf};

/// The tutorial widget in JS, shown in the README.
pub const WIDGET_JS: &str = include_str!("../templates/js-widget/widget.js");
const TEST_JSON: &str = include_str!("../templates/js-widget/widget.test.json");
const JSCONFIG_JSON: &str = include_str!("../templates/js-widget/jsconfig.json");
const README_MD: &str = include_str!("../templates/js-widget/README.md.in");
/// What a JS widget imports and exports, as TypeScript declares it.
pub const TYPESCRIPT_DECLARATIONS: &str = include_str!(concat!(env!("OUT_DIR"), "/obi-widget.d.ts"));

/// Creates the widget `name` in the new directory `directory`; gives the
/// files it wrote.
pub fn create(directory: &Path, name: &str) -> anyhow::Result<Vec<PathBuf>> {
    if !is_widget_name(name) {
        anyhow::bail!("{name:?} is not a widget name: lowercase letters, digits, - and _, starting with a letter");
    }
    let files = [
        (format!("{name}.js"), WIDGET_JS.to_owned()),
        (format!("{name}.test.json"), TEST_JSON.to_owned()),
        ("obi-widget.d.ts".to_owned(), TYPESCRIPT_DECLARATIONS.to_owned()),
        ("jsconfig.json".to_owned(), JSCONFIG_JSON.to_owned()),
        ("README.md".to_owned(), README_MD.replace("{{name}}", name)),
    ];
    write_new(directory, files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn the_widget_comes_with_its_test_declarations_and_settings() {
        let dir = tempfile::tempdir().unwrap();
        let written = create(&dir.path().join("greeter"), "greeter").unwrap();
        let names: Vec<String> =
            written.iter().map(|path| path.file_name().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["greeter.js", "greeter.test.json", "obi-widget.d.ts", "jsconfig.json", "README.md"]);
        let readme = fs::read_to_string(dir.path().join("greeter/README.md")).unwrap();
        assert!(readme.contains("obi widget test greeter.js --script greeter.test.json"), "{readme}");
        assert!(create(&dir.path().join("greeter"), "greeter").unwrap_err().to_string().contains("exists already"));
        assert!(create(&dir.path().join("x"), "Greeter").unwrap_err().to_string().contains("not a widget name"));
    }

    /// The declarations cover every interface, with and without its
    /// version, and the `guest` a widget exports.
    #[test]
    fn the_declarations_name_every_module_and_the_guest() {
        let version = crate::runtime::WIT_PACKAGE.split_once('@').unwrap().1;
        for module in ["clock", "metrics", "tiler", "view", "popup", "guest"] {
            assert!(
                TYPESCRIPT_DECLARATIONS.contains(&format!("declare module \"obi:widget/{module}\" {{")),
                "{module}"
            );
            let versioned = format!("declare module \"obi:widget/{module}@{version}\"");
            assert!(TYPESCRIPT_DECLARATIONS.contains(&versioned), "{versioned}");
        }
        assert!(TYPESCRIPT_DECLARATIONS.contains("export interface Guest {"));
        assert!(TYPESCRIPT_DECLARATIONS.contains("refresh(): Frame;"));
        assert!(TYPESCRIPT_DECLARATIONS.contains("onInput?(itemKey: string"));
    }

    /// The tutorial widget is shorter than the Rust one, and the README
    /// shows it as made.
    #[test]
    fn the_tutorial_widget_is_shorter_than_rusts_and_the_one_the_readme_shows() {
        let rust = crate::widget_template::LIB_RS.lines().count();
        assert!(WIDGET_JS.lines().count() < rust, "{} lines against {rust}", WIDGET_JS.lines().count());
        let readme = include_str!("../../README.md");
        assert!(readme.contains(&format!("```js\n{WIDGET_JS}```")), "README.md shows another JS tutorial widget");
    }
}

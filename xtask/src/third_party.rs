//! The notices of the third-party code inside the bar: every crate the
//! `obi` binary for a platform is linked from, and every crate of the stock
//! widgets it embeds, each with its licence expression, followed by the
//! licence files those crates ship, each distinct text once with the crates
//! that ship it. Read from `cargo metadata` and the crates' own sources.

use crate::compile::Platform;
use crate::release::{self, Release};
use anyhow::{Context, Result, bail};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The notices' file name in every package (`.txt` added on Windows).
pub const FILE: &str = "THIRD-PARTY-LICENSES";

/// The stock widgets' platform, whatever the bar's.
const WIDGETS: &str = "wasm32-wasip2";

/// What the notices are made from, read once for every platform: the
/// workspace's crates, and those the stock widgets are linked from (the
/// same WebAssembly in every platform's bar).
pub struct ThirdParty {
    crates: Crates,
    widget_crates: Vec<(String, String)>,
}

impl ThirdParty {
    pub fn of_workspace(release: &Release) -> Result<ThirdParty> {
        let crates = Crates::of_workspace()?;
        let stock_widgets = release.workspace.join("plugins");
        // The JS runtime is embedded beside them, WebAssembly as they are.
        let js_runtime = release.workspace.join("js-runtime");
        let embedded = |manifest: &Path| manifest.starts_with(&stock_widgets) || manifest.starts_with(&js_runtime);
        let widgets: Vec<&str> = crates
            .0
            .values()
            .filter(|package| package.source.is_none() && embedded(&package.manifest))
            .map(|package| package.name.as_str())
            .collect();
        if widgets.is_empty() {
            bail!("no stock widget crates under {}", stock_widgets.display());
        }
        let widget_crates =
            crates.third_party_linked_into(&widgets, WIDGETS)?.iter().map(|package| package.key()).collect();
        Ok(ThirdParty { crates, widget_crates })
    }

    /// The notices for the bar built for `platform`.
    pub fn notices(&self, release: &Release, platform: Platform) -> Result<Vec<u8>> {
        let bar_crates = self.crates.third_party_linked_into(&["obi"], platform.triple())?;
        let widget_crates: Vec<&Package> = self.widget_crates.iter().map(|key| &self.crates.0[key]).collect();
        notices(release, platform, &bar_crates, &widget_crates)
    }
}

fn notices(
    release: &Release,
    platform: Platform,
    bar_crates: &[&Package],
    widget_crates: &[&Package],
) -> Result<Vec<u8>> {
    let mut texts: BTreeMap<String, LicenceText> = BTreeMap::new();
    let mut without_files = BTreeSet::new();
    for package in bar_crates.iter().chain(widget_crates) {
        let files = licence_files(package)?;
        if files.is_empty() {
            without_files.insert(package.label());
        }
        for (file_name, text) in files {
            let shipped = texts.entry(text).or_insert_with(|| LicenceText { file_name, crates: BTreeSet::new() });
            shipped.crates.insert(package.label());
        }
    }

    let mut out = format!(
        "Third-party software in Obi {version} for {triple}

Obi's own code is under the MIT or the Apache-2.0 licence, at your choice
(LICENSE-MIT, LICENSE-APACHE). The bar is built from the Rust crates below,
and holds the stock widgets and the runtime of widgets written in JavaScript,
WebAssembly built from the crates listed after them. Each crate is under the licence its SPDX expression names; the licence
texts the crates ship follow the lists, each text once, headed by the crates
that ship it.

Crates of the bar ({bar_count}):
{bar_list}
Crates of the stock widgets ({widget_count}):
{widget_list}",
        version = release.version,
        triple = platform.triple(),
        bar_count = bar_crates.len(),
        bar_list = listing(bar_crates),
        widget_count = widget_crates.len(),
        widget_list = listing(widget_crates),
    );
    if !without_files.is_empty() {
        let _ = write!(
            out,
            "\nThese crates ship no licence file; the standard texts of MIT and
Apache-2.0 are Obi's LICENSE-MIT and LICENSE-APACHE:
{}",
            without_files.iter().map(|label| format!("  {label}\n")).collect::<String>()
        );
    }
    // Each text under the first crate that ships it, in the lists' order.
    let mut texts: Vec<(String, LicenceText)> = texts.into_iter().collect();
    texts.sort_by(|(_, a), (_, b)| a.crates.first().cmp(&b.crates.first()));
    let rule = "-".repeat(76);
    for (text, shipped) in &texts {
        let crates = shipped.crates.iter().map(String::as_str).collect::<Vec<_>>().join(", ");
        let heading = wrapped(&format!("{} of {crates}", shipped.file_name), 76);
        let _ = write!(out, "\n{rule}\n{heading}{rule}\n\n{}\n", text.trim_end());
    }
    Ok(out.into_bytes())
}

/// `text` in lines of at most `width` characters, broken between words.
fn wrapped(text: &str, width: usize) -> String {
    let mut lines = String::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push_str(&line);
            lines.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push_str(&line);
    lines.push('\n');
    lines
}

/// One licence text and who ships it (under the file name of the first).
struct LicenceText {
    file_name: String,
    crates: BTreeSet<String>,
}

struct Package {
    name: String,
    version: String,
    licence: Option<String>,
    licence_file: Option<PathBuf>,
    manifest: PathBuf,
    /// Where it comes from: none for the workspace's own crates.
    source: Option<String>,
}

impl Package {
    fn key(&self) -> (String, String) {
        (self.name.clone(), self.version.clone())
    }

    fn label(&self) -> String {
        format!("{} {}", self.name, self.version)
    }

    fn folder(&self) -> &Path {
        self.manifest.parent().unwrap_or(Path::new("."))
    }
}

/// Every crate the workspace's lock file holds, by name and version.
struct Crates(HashMap<(String, String), Package>);

impl Crates {
    fn of_workspace() -> Result<Crates> {
        let metadata = release::cargo_metadata(&[])?;
        let mut crates = HashMap::new();
        for package in metadata["packages"].as_array().context("cargo metadata lists no packages")? {
            let manifest = PathBuf::from(string(&package["manifest_path"], "a package's manifest_path")?);
            let package = Package {
                name: string(&package["name"], "a package's name")?,
                version: string(&package["version"], "a package's version")?,
                licence: package["license"].as_str().map(str::to_owned),
                licence_file: package["license_file"].as_str().map(|file| manifest.with_file_name(file)),
                manifest,
                source: package["source"].as_str().map(str::to_owned),
            };
            crates.insert(package.key(), package);
        }
        Ok(Crates(crates))
    }

    /// The crates from outside the workspace that `roots`, built together
    /// for `triple` with their default features, are linked from, sorted by
    /// name and version. Cargo's own resolver says which (`cargo tree`):
    /// only it knows which features a platform's build turns on. Build
    /// scripts and procedural macros run while building and leave no code
    /// of theirs behind.
    fn third_party_linked_into(&self, roots: &[&str], triple: &str) -> Result<Vec<&Package>> {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut tree = Command::new(cargo);
        tree.args(["tree", "--locked", "--edges", "normal,no-proc-macro", "--prefix", "none", "--format", "{p}"]);
        tree.args(["--target", triple]);
        for root in roots {
            tree.args(["--package", root]);
        }
        let output = tree.output().context("running cargo tree")?;
        if !output.status.success() {
            bail!("cargo tree for {triple} failed: {}", String::from_utf8_lossy(&output.stderr));
        }
        let mut linked = BTreeMap::new();
        for line in String::from_utf8_lossy(&output.stdout).lines().filter(|line| !line.is_empty()) {
            let mut words = line.split_whitespace();
            let (Some(name), Some(version)) = (words.next(), words.next().and_then(|word| word.strip_prefix('v')))
            else {
                bail!("cargo tree printed {line:?}, not a crate and its version");
            };
            let key = (name.to_owned(), version.to_owned());
            let package = self.0.get(&key).with_context(|| format!("cargo metadata does not know {name} {version}"))?;
            if package.source.is_some() {
                linked.insert(key, package);
            }
        }
        Ok(linked.into_values().collect())
    }
}

/// The crates as lines of name, version and licence.
fn listing(packages: &[&Package]) -> String {
    let width = packages.iter().map(|package| package.label().len()).max().unwrap_or(0);
    packages.iter().fold(String::new(), |mut list, package| {
        let licence = package.licence.as_deref().unwrap_or("see its licence file");
        let _ = writeln!(list, "  {:width$}  {licence}", package.label());
        list
    })
}

/// The licence files a crate ships: those at its top named as licences
/// are, those in a `LICENSES/` folder (the REUSE layout), and the one its
/// manifest names. Texts are read with Unix line ends, so that a crate
/// packaged on Windows repeats no text.
fn licence_files(package: &Package) -> Result<Vec<(String, String)>> {
    let mut paths = BTreeSet::new();
    paths.extend(package.licence_file.clone());
    let folder = package.folder();
    for entry in read_folder(folder)? {
        let name = entry.to_string_lossy().to_ascii_uppercase();
        let named_as_licence = ["LICENSE", "LICENCE", "COPYING", "COPYRIGHT", "NOTICE", "UNLICENSE"]
            .iter()
            .any(|prefix| name.starts_with(prefix));
        if named_as_licence {
            paths.insert(folder.join(entry));
        }
    }
    let reuse = folder.join("LICENSES");
    if reuse.is_dir() {
        paths.extend(read_folder(&reuse)?.into_iter().map(|entry| reuse.join(entry)));
    }
    let mut files = Vec::new();
    for path in paths {
        if !path.is_file() {
            continue;
        }
        let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        let text = String::from_utf8_lossy(&bytes).replace("\r\n", "\n");
        let name = path.strip_prefix(folder).unwrap_or(&path).display().to_string();
        files.push((name, text));
    }
    Ok(files)
}

fn read_folder(folder: &Path) -> Result<Vec<std::ffi::OsString>> {
    let listing = || format!("listing {}", folder.display());
    let entries = std::fs::read_dir(folder).with_context(listing)?;
    entries.map(|entry| entry.map(|entry| entry.file_name())).collect::<std::io::Result<_>>().with_context(listing)
}

fn string(value: &Value, what: &str) -> Result<String> {
    value.as_str().map(str::to_owned).with_context(|| format!("cargo metadata has no {what}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The crates a list names, by name.
    fn listed(list: &str) -> BTreeSet<&str> {
        list.lines().filter_map(|line| line.strip_prefix("  ")?.split(' ').next()).collect()
    }

    #[test]
    fn headings_are_wrapped_between_words() {
        assert_eq!(wrapped("LICENSE of aa 1, bb 2, cc 3", 12), "LICENSE of\naa 1, bb 2,\ncc 3\n");
        assert_eq!(wrapped("a-word-longer-than-the-line", 5), "a-word-longer-than-the-line\n");
    }

    #[test]
    fn each_platform_lists_its_own_crates_and_the_widgets_crates_with_their_texts() {
        let release = Release::of_checkout(true, None).unwrap();
        let third_party = ThirdParty::of_workspace(&release).unwrap();
        for (platform, ours, theirs) in [(Platform::Linux, "x11rb", "windows"), (Platform::Windows, "windows", "x11rb")]
        {
            let notices = String::from_utf8(third_party.notices(&release, platform).unwrap()).unwrap();
            let (bar, rest) = notices.split_once("Crates of the stock widgets").unwrap();
            let widgets = rest.split("\n\n").next().unwrap();
            let (bar, widgets) = (listed(bar), listed(widgets));
            for name in ["wasmtime", "femtovg", "serde_json", ours] {
                assert!(bar.contains(name), "{name} is not among the bar's crates for {}", platform.triple());
            }
            assert!(!bar.contains(theirs), "{theirs} is among the bar's crates for {}", platform.triple());
            assert!(!bar.contains("obi") && !bar.contains("serde_derive"), "our own crates or a macro listed");
            assert!(widgets.contains("wit-bindgen") && !widgets.contains("wasmtime"), "{widgets:?}");
            assert!(widgets.contains("boa_engine"), "the JS runtime's engine is listed: {widgets:?}");
            assert!(notices.contains("Permission is hereby granted, free of charge"), "no MIT text");
            assert!(notices.contains("TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION"), "no Apache text");
        }
    }
}

//! A Waybar config as Waybar reads it: JSON with comments and trailing
//! commas, one bar or an array of them, each with what its `include` adds
//! (a path or a list of them, `~` and `$VAR` expanded, relative to the file
//! that names it), merged as Waybar merges: the including file's keys win,
//! and a module's object takes the keys it lacks from an included one.
//! Every key can still say which file and line it was written on.

use crate::config::{CONFIG_FILE_BYTES, Document, parse_jsonc};
use crate::import::{Note, Place};
use anyhow::{Context, bail};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Includes within includes past this are a loop, or a mistake.
const INCLUDE_DEPTH: usize = 8;
/// Files one bar brings in all told: each may include several.
const FILES: usize = 64;

/// A file read, and where each of its parts is.
pub struct SourceFile {
    pub path: PathBuf,
    document: Document,
}

/// One bar of the config, its includes merged in.
pub struct WaybarBar {
    pub keys: Map<String, Value>,
    /// The files its keys came from, the one that wins first, each with
    /// the path of the bar's object in it (`""`, or `"[1]"` in an array).
    sources: Vec<(Rc<SourceFile>, String)>,
}

impl WaybarBar {
    /// Where the key at `path` (`clock.format`) was written: the first file
    /// that has it, which is the one its value came from.
    pub fn place(&self, path: &str) -> Place {
        let within = |base: &str| if base.is_empty() { path.to_owned() } else { format!("{base}.{path}") };
        let (file, base) = self
            .sources
            .iter()
            .find(|(file, base)| file.document.locations.has_key(&within(base)))
            .unwrap_or(&self.sources[0]);
        Place { file: file.path.clone(), at: Some(file.document.locations.key(&within(base))) }
    }

    /// A note on the key at `path`.
    pub fn note(&self, path: &str, what: impl Into<String>) -> Note {
        Note { place: self.place(path), what: what.into() }
    }
}

/// The bars of the config at `path`, with what their includes add.
pub fn read_bars(path: &Path) -> anyhow::Result<Vec<WaybarBar>> {
    let file = read(path)?;
    let bars = match &file.document.value {
        Value::Object(bar) => vec![(bar.clone(), String::new())],
        Value::Array(bars) => bars
            .iter()
            .enumerate()
            .map(|(index, bar)| match bar {
                Value::Object(bar) => Ok((bar.clone(), format!("[{index}]"))),
                _ => bail!("{}: bar {} is not an object", path.display(), index + 1),
            })
            .collect::<anyhow::Result<_>>()?,
        _ => bail!("{}: a Waybar config is an object, or an array of them", path.display()),
    };
    bars.into_iter()
        .map(|(keys, base)| {
            let mut bar = WaybarBar { keys, sources: vec![(file.clone(), base)] };
            add_includes(&mut bar, &file, std::slice::from_ref(&file.path))?;
            Ok(bar)
        })
        .collect()
}

/// Merges into `bar` what the `include` of its latest file names.
fn add_includes(bar: &mut WaybarBar, from: &SourceFile, chain: &[PathBuf]) -> anyhow::Result<()> {
    let base = &bar.sources.last().expect("a bar has its own file").1;
    let include_path = if base.is_empty() { "include".to_owned() } else { format!("{base}.include") };
    let named: Vec<String> = match from.document.value.pointer(&pointer(&include_path)) {
        None => return Ok(()),
        Some(Value::String(one)) => vec![one.clone()],
        Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        Some(_) => bail!("{}: `include` is a path or a list of paths", from.path.display()),
    };
    let directory = from.path.parent().unwrap_or(Path::new("."));
    for name in named {
        let expanded = shellexpand::full(&name).map(|path| path.into_owned()).unwrap_or(name.clone());
        let included_path = directory.join(expanded);
        if chain.contains(&included_path) {
            bail!("{}: including {} again makes a loop", from.path.display(), included_path.display());
        }
        if chain.len() >= INCLUDE_DEPTH {
            bail!("{}: includes within includes are {INCLUDE_DEPTH} deep at most", from.path.display());
        }
        if bar.sources.len() >= FILES {
            bail!("{}: more than {FILES} files included in all", from.path.display());
        }
        let included = read(&included_path).with_context(|| format!("included by {}", from.path.display()))?;
        let Value::Object(keys) = &included.document.value else {
            bail!("{}: an included file is one bar's object", included_path.display());
        };
        merge(&mut bar.keys, keys);
        bar.sources.push((included.clone(), String::new()));
        let chain: Vec<PathBuf> = chain.iter().cloned().chain([included_path]).collect();
        add_includes(bar, &included, &chain)?;
    }
    Ok(())
}

/// Adds to `into` what it lacks of `from`, object within object.
fn merge(into: &mut Map<String, Value>, from: &Map<String, Value>) {
    for (key, value) in from {
        match (into.get_mut(key), value) {
            (Some(Value::Object(into)), Value::Object(from)) => merge(into, from),
            (Some(_), _) => {}
            (None, value) => _ = into.insert(key.clone(), value.clone()),
        }
    }
}

/// `[1].include` as a JSON pointer.
fn pointer(path: &str) -> String {
    path.split(['.', '['])
        .filter(|part| !part.is_empty())
        .map(|part| format!("/{}", part.trim_end_matches(']')))
        .collect()
}

fn read(path: &Path) -> anyhow::Result<Rc<SourceFile>> {
    let bytes =
        crate::files::read_config(path, CONFIG_FILE_BYTES).with_context(|| format!("reading {}", path.display()))?;
    let text = String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8", path.display()))?;
    let document = parse_jsonc(&text).map_err(|error| anyhow::anyhow!("{}:{error}", path.display()))?;
    Ok(Rc::new(SourceFile { path: path.to_owned(), document }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn includes_add_what_the_bar_lacks_and_each_key_knows_its_file() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "modules.jsonc",
            "{\n  // shared\n  \"clock\": { \"format\": \"{:%R}\", \"interval\": 1 },\n  \"height\": 99,\n}\n",
        );
        let main = write(
            dir.path(),
            "config.jsonc",
            "{\n  \"include\": \"modules.jsonc\",\n  \"height\": 30,\n  \"clock\": { \"format\": \"{:%T}\" },\n}\n",
        );
        let bars = read_bars(&main).unwrap();
        let bar = &bars[0];
        assert_eq!(bar.keys["height"], 30, "the including file wins");
        assert_eq!(bar.keys["clock"]["format"], "{:%T}");
        assert_eq!(bar.keys["clock"]["interval"], 1, "a module takes what it lacks");
        let interval = bar.place("clock.interval");
        assert_eq!((interval.file.file_name().unwrap(), interval.at.unwrap().line), ("modules.jsonc".as_ref(), 3));
        assert_eq!(bar.place("clock.format").file, main);
    }

    /// Each file including the next three times, five deep, would be
    /// hundreds of reads.
    #[test]
    fn includes_are_bounded_in_all() {
        let dir = tempfile::tempdir().unwrap();
        for level in 0..5 {
            let next = format!("level{}", level + 1);
            write(
                dir.path(),
                &format!("level{level}"),
                &format!("{{ \"include\": [\"{next}\", \"{next}\", \"{next}\"] }}"),
            );
        }
        write(dir.path(), "level5", "{}");
        let error = read_bars(&dir.path().join("level0")).err().unwrap().to_string();
        assert!(error.contains("more than 64 files included"), "{error}");
    }

    #[test]
    fn an_array_holds_bars_and_an_include_loop_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let two = write(dir.path(), "config", "[ { \"height\": 20 }, { \"height\": 40, \"include\": [\"loop\"] } ]");
        write(dir.path(), "loop", "{ \"include\": \"loop\" }");
        let error = read_bars(&two).err().unwrap().to_string();
        assert!(error.contains("makes a loop"), "{error}");
        std::fs::write(dir.path().join("loop"), "{ \"spacing\": 4 }").unwrap();
        let bars = read_bars(&two).unwrap();
        assert_eq!(bars.len(), 2);
        assert_eq!((bars[1].keys["height"].clone(), bars[1].keys["spacing"].clone()), (40.into(), 4.into()));
        assert_eq!(bars[1].place("height").at.unwrap().column, 23, "in the second bar's object");
    }
}

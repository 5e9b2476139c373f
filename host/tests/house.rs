//! The shape of `host/src`, read from its source: no two files or folders
//! of one folder import each other, round any circle; `config/`, the
//! contract every other part reads, and komorebi's messages import nothing
//! of the host but leaves (modules that import nothing of the host
//! themselves); no surface (`window/`) imports the tiler; nothing of the
//! bar imports the headless runner; and an older WIT release's bindings
//! name no other release's but through a table.
//!
//! A module's own items are its folder's face: its children may use them
//! and it may use its children, as in any Rust module tree. What a
//! `mod.rs` re-exports from one child counts as that child's, so a circle
//! through a re-export is still a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type ModulePath = Vec<String>;

struct Module {
    file: PathBuf,
    /// Paths named in the file (`crate::…`, `super::…`, `self::…`), made
    /// absolute, and the line each is named on.
    paths: Vec<(ModulePath, usize)>,
}

struct Tree {
    modules: BTreeMap<ModulePath, Module>,
    /// `(parent, name)` → the child module a `pub use` in the parent takes `name` from.
    reexports: BTreeMap<(ModulePath, String), ModulePath>,
}

#[test]
fn no_two_parts_of_one_folder_import_each_other() {
    let tree = Tree::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let edges = tree.edges();
    assert!(edges.len() > 300, "only {} imports read: the reader has lost its way", edges.len());
    let mut circles = Vec::new();
    for folder in tree.modules.keys() {
        let mut graph: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for (from, to) in edges.keys() {
            if let (Some(a), Some(b)) = (child_of(folder, from), child_of(folder, to))
                && a != b
            {
                graph.entry(a).or_default().insert(b);
            }
        }
        if let Some(circle) = find_circle(&graph) {
            let shown: Vec<String> = circle
                .windows(2)
                .map(|pair| {
                    let ((from, to), (file, line)) = edges
                        .iter()
                        .find(|((from, to), _)| {
                            child_of(folder, from) == Some(pair[0]) && child_of(folder, to) == Some(pair[1])
                        })
                        .expect("an edge of the circle");
                    format!("{} → {} ({}:{line})", from.join("::"), to.join("::"), file.display())
                })
                .collect();
            circles.push(format!("in `{}`: {}", display(folder), shown.join(", ")));
        }
    }
    assert!(circles.is_empty(), "import circles:\n{}", circles.join("\n"));
}

/// `config/`, the contract every other part reads, and komorebi's
/// messages, which the config and every tiler share, import nothing of the
/// host but leaves and each other.
#[test]
fn the_contract_imports_nothing_of_the_host_but_leaves() {
    let tree = Tree::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let edges = tree.edges();
    let imports_host =
        |module: &[String]| edges.keys().any(|(from, to)| from.starts_with(module) && !to.starts_with(module));
    let contract = ["config", "komorebi_messages"];
    let in_contract = |module: &ModulePath| module.first().is_some_and(|top| contract.contains(&top.as_str()));
    let outside: BTreeSet<String> = edges
        .iter()
        .filter(|((from, to), _)| in_contract(from) && !in_contract(to))
        // The crate's root, `lib.rs`, imports everything.
        .filter(|((_, to), _)| to.is_empty() || imports_host(&to[..1]))
        .map(|((from, to), (file, line))| {
            format!("{} → {} ({}:{line})", from.join("::"), to.join("::"), file.display())
        })
        .collect();
    assert!(outside.is_empty(), "the contract imports parts of the host that are not leaves: {outside:?}");
    // The check sees their imports at all: a leaf each imports, and each other.
    for (from, to) in [("config", "files"), ("komorebi_messages", "suggest"), ("config", "komorebi_messages")] {
        let sees = !imports_into(&edges, to, |top| top == from).is_empty();
        assert!(sees, "the reader sees no import of `{to}` in {from}");
    }
}

/// The surfaces show a bar; the bar talks to the tiler. A surface says
/// which output it is on through the bar, so a new surface (a notification
/// window, an OSD) never learns a tiler's ways.
#[test]
fn no_surface_imports_the_tiler() {
    let tree = Tree::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let edges = tree.edges();
    let imports = imports_into(&edges, "tiler", |top| top == "window");
    assert!(imports.is_empty(), "window/ imports the tiler: {imports:?}");
    // The check sees such imports at all: the bar's are there.
    assert!(!imports_into(&edges, "tiler", |top| top == "bar").is_empty(), "the reader sees no import of the tiler");
}

/// The scripted capabilities and the headless runner serve widget tests;
/// the bar, its windows, its scheduler and the real capabilities never
/// reach for them (the command line reaches them as `obi::headless`).
#[test]
fn nothing_of_the_bar_imports_the_headless_runner() {
    let tree = Tree::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let edges = tree.edges();
    let importers = imports_into(&edges, "headless", |top| top != "headless");
    assert!(importers.is_empty(), "the bar's code imports the headless runner: {importers:?}");
    // The check sees imports of headless/ at all: its parts import each other.
    let within = imports_into(&edges, "headless", |top| top == "headless");
    assert!(!within.is_empty(), "the reader sees no import of headless/");
}

/// Where modules under a top-level module that `from` accepts import
/// modules under `to` (the crate's root, which imports everything, aside).
fn imports_into(
    edges: &BTreeMap<(ModulePath, ModulePath), (PathBuf, usize)>,
    to: &str,
    from: impl Fn(&str) -> bool,
) -> Vec<String> {
    edges
        .iter()
        .filter(|((importer, imported), _)| {
            importer.first().is_some_and(|top| from(top)) && imported.first().is_some_and(|top| top == to)
        })
        .map(|((_, imported), (file, line))| format!("{} ({}:{line})", imported.join("::"), file.display()))
        .collect()
}

/// A WIT release must leave the older releases' modules as they were:
/// one of them names another release's bindings (`since_v0_1_5::…`, or
/// `latest`) only through the folder's table of shapes, whose rows a new
/// release repoints.
#[test]
fn older_release_modules_name_no_other_release() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/runtime/wit");
    let face = strip_comments_and_strings(&std::fs::read_to_string(folder.join("mod.rs")).unwrap());
    let latest = face
        .lines()
        .find_map(|line| line.trim().strip_prefix("use ")?.strip_suffix(" as latest;"))
        .expect("runtime/wit/mod.rs names its latest release: `use since_vA_B_C as latest;`");
    let mut releases = 0;
    let mut named = Vec::new();
    for entry in std::fs::read_dir(&folder).unwrap() {
        let file = entry.unwrap().path();
        let Some(module) = file.file_stem().and_then(|stem| stem.to_str()).filter(|stem| stem.starts_with("since_v"))
        else {
            continue;
        };
        releases += 1;
        if module == latest {
            continue;
        }
        let code = strip_comments_and_strings(&std::fs::read_to_string(&file).unwrap());
        named.extend(other_releases_named(&code, module).into_iter().map(|(name, line)| {
            format!("{}:{line} names {name}", file.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap().display())
        }));
    }
    assert!(releases >= 2, "only {releases} release modules found in {}", folder.display());
    assert!(named.is_empty(), "older releases name other releases past the table of shapes:\n{}", named.join("\n"));
}

/// The release modules (`since_v…`) other than `own`, and `latest`, that
/// `code` names, with their lines.
fn other_releases_named(code: &str, own: &str) -> Vec<(String, usize)> {
    let mut named = Vec::new();
    for (number, line) in code.lines().enumerate() {
        for word in line.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if (word.starts_with("since_v") && word != own) || word == "latest" {
                named.push((word.to_string(), number + 1));
            }
        }
    }
    named
}

#[test]
fn a_release_named_past_the_table_is_found() {
    let code = "use super::view_v0_1_1;\nuse super::since_v0_1_5::obi::widget::view;\nsuper::latest::x();";
    assert_eq!(
        other_releases_named(code, "since_v0_1_4"),
        [("since_v0_1_5".to_string(), 2), ("latest".to_string(), 3)]
    );
    assert!(other_releases_named("use self::obi::widget::view; since_v0_1_4", "since_v0_1_4").is_empty());
}

/// The child of `folder` that `module` is or lies in; none for `folder`
/// itself and for modules outside it.
fn child_of<'a>(folder: &[String], module: &'a [String]) -> Option<&'a str> {
    (module.len() > folder.len() && module.starts_with(folder)).then(|| module[folder.len()].as_str())
}

fn display(folder: &[String]) -> String {
    if folder.is_empty() { "host/src".into() } else { folder.join("/") }
}

/// A circle in `graph` as the nodes along it, first one repeated at the end.
fn find_circle<'a>(graph: &BTreeMap<&'a str, BTreeSet<&'a str>>) -> Option<Vec<&'a str>> {
    fn visit<'a>(
        node: &'a str,
        graph: &BTreeMap<&'a str, BTreeSet<&'a str>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<&'a str>> {
        if let Some(start) = path.iter().position(|on| *on == node) {
            let mut circle = path[start..].to_vec();
            circle.push(node);
            return Some(circle);
        }
        if !done.insert(node) {
            return None;
        }
        path.push(node);
        for next in graph.get(node).into_iter().flatten() {
            if let Some(circle) = visit(next, graph, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

impl Tree {
    fn read(src: &Path) -> Tree {
        let mut files = Vec::new();
        collect_rust_files(src, &mut files);
        assert!(files.len() > 50, "{} holds only {} Rust files", src.display(), files.len());
        let mut sources = BTreeMap::new();
        for file in files {
            let relative = file.strip_prefix(src).unwrap().with_extension("");
            let mut path: ModulePath = relative.iter().map(|part| part.to_string_lossy().into_owned()).collect();
            if matches!(path.last().map(String::as_str), Some("mod" | "lib")) {
                path.pop();
            }
            if path == ["main"] {
                continue; // the binary: a crate of its own over this one
            }
            let text = std::fs::read_to_string(&file).unwrap();
            sources.insert(path, (file, strip_comments_and_strings(&text)));
        }
        let known: BTreeSet<ModulePath> = sources.keys().cloned().collect();
        let mut modules = BTreeMap::new();
        let mut reexports = BTreeMap::new();
        for (path, (file, code)) in sources {
            let is_folder = file.file_name().is_some_and(|name| name == "mod.rs" || name == "lib.rs");
            let children: BTreeSet<&str> = known
                .iter()
                .filter(|other| other.len() == path.len() + 1 && other.starts_with(&path))
                .map(|child| child[path.len()].as_str())
                .collect();
            let mut paths = Vec::new();
            let inline = inline_modules(&code);
            for (named, offset, is_pub_use) in named_paths(&code, &children) {
                // Inside `mod tests { … }`, `super` is the file's module.
                let mut scope = path.clone();
                scope.extend(inline.iter().filter(|(span, _)| span.contains(&offset)).map(|(_, name)| name.clone()));
                let Some(absolute) = absolute(&scope, &named) else { continue };
                let line = code[..offset].matches('\n').count() + 1;
                if is_pub_use
                    && is_folder
                    && absolute.len() > path.len() + 1
                    && absolute.starts_with(&path)
                    && let Some(name) = named.last()
                {
                    reexports.insert((path.clone(), name.clone()), absolute[..path.len() + 1].to_vec());
                }
                paths.push((absolute, line));
            }
            let file = Path::new("host/src").join(file.strip_prefix(src).unwrap());
            modules.insert(path, Module { file, paths });
        }
        Tree { modules, reexports }
    }

    /// Which module imports which, with a place where it does.
    fn edges(&self) -> BTreeMap<(ModulePath, ModulePath), (PathBuf, usize)> {
        let mut edges = BTreeMap::new();
        for (from, module) in &self.modules {
            for (path, line) in &module.paths {
                if let Some(to) = self.resolve(path).filter(|to| to != from) {
                    edges.entry((from.clone(), to)).or_insert_with(|| (module.file.clone(), *line));
                }
            }
        }
        edges
    }

    /// The module an absolute path names or names an item of: the longest
    /// prefix that is a module, or the child a re-export takes it from.
    fn resolve(&self, path: &[String]) -> Option<ModulePath> {
        let length = (0..=path.len()).rev().find(|&length| self.modules.contains_key(&path[..length]))?;
        let module = path[..length].to_vec();
        match path.get(length) {
            Some(name) => Some(self.reexports.get(&(module.clone(), name.clone())).cloned().unwrap_or(module)),
            None => Some(module),
        }
    }
}

fn collect_rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_rust_files(&path, files);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            files.push(path);
        }
    }
}

/// `path` as named in module `module`, from the crate's root; none for a
/// path into another crate.
fn absolute(module: &[String], path: &[String]) -> Option<ModulePath> {
    let (first, rest) = path.split_first()?;
    let mut base = match first.as_str() {
        "crate" => Vec::new(),
        "self" => module.to_vec(),
        "super" => module[..module.len().checked_sub(1)?].to_vec(),
        _ => return None,
    };
    let mut rest = rest;
    while let Some(("super", tail)) = rest.split_first().map(|(head, tail)| (head.as_str(), tail)) {
        base.pop();
        rest = tail;
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// Every path the code names from `crate`, `self` or `super`, or from one of
/// its own `children` by bare name, with where it is named and whether a
/// `pub use` names it. `use` trees are expanded: `use a::{b, c::d}` names `a::b` and
/// `a::c::d`.
fn named_paths(code: &str, children: &BTreeSet<&str>) -> Vec<(Vec<String>, usize, bool)> {
    let mut named = Vec::new();
    let mut in_use = Vec::new();
    for (start, _) in code.match_indices("use ") {
        let before = code[..start].trim_end_matches([' ', '\t']);
        let is_statement = before.is_empty()
            || before.ends_with(['\n', ';', '{', '}'])
            || before.ends_with("pub")
            || before.ends_with(')');
        let Some(end) = code[start..].find(';').map(|end| start + end) else { continue };
        if !is_statement || !is_word_start(code, start) {
            continue;
        }
        let is_pub = before.ends_with("pub") || before.ends_with(')');
        for path in expand_use_tree(&without_renames(&code[start + 4..end])) {
            let mut segments: Vec<String> = path.split("::").map(str::to_owned).collect();
            segments.retain(|segment| !segment.is_empty() && segment != "*");
            if segments.first().is_some_and(|first| children.contains(first.as_str())) {
                segments.insert(0, "self".into());
            }
            named.push((segments, start, is_pub));
        }
        in_use.push(start..end);
    }
    let bytes = code.as_bytes();
    let mut offset = 0;
    while offset < code.len() {
        let word_end =
            code[offset..].find(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(code.len(), |end| offset + end);
        if word_end > offset && is_word_start(code, offset) && !in_use.iter().any(|range| range.contains(&offset)) {
            let word = &code[offset..word_end];
            let roots = matches!(word, "crate" | "self" | "super") || children.contains(word);
            if roots && code[word_end..].starts_with("::") && !(offset >= 2 && &bytes[offset - 2..offset] == b"::") {
                let mut end = word_end;
                while code[end..].starts_with("::") {
                    let next = code[end + 2..]
                        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .map_or(code.len(), |stop| end + 2 + stop);
                    if next == end + 2 {
                        break;
                    }
                    end = next;
                }
                let mut segments: Vec<String> = code[offset..end].split("::").map(str::to_owned).collect();
                if children.contains(word) {
                    segments.insert(0, "self".into());
                }
                named.push((segments, offset, false));
            }
        }
        offset = word_end.max(offset + code[offset..].chars().next().map_or(1, char::len_utf8));
    }
    named
}

/// The modules written inline (`mod tests { … }`): where each spans, and its name.
fn inline_modules(code: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let mut modules = Vec::new();
    for (start, _) in code.match_indices("mod ") {
        if !is_word_start(code, start) {
            continue;
        }
        let rest = &code[start + 4..];
        let name_end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
        let after = rest[name_end..].trim_start();
        if name_end == 0 || !after.starts_with('{') {
            continue;
        }
        let open = code.len() - after.len();
        let mut depth = 0;
        let close = code[open..].char_indices().find_map(|(index, c)| {
            depth += match c {
                '{' => 1,
                '}' => -1,
                _ => 0,
            };
            (depth == 0).then_some(open + index)
        });
        modules.push((open..close.unwrap_or(code.len()), rest[..name_end].to_owned()));
    }
    modules
}

/// A `use` tree without its renames (`a as b` is `a`) or its spaces.
fn without_renames(tree: &str) -> String {
    let words: Vec<&str> = tree.split_whitespace().collect();
    let mut kept = String::new();
    let mut index = 0;
    while index < words.len() {
        if words[index] == "as" {
            // `as` and the new name, which may carry the tree's next `,` or `}`.
            let renamed = words.get(index + 1).copied().unwrap_or("");
            kept.push_str(renamed.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_'));
            index += 2;
        } else {
            kept.push_str(words[index]);
            index += 1;
        }
    }
    kept
}

fn is_word_start(code: &str, offset: usize) -> bool {
    code[..offset].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
}

/// `a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e`.
fn expand_use_tree(tree: &str) -> Vec<String> {
    let Some(open) = tree.find('{') else { return vec![tree.to_owned()] };
    let mut depth = 0;
    let close = tree[open..]
        .char_indices()
        .find_map(|(index, c)| {
            depth += match c {
                '{' => 1,
                '}' => -1,
                _ => 0,
            };
            (depth == 0).then_some(open + index)
        })
        .unwrap_or(tree.len() - 1);
    let (prefix, inner, suffix) = (&tree[..open], &tree[open + 1..close], &tree[close + 1..]);
    let mut parts = Vec::new();
    let (mut depth, mut from) = (0, 0);
    for (index, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[from..index]);
                from = index + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[from..]);
    parts
        .into_iter()
        .filter(|part| !part.is_empty())
        .flat_map(|part| expand_use_tree(&format!("{prefix}{part}{suffix}")))
        .map(|path| path.strip_suffix("::self").map(str::to_owned).unwrap_or(path))
        .collect()
}

/// The code with comments and the insides of string and character literals
/// blanked (lines kept), so that neither a doc comment nor a message that
/// mentions `crate::x` counts as an import.
fn strip_comments_and_strings(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut index = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while index < chars.len() {
        let c = chars[index];
        let next = chars.get(index + 1).copied();
        if c == '/' && next == Some('/') {
            while index < chars.len() && chars[index] != '\n' {
                out.push(' ');
                index += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while index < chars.len() {
                if chars[index] == '/' && chars.get(index + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    index += 2;
                } else if chars[index] == '*' && chars.get(index + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    index += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[index]));
                    index += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && is_raw_string(&chars, index) {
            let hashes = chars[index + 1..].iter().take_while(|c| **c == '#').count();
            let closing: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            out.push('"');
            index += 2 + hashes;
            while index < chars.len() && !chars[index..].iter().collect::<String>().starts_with(&closing) {
                out.push(blank(chars[index]));
                index += 1;
            }
            out.push('"');
            index += closing.len();
        } else if c == '"' {
            out.push('"');
            index += 1;
            while index < chars.len() && chars[index] != '"' {
                if chars[index] == '\\' {
                    out.push(' ');
                    index += 1;
                }
                if let Some(&inside) = chars.get(index) {
                    out.push(blank(inside));
                }
                index += 1;
            }
            out.push('"');
            index += 1;
        } else if c == '\'' && is_char_literal(&chars, index) {
            // An escape is `\\`, `\'`, `\n`, `\x41` or `\u{…}`: the quote that ends it
            // comes after its first two characters.
            let end = match chars[index + 1] {
                '\\' => (index + 3..chars.len()).find(|&at| chars[at] == '\'').unwrap_or(chars.len() - 1),
                _ => index + 2,
            };
            out.extend(std::iter::repeat_n(' ', end - index + 1));
            index = end + 1;
        } else {
            out.push(c);
            index += 1;
        }
    }
    out
}

fn is_raw_string(chars: &[char], index: usize) -> bool {
    let previous = index.checked_sub(1).map(|at| chars[at]);
    if previous.is_some_and(|c| c.is_alphanumeric() || c == '_') {
        return false;
    }
    let hashes = chars[index + 1..].iter().take_while(|c| **c == '#').count();
    chars.get(index + 1 + hashes) == Some(&'"')
}

/// A quote that opens a character literal, not a lifetime: `'a'`, `'\n'`.
fn is_char_literal(chars: &[char], index: usize) -> bool {
    match chars.get(index + 1) {
        Some('\\') => true,
        Some(_) => chars.get(index + 2) == Some(&'\''),
        None => false,
    }
}

#[test]
fn the_reader_sees_paths_as_rust_does() {
    let code = strip_comments_and_strings(
        "// crate::commented::out\nuse crate::a::{b, c::{d as e, self}};\nlet x = \"crate::quoted\";\nsuper::f::g(); child::h();\nlet c = '\"'; crate::after::char",
    );
    let children: BTreeSet<&str> = ["child"].into();
    let named: Vec<String> = named_paths(&code, &children).into_iter().map(|(path, _, _)| path.join("::")).collect();
    assert_eq!(
        named,
        ["crate::a::b", "crate::a::c::d", "crate::a::c", "super::f::g", "self::child::h", "crate::after::char"]
    );
    assert_eq!(absolute(&["x".into(), "y".into()], &["super".into(), "z".into()]), Some(vec!["x".into(), "z".into()]));
}

#[test]
fn a_circle_is_found_and_a_line_is_not() {
    let circle: BTreeMap<&str, BTreeSet<&str>> = [("a", ["b"].into()), ("b", ["c"].into()), ("c", ["a"].into())].into();
    assert_eq!(find_circle(&circle), Some(vec!["a", "b", "c", "a"]));
    let line: BTreeMap<&str, BTreeSet<&str>> = [("a", ["b"].into()), ("b", ["c"].into())].into();
    assert_eq!(find_circle(&line), None);
}

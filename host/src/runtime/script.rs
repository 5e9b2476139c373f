//! Widgets written in JavaScript: a Plugin whose file is a `.js` (or
//! `.mjs`) script is run by the JS runtime component embedded in the bar
//! (`js-runtime/`), compiled once for every such widget.
//!
//! The runtime imports every capability interface, so that any script can
//! run. The host links those the widget's config grants, links the others
//! to functions that trap, and gives the runtime, with the script, the
//! reason each refused interface may not be imported: a script that
//! imports one is refused by name before any of it runs, and a runtime
//! that called one anyway would trap.

use super::store::StoreState;
use super::wit::js_runtime::{ImportRule, Script};
use crate::capabilities::Capability;
use std::collections::BTreeSet;
use std::path::Path;
use wasmtime::component::types::ComponentItem;
use wasmtime::component::{Component, Linker};
use wasmtime::{Engine, bail};

/// Whether the widget at `path` is a script for the JS runtime.
pub fn is_script(path: &Path) -> bool {
    path.extension().is_some_and(|extension| extension == "js" || extension == "mjs")
}

/// A script file larger than this is not read.
const SCRIPT_FILE_BYTES: u64 = 4 << 20;

/// What the runtime is given to run the widget `name` from `path`, granted
/// `grants`: the script, named by its file, and whether it may import each
/// interface the runtime imports.
pub fn read(
    engine: &Engine,
    runtime: &Component,
    path: &Path,
    name: &str,
    grants: &BTreeSet<Capability>,
) -> Result<Script, String> {
    let bytes =
        crate::files::read_code(path, SCRIPT_FILE_BYTES).map_err(|why| format!("reading {}: {why}", path.display()))?;
    let source = String::from_utf8(bytes).map_err(|_| format!("{} is not UTF-8 text", path.display()))?;
    let file = path.file_name().map_or_else(|| path.display().to_string(), |file| file.to_string_lossy().into_owned());
    let imports = runtime
        .component_type()
        .imports(engine)
        .filter(|(_, item)| matches!(item.ty, ComponentItem::ComponentInstance(_)))
        .filter_map(|(import, _)| {
            let interface = import.strip_prefix("obi:widget/")?.split('@').next()?.to_owned();
            let refused = super::grants::check_import(name, import, grants).err().map(|refused| refused.to_string());
            Some(ImportRule { interface, refused })
        })
        .collect();
    Ok(Script { path: file, source, imports })
}

/// Links each interface of `obi:widget` the runtime imports and the widget
/// may not (`script.imports` says why) to functions that trap: the runtime
/// refuses a script that imports one, so only a runtime gone wrong calls them.
/// (Wasmtime's own `define_unknown_imports_as_traps` would also stub WASI
/// interfaces the linker serves under another 0.2 version.)
pub fn link_refused(
    linker: &mut Linker<StoreState>,
    engine: &Engine,
    runtime: &Component,
    script: &Script,
) -> wasmtime::Result<()> {
    for (import, item) in runtime.component_type().imports(engine) {
        let ComponentItem::ComponentInstance(instance) = item.ty else { continue };
        let Some(interface) = import.strip_prefix("obi:widget/").and_then(|rest| rest.split('@').next()) else {
            continue;
        };
        let refused = script.imports.iter().any(|rule| rule.interface == interface && rule.refused.is_some());
        if !refused {
            continue;
        }
        let mut linked = linker.instance(import)?;
        for (function, _) in instance.exports(engine) {
            let called = format!("{import}#{function}");
            linked
                .func_new(function, move |_, _, _, _| bail!("the JS runtime called `{called}`, which was refused"))?;
        }
    }
    Ok(())
}

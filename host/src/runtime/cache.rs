//! Compiled components on disk, so each widget kind is compiled by Cranelift
//! once per machine rather than at every start.
//!
//! A cached file becomes machine code in the bar, so it is loaded only from
//! a folder of the user's own ([`OwnDir`]: refused, with the reason logged,
//! when another user owns it or may write to it) and only when the file is
//! ours, regular and writable by nobody else. Files are written to an
//! exclusive temporary file and renamed, so a reader never sees half a file
//! and a planted name is never written through. Without a usable folder,
//! components are compiled in memory at every start.
//!
//! The key is a SHA-256 of the engine's compatibility hash (wasmtime version
//! and every setting that changes generated code) and the wasm bytes'
//! SHA-256, which for a stock widget was taken when the bar was built: a
//! start that finds their code here never reads the stock components.
//!
//! Every new Obi, and every saved plugin, brings new keys, so the folder
//! is pruned when the bar opens it: a compiled component no start has
//! loaded for [`UNUSED_FOR`] goes (each load marks its file used), and so
//! does a temporary file a crash left behind.

use crate::files::OwnDir;
use sha2::{Digest, Sha256};
use std::env;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};
use wasmtime::Engine;
use wasmtime::Result;
use wasmtime::component::Component;

pub struct ComponentCache {
    dir: Option<OwnDir>,
}

impl ComponentCache {
    /// `$OBI_CACHE_DIR`, else `$XDG_CACHE_HOME/obi/components`, else
    /// `~/.cache/obi/components`. Without any, components are compiled in memory.
    pub fn from_environment() -> ComponentCache {
        let dir = env::var_os("OBI_CACHE_DIR")
            .map(PathBuf::from)
            .or_else(|| env::var_os("XDG_CACHE_HOME").map(|dir| PathBuf::from(dir).join("obi/components")))
            .or_else(|| env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache/obi/components")));
        match dir {
            Some(dir) => ComponentCache::at(dir),
            None => ComponentCache { dir: None },
        }
    }

    /// No cache: components are compiled in memory each time.
    #[cfg(test)]
    pub(crate) fn in_memory() -> ComponentCache {
        ComponentCache { dir: None }
    }

    /// The cache in `dir`, when it is a folder of the user's own, pruned.
    pub fn at(dir: impl Into<PathBuf>) -> ComponentCache {
        let dir = OwnDir::new(&dir.into())
            .inspect_err(|why| tracing::warn!("not using the component cache: {why:#}; components are compiled anew"))
            .ok();
        if let Some(dir) = &dir {
            prune(dir.path(), SystemTime::now());
        }
        ComponentCache { dir }
    }

    /// The compiled component for `wasm`, whose [`wasm_digest`] is
    /// `digest`, from the cache or compiled now and stored.
    pub fn load(&self, engine: &Engine, wasm: &[u8], digest: &WasmDigest) -> Result<Component> {
        let Some(dir) = &self.dir else {
            return Component::new(engine, wasm);
        };
        let name = format!("{}.cwasm", key(engine, digest));
        match dir.trusted_file(&name) {
            Ok(Some(path)) => {
                // SAFETY: the file is a regular file in a folder only this
                // user can write to, owned by this user and writable by
                // nobody else, so it is one this cache wrote from
                // `Component::serialize` under a key that covers the engine's
                // settings and the wasm bytes, renamed into place once
                // complete. wasmtime still checks its header and version,
                // and an error falls back to compiling.
                match unsafe { Component::deserialize_file(engine, &path) } {
                    Ok(component) => {
                        mark_used(&path);
                        return Ok(component);
                    }
                    Err(error) => tracing::warn!("ignoring cached component {}: {error:#}", path.display()),
                }
            }
            Ok(None) => {}
            Err(why) => tracing::warn!("not loading a cached component: {why}; compiling it anew"),
        }
        let component = Component::new(engine, wasm)?;
        if let Err(error) = dir.write(&name, &component.serialize()?) {
            tracing::warn!("could not cache compiled component {name} in {}: {error}", dir.path().display());
        }
        Ok(component)
    }
}

/// A compiled component no start has loaded for this long is removed.
const UNUSED_FOR: Duration = Duration::from_secs(30 * 24 * 3600);
/// A temporary file this old was left by a bar that stopped mid-write.
const LEFT_BEHIND_AFTER: Duration = Duration::from_secs(24 * 3600);

/// Removes from `dir` the compiled components unused for [`UNUSED_FOR`] and
/// the temporary files older than [`LEFT_BEHIND_AFTER`] at `now`; nothing
/// else (a file of another name, a link, a folder) is touched.
fn prune(dir: &Path, now: SystemTime) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let limit = match () {
            _ if name.ends_with(".cwasm") => UNUSED_FOR,
            _ if name.starts_with(".obi-") => LEFT_BEHIND_AFTER,
            _ => continue,
        };
        let Ok(metadata) = entry.path().symlink_metadata() else { continue };
        let age = metadata.modified().ok().and_then(|modified| now.duration_since(modified).ok());
        if metadata.file_type().is_file() && age.is_some_and(|age| age > limit) {
            match std::fs::remove_file(entry.path()) {
                Ok(()) => {
                    tracing::debug!("removed {name}, unused for {} days", age.unwrap_or_default().as_secs() / 86400)
                }
                Err(error) => tracing::debug!("could not remove {name}: {error}"),
            }
        }
    }
}

/// Marks the compiled component at `path` as loaded now, so that pruning
/// keeps it.
fn mark_used(path: &Path) {
    let marked = std::fs::File::options().write(true).open(path).and_then(|file| file.set_modified(SystemTime::now()));
    if let Err(error) = marked {
        tracing::debug!("could not mark {} as used: {error}", path.display());
    }
}

/// Feeds `Hash` output into SHA-256, so the engine's compatibility hash
/// becomes part of a stable on-disk key.
struct Sha256Hasher(Sha256);

impl Hasher for Sha256Hasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    fn finish(&self) -> u64 {
        unreachable!("only the digest is used")
    }
}

/// A component's SHA-256.
pub type WasmDigest = [u8; 32];

pub fn wasm_digest(wasm: &[u8]) -> WasmDigest {
    Sha256::digest(wasm).into()
}

fn key(engine: &Engine, digest: &WasmDigest) -> String {
    let mut hasher = Sha256Hasher(Sha256::new());
    engine.precompile_compatibility_hash().hash(&mut hasher);
    hasher.0.update(digest);
    hasher.0.finalize().iter().map(|byte| format!("{byte:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stock::STOCK_WIDGETS;

    #[test]
    fn compiled_code_unused_for_a_month_and_left_over_temporaries_are_pruned() {
        let dir = tempfile::tempdir().unwrap();
        let now = SystemTime::now();
        let aged = |name: &str, age_days: u64| {
            let path = dir.path().join(name);
            let file = std::fs::File::create(&path).unwrap();
            file.set_modified(now - Duration::from_secs(age_days * 86400)).unwrap();
            path
        };
        let stale = aged("stale.cwasm", 31);
        let used = aged("used.cwasm", 29);
        let left = aged(".obi-half", 2);
        let fresh_half = aged(".obi-writing", 0);
        let other = aged("notes.txt", 400);
        prune(dir.path(), now);
        assert!(!stale.exists() && !left.exists(), "the unused and the left over go");
        assert!(used.exists() && fresh_half.exists() && other.exists(), "the rest stays");
    }

    /// The build's digests name the stock components' code in the cache: a
    /// wrong one would load another component's code.
    #[test]
    fn each_stock_widget_carries_its_components_digest() {
        assert!(!STOCK_WIDGETS.is_empty(), "the lib tests are built with the stock widgets");
        for stock in STOCK_WIDGETS {
            assert_eq!(stock.digest, wasm_digest(stock.wasm), "{}", stock.kind);
        }
    }
}

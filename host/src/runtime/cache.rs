//! Compiled components on disk, so each widget kind is compiled by Cranelift
//! once per machine rather than at every start.
//!
//! The key is a SHA-256 of the engine's compatibility hash (wasmtime version
//! and every setting that changes generated code) and the wasm bytes; files
//! are written to a temporary name and renamed, so a reader never sees half
//! a file.

use sha2::{Digest, Sha256};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::{env, fs};
use wasmtime::Engine;
use wasmtime::Result;
use wasmtime::component::Component;
use wasmtime::error::Context;

pub struct ComponentCache {
    dir: Option<PathBuf>,
}

impl ComponentCache {
    /// `$OBI_CACHE_DIR`, else `$XDG_CACHE_HOME/obi/components`, else
    /// `~/.cache/obi/components`. Without any, components are compiled in memory.
    pub fn from_environment() -> ComponentCache {
        let dir = env::var_os("OBI_CACHE_DIR")
            .map(PathBuf::from)
            .or_else(|| env::var_os("XDG_CACHE_HOME").map(|dir| PathBuf::from(dir).join("obi/components")))
            .or_else(|| env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache/obi/components")));
        ComponentCache { dir }
    }

    pub fn at(dir: impl Into<PathBuf>) -> ComponentCache {
        ComponentCache { dir: Some(dir.into()) }
    }

    /// The compiled component for `wasm`, from the cache or compiled now and stored.
    pub fn load(&self, engine: &Engine, wasm: &[u8]) -> Result<Component> {
        let Some(dir) = &self.dir else {
            return Component::new(engine, wasm);
        };
        let path = dir.join(format!("{}.cwasm", key(engine, wasm)));
        if path.is_file() {
            // SAFETY: the file is one this cache wrote from `Component::serialize`
            // under a key that covers the engine's settings and the wasm bytes,
            // and it was renamed into place only once complete. wasmtime still
            // checks its header and version, and an error falls back to compiling.
            match unsafe { Component::deserialize_file(engine, &path) } {
                Ok(component) => return Ok(component),
                Err(error) => tracing::warn!("ignoring cached component {}: {error:#}", path.display()),
            }
        }
        let component = Component::new(engine, wasm)?;
        if let Err(error) = store(&path, &component.serialize()?) {
            tracing::warn!("could not cache compiled component at {}: {error:#}", path.display());
        }
        Ok(component)
    }
}

fn store(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().expect("cache files live in a directory");
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let temporary = path.with_extension(format!("tmp{}", std::process::id()));
    fs::write(&temporary, bytes).with_context(|| format!("writing {}", temporary.display()))?;
    fs::rename(&temporary, path).with_context(|| format!("renaming into {}", path.display()))
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

fn key(engine: &Engine, wasm: &[u8]) -> String {
    let mut hasher = Sha256Hasher(Sha256::new());
    engine.precompile_compatibility_hash().hash(&mut hasher);
    hasher.0.update(wasm);
    hasher.0.finalize().iter().map(|byte| format!("{byte:02x}")).collect()
}

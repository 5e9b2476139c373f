//! `obi import`: another bar's setup as Obi's configs, so that a user
//! brings what they wrote ([`waybar`]). What cannot be carried over is never
//! dropped in silence: each is a [`Note`] naming the file and line it was
//! written on. The configs are written beside each other in a folder,
//! `komorebi.bar.json` for the first bar, `komorebi.bar.2.json` … for more,
//! never over a file that is there unless told.

pub mod palette;
pub mod waybar;

use crate::config::LineColumn;
use anyhow::{Context, bail};
use std::path::{Path, PathBuf};

/// Another bar's setup, read.
pub struct Imported {
    /// The config file it was read from.
    pub source: PathBuf,
    /// One `komorebi.bar.json` for each of its bars.
    pub configs: Vec<serde_json::Value>,
    pub notes: Vec<Note>,
}

/// Where something was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub file: PathBuf,
    pub at: Option<LineColumn>,
}

/// What was not carried over, and where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub place: Place,
    pub what: String,
}

/// `file:line:column: what`, as a compiler says it.
impl std::fmt::Display for Note {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "{}", self.place.file.display())?;
        if let Some(at) = self.place.at {
            write!(formatter, ":{}:{}", at.line, at.column)?;
        }
        write!(formatter, ": {}", self.what)
    }
}

/// The file the config of bar `index` (from 0) is written to.
pub fn file_name(index: usize) -> String {
    match index {
        0 => "komorebi.bar.json".to_owned(),
        index => format!("komorebi.bar.{}.json", index + 1),
    }
}

/// Writes `configs` into `folder` (made if need be); fails, writing
/// nothing, when one of their files is there and `force` is not given.
pub fn write(configs: &[serde_json::Value], folder: &Path, force: bool) -> anyhow::Result<Vec<PathBuf>> {
    let paths: Vec<PathBuf> = (0..configs.len()).map(|index| folder.join(file_name(index))).collect();
    if let Some(there) = paths.iter().find(|path| path.exists()).filter(|_| !force) {
        bail!("{} is there already; give --force to write over it", there.display());
    }
    std::fs::create_dir_all(folder).with_context(|| format!("making {}", folder.display()))?;
    for (config, path) in configs.iter().zip(&paths) {
        let text = serde_json::to_string_pretty(config).expect("a JSON value writes out");
        std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(paths)
}

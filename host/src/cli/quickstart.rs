//! `obi --quickstart`: an example config to start from.

use std::path::PathBuf;

/// `obi --quickstart`: an example config where obi users keep theirs.
pub fn write_example() -> Result<(), String> {
    let directory = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")))
        .ok_or("neither XDG_CONFIG_HOME nor HOME is set")?
        .join("obi");
    let path = directory.join("komorebi.bar.json");
    if path.exists() {
        return Err(format!("{} already exists; not overwriting it", path.display()));
    }
    std::fs::create_dir_all(&directory).map_err(|error| format!("creating {}: {error}", directory.display()))?;
    std::fs::write(&path, obi::config::DEFAULT_CONFIG)
        .map_err(|error| format!("writing {}: {error}", path.display()))?;
    println!("wrote {}; start the bar with: obi --config {}", path.display(), path.display());
    Ok(())
}

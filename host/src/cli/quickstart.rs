//! `obi --quickstart`: an example config to start from.

use anyhow::Context;
use std::path::PathBuf;

/// `obi --quickstart`: an example config where obi users keep theirs.
pub fn write_example() -> anyhow::Result<()> {
    let directory = config_folder()?;
    let path = directory.join("komorebi.bar.json");
    if path.exists() {
        return Err(anyhow::anyhow!("{} already exists; not overwriting it", path.display()));
    }
    std::fs::create_dir_all(&directory).with_context(|| format!("creating {}", directory.display()))?;
    std::fs::write(&path, obi::config::DEFAULT_CONFIG).with_context(|| format!("writing {}", path.display()))?;
    println!("wrote {}; start the bar with: obi --config {}", path.display(), path.display());
    Ok(())
}

/// Where Obi's users keep their configs: `$XDG_CONFIG_HOME/obi`, else
/// `~/.config/obi`.
pub fn config_folder() -> anyhow::Result<PathBuf> {
    Ok(obi::config::config_home()?.join("obi"))
}

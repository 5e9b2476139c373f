//! `obi --aliases --config PATH`: where a config uses older names.

use std::path::Path;

/// `obi --aliases --config PATH`: where the file uses older names.
pub fn list(path: &Path) -> anyhow::Result<()> {
    let text = obi::files::read_regular(path, obi::config::CONFIG_FILE_BYTES)
        .map_err(|why| anyhow::anyhow!("reading {}: {why}", path.display()))?;
    let text = String::from_utf8_lossy(&text);
    let value = obi::config::parse_lenient(&text).map_err(|error| anyhow::anyhow!("{}:{error}", path.display()))?;
    let renamed = obi::config::aliases::renamed(&value);
    if renamed.is_empty() {
        println!("{} uses no older names", path.display());
    }
    for (at, old, current) in renamed {
        println!("{at}: `{old}` is now `{current}`");
    }
    Ok(())
}

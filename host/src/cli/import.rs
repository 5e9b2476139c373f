//! `obi import waybar`: a Waybar setup as Obi's configs, and on stderr what
//! of it was not carried over.

use std::path::Path;

/// Imports the Waybar config at `path` into `output`, a bar's `output`
/// found among `monitors` (their names, in Obi's order; none when they
/// cannot be listed).
pub fn waybar(path: Option<&Path>, output: Option<&Path>, force: bool, monitors: &[String]) -> anyhow::Result<()> {
    let imported = obi::import::waybar::import(path, monitors)?;
    let folder = match output {
        Some(folder) => folder.to_owned(),
        None => super::quickstart::config_folder()?,
    };
    let written = obi::import::write(&imported.configs, &folder, force)?;
    imported.notes.iter().for_each(|note| eprintln!("{note}"));
    for path in &written {
        println!("wrote {}", path.display());
    }
    let first = written.first().map(|path| path.display().to_string()).unwrap_or_default();
    println!(
        "from {} ({} not carried over, listed above); start the bar with: obi --config {first}",
        imported.source.display(),
        imported.notes.len()
    );
    if imported.configs.iter().any(|config| config.get("monitor").is_none()) {
        println!("(Waybar shows a bar without an `output` on every monitor: so does `obi --every-monitor --config …`)");
    }
    Ok(())
}

//! `obi check PATH...`: every problem of each file, each enabled Plugin
//! loaded (a script's syntax error, a grant it lacks), and where its bar goes.

use super::{Cli, listing};
use obi::bar::{Output, Placement};
use obi::capabilities::Capabilities;
use obi::config::BarConfig;
use obi::config::model::WidgetConfig;
use obi::runtime::{ComponentCache, WidgetEngine, WidgetInstance};
use obi::spec::WidgetSpec;
use obi::tiler::Connection;
use obi::view::images::HeldImages;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `obi check PATH...`: each file's warnings and the monitor its bar goes
/// to on stdout, its errors on stderr; a file with errors makes it fail,
/// after every file is checked.
pub fn check(paths: &[PathBuf], cli: &Cli) -> anyhow::Result<()> {
    let mut monitors = None;
    let mut failed = 0;
    for path in paths {
        let loaded = match BarConfig::load(path) {
            Ok(loaded) => loaded,
            Err(diagnostics) => {
                eprintln!("{}", listing(&diagnostics));
                failed += 1;
                continue;
            }
        };
        loaded.warnings.iter().for_each(|warning| println!("{warning}"));
        for entry in loaded.config.obi_own_entries() {
            println!("{}: note: {entry} is Obi's own: komorebi-bar would not read this file", path.display());
        }
        let broken = broken_plugins(&loaded.config);
        if !broken.is_empty() {
            broken.iter().for_each(|why| eprintln!("{}: error: {why}", path.display()));
            failed += 1;
            continue;
        }
        let warnings = loaded.warnings.len();
        println!("{}: ok ({warnings} warning{})", path.display(), if warnings == 1 { "" } else { "s" });
        let monitors = monitors.get_or_insert_with(|| list_monitors(cli));
        println!("{}: {}", path.display(), where_the_bar_goes(&Placement::from_config(&loaded.config), monitors));
    }
    match failed {
        0 => Ok(()),
        _ if paths.len() == 1 => Err(anyhow::anyhow!("the config cannot be used")),
        _ => Err(anyhow::anyhow!("{failed} of {} configs cannot be used", paths.len())),
    }
}

/// Why each enabled Plugin of `config` cannot be loaded, naming it.
fn broken_plugins(config: &BarConfig) -> Vec<String> {
    let plugins: Vec<_> = config.widgets().filter(|entry| matches!(entry.config, WidgetConfig::Plugin(_))).collect();
    if plugins.is_empty() {
        return Vec::new();
    }
    let capabilities = Capabilities::system(Arc::new(Connection::none("checking the config")), HeldImages::default());
    let engine = capabilities.and_then(|capabilities| {
        WidgetEngine::new(capabilities, ComponentCache::from_environment()).map_err(anyhow::Error::from)
    });
    let mut engine = match engine {
        Ok(engine) => engine,
        Err(error) => return vec![format!("the Plugins cannot be loaded: {error:#}")],
    };
    plugins
        .iter()
        .filter_map(|entry| {
            let WidgetConfig::Plugin(plugin) = entry.config else { return None };
            let named = Path::new(&plugin.path).display();
            let spec = match WidgetSpec::from_entry(entry, config) {
                Ok(spec) => spec,
                Err(why) => return Some(format!("Plugin {named}: {why}")),
            };
            WidgetInstance::load(&mut engine, &spec).err().map(|why| format!("Plugin {named}: {why}"))
        })
        .collect()
}

/// The monitors the bar would be placed among, as the backend it would
/// run on lists them.
pub(super) fn list_monitors(cli: &Cli) -> anyhow::Result<Vec<Output>> {
    #[cfg(free_unix)]
    return obi::window::monitors(super::bar::backend(cli));
    #[cfg(not(free_unix))]
    {
        let _ = cli;
        Err(anyhow::anyhow!("monitors are listed on X11 and Wayland alone"))
    }
}

/// "bar on monitor 1: HDMI-1 1920x1080+1920+0", or why there is none: in
/// the display's order (`check` asks no tiler; the running bar follows
/// komorebi's numbering where komorebi runs).
fn where_the_bar_goes(placement: &Placement, monitors: &anyhow::Result<Vec<Output>>) -> String {
    let monitors = match monitors {
        Ok(monitors) => monitors,
        Err(why) => return format!("the monitors cannot be listed ({why:#})"),
    };
    match placement.monitor(monitors, None) {
        Ok(monitor) => {
            let index = monitors.iter().position(|listed| listed == monitor).unwrap_or_default();
            format!("bar on monitor {index}: {monitor}")
        }
        Err(why) => format!("the bar waits: {why}"),
    }
}

//! `obi`: the bars themselves, from the configs the command line names (or
//! the built-in one), on Wayland or X11.

#[cfg(free_unix)]
use super::DisplayProtocol;
use super::{Cli, listing, screenshot};
use obi::bar::{Bar, BarSource, Fleet, Plan};
use obi::bar_block::BarBlock;
#[cfg(unix)]
use obi::bar_block::BlockSource;
use obi::capabilities::Capabilities;
use obi::config::{BarConfig, komorebi_json, resolve_path};
use obi::runtime::{ComponentCache, WidgetEngine};
use obi::tiler::{self, Connection};
use obi::view::images::HeldImages;
use obi::window::{self, Backend};
use std::path::PathBuf;
use std::sync::Arc;

/// Starts the bars and runs until they are told to quit.
pub fn run(cli: &Cli) -> anyhow::Result<()> {
    let block = stood_in_for(cli)?;
    let mut sources = tracing::debug_span!("reading the configs").in_scope(|| bar_sources(cli, block.is_some()))?;
    if let Some((_, block)) = &block {
        let block = Arc::new(block.clone());
        sources.iter_mut().for_each(|source| source.block = Some(block.clone()));
    }
    let first = sources[0].running_config();
    let held = HeldImages::default();
    let options = tiler::Options {
        choice: cli.tiler,
        komorebi_dir: cli.komorebi_dir.clone(),
        monitor: first.monitor(),
        work_area_offsets: sources
            .iter()
            .filter_map(|source| Some((source.config.monitor(), source.config.work_area_offset()?)))
            .collect(),
        held: held.clone(),
    };
    let tiler = tracing::debug_span!("connecting to the tiler").in_scope(|| Connection::start(&options));
    let engine = tracing::debug_span!("starting the widget engine").in_scope(|| -> anyhow::Result<WidgetEngine> {
        let capabilities = Capabilities::system(Arc::new(tiler.clone()), held.clone())?;
        Ok(WidgetEngine::new(capabilities, ComponentCache::from_environment())?)
    })?;

    if let Some(path) = &cli.screenshot {
        return screenshot::write(engine, Bar::new(&first), held, cli.width, path);
    }
    // As swaybar and i3bar are: on every output, or those the block lists.
    let outputs = block.as_ref().and_then(|(_, block)| block.outputs.clone());
    let outputs = outputs.filter(|outputs| !outputs.is_empty() && !outputs.iter().any(|output| output == "*"));
    let plan = Plan { sources, every_monitor: cli.every_monitor || block.is_some(), outputs };
    window::run(backend(cli), |deliver| {
        #[cfg_attr(not(unix), allow(unused_mut))]
        let mut fleet = Fleet::new(plan, engine, tiler, deliver);
        #[cfg(unix)]
        if let Some((source, _)) = block {
            fleet.stand_in_for(source);
        }
        fleet
    })
}

/// The sway or i3 bar block `--bar-id` names, and where it was asked for.
#[cfg(unix)]
fn stood_in_for(cli: &Cli) -> anyhow::Result<Option<(BlockSource, BarBlock)>> {
    let Some(id) = &cli.bar_id else { return Ok(None) };
    let source = BlockSource::new(id, cli.socket.clone())?;
    let block = source.fetch()?;
    tracing::info!("standing in for bar {id}");
    Ok(Some((source, block)))
}

#[cfg(not(unix))]
fn stood_in_for(_: &Cli) -> anyhow::Result<Option<((), BarBlock)>> {
    Ok(None)
}

/// The config files `paths` name (`~` and variables resolved), then the
/// bar configurations of komorebi's `komorebi.json` at `komorebi_config`
/// (empty: where komorebi keeps it), when given.
pub fn config_paths(paths: &[String], komorebi_config: Option<&str>) -> anyhow::Result<Vec<PathBuf>> {
    let mut resolved: Vec<PathBuf> = paths.iter().map(|path| resolve_path(path)).collect::<Result<_, _>>()?;
    if let Some(komorebi) = komorebi_config {
        let komorebi = if komorebi.is_empty() { komorebi_json::default_path()? } else { resolve_path(komorebi)? };
        resolved.extend(komorebi_json::bar_configurations(&komorebi)?);
    }
    Ok(resolved)
}

/// The bars to run: one for each `--config` and each of komorebi's bar
/// configurations; when there is neither, on Windows the
/// `komorebi.bar.json` komorebi-bar would read, and else the built-in
/// config. A config that cannot be used fails the start when it is the
/// only one; among several it is left out, saying why, and the others run.
fn bar_sources(cli: &Cli, for_a_block: bool) -> anyhow::Result<Vec<BarSource>> {
    let mut paths = config_paths(&cli.config, cli.komorebi_config.as_deref())?;
    if (cli.every_monitor || for_a_block) && paths.len() > 1 {
        return Err(anyhow::anyhow!("the bar runs one config on every monitor; give one --config"));
    }
    if paths.is_empty() && for_a_block {
        // The block is the whole config.
        let nothing = BarConfig::parse(r#"{ "left_widgets": [], "right_widgets": [] }"#, "<none>");
        return Ok(vec![BarSource::of(None, nothing.expect("an empty config reads").config)]);
    }
    if paths.is_empty() {
        match komorebi_bars_own_config() {
            Some(path) => paths.push(path),
            None => {
                let config = BarConfig::embedded_default();
                return Ok(vec![BarSource::of(None, config)]);
            }
        }
    }
    let mut sources = Vec::new();
    let mut failures = Vec::new();
    for path in &paths {
        match BarConfig::load(path) {
            Ok(loaded) => {
                loaded.warnings.iter().for_each(|warning| eprintln!("{warning}"));
                sources.push(BarSource::of(Some(path.clone()), loaded.config));
            }
            Err(diagnostics) if paths.len() == 1 => return Err(anyhow::Error::msg(listing(&diagnostics))),
            Err(diagnostics) => {
                eprintln!("obi: {}: no bar for it: {}", path.display(), listing(&diagnostics));
                failures.push(path.display().to_string());
            }
        }
    }
    match sources.is_empty() {
        true => Err(anyhow::anyhow!("none of the configs can be used ({})", failures.join(", "))),
        false => Ok(sources),
    }
}

/// On Windows, where komorebi's users keep `komorebi.bar.json`, the one
/// komorebi-bar reads when it is given none, if there is one. Elsewhere
/// none: a config is given, or the built-in one is used.
fn komorebi_bars_own_config() -> Option<PathBuf> {
    if !cfg!(windows) {
        return None;
    }
    let path = komorebi_json::default_bar_path().ok().filter(|path| path.exists())?;
    tracing::info!("reading {}, as komorebi-bar would", path.display());
    Some(path)
}

/// How the bar is shown: as `--backend` says, else on Wayland when
/// `WAYLAND_DISPLAY` is set; elsewhere in winit's windows.
pub fn backend(cli: &Cli) -> Backend {
    #[cfg(free_unix)]
    {
        let wayland = std::env::var_os("WAYLAND_DISPLAY").is_some_and(|display| !display.is_empty());
        match cli.backend.unwrap_or(if wayland { DisplayProtocol::Wayland } else { DisplayProtocol::X11 }) {
            DisplayProtocol::Wayland => Backend::Wayland,
            DisplayProtocol::X11 => Backend::Winit,
        }
    }
    #[cfg(not(free_unix))]
    {
        let _ = cli;
        Backend::Winit
    }
}

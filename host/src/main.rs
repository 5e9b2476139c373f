//! `obi`: the status bar binary. Reads the config, starts the widgets and
//! shows the bar, or paints one frame to a PNG with `--screenshot`.

use clap::{Parser, Subcommand};
use obi::bar::{Bar, BarSource, Fleet, Monitor, Placement, Plan};
use obi::capabilities::Capabilities;
use obi::config::{BarConfig, Diagnostic, Severity, komorebi_json, resolve_path};
use obi::render::{Offscreen, find_text_font, write_png};
use obi::runtime::{ComponentCache, WidgetEngine, WidgetInstance};
use obi::scheduler::Scheduler;
use obi::spec::WidgetSpec;
use obi::tiler::{self, Connection};
use obi::view::images::HeldImages;
use obi::window::{self, BarWindows};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Parser)]
#[command(version, about = "A status bar for tiling window managers, with WebAssembly widgets")]
struct Cli {
    /// A komorebi.bar.json (`~` and environment variables are resolved);
    /// without it, the default config built into obi. Given more than
    /// once, one bar for each, all in this process.
    #[arg(short, long, value_name = "PATH")]
    config: Vec<String>,

    /// Also run a bar for each of the bar configurations komorebi's
    /// komorebi.json lists, as komorebi starts them (default: in
    /// $KOMOREBI_CONFIG_HOME, else the home folder).
    #[arg(long, value_name = "PATH", num_args = 0..=1, default_missing_value = "")]
    komorebi_config: Option<String>,

    /// Run the (one) config on every monitor, each bar showing its own
    /// monitor's workspaces; monitors that come get a bar, and their bars
    /// go with them.
    #[arg(long, conflicts_with_all = ["screenshot", "schema", "aliases", "komorebi_config"])]
    every_monitor: bool,

    /// Refresh every widget once, paint one frame offscreen (no display
    /// needed) and write it to this PNG file instead of opening the bar.
    #[arg(long, value_name = "OUT.png")]
    screenshot: Option<PathBuf>,

    /// Width of the `--screenshot` frame in pixels (the window takes its monitor's width).
    #[arg(long, default_value_t = 1920, requires = "screenshot")]
    width: u32,

    /// Print Obi's JSON schema of komorebi.bar.json; with --config, each
    /// enabled Plugin's `config` is described by the schema its widget gives.
    #[arg(long, conflicts_with_all = ["screenshot", "aliases"])]
    schema: bool,

    /// List the font families installed on this system (for `font_family`).
    #[arg(long, exclusive = true)]
    fonts: bool,

    /// Write an example komorebi.bar.json to Obi's config directory.
    #[arg(long, exclusive = true)]
    quickstart: bool,

    /// List the options of the `--config` file that use an older name.
    #[arg(long, requires = "config")]
    aliases: bool,

    /// The tiling window manager to talk to: auto (the first found of
    /// komorebi, Hyprland, niri, sway and i3), komorebi, i3, sway, hyprland,
    /// niri or none.
    #[arg(long, value_name = "TILER", default_value = "auto")]
    tiler: obi::tiler::Choice,

    /// Where komorebi's sockets are (default: $OBI_KOMOREBI_DIR, else
    /// komorebi's data directory).
    #[arg(long, value_name = "DIR")]
    komorebi_dir: Option<PathBuf>,

    /// How the bar is shown: wayland (a layer surface) or x11 (a dock
    /// window). Default: wayland when WAYLAND_DISPLAY is set, else x11.
    #[cfg(free_unix)]
    #[arg(long, value_name = "BACKEND")]
    backend: Option<Backend>,

    #[command(subcommand)]
    command: Option<Command>,
}

#[cfg(free_unix)]
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Backend {
    X11,
    Wayland,
}

#[derive(Subcommand)]
enum Command {
    /// Control running bars: toggle, show, hide, reload or quit.
    Msg {
        /// toggle | show | hide | reload | quit
        command: obi::control::Command,
        /// Only the obi with this process id (default: every running obi).
        #[arg(long)]
        pid: Option<u32>,
        /// Only the bar at this place among each obi's bars (from 0, in
        /// the order of their configs, or of their monitors).
        #[arg(long, value_name = "N", conflicts_with = "monitor")]
        bar: Option<usize>,
        /// Only the bars on the monitor with this number (from 0, as
        /// `monitor` in the config numbers them).
        #[arg(long, value_name = "M")]
        monitor: Option<usize>,
    },
    /// Check config files: print every problem and the monitor each bar
    /// goes to; exit non-zero if any file has errors.
    Check {
        /// The komorebi.bar.json files to check.
        #[arg(required_unless_present = "komorebi_config")]
        paths: Vec<String>,
        /// Also check the bar configurations komorebi's komorebi.json lists
        /// (default: in $KOMOREBI_CONFIG_HOME, else the home folder).
        #[arg(long, value_name = "PATH", num_args = 0..=1, default_missing_value = "")]
        komorebi_config: Option<String>,
    },
    /// Tools for widget authors.
    Widget {
        #[command(subcommand)]
        command: WidgetCommand,
    },
}

#[derive(Subcommand)]
enum WidgetCommand {
    /// Run a widget headless over a script of capability readings and
    /// inputs; print each view as a line of JSON (or paint it to a PNG).
    /// Exits non-zero when the widget refuses its config, traps or returns
    /// a bad view.
    Test {
        /// The widget's component (.wasm).
        plugin: PathBuf,
        /// The script (JSON): `config`, `grants`, `commands`, `monitor`,
        /// `now`, and `steps` such as "refresh", {"advance": 1.5},
        /// {"cpu": 42}, {"input": {"key": "k", "event": "primary_click"}}.
        #[arg(long, value_name = "SCRIPT.json")]
        script: PathBuf,
        /// Paint each view with the bar's painter to DIR/step-N.png instead.
        #[arg(long, value_name = "DIR")]
        png: Option<PathBuf>,
        /// Width of the painted bar in pixels.
        #[arg(long, default_value_t = 800, requires = "png")]
        width: u32,
    },
    /// Create a widget crate that builds for wasm32-wasip2, tests with the
    /// harness and loads in the bar.
    New {
        /// The crate's name (lowercase letters, digits, - and _).
        name: String,
        /// Where to create it (default: ./NAME).
        #[arg(long, value_name = "DIR")]
        path: Option<PathBuf>,
        /// The Obi source tree whose SDK and harness it uses (default: the
        /// one this obi was built from).
        #[arg(long, value_name = "DIR")]
        obi_source: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    // SAFETY: no other thread has started yet.
    unsafe { window::rasterise_on_calling_thread() };
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("OBI_LOG")
                .unwrap_or_else(|_| "obi=info,winit=error,warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("obi: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    if cli.schema {
        return schema(cli.config.first().map(String::as_str));
    }
    if cli.fonts {
        obi::render::fonts::families().iter().for_each(|family| println!("{family}"));
        return Ok(());
    }
    if cli.quickstart {
        return quickstart();
    }
    match &cli.command {
        Some(Command::Check { paths, komorebi_config }) => {
            return check(&config_paths(paths, komorebi_config.as_deref())?, &cli);
        }
        Some(Command::Msg { command, pid, bar, monitor }) => {
            let target = match (bar, monitor) {
                (Some(bar), _) => obi::control::Target::Bar(*bar),
                (None, Some(monitor)) => obi::control::Target::Monitor(*monitor),
                (None, None) => obi::control::Target::All,
            };
            return message(obi::control::Request { command: *command, target }, *pid);
        }
        Some(Command::Widget { command: WidgetCommand::Test { plugin, script, png, width } }) => {
            return widget_test(plugin, script, png.as_deref(), *width);
        }
        Some(Command::Widget { command: WidgetCommand::New { name, path, obi_source } }) => {
            let directory = path.clone().unwrap_or_else(|| PathBuf::from(name));
            let source = obi_source.clone().unwrap_or_else(obi::widget_template::own_source);
            obi::widget_template::create(&directory, name, &source)?;
            println!("created {}: `cargo test` there builds it and runs its test", directory.display());
            return Ok(());
        }
        None => {}
    }
    if cli.aliases {
        return aliases(&resolve_path(cli.config.first().map(String::as_str).unwrap_or_default())?);
    }
    let sources = bar_sources(&cli)?;
    let first = &sources[0].config;
    let held = HeldImages::default();
    let tiler = Connection::start(&tiler::Options {
        choice: cli.tiler,
        komorebi_dir: cli.komorebi_dir.clone(),
        monitor: first.monitor(),
        work_area_offsets: sources
            .iter()
            .filter_map(|source| Some((source.config.monitor(), source.config.work_area_offset()?)))
            .collect(),
        held: held.clone(),
    });
    let engine = WidgetEngine::new(
        Capabilities::system(Arc::new(tiler.clone()), held.clone())?,
        ComponentCache::from_environment(),
    )
    .map_err(|error| format!("{error:#}"))?;

    if let Some(path) = &cli.screenshot {
        let bar = Bar::new(first);
        let font = find_text_font(bar.font_family())?;
        return screenshot(engine, bar, &font.data, held, cli.width, path);
    }
    let plan = Plan { sources, every_monitor: cli.every_monitor };
    #[cfg(free_unix)]
    {
        if backend(&cli) == Backend::Wayland {
            let wayland = window::wayland::connect()?;
            let fleet = Fleet::new(plan, engine, tiler, held, wayland.deliver());
            return wayland.run(fleet);
        }
        window::end_quietly_without_the_display();
    }
    let event_loop = window::event_loop()?;
    let deliver = window::deliver_to(&event_loop);
    let fleet = Fleet::new(plan, engine, tiler, held, deliver);
    BarWindows::new(fleet).run(event_loop)
}

/// The config files `paths` name (`~` and variables resolved), then the
/// bar configurations of komorebi's `komorebi.json` at `komorebi_config`
/// (empty: where komorebi keeps it), when given.
fn config_paths(paths: &[String], komorebi_config: Option<&str>) -> Result<Vec<PathBuf>, String> {
    let mut resolved: Vec<PathBuf> = paths.iter().map(|path| resolve_path(path)).collect::<Result<_, _>>()?;
    if let Some(komorebi) = komorebi_config {
        let komorebi = if komorebi.is_empty() { komorebi_json::default_path()? } else { resolve_path(komorebi)? };
        resolved.extend(komorebi_json::bar_configurations(&komorebi)?);
    }
    Ok(resolved)
}

/// The bars to run: one for each `--config` and each of komorebi's bar
/// configurations, or the built-in config when there is neither. A config
/// that cannot be used fails the start when it is the only one; among
/// several it is left out, saying why, and the others run.
fn bar_sources(cli: &Cli) -> Result<Vec<BarSource>, String> {
    let paths = config_paths(&cli.config, cli.komorebi_config.as_deref())?;
    if cli.every_monitor && paths.len() > 1 {
        return Err("--every-monitor runs one config on every monitor; give one --config".into());
    }
    if paths.is_empty() {
        let config = BarConfig::embedded_default();
        return Ok(vec![BarSource { path: None, config, monitor: None }]);
    }
    let mut sources = Vec::new();
    let mut failures = Vec::new();
    for path in &paths {
        match BarConfig::load(path) {
            Ok(loaded) => {
                loaded.warnings.iter().for_each(|warning| eprintln!("{warning}"));
                sources.push(BarSource { path: Some(path.clone()), config: loaded.config, monitor: None });
            }
            Err(diagnostics) if paths.len() == 1 => return Err(listing(&diagnostics)),
            Err(diagnostics) => {
                eprintln!("obi: {}: no bar for it: {}", path.display(), listing(&diagnostics));
                failures.push(path.display().to_string());
            }
        }
    }
    match sources.is_empty() {
        true => Err(format!("none of the configs can be used ({})", failures.join(", "))),
        false => Ok(sources),
    }
}

/// Prints the schema, with the config schemas of the plugins `config` enables.
fn schema(config: Option<&str>) -> Result<(), String> {
    let mut schema: serde_json::Value = serde_json::from_str(&obi::config::schema()).expect("Obi's schema is JSON");
    if let Some(path) = config {
        let config = BarConfig::load(&resolve_path(path)?).map_err(|diagnostics| listing(&diagnostics))?.config;
        let capabilities =
            Capabilities::system(Arc::new(Connection::none("printing the schema")), HeldImages::default())?;
        let mut engine = WidgetEngine::new(capabilities, ComponentCache::from_environment())
            .map_err(|error| format!("{error:#}"))?;
        let mut plugins = Vec::new();
        for entry in config.widgets() {
            let obi::config::model::WidgetConfig::Plugin(plugin) = entry.config else { continue };
            let given = WidgetSpec::from_entry(&entry, &config)
                .and_then(|spec| WidgetInstance::config_schema(&mut engine, &spec));
            match given {
                Ok(Some(plugin_schema)) => plugins.push((plugin.path.clone(), plugin_schema)),
                Ok(None) => {}
                Err(error) => eprintln!("obi: the Plugin at {:?} gives no config schema: {error}", plugin.path),
            }
        }
        schema = obi::config::with_plugin_schemas(schema, &plugins);
    }
    println!("{}", serde_json::to_string_pretty(&schema).expect("the schema serializes"));
    Ok(())
}

/// `obi widget test`: each view as a line of JSON, or painted to a PNG.
fn widget_test(plugin: &Path, script: &Path, png: Option<&Path>, width: u32) -> Result<(), String> {
    use obi::widget_test::{TestScript, run, view_json};
    let text = std::fs::read_to_string(script).map_err(|error| format!("reading {}: {error}", script.display()))?;
    let script = TestScript::parse(&text)?;
    let Some(directory) = png else {
        return run(plugin, &script, HeldImages::default(), |step, view| {
            println!("{}", serde_json::json!({ "step": step, "view": view_json(view) }));
            Ok(())
        });
    };
    std::fs::create_dir_all(directory).map_err(|error| format!("creating {}: {error}", directory.display()))?;
    // The widget alone on a bar of the default look, as a Plugin entry shows it.
    let plugin_path = std::path::absolute(plugin).map_err(|error| format!("{}: {error}", plugin.display()))?;
    let entry = serde_json::json!({ "left_widgets": [ { "Plugin": { "enable": true, "path": plugin_path, "config": script.config } } ], "right_widgets": [] });
    let config =
        BarConfig::parse(&entry.to_string(), "the widget's bar").map_err(|diagnostics| listing(&diagnostics))?.config;
    let mut bar = Bar::new(&config);
    let font = find_text_font(bar.font_family())?;
    let height = bar.scene().style.height.round().max(1.0) as u32;
    let mut offscreen = Offscreen::new(width, height, &font.data)?;
    let held = HeldImages::default();
    offscreen.painter.use_held_images(held.clone());
    if bar.specs().is_empty() {
        return Err("the widget has no place on the bar".into());
    }
    run(plugin, &script, held, |step, view| {
        bar.apply(0, 0, obi::view::WidgetState::Ready(view.clone()));
        offscreen.paint(bar.scene());
        let path = directory.join(format!("step-{step}.png"));
        write_png(&path, width, height, &offscreen.read_rgba()?)?;
        println!("{}", path.display());
        Ok(())
    })
}

/// How the bar is shown: as `--backend` says, else on Wayland when
/// `WAYLAND_DISPLAY` is set.
#[cfg(free_unix)]
fn backend(cli: &Cli) -> Backend {
    let wayland = std::env::var_os("WAYLAND_DISPLAY").is_some_and(|display| !display.is_empty());
    cli.backend.unwrap_or(if wayland { Backend::Wayland } else { Backend::X11 })
}

/// `obi check PATH...`: each file's warnings and the monitor its bar goes
/// to on stdout, its errors on stderr; a file with errors makes it fail,
/// after every file is checked.
fn check(paths: &[PathBuf], cli: &Cli) -> Result<(), String> {
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
        let warnings = loaded.warnings.len();
        println!("{}: ok ({warnings} warning{})", path.display(), if warnings == 1 { "" } else { "s" });
        let monitors = monitors.get_or_insert_with(|| list_monitors(cli));
        println!("{}: {}", path.display(), where_the_bar_goes(&Placement::from_config(&loaded.config), monitors));
    }
    match failed {
        0 => Ok(()),
        _ if paths.len() == 1 => Err("the config cannot be used".into()),
        _ => Err(format!("{failed} of {} configs cannot be used", paths.len())),
    }
}

/// The monitors the bar would be placed among, as the backend it would
/// run on lists them.
fn list_monitors(cli: &Cli) -> Result<Vec<Monitor>, String> {
    #[cfg(free_unix)]
    return match backend(cli) {
        Backend::Wayland => window::wayland::outputs::list(),
        Backend::X11 => window::x11_monitors(),
    };
    #[cfg(not(free_unix))]
    {
        let _ = cli;
        Err("monitors are listed on X11 and Wayland alone".into())
    }
}

/// "bar on monitor 1: HDMI-1 1920x1080+1920+0", or why there is none.
fn where_the_bar_goes(placement: &Placement, monitors: &Result<Vec<Monitor>, String>) -> String {
    let monitors = match monitors {
        Ok(monitors) => monitors,
        Err(why) => return format!("the monitors cannot be listed ({why})"),
    };
    match placement.monitor(monitors) {
        Ok(monitor) => {
            let index = monitors.iter().position(|listed| listed == monitor).unwrap_or_default();
            format!("bar on monitor {index}: {monitor}")
        }
        Err(why) => format!("the bar waits: {why}"),
    }
}

/// `obi msg COMMAND`: each bar's reply; any error fails the command.
fn message(request: obi::control::Request, pid: Option<u32>) -> Result<(), String> {
    let replies = obi::control::send(request, pid)?;
    let mut failed = false;
    for (pid, reply) in replies {
        println!("{pid}: {reply}");
        failed |= reply.starts_with("error");
    }
    if failed { Err("a bar did not take the command".into()) } else { Ok(()) }
}

/// `obi --aliases --config PATH`: where the file uses older names.
fn aliases(path: &Path) -> Result<(), String> {
    let text = obi::files::read_regular(path, obi::config::CONFIG_FILE_BYTES)
        .map_err(|why| format!("reading {}: {why}", path.display()))?;
    let text = String::from_utf8_lossy(&text);
    let value = obi::config::parse_lenient(&text).map_err(|error| format!("{}:{error}", path.display()))?;
    let renamed = obi::config::aliases::renamed(&value);
    if renamed.is_empty() {
        println!("{} uses no older names", path.display());
    }
    for (at, old, current) in renamed {
        println!("{at}: `{old}` is now `{current}`");
    }
    Ok(())
}

/// `obi --quickstart`: an example config where obi users keep theirs.
fn quickstart() -> Result<(), String> {
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

/// Every diagnostic on a line of its own, and how many errors there were.
fn listing(diagnostics: &[Diagnostic]) -> String {
    let errors = diagnostics.iter().filter(|diagnostic| diagnostic.severity == Severity::Error).count();
    let lines: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
    format!("the config has {errors} error{}:\n{}", if errors == 1 { "" } else { "s" }, lines.join("\n"))
}

/// How long a screenshot waits for answers its widgets were promised
/// (a first reading of the disks, a release feed).
const SCREENSHOT_SETTLE: std::time::Duration = std::time::Duration::from_secs(10);

fn screenshot(
    mut engine: WidgetEngine,
    mut bar: Bar,
    text_font: &[u8],
    held: HeldImages,
    width: u32,
    path: &Path,
) -> Result<(), String> {
    let height = bar.scene().style.height.round().max(1.0) as u32;
    // GL start-up does not depend on the widgets: overlap the two.
    let specs = bar.specs().to_vec();
    let (offscreen, states) = std::thread::scope(|scope| {
        let states = scope.spawn(|| Scheduler::first_states(&mut engine, specs, SCREENSHOT_SETTLE));
        let offscreen = Offscreen::new(width, height, text_font);
        (offscreen, states.join().expect("the widget thread panicked"))
    });
    let mut offscreen = offscreen?;
    offscreen.painter.use_held_images(held);
    for (index, state) in states.into_iter().enumerate() {
        bar.apply(0, index, state);
    }
    offscreen.paint(bar.scene());
    let rgba = offscreen.read_rgba()?;
    write_png(path, width, height, &rgba)
}

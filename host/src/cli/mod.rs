//! The command line: its arguments, and which command does what, each in a
//! file of its own (the bar itself in [`bar`]).

mod aliases;
mod bar;
mod check;
mod generate;
mod import;
mod msg;
mod quickstart;
mod schema;
mod screenshot;
mod widget;

use clap::{Parser, Subcommand};
use obi::config::{Diagnostic, Severity, resolve_path};
use std::ffi::OsString;
use std::path::PathBuf;

#[derive(Parser)]
#[command(version = env!("OBI_VERSION"), about = "A status bar for tiling window managers, with WebAssembly widgets")]
pub struct Cli {
    /// A komorebi.bar.json (`~` and environment variables are resolved);
    /// without it, on Windows the one komorebi-bar reads (in
    /// %KOMOREBI_CONFIG_HOME%, else %USERPROFILE%) if there is one, else
    /// the default config built into obi. Given more than once, one bar
    /// for each, all in this process.
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

    /// Write the manual page or a shell's completions to standard output.
    #[arg(long, value_name = "WHAT", exclusive = true)]
    generate: Option<generate::Generated>,

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

    /// Stand in for the sway or i3 bar of this id, as its `bar { }` block
    /// describes it (`swaybar_command obi` runs `obi -b <id>`,
    /// `i3bar_command obi` runs `obi --bar_id=<id> --socket=<path>`); a
    /// `--config` adds its widgets and overrides what it names.
    #[cfg(unix)]
    #[arg(short = 'b', long = "bar-id", alias = "bar_id", value_name = "ID", conflicts_with = "every_monitor")]
    bar_id: Option<String>,

    /// The IPC socket of the sway or i3 whose bar `--bar-id` names
    /// (default: $SWAYSOCK, else $I3SOCK).
    #[cfg(unix)]
    #[arg(long, value_name = "PATH", requires = "bar_id")]
    socket: Option<PathBuf>,

    /// How the bar is shown: wayland (a layer surface) or x11 (a dock
    /// window). Default: wayland when WAYLAND_DISPLAY is set, else x11.
    #[cfg(free_unix)]
    #[arg(long, value_name = "BACKEND")]
    backend: Option<DisplayProtocol>,

    #[command(subcommand)]
    command: Option<Command>,
}

/// What `--backend` names.
#[cfg(free_unix)]
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum DisplayProtocol {
    X11,
    Wayland,
}

#[derive(Subcommand)]
enum Command {
    /// Control running bars: toggle, show, hide, reload or quit them,
    /// refresh their widgets of a name or a signal, or give one the
    /// keyboard (`focus`; again, or Escape, gives it back).
    Msg {
        /// toggle | show | hide | reload | quit | refresh | signal | focus
        command: String,
        /// The widgets `refresh` reads afresh: a Custom's `name`, a
        /// plugin's, or a stock kind's ("Weather"); or the number N of the
        /// Customs' `signal` (as `pkill -RTMIN+N obi` does).
        name: Option<String>,
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
    /// Write Obi's configs from another bar's setup, naming on stderr every
    /// key not carried over, with its file and line.
    Import {
        #[command(subcommand)]
        from: ImportCommand,
    },
}

#[derive(Subcommand)]
enum ImportCommand {
    /// A Waybar config: a komorebi.bar.json per bar (komorebi.bar.2.json …
    /// for more), its modules as Obi's widgets.
    Waybar {
        /// The config file, or the folder that holds it (default:
        /// $XDG_CONFIG_HOME/waybar, else ~/.config/waybar).
        path: Option<PathBuf>,
        /// Where to write the configs (default: Obi's config folder,
        /// $XDG_CONFIG_HOME/obi, else ~/.config/obi).
        #[arg(long, value_name = "DIR")]
        output: Option<PathBuf>,
        /// Write over configs that are there.
        #[arg(long)]
        force: bool,
    },
}

#[derive(Subcommand)]
enum WidgetCommand {
    /// Run a widget headless over a script of capability readings and
    /// inputs; print each view as a line of JSON (or paint it to a PNG).
    /// Exits non-zero when the widget refuses its config, traps or returns
    /// a bad view.
    Test {
        /// The widget's component (.wasm), or its script (.js).
        plugin: PathBuf,
        /// The script (JSON): `config`, `grants`, `commands`, `monitor`,
        /// `now`, and `steps` such as "refresh", {"advance": 1.5},
        /// {"cpu": 42}, {"input": {"key": "k", "event": "primary_click"}},
        /// {"expect": ["the text of each item"]}.
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
    /// harness and loads in the bar; with --js, a widget in one JavaScript
    /// file with its test script, which needs nothing built.
    New {
        /// The widget's name (lowercase letters, digits, - and _).
        name: String,
        /// Where to create it (default: ./NAME).
        #[arg(long, value_name = "DIR")]
        path: Option<PathBuf>,
        /// The Obi source tree whose SDK and harness it uses (default: the
        /// one this obi was built from).
        #[arg(long, value_name = "DIR", conflicts_with = "js")]
        obi_source: Option<PathBuf>,
        /// A widget in JavaScript: NAME.js, NAME.test.json, TypeScript
        /// declarations of what it imports, and editor settings.
        #[arg(long)]
        js: bool,
    },
}

/// Does what the command line asks.
/// The command line with i3's `-V` dropped: i3 gives it to its bar's
/// command, with `--bar_id`, when the block says `verbose yes`; to Obi it
/// would ask for its version.
pub fn as_i3_starts_its_bar(arguments: impl Iterator<Item = OsString>) -> Vec<OsString> {
    let arguments: Vec<OsString> = arguments.collect();
    let started_by_i3 = arguments.iter().any(|argument| argument.to_string_lossy().starts_with("--bar_id"));
    arguments.into_iter().filter(|argument| !(started_by_i3 && argument == "-V")).collect()
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    if cli.schema {
        return schema::print(cli.config.first().map(String::as_str));
    }
    if cli.fonts {
        obi::render::fonts::families().iter().for_each(|family| println!("{family}"));
        return Ok(());
    }
    if let Some(what) = cli.generate {
        return generate::write(what);
    }
    if cli.quickstart {
        return quickstart::write_example();
    }
    match &cli.command {
        Some(Command::Check { paths, komorebi_config }) => {
            return check::check(&bar::config_paths(paths, komorebi_config.as_deref())?, &cli);
        }
        Some(Command::Msg { command, name, pid, bar, monitor }) => {
            let target = match (bar, monitor) {
                (Some(bar), _) => obi::control::Target::Bar(*bar),
                (None, Some(monitor)) => obi::control::Target::Monitor(*monitor),
                (None, None) => obi::control::Target::All,
            };
            let words = [Some(command), name.as_ref()].into_iter().flatten();
            let command = words.cloned().collect::<Vec<_>>().join(" ").parse().map_err(anyhow::Error::msg)?;
            return msg::send(obi::control::Request { command, target }, *pid);
        }
        Some(Command::Import { from: ImportCommand::Waybar { path, output, force } }) => {
            let monitors = check::list_monitors(&cli).map(|monitors| monitors.into_iter().map(|monitor| monitor.name));
            let monitors: Vec<String> = monitors.map(Iterator::collect).unwrap_or_default();
            return import::waybar(path.as_deref(), output.as_deref(), *force, &monitors);
        }
        Some(Command::Widget { command: WidgetCommand::Test { plugin, script, png, width } }) => {
            return widget::test(plugin, script, png.as_deref(), *width);
        }
        Some(Command::Widget { command: WidgetCommand::New { name, path, obi_source, js: false } }) => {
            return widget::new(name, path.as_deref(), obi_source.as_deref());
        }
        Some(Command::Widget { command: WidgetCommand::New { name, path, js: true, .. } }) => {
            return widget::new_js(name, path.as_deref());
        }
        None => {}
    }
    if cli.aliases {
        return aliases::list(&resolve_path(cli.config.first().map(String::as_str).unwrap_or_default())?);
    }
    bar::run(&cli)
}

/// Every diagnostic on a line of its own, and how many errors there were.
pub(crate) fn listing(diagnostics: &[Diagnostic]) -> String {
    let errors = diagnostics.iter().filter(|diagnostic| diagnostic.severity == Severity::Error).count();
    let lines: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
    format!("the config has {errors} error{}:\n{}", if errors == 1 { "" } else { "s" }, lines.join("\n"))
}

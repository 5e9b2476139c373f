//! `obi`: the status bar binary. Reads the config, starts the widgets and
//! shows the bar, or paints one frame to a PNG with `--screenshot`.

use clap::Parser;
use obi::capabilities::Capabilities;
use obi::config::{BarConfig, Side};
use obi::render::{Offscreen, Scene, SceneWidget, Style, find_text_font, write_png};
use obi::runtime::{ComponentCache, Scheduler, WidgetEngine, WidgetSpec};
use obi::view::WidgetState;
use obi::window::{self, BarEvent, BarWindow};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(version, about = "A status bar for tiling window managers, with WebAssembly widgets")]
struct Cli {
    /// A komorebi.bar.json; without it, the default config built into obi.
    #[arg(short, long, value_name = "PATH")]
    config: Option<PathBuf>,

    /// Refresh every widget once, paint one frame offscreen (no display
    /// needed) and write it to this PNG file instead of opening the bar.
    #[arg(long, value_name = "OUT.png")]
    screenshot: Option<PathBuf>,

    /// Width of the `--screenshot` frame in pixels (the window takes its monitor's width).
    #[arg(long, default_value_t = 1920, requires = "screenshot")]
    width: u32,
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("OBI_LOG").unwrap_or_else(|_| "obi=info,winit=error,warn".into()),
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
    let config = match &cli.config {
        Some(path) => BarConfig::load(path)?,
        None => BarConfig::embedded_default(),
    };
    let mut sides = Vec::new();
    let mut specs = Vec::new();
    for (side, entry) in config.widgets() {
        sides.push(side);
        specs.push(entry.spec(&config)?);
    }
    let style = Style::from_config(&config);
    let font = find_text_font(config.font_family.as_deref())?;
    let engine = WidgetEngine::new(Capabilities::system()?, ComponentCache::from_environment())
        .map_err(|error| format!("{error:#}"))?;

    match cli.screenshot {
        Some(path) => screenshot(engine, style, sides, specs, &font.data, cli.width, &path),
        None => {
            let event_loop = window::event_loop()?;
            let scene = scene(style, &sides, &specs, vec![WidgetState::Pending; specs.len()]);
            let proxy = event_loop.create_proxy();
            let scheduler = Scheduler::spawn(engine, specs, move |index, state| {
                // Fails only once the window is gone and the bar is shutting down.
                let _ = proxy.send_event(BarEvent::Widget(index, state));
            });
            BarWindow::new(scene, config.monitor, font.data).run(event_loop, scheduler)
        }
    }
}

fn scene(style: Style, sides: &[Side], specs: &[WidgetSpec], states: Vec<WidgetState>) -> Scene {
    let widgets = sides
        .iter()
        .zip(specs)
        .zip(states)
        .map(|((side, spec), state)| SceneWidget { side: *side, name: spec.name.clone(), state })
        .collect();
    Scene { style, widgets }
}

fn screenshot(
    mut engine: WidgetEngine,
    style: Style,
    sides: Vec<Side>,
    specs: Vec<WidgetSpec>,
    text_font: &[u8],
    width: u32,
    path: &std::path::Path,
) -> Result<(), String> {
    let height = style.height.round().max(1.0) as u32;
    // GL start-up does not depend on the widgets: overlap the two.
    let (offscreen, states) = std::thread::scope(|scope| {
        let states = scope.spawn(|| Scheduler::first_states(&mut engine, specs.clone()));
        let offscreen = Offscreen::new(width, height, text_font);
        (offscreen, states.join().expect("the widget thread panicked"))
    });
    let mut offscreen = offscreen?;
    let scene = scene(style, &sides, &specs, states);
    offscreen.painter.paint(&scene, width, height);
    let rgba = offscreen.read_rgba()?;
    write_png(path, width, height, &rgba)
}

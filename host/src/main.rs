//! `obi`: the status bar binary. Reads the config, starts the widgets and
//! shows the bar; the command line is [`cli`]'s.

mod cli;

use clap::Parser;
use obi::window;
use std::process::ExitCode;

fn main() -> ExitCode {
    obi::uptime::mark();
    obi::allocator::fix_heap_thresholds();
    // SAFETY: no other thread has started yet.
    unsafe { window::rasterise_on_calling_thread() };
    let filter = tracing_subscriber::EnvFilter::try_from_env("OBI_LOG")
        .unwrap_or_else(|_| "obi=info,winit=error,warn".into())
        // ICU says, for every Chinese or Japanese text, that it has no
        // dictionary to break its words with: the bar never breaks a label.
        .add_directive("icu_provider=off".parse().expect("a directive"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        // The start's phases are spans: at debug, each says how long it took.
        .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
        .init();
    match cli::run(cli::Cli::parse_from(cli::as_i3_starts_its_bar(std::env::args_os()))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("obi: {error:#}");
            ExitCode::FAILURE
        }
    }
}

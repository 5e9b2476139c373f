//! `obi --generate`: the manual page and the shell completions, made from
//! the command line's own definition so that they never fall behind it.
//! Packages install them (`cargo xtask dist` asks the built bar for them);
//! a user who built from source can write them where their shell looks.

use clap::{CommandFactory, ValueEnum};
use clap_complete::Shell;
use std::io::Write;

/// What `--generate` writes.
#[derive(Clone, Copy, ValueEnum)]
pub enum Generated {
    /// The manual page, obi(1), in roff.
    Man,
    CompleteBash,
    CompleteZsh,
    CompleteFish,
    CompleteElvish,
    CompletePowershell,
}

/// Writes `what` to standard output.
pub fn write(what: Generated) -> anyhow::Result<()> {
    let mut command = super::Cli::command();
    let mut out = std::io::stdout().lock();
    let shell = match what {
        Generated::Man => {
            clap_mangen::Man::new(command).render(&mut out)?;
            return Ok(out.flush()?);
        }
        Generated::CompleteBash => Shell::Bash,
        Generated::CompleteZsh => Shell::Zsh,
        Generated::CompleteFish => Shell::Fish,
        Generated::CompleteElvish => Shell::Elvish,
        Generated::CompletePowershell => Shell::PowerShell,
    };
    clap_complete::generate(shell, &mut command, "obi", &mut out);
    Ok(out.flush()?)
}

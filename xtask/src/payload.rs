//! What every package carries beside the program: the README, the
//! licences (Obi's and that of the icon font built into it), the notices of
//! the third-party crates built into it, the example
//! config, and for Linux the manual page, the shell completions (both
//! asked of the built bar, so they match its command line) and the systemd
//! user unit.

use crate::compile::Platform;
use crate::release::Release;
use crate::third_party::ThirdParty;
use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::Command;

pub struct Payload {
    pub readme: Vec<u8>,
    /// File name and text of each licence.
    pub licences: Vec<(&'static str, Vec<u8>)>,
    /// The third-party crates in each platform's bar, with their licences.
    pub linux_notices: Vec<u8>,
    pub windows_notices: Vec<u8>,
    /// The default config, as the bar has it built in.
    pub example: Vec<u8>,
    pub man_page: Vec<u8>,
    pub bash_completion: Vec<u8>,
    pub zsh_completion: Vec<u8>,
    pub fish_completion: Vec<u8>,
}

/// The example config's file name in every package.
pub const EXAMPLE: &str = "komorebi.bar.example.json";

impl Payload {
    /// Gathers the payload; `linux_obi` is the built bar, which writes its
    /// own manual page and completions.
    pub fn gather(release: &Release, linux_obi: &Path) -> Result<Payload> {
        let version = generated(linux_obi, &["--version"])?;
        let expected = format!("obi {} ({}", release.version, &release.commit[..12]);
        if !String::from_utf8_lossy(&version).starts_with(&expected) {
            bail!(
                "{} says it is {:?}, not {expected}…): is it built from this checkout?",
                linux_obi.display(),
                String::from_utf8_lossy(&version).trim()
            );
        }
        let third_party = ThirdParty::of_workspace(release)?;
        Ok(Payload {
            readme: release.read("README.md")?,
            licences: vec![
                ("LICENSE-MIT", release.read("LICENSE-MIT")?),
                ("LICENSE-APACHE", release.read("LICENSE-APACHE")?),
                ("LICENSE-Phosphor", release.read("host/assets/Phosphor-LICENSE.txt")?),
            ],
            linux_notices: third_party.notices(release, Platform::Linux)?,
            windows_notices: third_party.notices(release, Platform::Windows)?,
            example: release.read("examples/default.json")?,
            man_page: generated(linux_obi, &["--generate", "man"])?,
            bash_completion: generated(linux_obi, &["--generate", "complete-bash"])?,
            zsh_completion: generated(linux_obi, &["--generate", "complete-zsh"])?,
            fish_completion: generated(linux_obi, &["--generate", "complete-fish"])?,
        })
    }
}

/// The systemd user unit that starts `executable` with the graphical
/// session (a session that starts `graphical-session.target`: sway or i3
/// with their systemd integration, niri, Hyprland under uwsm, GNOME, KDE).
pub fn systemd_unit(executable: &str) -> String {
    format!(
        "[Unit]
Description=Obi, a status bar for tiling window managers
Documentation=man:obi(1)
PartOf=graphical-session.target
After=graphical-session.target
Requisite=graphical-session.target
# A bar that fails five times in a minute (a display that is gone, a broken
# install) is left stopped rather than restarted for ever.
StartLimitIntervalSec=60
StartLimitBurst=5

[Service]
ExecStart={executable}
ExecReload={executable} msg reload --pid $MAINPID
Restart=on-failure
RestartSec=2

[Install]
WantedBy=graphical-session.target
"
    )
}

/// What the built bar prints for `args`.
fn generated(obi: &Path, args: &[&str]) -> Result<Vec<u8>> {
    let output = Command::new(obi).args(args).output().with_context(|| format!("running {}", obi.display()))?;
    if !output.status.success() {
        bail!("{} {} failed: {}", obi.display(), args.join(" "), String::from_utf8_lossy(&output.stderr));
    }
    Ok(output.stdout)
}

//! The Linux tarball: one folder laid out as a prefix (`bin/`, `share/`,
//! `lib/systemd/user/`), so that unpacking it into `/usr/local` with
//! `--strip-components=1` installs it, and running `bin/obi` from wherever
//! it was unpacked runs the bar (the stock widgets are inside the binary).

use crate::archive::{self, Entry};
use crate::payload::{self, EXAMPLE, Payload};
use crate::release::Release;
use crate::third_party;
use anyhow::Result;

/// The folder the tarball holds, which is also its name before `.tar.gz`.
pub fn root(release: &Release) -> String {
    format!("obi-{}-x86_64-linux", release.version)
}

pub fn name(release: &Release) -> String {
    format!("{}.tar.gz", root(release))
}

/// Where each file is inside the folder.
pub const PROGRAM: &str = "bin/obi";
pub const MAN_PAGE: &str = "share/man/man1/obi.1";
pub const BASH_COMPLETION: &str = "share/bash-completion/completions/obi";
pub const ZSH_COMPLETION: &str = "share/zsh/site-functions/_obi";
pub const FISH_COMPLETION: &str = "share/fish/vendor_completions.d/obi.fish";
pub const UNIT: &str = "lib/systemd/user/obi.service";
pub const DOCS: &str = "share/doc/obi";
/// The unit's program: where the README's `tar -C /usr/local` puts it.
pub const UNIT_PROGRAM: &str = "/usr/local/bin/obi";

pub fn build(release: &Release, obi: &[u8], payload: &Payload) -> Result<Vec<u8>> {
    let mut files = vec![
        Entry::executable(PROGRAM, obi),
        Entry::file(MAN_PAGE, payload.man_page.clone()),
        Entry::file(BASH_COMPLETION, payload.bash_completion.clone()),
        Entry::file(ZSH_COMPLETION, payload.zsh_completion.clone()),
        Entry::file(FISH_COMPLETION, payload.fish_completion.clone()),
        Entry::file(UNIT, payload::systemd_unit(UNIT_PROGRAM)),
        Entry::file(format!("{DOCS}/README.md"), payload.readme.clone()),
        Entry::file(format!("{DOCS}/{EXAMPLE}"), payload.example.clone()),
        Entry::file(format!("{DOCS}/{}", third_party::FILE), payload.linux_notices.clone()),
    ];
    for (name, text) in &payload.licences {
        files.push(Entry::file(format!("{DOCS}/{name}"), text.clone()));
    }
    archive::tar_gz(&root(release), &files, release.epoch)
}

//! An Arch `PKGBUILD` for a binary package (`obi-bin`, as the AUR names
//! such packages) made from the tarball: its checksum is the tarball's,
//! its `depends` the Arch packages of the libraries the bar loads.

use crate::release::Release;
use crate::runtime_libraries;
use crate::tarball;
use anyhow::Result;

pub const NAME: &str = "PKGBUILD";

pub fn build(release: &Release, obi: &[u8], tarball_sha256: &str) -> Result<String> {
    let depends: Vec<String> =
        runtime_libraries::arch_depends(obi)?.into_iter().map(|package| format!("'{package}'")).collect();
    let root = tarball::root(release).replace(&release.version, "$pkgver");
    let source = release.url_of(&tarball::name(release)).replace(&release.version, "$pkgver");
    Ok(format!(
        "# Maintainer: {maintainer}
# Made by `cargo xtask dist` from the release's tarball.
pkgname=obi-bin
pkgver={version}
pkgrel=1
pkgdesc='{description}'
arch=('x86_64')
url='{homepage}'
license=('MIT OR Apache-2.0')
depends=({depends})
optdepends=('mesa: GL drivers, when no other provides them')
provides=('obi')
conflicts=('obi')
source=(\"{source}\")
sha256sums=('{tarball_sha256}')

package() {{
  cd \"$srcdir/{root}\"
  install -Dm755 {program} \"$pkgdir/usr/bin/obi\"
  install -Dm644 {man} \"$pkgdir/usr/share/man/man1/obi.1\"
  install -Dm644 {bash} \"$pkgdir/usr/share/bash-completion/completions/obi\"
  install -Dm644 {zsh} \"$pkgdir/usr/share/zsh/site-functions/_obi\"
  install -Dm644 {fish} \"$pkgdir/usr/share/fish/vendor_completions.d/obi.fish\"
  sed 's|{unit_program}|/usr/bin/obi|g' {unit} > obi.service
  install -Dm644 obi.service \"$pkgdir/usr/lib/systemd/user/obi.service\"
  install -Dm644 {docs}/README.md {docs}/{example} -t \"$pkgdir/usr/share/doc/obi\"
  install -Dm644 {docs}/LICENSE-* {docs}/{notices} -t \"$pkgdir/usr/share/licenses/obi\"
}}
",
        maintainer = release.maintainer,
        version = release.version,
        description = release.description.replace('\'', ""),
        homepage = release.homepage,
        depends = depends.join(" "),
        program = tarball::PROGRAM,
        man = tarball::MAN_PAGE,
        bash = tarball::BASH_COMPLETION,
        zsh = tarball::ZSH_COMPLETION,
        fish = tarball::FISH_COMPLETION,
        unit = tarball::UNIT,
        unit_program = tarball::UNIT_PROGRAM,
        docs = tarball::DOCS,
        example = crate::payload::EXAMPLE,
        notices = crate::third_party::FILE,
    ))
}

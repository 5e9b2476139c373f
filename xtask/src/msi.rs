//! The Windows installer: an MSI (built by msitools' `wixl` from the WiX
//! source made here) that installs `obi.exe` and its documents to
//! `Program Files\Obi`, adds a Start menu entry, offers starting the bar
//! at sign-in as a feature left out unless asked for (`ADDLOCAL=ALL`), and
//! takes all of it away when uninstalled. Each version has its own product
//! code and they share one upgrade code, so installing a newer one
//! replaces the older. wixl stamps the package with a fresh package code
//! and the time it ran, so two builds of one commit differ in those alone.

use crate::archive::Entry;
use crate::release::Release;
use anyhow::{Context, Result, bail};
use sha2::{Digest, Sha256};
use std::path::Path;
use std::process::Command;

/// The same for every version: what Windows Installer knows Obi by.
const UPGRADE_CODE: &str = "1523A317-342F-4DA6-97B4-70E252B1888F";
/// Each component keeps its GUID for as long as it holds the same files.
const PROGRAM_COMPONENT: &str = "B9E2B343-3BA8-4E52-95CC-560F2F212844";
const DOCUMENTS_COMPONENT: &str = "8D2C2EDA-8B68-4639-8647-3095B57A4F27";
const START_MENU_COMPONENT: &str = "398FC17E-44E5-4137-BAE4-ECEED662F8A4";
const AUTOSTART_COMPONENT: &str = "5C5009E9-4D73-4A14-894C-BF2A0EA12A09";

pub fn name(release: &Release) -> String {
    format!("obi-{}-x86_64.msi", release.version)
}

/// The product code of this version: derived from the version, so that a
/// rebuild of it is the same product (winget's manifest names it).
pub fn product_code(release: &Release) -> String {
    let digest = Sha256::digest(format!("{UPGRADE_CODE} {}", release.version));
    let hex: String = digest.iter().take(16).map(|byte| format!("{byte:02X}")).collect();
    // Marked as a name-based UUID (version 5, RFC 9562's variant).
    let variant = (u8::from_str_radix(&hex[16..18], 16).unwrap_or_default() & 0x3F) | 0x80;
    format!("{}-{}-5{}-{variant:02X}{}-{}", &hex[0..8], &hex[8..12], &hex[13..16], &hex[18..20], &hex[20..32])
}

/// Builds the MSI in `staging` (a folder of its own, emptied first and
/// removed after) from
/// `files`: `obi.exe` first, then the documents.
pub fn build(release: &Release, staging: &Path, files: &[Entry]) -> Result<Vec<u8>> {
    let version = msi_version(&release.version)?;
    if staging.exists() {
        std::fs::remove_dir_all(staging).with_context(|| format!("emptying {}", staging.display()))?;
    }
    std::fs::create_dir_all(staging).with_context(|| format!("creating {}", staging.display()))?;
    for file in files {
        std::fs::write(staging.join(&file.path), &file.bytes).with_context(|| format!("staging {}", file.path))?;
    }
    let documents: String = files
        .iter()
        .skip(1)
        .map(|file| {
            let (id, name) = (file_id(&file.path), escape(&file.path));
            format!("            <File Id=\"{id}\" Source=\"{name}\" Name=\"{name}\" />\n")
        })
        .collect();
    let source = format!(
        r#"<?xml version="1.0" encoding="utf-8"?>
<Wix xmlns="http://schemas.microsoft.com/wix/2006/wi">
  <Product Id="{product}" Name="Obi" Language="1033" Version="{version}" Manufacturer="The Obi developers" UpgradeCode="{UPGRADE_CODE}">
    <Package InstallerVersion="500" Compressed="yes" InstallScope="perMachine" Description="{description}" Manufacturer="The Obi developers" />
    <MajorUpgrade DowngradeErrorMessage="A newer version of Obi is already installed." />
    <MediaTemplate EmbedCab="yes" />
    <Property Id="ARPURLINFOABOUT" Value="{homepage}" />
    <Directory Id="TARGETDIR" Name="SourceDir">
      <Directory Id="ProgramFiles64Folder">
        <Directory Id="INSTALLDIR" Name="Obi">
          <Component Id="Program" Guid="{PROGRAM_COMPONENT}" Win64="yes">
            <File Id="obi.exe" Source="obi.exe" Name="obi.exe" KeyPath="yes" />
          </Component>
          <Component Id="Documents" Guid="{DOCUMENTS_COMPONENT}" Win64="yes">
{documents}          </Component>
        </Directory>
      </Directory>
      <Directory Id="ProgramMenuFolder">
        <Component Id="StartMenu" Guid="{START_MENU_COMPONENT}" Win64="yes">
          <Shortcut Id="StartMenuShortcut" Name="Obi" Description="{description}" Target="[INSTALLDIR]obi.exe" WorkingDirectory="INSTALLDIR" />
          <RegistryValue Root="HKLM" Key="Software\Obi" Name="StartMenuShortcut" Type="integer" Value="1" KeyPath="yes" />
        </Component>
        <Component Id="Autostart" Guid="{AUTOSTART_COMPONENT}" Win64="yes">
          <RegistryValue Root="HKLM" Key="Software\Microsoft\Windows\CurrentVersion\Run" Name="Obi" Type="string" Value="&quot;[INSTALLDIR]obi.exe&quot;" KeyPath="yes" />
        </Component>
      </Directory>
    </Directory>
    <Feature Id="Main" Title="Obi" Level="1">
      <ComponentRef Id="Program" />
      <ComponentRef Id="Documents" />
      <ComponentRef Id="StartMenu" />
    </Feature>
    <Feature Id="Autostart" Title="Start Obi at sign-in" Level="1000">
      <ComponentRef Id="Autostart" />
    </Feature>
  </Product>
</Wix>
"#,
        product = product_code(release),
        description = escape(&release.description),
        homepage = escape(&release.homepage),
    );
    std::fs::write(staging.join("obi.wxs"), source)?;
    let output = Command::new("wixl")
        .current_dir(staging)
        .args(["--arch", "x64", "--output", "obi.msi", "obi.wxs"])
        .output()
        .context("running wixl, which builds the MSI (Debian: apt install wixl)")?;
    if !output.status.success() {
        bail!("wixl failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    let msi = std::fs::read(staging.join("obi.msi")).context("reading the MSI wixl wrote")?;
    // A copy of the program and the MSI: hundreds of MB of disk for nothing.
    std::fs::remove_dir_all(staging).with_context(|| format!("removing {}", staging.display()))?;
    Ok(msi)
}

/// An MSI's version is three numbers: a pre-release's suffix is dropped.
fn msi_version(version: &str) -> Result<String> {
    let numbers = version.split(['-', '+']).next().unwrap_or_default();
    if numbers.split('.').count() != 3 || !numbers.split('.').all(|part| part.parse::<u16>().is_ok()) {
        bail!("the version {version} is not MSI's major.minor.build");
    }
    Ok(numbers.to_owned())
}

/// A file's identifier in the installer: letters, digits, `_` and `.`.
fn file_id(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' { c } else { '_' }).collect()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    #[test]
    fn versions_are_three_numbers() {
        assert_eq!(super::msi_version("0.1.0").unwrap(), "0.1.0");
        assert_eq!(super::msi_version("1.2.3-rc.1").unwrap(), "1.2.3");
        assert!(super::msi_version("1.2").is_err());
    }
}

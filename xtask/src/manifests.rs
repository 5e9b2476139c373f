//! The Scoop and winget manifests of a release, made from the same version
//! and checksums as the artifacts they point at: Scoop installs the zip,
//! winget the MSI.

use crate::release::Release;

/// winget's name for Obi (`winget install Obi.Obi`).
const WINGET_ID: &str = "Obi.Obi";
const WINGET_SCHEMA: &str = "1.6.0";

/// `obi.json`, for a Scoop bucket.
pub fn scoop(release: &Release, zip_name: &str, zip_sha256: &str) -> String {
    let manifest = serde_json::json!({
        "version": release.version,
        "description": release.description,
        "homepage": release.homepage,
        "license": "MIT|Apache-2.0",
        "architecture": {
            "64bit": { "url": release.url_of(zip_name), "hash": zip_sha256 }
        },
        "bin": "obi.exe",
        "notes": "Run `obi` to start the bar; it reads the komorebi.bar.json komorebi-bar reads."
    });
    serde_json::to_string_pretty(&manifest).unwrap_or_default() + "\n"
}

/// winget's three manifest files (`manifests/o/Obi/Obi/<version>/` in
/// winget-pkgs), by file name.
pub fn winget(release: &Release, msi_name: &str, msi_sha256: &str, product_code: &str) -> Vec<(String, String)> {
    let header = |kind: &str| {
        format!(
            "# yaml-language-server: $schema=https://aka.ms/winget-manifest.{kind}.{WINGET_SCHEMA}.schema.json\n\
             PackageIdentifier: {WINGET_ID}\nPackageVersion: {}\n",
            release.version
        )
    };
    let version =
        format!("{}DefaultLocale: en-US\nManifestType: version\nManifestVersion: {WINGET_SCHEMA}\n", header("version"));
    let installer = format!(
        "{}InstallerType: wix\nScope: machine\nUpgradeBehavior: install\nInstallers:\n\
         - Architecture: x64\n  InstallerUrl: {}\n  InstallerSha256: {}\n  ProductCode: '{{{product_code}}}'\n\
         ManifestType: installer\nManifestVersion: {WINGET_SCHEMA}\n",
        header("installer"),
        release.url_of(msi_name),
        msi_sha256.to_uppercase(),
    );
    let locale = format!(
        "{}PackageLocale: en-US\nPublisher: The Obi developers\nPackageName: Obi\nPackageUrl: {}\n\
         License: MIT OR Apache-2.0\nShortDescription: {}\nTags:\n- komorebi\n- status-bar\n- tiling-window-manager\n\
         ManifestType: defaultLocale\nManifestVersion: {WINGET_SCHEMA}\n",
        header("defaultLocale"),
        release.homepage,
        release.description,
    );
    vec![
        (format!("{WINGET_ID}.yaml"), version),
        (format!("{WINGET_ID}.installer.yaml"), installer),
        (format!("{WINGET_ID}.locale.en-US.yaml"), locale),
    ]
}

//! Whether a component's imports can be served, and why not: each import
//! of `obi:widget` names a release this host serves (or a later one of the
//! same line) and an interface that is a shape or a capability the
//! widget's config grants. A refusal names the widget and says what to do.
//! The engine checks a component with it before linking; the JS runtime's
//! loader is told, for each interface, why a script may not import it.

use super::wit::{Release, WIT_PACKAGE};
use crate::capabilities::Capability;
use std::collections::BTreeSet;
use wasmtime::component::Component;
use wasmtime::component::types::ComponentItem;
use wasmtime::{Engine, Result, bail};

/// Explains, by name, why a component cannot be linked with `grants`, or
/// says which release of `obi:widget` it was built against.
pub(super) fn check_imports(
    engine: &Engine,
    component: &Component,
    name: &str,
    grants: &BTreeSet<Capability>,
) -> Result<Release> {
    let mut release = None;
    for (import, item) in component.component_type().imports(engine) {
        if !matches!(item.ty, ComponentItem::ComponentInstance(_)) {
            bail!("widget `{name}` imports `{import}`, which is not an interface Obi provides");
        }
        match check_import(name, import, grants) {
            // The newest release a component names is the one it was built against.
            Ok(Some(found)) if release.is_none_or(|release| found > release) => release = Some(found),
            Ok(_) => {}
            Err(refused) => return Err(refused.into()),
        }
    }
    // Every release's world uses its types, so a component imports them;
    // one that does not is left to the latest bindings to explain.
    Ok(release.unwrap_or(Release::LATEST))
}

/// The interfaces of `obi:widget` that are not capabilities: shapes only.
const KNOWN_INTERFACES: [&str; 3] = ["types", "view", "popup"];

/// `version` is a later release of the same 0.1 line as `latest`, which
/// semver promises only adds to it.
fn later_compatible(version: &str, latest: &str) -> bool {
    let patch = |version: &str| version.strip_prefix("0.1.").and_then(|patch| patch.parse::<u32>().ok());
    matches!((patch(version), patch(latest)), (Some(theirs), Some(ours)) if theirs > ours)
}

/// Why a component's import is refused, by kind; its message names the
/// widget and says what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Refused {
    /// Built for a release of another line (`0.2.0`), or none this host knows.
    Release { widget: String, version: String },
    /// An interface of a later 0.1 release that this host does not have.
    AfterLatest { widget: String, import: String },
    /// An interface of `obi:widget` no release has.
    Unknown { widget: String, import: String },
    /// It runs commands, and its entry declares none.
    CommandsUndeclared { widget: String },
    /// A capability its entry does not grant.
    NotGranted { widget: String, capability: Capability },
}

impl std::fmt::Display for Refused {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (ours, _) = WIT_PACKAGE.split_once('@').expect("package has a version");
        match self {
            Refused::Release { widget, version } => {
                let supported: Vec<&str> = Release::ALL.iter().map(|release| release.version()).collect();
                write!(
                    formatter,
                    "widget `{widget}` was built for {ours}@{version}, but this Obi supports {ours}@{}; \
                     rebuild it against an obi-sdk for one of them",
                    supported.join(", @")
                )
            }
            Refused::AfterLatest { widget, import } => write!(
                formatter,
                "widget `{widget}` imports `{import}`, which came after {ours}@{}; it needs a newer Obi",
                Release::LATEST.version()
            ),
            Refused::Unknown { widget, import } => {
                write!(formatter, "widget `{widget}` imports `{import}`, an interface this Obi does not know")
            }
            Refused::CommandsUndeclared { widget } => write!(
                formatter,
                "widget `{widget}` runs commands, and its entry declares none; if you trust it, declare the ones \
                 it may run in its \"commands\" object ({{\"id\": \"command line\"}})"
            ),
            Refused::NotGranted { widget, capability } => write!(
                formatter,
                "widget `{widget}` needs the `{capability}` capability, which its configuration does not grant; \
                 add \"{capability}\" to its \"grants\" if you trust it"
            ),
        }
    }
}

impl std::error::Error for Refused {}

/// Checks one imported interface name against the releases this host
/// serves and the widget's grants, and gives the release it names. WASI and
/// other packages are left to the linker.
pub(super) fn check_import(
    name: &str,
    import: &str,
    grants: &BTreeSet<Capability>,
) -> Result<Option<Release>, Refused> {
    let (ours, _) = WIT_PACKAGE.split_once('@').expect("package has a version");
    let Some(rest) = import.strip_prefix(ours).and_then(|rest| rest.strip_prefix('/')) else {
        return Ok(None);
    };
    let widget = name.to_owned();
    let (interface, version) = rest.split_once('@').unwrap_or((rest, "(no version)"));
    let release = match Release::from_version(version) {
        Some(release) => release,
        // A later 0.1 release only adds interfaces: one it shares with this
        // host is served as this host's latest.
        None if later_compatible(version, Release::LATEST.version()) => Release::LATEST,
        None => return Err(Refused::Release { widget, version: version.to_owned() }),
    };
    if KNOWN_INTERFACES.contains(&interface) {
        return Ok(Some(release));
    }
    let Some(capability) = Capability::from_interface(interface) else {
        let import = import.to_owned();
        return Err(match release.version() == version {
            true => Refused::Unknown { widget, import },
            false => Refused::AfterLatest { widget, import },
        });
    };
    if !grants.contains(&capability) {
        return Err(match capability {
            Capability::Commands => Refused::CommandsUndeclared { widget },
            _ => Refused::NotGranted { widget, capability },
        });
    }
    Ok(Some(release))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grants(capabilities: &[Capability]) -> BTreeSet<Capability> {
        capabilities.iter().copied().collect()
    }

    #[test]
    fn granted_and_foreign_imports_pass() {
        let log = grants(&[Capability::Log]);
        assert_eq!(check_import("w", "obi:widget/log@0.1.0", &log), Ok(Some(Release::V0_1_0)));
        assert_eq!(check_import("w", "obi:widget/types@0.1.1", &log), Ok(Some(Release::V0_1_1)));
        assert_eq!(check_import("w", "wasi:cli/environment@0.2.6", &log), Ok(None));
    }

    #[test]
    fn a_missing_grant_is_named() {
        let error = check_import("w", "obi:widget/metrics@0.1.1", &grants(&[Capability::Log])).unwrap_err();
        assert_eq!(error, Refused::NotGranted { widget: "w".into(), capability: Capability::Metrics });
        assert!(error.to_string().contains("`w` needs the `metrics` capability"), "{error}");
    }

    #[test]
    fn another_wit_version_is_explained() {
        let error = check_import("old", "obi:widget/clock@0.0.9", &grants(&[Capability::Clock])).unwrap_err();
        assert!(matches!(error, Refused::Release { .. }));
        let error = error.to_string();
        assert!(
            error.contains("built for obi:widget@0.0.9")
                && error.contains(
                    "supports obi:widget@0.1.0, @0.1.1, @0.1.2, @0.1.3, @0.1.4, @0.1.5, @0.1.6, @0.1.7, @0.1.8"
                ),
            "{error}"
        );
    }

    #[test]
    fn a_later_release_of_the_same_line_is_served_as_the_latest() {
        let metrics = grants(&[Capability::Log, Capability::Metrics]);
        assert_eq!(check_import("w", "obi:widget/metrics@0.1.9", &metrics), Ok(Some(Release::LATEST)));
        assert_eq!(check_import("w", "obi:widget/view@0.1.9", &metrics), Ok(Some(Release::LATEST)));
        let error = check_import("w", "obi:widget/hologram@0.1.9", &metrics).unwrap_err().to_string();
        assert!(error.contains(&format!("came after {WIT_PACKAGE}")), "{error}");
        assert!(error.contains("newer Obi"), "{error}");
        let error = check_import("w", "obi:widget/metrics@0.2.0", &metrics).unwrap_err().to_string();
        assert!(error.contains("built for obi:widget@0.2.0"), "{error}");
    }

    #[test]
    fn popups_are_shapes_and_the_calendar_comes_with_the_clock() {
        let log = grants(&[Capability::Log]);
        assert_eq!(check_import("w", "obi:widget/popup@0.1.3", &log), Ok(Some(Release::V0_1_3)));
        let refused = check_import("w", "obi:widget/calendar@0.1.3", &log).unwrap_err();
        assert_eq!(refused, Refused::NotGranted { widget: "w".into(), capability: Capability::Clock });
        let clock = grants(&[Capability::Clock]);
        assert_eq!(check_import("w", "obi:widget/calendar@0.1.3", &clock), Ok(Some(Release::V0_1_3)));
    }

    #[test]
    fn command_lines_come_with_the_commands() {
        let refused = check_import("w", "obi:widget/command-lines@0.1.4", &grants(&[Capability::Log])).unwrap_err();
        assert_eq!(refused, Refused::CommandsUndeclared { widget: "w".into() });
        let commands = grants(&[Capability::Commands]);
        assert_eq!(check_import("w", "obi:widget/command-lines@0.1.4", &commands), Ok(Some(Release::V0_1_4)));
    }

    #[test]
    fn audio_is_granted_like_any_capability() {
        let refused = check_import("w", "obi:widget/audio@0.1.4", &grants(&[Capability::Log])).unwrap_err();
        assert_eq!(refused, Refused::NotGranted { widget: "w".into(), capability: Capability::Audio });
        let audio = grants(&[Capability::Audio]);
        assert_eq!(check_import("w", "obi:widget/audio@0.1.4", &audio), Ok(Some(Release::V0_1_4)));
    }

    #[test]
    fn an_unknown_interface_is_named() {
        let error = check_import("w", "obi:widget/teleport@0.1.1", &grants(&Capability::ALL)).unwrap_err();
        assert!(matches!(error, Refused::Unknown { .. }));
        assert!(error.to_string().contains("obi:widget/teleport@0.1.1"), "{error}");
    }
}

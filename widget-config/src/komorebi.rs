//! The Komorebi (tiler) widget's config: workspaces, layout, focused and
//! locked container, workspace layer and configuration switcher, as
//! komorebi-bar reads them, and Obi's binding mode (i3's, sway's, Hyprland's
//! submap).

use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;
use std::collections::BTreeMap;

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct KomorebiConfig {
    pub workspaces: Option<KomorebiWorkspacesConfig>,
    pub layout: Option<KomorebiLayoutConfig>,
    pub focused_container: Option<KomorebiFocusedContainerConfig>,
    /// The older name of `focused_container`, used when that is absent.
    pub focused_window: Option<KomorebiFocusedContainerConfig>,
    pub locked_container: Option<KomorebiLockedContainerConfig>,
    pub workspace_layer: Option<KomorebiWorkspaceLayerConfig>,
    pub configuration_switcher: Option<KomorebiConfigurationSwitcherConfig>,
    /// Obi's own: the tiler's binding mode while one other than the
    /// default is on (i3, sway; Hyprland's submap), as i3bar shows it. Absent, it is shown
    /// beside the workspaces when they are.
    pub binding_mode: Option<KomorebiBindingModeConfig>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct KomorebiWorkspacesConfig {
    pub enable: bool,
    /// Required by komorebi-bar; reading checks it is there (see `config::read`).
    pub hide_empty_workspaces: Option<bool>,
    pub display: Option<WorkspacesDisplayFormat>,
    /// Obi's own: what of a numbered workspace's name (`1:web`) it shows,
    /// as i3bar's `strip_workspace_numbers` and `strip_workspace_name` do.
    pub strip: Option<WorkspaceStrip>,
    /// Obi's own: each state's button in colours of its own, as i3bar's
    /// `colors` give them; a state left out is drawn by the theme.
    pub colours: Option<WorkspaceColours>,
}

/// The workspace buttons' colours by state, as i3bar names them.
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WorkspaceColours {
    /// The focused workspace on the focused monitor.
    pub focused: Option<ButtonColours>,
    /// The one shown on a monitor that is not focused.
    pub active: Option<ButtonColours>,
    /// The others.
    pub inactive: Option<ButtonColours>,
    /// One with an urgent window.
    pub urgent: Option<ButtonColours>,
}

/// A button's colours (`#rrggbb` or `#rrggbbaa`): a one-pixel border, its
/// fill and its text. One left out, or malformed, is the theme's.
#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ButtonColours {
    pub border: Option<String>,
    pub background: Option<String>,
    pub text: Option<String>,
}

/// What is left out of a numbered workspace's name: `Numbers` shows `web`
/// for `1:web`, `Names` shows `1`. A name without a number, or a number
/// alone, shows whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum WorkspaceStrip {
    Numbers,
    Names,
}

impl WorkspaceStrip {
    /// What of `name` shows.
    pub fn shown(self, name: &str) -> &str {
        let number_end = name.find(|c: char| !c.is_ascii_digit()).unwrap_or(name.len());
        if number_end == 0 || number_end == name.len() {
            return name;
        }
        match self {
            WorkspaceStrip::Numbers => {
                Some(name[number_end..].trim_start_matches(':')).filter(|rest| !rest.is_empty()).unwrap_or(name)
            }
            WorkspaceStrip::Names => &name[..number_end],
        }
    }
}

/// The workspaces' own formats, or any [`DisplayFormat`]; older files wrap
/// the latter as `{ "Existing": "Icon" }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged, expecting = "a workspaces display format such as \"AllIcons\" or a display format such as \"Icon\"")]
pub enum WorkspacesDisplayFormat {
    Workspaces(WorkspacesOnlyFormat),
    Existing(DisplayFormat),
    Wrapped {
        #[serde(rename = "Existing")]
        existing: DisplayFormat,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum WorkspacesOnlyFormat {
    AllIcons,
    AllIconsAndText,
    AllIconsAndTextOnSelected,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum DisplayFormat {
    Icon,
    Text,
    TextAndIconOnSelected,
    IconAndText,
    IconAndTextOnSelected,
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct KomorebiLayoutConfig {
    pub enable: bool,
    /// The layouts offered when clicking through them.
    pub options: Option<Vec<KomorebiLayout>>,
    pub display: Option<DisplayFormat>,
}

/// A layout option: a plain name as komorebi-bar reads it (`"BSP"`,
/// `"Monocle"`), or `{ "Default": "BSP" }` as the schema describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    untagged,
    expecting = "a layout such as \"BSP\", \"Monocle\", \"Floating\", \"Paused\" or { \"Default\": \"BSP\" }"
)]
pub enum KomorebiLayout {
    Default(DefaultLayout),
    Special(SpecialLayout),
    Tagged {
        #[serde(rename = "Default")]
        default: DefaultLayout,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum DefaultLayout {
    BSP,
    Columns,
    Rows,
    VerticalStack,
    HorizontalStack,
    UltrawideVerticalStack,
    Grid,
    RightMainVerticalStack,
    Scrolling,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum SpecialLayout {
    Monocle,
    Floating,
    Paused,
    Custom,
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct KomorebiFocusedContainerConfig {
    pub enable: bool,
    pub show_icon: Option<bool>,
    pub display: Option<DisplayFormat>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct KomorebiLockedContainerConfig {
    pub enable: bool,
    pub show_when_unlocked: Option<bool>,
    pub display: Option<DisplayFormat>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct KomorebiWorkspaceLayerConfig {
    pub enable: bool,
    pub show_when_tiling: Option<bool>,
    pub display: Option<DisplayFormat>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct KomorebiBindingModeConfig {
    pub enable: bool,
    pub display: Option<DisplayFormat>,
    /// Its colours, as i3bar's `binding_mode` colours; the theme's urgent
    /// ones where left out.
    pub colours: Option<ButtonColours>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct KomorebiConfigurationSwitcherConfig {
    pub enable: bool,
    /// Display name → path of a komorebi configuration file.
    pub configurations: BTreeMap<String, String>,
}

impl KomorebiConfig {
    /// `focused_container`, or its older name `focused_window`.
    pub fn focused_container(&self) -> Option<&KomorebiFocusedContainerConfig> {
        self.focused_container.as_ref().or(self.focused_window.as_ref())
    }

    /// Whether the binding mode is shown: as its part says, else with the workspaces.
    pub fn shows_binding_mode(&self) -> bool {
        match &self.binding_mode {
            Some(part) => part.enable,
            None => self.workspaces.as_ref().is_some_and(|part| part.enable),
        }
    }

    /// Whether any of its parts is enabled: a Komorebi entry with none shows nothing.
    pub fn any_enabled(&self) -> bool {
        [
            self.workspaces.as_ref().map(|part| part.enable),
            self.binding_mode.as_ref().map(|part| part.enable),
            self.layout.as_ref().map(|part| part.enable),
            self.focused_container().map(|part| part.enable),
            self.locked_container.as_ref().map(|part| part.enable),
            self.workspace_layer.as_ref().map(|part| part.enable),
            self.configuration_switcher.as_ref().map(|part| part.enable),
        ]
        .contains(&Some(true))
    }
}

impl DefaultLayout {
    /// Every one, in komorebi's order.
    pub const ALL: [DefaultLayout; 9] = [
        DefaultLayout::BSP,
        DefaultLayout::Columns,
        DefaultLayout::Rows,
        DefaultLayout::VerticalStack,
        DefaultLayout::HorizontalStack,
        DefaultLayout::UltrawideVerticalStack,
        DefaultLayout::Grid,
        DefaultLayout::RightMainVerticalStack,
        DefaultLayout::Scrolling,
    ];

    /// As komorebi names it, in its config and its messages (`"BSP"`).
    pub fn name(self) -> &'static str {
        match self {
            DefaultLayout::BSP => "BSP",
            DefaultLayout::Columns => "Columns",
            DefaultLayout::Rows => "Rows",
            DefaultLayout::VerticalStack => "VerticalStack",
            DefaultLayout::HorizontalStack => "HorizontalStack",
            DefaultLayout::UltrawideVerticalStack => "UltrawideVerticalStack",
            DefaultLayout::Grid => "Grid",
            DefaultLayout::RightMainVerticalStack => "RightMainVerticalStack",
            DefaultLayout::Scrolling => "Scrolling",
        }
    }
}

impl SpecialLayout {
    /// As komorebi-bar names it (`"Monocle"`).
    pub fn name(self) -> &'static str {
        match self {
            SpecialLayout::Monocle => "Monocle",
            SpecialLayout::Floating => "Floating",
            SpecialLayout::Paused => "Paused",
            SpecialLayout::Custom => "Custom",
        }
    }
}

impl KomorebiLayout {
    /// The layout's name, however the config wrote it.
    pub fn name(&self) -> &'static str {
        match self {
            KomorebiLayout::Default(layout) | KomorebiLayout::Tagged { default: layout } => layout.name(),
            KomorebiLayout::Special(layout) => layout.name(),
        }
    }
}

impl crate::Enabled for KomorebiConfig {
    /// A Komorebi entry has no switch of its own: its parts do.
    fn enabled(&self) -> bool {
        self.any_enabled()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_numbered_workspace_shows_its_name_or_its_number_as_i3bar_strips_them() {
        let shown = |strip: WorkspaceStrip| ["1:web", "2: mail", "10", "web", "3:"].map(|name| strip.shown(name));
        assert_eq!(shown(WorkspaceStrip::Numbers), ["web", " mail", "10", "web", "3:"]);
        assert_eq!(shown(WorkspaceStrip::Names), ["1", "2", "10", "web", "3"]);
    }

    /// A layout's name is how serde spells it: one list, read both ways.
    #[test]
    fn layout_names_are_their_config_spelling() {
        for layout in DefaultLayout::ALL {
            let spelled: DefaultLayout = serde_json::from_value(serde_json::json!(layout.name())).unwrap();
            assert_eq!(spelled, layout);
        }
        for layout in [SpecialLayout::Monocle, SpecialLayout::Floating, SpecialLayout::Paused, SpecialLayout::Custom] {
            let spelled: SpecialLayout = serde_json::from_value(serde_json::json!(layout.name())).unwrap();
            assert_eq!(spelled, layout);
        }
    }
}

//! What one config makes of the bar: its style, the widgets it shows, and
//! the specs the runtime runs for them. Built at start and again on every
//! reload, so both paths agree.

use crate::config::BarConfig;
use crate::input::MouseActions;
use crate::render::{SceneWidget, Style};
use crate::runtime::WidgetSpec;
use crate::view::WidgetState;
use crate::window::Placement;

pub struct Plan {
    pub style: Style,
    pub widgets: Vec<SceneWidget>,
    /// What the runtime runs, in order.
    pub specs: Vec<WidgetSpec>,
    /// For each spec, the index of its widget in `widgets`.
    pub slots: Vec<usize>,
    pub placement: Placement,
    pub font_family: Option<String>,
    /// What the bar's `mouse` config does where no item takes the input.
    pub mouse: MouseActions,
}

impl Plan {
    /// A widget that cannot run (a bad plugin entry, a broken component) is
    /// shown failed in its place; the others run.
    pub fn new(config: &BarConfig) -> Plan {
        let mut widgets = Vec::new();
        let mut specs = Vec::new();
        let mut slots = Vec::new();
        for entry in config.widgets() {
            match entry.spec(config) {
                Ok(spec) => {
                    slots.push(widgets.len());
                    widgets.push(SceneWidget {
                        side: entry.side,
                        name: spec.name.clone(),
                        state: WidgetState::Pending,
                    });
                    specs.push(spec);
                }
                Err(message) => {
                    tracing::warn!("{message}");
                    widgets.push(SceneWidget {
                        side: entry.side,
                        name: entry.config.kind().into(),
                        state: WidgetState::Failed { message },
                    });
                }
            }
        }
        Plan {
            style: Style::from_config(config),
            widgets,
            specs,
            slots,
            placement: Placement::from_config(config),
            font_family: config.font_family().map(str::to_owned),
            mouse: MouseActions::from_config(config.model.mouse.as_ref()),
        }
    }
}

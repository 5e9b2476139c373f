//! A widget entry of the config: where it sits and whether it is on. What
//! the runtime makes of it is [`crate::spec`]'s business.

use super::Side;
use super::model::WidgetConfig;

/// An enabled widget and where it sits.
#[derive(Debug, Clone, Copy)]
pub struct WidgetEntry<'a> {
    pub side: Side,
    pub config: &'a WidgetConfig,
}

impl WidgetEntry<'_> {
    pub fn enabled(&self) -> bool {
        match self.config {
            WidgetConfig::Applications(c) => c.enable,
            WidgetConfig::Battery(c) => c.enable,
            WidgetConfig::Cpu(c) => c.enable,
            WidgetConfig::Date(c) => c.enable,
            WidgetConfig::Keyboard(c) => c.enable,
            // The Komorebi widget has no switch of its own: its parts do.
            WidgetConfig::Komorebi(c) => c.any_enabled(),
            WidgetConfig::Media(c) => c.enable,
            WidgetConfig::Memory(c) => c.enable,
            WidgetConfig::Network(c) => c.enable,
            WidgetConfig::Storage(c) => c.enable,
            WidgetConfig::Systray(c) => c.enable,
            WidgetConfig::Time(c) => c.enable,
            WidgetConfig::Update(c) => c.enable,
            WidgetConfig::Plugin(c) => c.enable,
        }
    }
}

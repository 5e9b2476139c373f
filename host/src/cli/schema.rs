//! `obi --schema`: the JSON schema of `komorebi.bar.json`, with the config
//! schema each enabled Plugin gives.

use super::listing;
use obi::capabilities::Capabilities;
use obi::config::{BarConfig, resolve_path};
use obi::runtime::{ComponentCache, WidgetEngine, WidgetInstance};
use obi::spec::WidgetSpec;
use obi::tiler::Connection;
use obi::view::images::HeldImages;
use std::sync::Arc;

/// Prints the schema, with the config schemas of the plugins `config` enables.
pub fn print(config: Option<&str>) -> anyhow::Result<()> {
    let mut schema: serde_json::Value = serde_json::from_str(&obi::config::schema()).expect("Obi's schema is JSON");
    if let Some(path) = config {
        let config = BarConfig::load(&resolve_path(path)?)
            .map_err(|diagnostics| anyhow::Error::msg(listing(&diagnostics)))?
            .config;
        let capabilities =
            Capabilities::system(Arc::new(Connection::none("printing the schema")), HeldImages::default())?;
        let mut engine = WidgetEngine::new(capabilities, ComponentCache::from_environment())?;
        let mut plugins = Vec::new();
        for entry in config.widgets() {
            let obi::config::model::WidgetConfig::Plugin(plugin) = entry.config else { continue };
            let given = WidgetSpec::from_entry(&entry, &config)
                .map_err(anyhow::Error::from)
                .and_then(|spec| WidgetInstance::config_schema(&mut engine, &spec));
            match given {
                Ok(Some(plugin_schema)) => plugins.push((plugin.path.clone(), plugin_schema)),
                Ok(None) => {}
                Err(error) => eprintln!("obi: the Plugin at {:?} gives no config schema: {error:#}", plugin.path),
            }
        }
        schema = obi::config::with_plugin_schemas(schema, &plugins);
    }
    println!("{}", serde_json::to_string_pretty(&schema).expect("the schema serializes"));
    Ok(())
}

//! `obi widget`: tools for widget authors. `test` runs a widget headless
//! over a script; `new` writes a widget crate (or, with `--js`, a script)
//! to start from.

use super::listing;
use anyhow::Context;
use obi::bar::Bar;
use obi::config::BarConfig;
use obi::render::{Offscreen, find_text_font};
use obi::view::images::HeldImages;
use std::path::{Path, PathBuf};

/// `obi widget new NAME`.
pub fn new(name: &str, path: Option<&Path>, obi_source: Option<&Path>) -> anyhow::Result<()> {
    let directory = path.map_or_else(|| PathBuf::from(name), Path::to_path_buf);
    let source = obi_source.map_or_else(obi::widget_template::own_source, Path::to_path_buf);
    obi::widget_template::create(&directory, name, &source)?;
    println!("created {}: `cargo test` there builds it and runs its test", directory.display());
    Ok(())
}

/// `obi widget new --js NAME`.
pub fn new_js(name: &str, path: Option<&Path>) -> anyhow::Result<()> {
    let directory = path.map_or_else(|| PathBuf::from(name), Path::to_path_buf);
    obi::js_widget_template::create(&directory, name)?;
    println!(
        "created {}: `obi widget test {name}.js --script {name}.test.json` there runs it headless",
        directory.display()
    );
    Ok(())
}

/// `obi widget test`: each view as a line of JSON, or painted to a PNG.
pub fn test(plugin: &Path, script: &Path, png: Option<&Path>, width: u32) -> anyhow::Result<()> {
    use obi::headless::widget_test::{TestScript, run, view_json};
    let text = std::fs::read_to_string(script).with_context(|| format!("reading {}", script.display()))?;
    let script = TestScript::parse(&text)?;
    let Some(directory) = png else {
        return run(plugin, &script, HeldImages::default(), |step, view| {
            println!("{}", serde_json::json!({ "step": step, "view": view_json(view) }));
            Ok(())
        });
    };
    std::fs::create_dir_all(directory).with_context(|| format!("creating {}", directory.display()))?;
    // The widget alone on a bar of the default look, as a Plugin entry shows it.
    let plugin_path = std::path::absolute(plugin).with_context(|| format!("{}", plugin.display()))?;
    let entry = serde_json::json!({ "left_widgets": [ { "Plugin": { "enable": true, "path": plugin_path, "config": script.config } } ], "right_widgets": [] });
    let config = BarConfig::parse(&entry.to_string(), "the widget's bar")
        .map_err(|diagnostics| anyhow::Error::msg(listing(&diagnostics)))?
        .config;
    let mut bar = Bar::new(&config);
    if bar.specs().is_empty() {
        return Err(anyhow::anyhow!("the widget has no place on the bar"));
    }
    bar.set_text_font(find_text_font(bar.font_family())?.data);
    let mut offscreen = Offscreen::new(width, bar.pixel_height())?;
    let held = HeldImages::default();
    offscreen.painter.use_held_images(held.clone());
    run(plugin, &script, held, |step, view| {
        bar.apply(0, 0, obi::view::WidgetState::Ready(view.clone()));
        let path = directory.join(format!("step-{step}.png"));
        offscreen.render(bar.scene(), &path)?;
        println!("{}", path.display());
        Ok(())
    })
}

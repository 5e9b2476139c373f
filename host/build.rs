//! Builds the stock widgets for wasm32-wasip2 and embeds them in the `obi`
//! binary, so that `cargo run` alone gives a working bar. Without the
//! `stock-widgets` feature (a widget's own tests) it embeds none. It also
//! names the platform families the code is written for (`free_unix`, `egl`).

use std::path::PathBuf;
use std::{env, fs};

fn main() {
    cfg_aliases::cfg_aliases! {
        // Linux and the BSDs: X11 or Wayland, D-Bus, freedesktop icon themes.
        free_unix: { all(unix, not(target_os = "macos")) },
        // Where glutin speaks EGL: everywhere but macOS, which has CGL alone.
        egl: { any(windows, free_unix) },
    }
    let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").unwrap());
    let mut table = String::from(
        "/// Stock widgets by config key, as embedded wasm components.\npub static STOCK_WIDGETS: &[(&str, &[u8])] = &[\n",
    );
    if env::var_os("CARGO_FEATURE_STOCK_WIDGETS").is_none() {
        println!("cargo:rerun-if-changed=build.rs");
        table.push_str("];\n");
        fs::write(out_dir.join("stock_widgets.rs"), table).unwrap();
        return;
    }
    let workspace = obi_build_support::workspace_root(&manifest_dir);
    obi_build_support::rerun_if_widget_sources_change(&workspace);
    let kinds: Vec<&str> = obi_widget_config::STOCK_KINDS.iter().map(|kind| kind.key).collect();
    let packages: Vec<String> = kinds.iter().map(|kind| format!("obi-widget-{}", kind.to_lowercase())).collect();
    let packages: Vec<&str> = packages.iter().map(String::as_str).collect();
    let wasm = obi_build_support::build_components(&workspace, &packages).unwrap_or_else(|error| panic!("{error}"));

    for (kind, path) in kinds.iter().zip(&wasm) {
        let embedded = out_dir.join(path.file_name().unwrap());
        fs::copy(path, &embedded).unwrap_or_else(|error| panic!("copying {}: {error}", path.display()));
        table.push_str(&format!("    ({kind:?}, include_bytes!({:?})),\n", embedded.display().to_string()));
    }
    table.push_str("];\n");
    fs::write(out_dir.join("stock_widgets.rs"), table).unwrap();
}

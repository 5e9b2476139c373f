//! Writes the glue between JS values and the newest obi:widget world's
//! bindings (`obi-js-bindgen`), included by `src/glue.rs`.

use std::path::PathBuf;
use std::{env, fs};

fn main() {
    // The runtime is built for WebAssembly alone (src/lib.rs).
    if env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("wasm32") {
        return;
    }
    let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let wit = manifest_dir.join("../wit/since_v0.1.8");
    println!("cargo:rerun-if-changed={}", wit.display());
    let world = obi_js_bindgen::WidgetWorld::load(&wit).unwrap_or_else(|error| panic!("{error:#}"));
    let out = PathBuf::from(env::var_os("OUT_DIR").unwrap()).join("glue.rs");
    fs::write(&out, world.rust_glue()).unwrap_or_else(|error| panic!("writing {}: {error}", out.display()));
}

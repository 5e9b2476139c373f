//! Builds the stock widgets for wasm32-wasip2 and embeds them in the `obi`
//! binary, so that `cargo run` alone gives a working bar. Without the
//! `stock-widgets` feature (a widget's own tests) it embeds none. It also
//! names the platform families the code is written for (`free_unix`, `egl`),
//! packs the binary's relocations where the toolchain can, and lays out a
//! release build's functions in the order `link/symbol-order.txt` gives,
//! and records the commit the bar is built from for `obi --version`.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
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
    let version = env::var("CARGO_PKG_VERSION").unwrap();
    match built_from(&manifest_dir) {
        Some(commit) => println!("cargo:rustc-env=OBI_VERSION={version} ({commit})"),
        None => println!("cargo:rustc-env=OBI_VERSION={version}"),
    }
    if links_packed_relocations(&out_dir) {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
    let symbol_order = manifest_dir.join("link/symbol-order.txt");
    println!("cargo:rerun-if-changed={}", symbol_order.display());
    if env::var("PROFILE").as_deref() == Ok("release") && links_in_symbol_order(&symbol_order, &out_dir) {
        println!("cargo:rustc-link-arg-bins=-Wl,--symbol-ordering-file={}", symbol_order.display());
        println!("cargo:rustc-link-arg-bins=-Wl,--no-warn-symbol-ordering");
    }
    let workspace = obi_build_support::workspace_root(&manifest_dir);
    write_typescript_declarations(&workspace, &out_dir);
    let mut table = String::from(
        "/// Stock widgets by config key, as embedded wasm components.\npub static STOCK_WIDGETS: &[StockWidget] = &[\n",
    );
    if env::var_os("CARGO_FEATURE_STOCK_WIDGETS").is_none() {
        println!("cargo:rerun-if-changed=build.rs");
        table.push_str("];\n/// The runtime of widgets in JavaScript, built with the stock widgets.\n");
        table.push_str("pub static JS_RUNTIME: Option<StockWidget> = None;\n");
        fs::write(out_dir.join("stock_widgets.rs"), table).unwrap();
        return;
    }
    obi_build_support::rerun_if_widget_sources_change(&workspace);
    let mut kinds: Vec<&str> = obi_widget_config::STOCK_KINDS.iter().map(|kind| kind.key).collect();
    let mut packages: Vec<String> = kinds.iter().map(|kind| format!("obi-widget-{}", kind.to_lowercase())).collect();
    // Built in the same run, so that its engine compiles beside the widgets.
    kinds.push(JS_RUNTIME_KIND);
    packages.push("obi-js-runtime".into());
    let packages: Vec<&str> = packages.iter().map(String::as_str).collect();
    let wasm = obi_build_support::build_components(&workspace, &packages).unwrap_or_else(|error| panic!("{error}"));

    let mut js_runtime = String::new();
    for (kind, path) in kinds.iter().zip(&wasm) {
        let embedded = out_dir.join(path.file_name().unwrap());
        let wasm = fs::read(path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
        fs::write(&embedded, &wasm).unwrap_or_else(|error| panic!("writing {}: {error}", embedded.display()));
        let digest = Sha256::digest(&wasm);
        let entry = format!(
            "StockWidget {{ kind: {kind:?}, wasm: include_bytes!({:?}), digest: {:?} }}",
            embedded.display().to_string(),
            digest.as_slice(),
        );
        match *kind {
            JS_RUNTIME_KIND => js_runtime = entry,
            _ => table.push_str(&format!("    {entry},\n")),
        }
    }
    table.push_str("];\n/// The runtime of widgets in JavaScript, built with the stock widgets.\n");
    table.push_str(&format!("pub static JS_RUNTIME: Option<StockWidget> = Some({js_runtime});\n"));
    fs::write(out_dir.join("stock_widgets.rs"), table).unwrap();
}

/// The JS runtime's name among the embedded components.
const JS_RUNTIME_KIND: &str = "JavaScript";

/// Writes `obi-widget.d.ts`, the TypeScript declarations of the newest
/// `obi:widget` world that `obi widget new --js` puts beside a widget.
fn write_typescript_declarations(workspace: &Path, out_dir: &Path) {
    let wit = workspace.join("wit/since_v0.1.8");
    println!("cargo:rerun-if-changed={}", wit.display());
    let world = obi_js_bindgen::WidgetWorld::load(&wit).unwrap_or_else(|error| panic!("{error:#}"));
    fs::write(out_dir.join("obi-widget.d.ts"), world.typescript()).unwrap();
}

/// Whether the bar can be linked with packed relative relocations (ELF's
/// RELR): the position-independent binary holds some 70 000 of them, 1.7 MB
/// that the dynamic loader reads at every start and that then stay resident;
/// packed, they take a few kilobytes. It needs binutils 2.38 and glibc 2.36,
/// so a small program is linked with them and run first; elsewhere the bar
/// is linked as before.
fn links_packed_relocations(out_dir: &Path) -> bool {
    let target = env::var("TARGET").unwrap_or_default();
    // The probe is run, so it must be of this machine.
    if !target.ends_with("-linux-gnu") || env::var("HOST").ok().as_ref() != Some(&target) {
        return false;
    }
    let (source, probe) = (out_dir.join("relr_probe.c"), out_dir.join("relr_probe"));
    // A pointer in static data: a relative relocation to pack.
    let program = "static const char *greeting = \"hi\";\nint main(void) { return greeting[0] != 'h'; }\n";
    if fs::write(&source, program).is_err() {
        return false;
    }
    let compiler = env::var("CC").unwrap_or_else(|_| "cc".into());
    let linked = succeeds(
        Command::new(compiler).args(["-fPIE", "-pie", "-Wl,-z,pack-relative-relocs", "-o"]).arg(&probe).arg(&source),
    );
    linked && succeeds(&mut Command::new(&probe))
}

/// Whether the bar's linker takes a symbol ordering file (LLD does, and is
/// Rust's linker on x86_64 Linux; GNU ld and the MinGW linker do not): a
/// program is linked with the ordering, by this rustc, for this target, with
/// the flags and linker the bar is built with. A release build lists first
/// the functions a running bar executes, so that they share pages rather
/// than keep most of the binary's code resident (`scripts/symbol-order.sh`
/// says how the list is made and what it saves). A name the list holds that
/// the build lacks is passed over, so a stale list costs memory, not the build.
fn links_in_symbol_order(symbol_order: &Path, out_dir: &Path) -> bool {
    // A comma would split the path inside `-Wl,`.
    if !symbol_order.is_file() || symbol_order.to_string_lossy().contains(',') {
        return false;
    }
    let (source, probe) = (out_dir.join("symbol_order_probe.rs"), out_dir.join("symbol_order_probe"));
    if fs::write(&source, "fn main() {}\n").is_err() {
        return false;
    }
    let mut rustc = Command::new(env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()));
    rustc.arg("--target").arg(env::var("TARGET").unwrap_or_default());
    if let Ok(flags) = env::var("CARGO_ENCODED_RUSTFLAGS") {
        rustc.args(flags.split('\x1f').filter(|flag| !flag.is_empty()));
    }
    if let Some(linker) = env::var_os("RUSTC_LINKER") {
        rustc.arg("-C").arg(format!("linker={}", linker.to_string_lossy()));
    }
    rustc
        .arg("-C")
        .arg(format!("link-arg=-Wl,--symbol-ordering-file={}", symbol_order.display()))
        .args(["-C", "link-arg=-Wl,--no-warn-symbol-ordering", "-o"])
        .arg(&probe)
        .arg(&source);
    succeeds(&mut rustc)
}

/// Whether `command` runs and exits successfully; what it prints is the
/// probe's own business.
fn succeeds(command: &mut Command) -> bool {
    command.stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|status| status.success())
}

/// The commit the bar is built from and its date (`6aa449b1c0de,
/// 2026-11-29`): `OBI_COMMIT` when a packager building from a source archive
/// sets it, else git's `HEAD` when the source is a checkout.
fn built_from(manifest_dir: &Path) -> Option<String> {
    println!("cargo:rerun-if-env-changed=OBI_COMMIT");
    if let Ok(commit) = env::var("OBI_COMMIT") {
        return Some(commit);
    }
    let git = |args: &[&str]| {
        let output = Command::new("git").arg("-C").arg(manifest_dir).args(args).stderr(Stdio::null()).output().ok()?;
        let text = String::from_utf8(output.stdout).ok()?;
        output.status.success().then(|| text.trim().to_owned())
    };
    // HEAD moves by a checkout (HEAD itself) or a commit (the branch it
    // names, loose or packed). A path that does not exist would have the
    // build script run at every build.
    let mut moved_by = vec![git(&["rev-parse", "--git-path", "HEAD"])?];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        moved_by.extend(git(&["rev-parse", "--git-path", &branch]));
    }
    moved_by.extend(git(&["rev-parse", "--git-path", "packed-refs"]));
    for path in moved_by.iter().map(|path| manifest_dir.join(path)).filter(|path| path.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    let described = git(&["show", "--no-patch", "--format=%H %cs", "HEAD"])?;
    let (hash, date) = described.split_once(' ')?;
    Some(format!("{}, {date}", hash.get(..12)?))
}

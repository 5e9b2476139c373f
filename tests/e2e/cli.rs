//! The command line beside the bar: `check`, `--schema`, `--aliases`, `--fonts`,
//! `import waybar`.

use crate::ocr::words_in;
use crate::support::{Frame, config_file, have_tools, obi, run, start_server, workspace};

#[test]
fn check_passes_a_good_file_and_fails_a_bad_one_with_every_error() {
    let (_dir, good) = config_file(r#"{ "left_widgets": [], "right_widgets": [ { "Cpu": { "enable": true } } ] }"#);
    let output = run(obi().arg("check").arg(&good));
    assert!(output.status.success(), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).contains(": ok (0 warnings)"));

    let (_dir, bad) = config_file(
        "{\n  \"height\": \"tall\",\n  \"left_widgets\": [ { \"Cpu\": { \"enable\": 1 } } ],\n  \"right_widgets\": []\n}",
    );
    let output = run(obi().arg("check").arg(&bad));
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("the config has 2 errors"), "{stderr}");
    assert!(stderr.contains("komorebi.bar.json:2:13: error: height:"), "{stderr}");
    assert!(stderr.contains("komorebi.bar.json:3:42: error: left_widgets[0].Cpu.enable:"), "{stderr}");
}

/// Entries komorebi-bar would not read (it refuses the whole file for
/// one) are noted, so that a file shared by the two bars can leave them out.
#[test]
fn check_notes_the_entries_komorebi_bar_would_not_read() {
    let (_dir, config) = config_file(
        r#"{ "left_widgets": [ { "Cpu": { "enable": true } }, { "PowerMenu": { "enable": false } } ],
             "right_widgets": [ { "Plugin": { "enable": true, "path": "clock.wasm" } } ] }"#,
    );
    let output = run(obi().arg("check").arg(&config));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let noted = |entry: &str| {
        let note = format!("{}: note: {entry} is Obi's own: komorebi-bar would not read this file", config.display());
        stdout.contains(&note)
    };
    assert!(noted("left_widgets[1].PowerMenu") && noted("right_widgets[0].Plugin"), "{stdout}");
    assert!(!stdout.contains("Cpu is Obi's own"), "{stdout}");
}

/// Every file given is checked, and each bar's monitor is named (Xvfb's
/// one RandR monitor is `screen`); a bad file among them fails the check
/// without keeping the others from being told.
#[test]
fn check_takes_several_files_and_says_where_each_bar_goes() {
    if !have_tools("check test", &["Xvfb"]) {
        return;
    }
    let (_xvfb, display) = start_server(|display| {
        let mut xvfb = std::process::Command::new("Xvfb");
        xvfb.args([display, "-noreset", "-screen", "0", "1280x720x24", "-nolisten", "tcp"]);
        xvfb
    });
    let (_first, first) = config_file(r#"{ "left_widgets": [], "right_widgets": [] }"#);
    let (_second, second) = config_file(r#"{ "monitor": 3, "left_widgets": [], "right_widgets": [] }"#);
    let (_bad, bad) = config_file(r#"{ "height": "tall", "left_widgets": [], "right_widgets": [] }"#);
    let output = run(obi().arg("check").args([&first, &second, &bad]).env("DISPLAY", &display));
    assert!(!output.status.success(), "{output:?}");
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    let said = |path: &std::path::Path, what: &str| stdout.contains(&format!("{}: {what}", path.display()));
    assert!(said(&first, "ok (0 warnings)") && said(&first, "bar on monitor 0: screen 1280x720+0+0"), "{stdout}");
    assert!(said(&second, "the bar waits: monitor 3 does not exist; found 0: screen 1280x720+0+0"), "{stdout}");
    assert!(stderr.contains("error: height:") && stderr.contains("1 of 3 configs cannot be used"), "{stderr}");
}

/// `--komorebi-config` checks the bars komorebi's own config lists, found
/// where komorebi finds it, with its paths written the PowerShell way or
/// relative to it.
#[test]
fn check_reads_the_bar_configurations_komorebi_lists() {
    let (dir, _) = config_file(r#"{ "left_widgets": [], "right_widgets": [] }"#);
    let bars = tempfile::tempdir().unwrap();
    std::fs::write(bars.path().join("other.json"), r#"{ "monitor": 1, "left_widgets": [], "right_widgets": [] }"#)
        .unwrap();
    let komorebi = r#"{ "bar_configurations": [ "komorebi.bar.json", "$Env:OBI_BARS/other.json" ] }"#;
    std::fs::write(dir.path().join("komorebi.json"), komorebi).unwrap();
    let output = run(obi()
        .args(["check", "--komorebi-config"])
        .env("KOMOREBI_CONFIG_HOME", dir.path())
        .env("OBI_BARS", bars.path())
        .env_remove("DISPLAY"));
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    for checked in [dir.path().join("komorebi.bar.json"), bars.path().join("other.json")] {
        assert!(stdout.contains(&format!("{}: ok (0 warnings)", checked.display())), "{stdout}");
    }

    std::fs::write(dir.path().join("komorebi.json"), r#"{ "bar_configurations": [ "missing.json" ] }"#).unwrap();
    let output = run(obi().args(["check", "--komorebi-config"]).arg(dir.path().join("komorebi.json")));
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("missing.json"), "{output:?}");
}

#[test]
fn the_config_path_resolves_environment_variables() {
    let (dir, _config) = config_file(r#"{ "left_widgets": [], "right_widgets": [] }"#);
    let output = run(obi().env("OBI_TEST_DIR", dir.path()).args(["check", "$OBI_TEST_DIR/komorebi.bar.json"]));
    assert!(output.status.success(), "{output:?}");
}

#[test]
fn schema_is_json_with_every_root_property() {
    let output = run(obi().arg("--schema"));
    assert!(output.status.success());
    let schema: serde_json::Value = serde_json::from_slice(&output.stdout).expect("the schema is JSON");
    let ours = schema["properties"].as_object().expect("the schema has root properties");
    let reference = workspace().join("../shared/reference/komorebi-bar.schema.json");
    let Ok(text) = std::fs::read_to_string(&reference) else {
        crate::skip::unavailable(&format!("{} is missing: the schema cannot be compared", reference.display()));
        return;
    };
    let komorebi: serde_json::Value = serde_json::from_str(&text).unwrap();
    let theirs = komorebi["properties"].as_object().expect("komorebi's schema has root properties");
    assert!(theirs.len() >= 15, "komorebi's schema read: {:?}", theirs.keys());
    for (name, _) in theirs {
        assert!(ours.get(name).is_some_and(|property| property.is_object()), "`{name}` is not in obi's schema");
    }
    for required in komorebi["required"].as_array().into_iter().flatten() {
        let required = required.as_str().unwrap();
        assert!(ours.contains_key(required), "komorebi requires `{required}`; obi's schema lacks it");
    }
}

#[test]
fn aliases_lists_older_names_in_the_file() {
    let (_dir, config) = config_file(
        r#"{ "viewport": { "position": { "x": 0, "y": 0 } }, "left_widgets": [],
             "right_widgets": [ { "Network": { "enable": true, "show_network_activity": true, "show_total_activity": false } } ] }"#,
    );
    let output = run(obi().arg("--aliases").arg("--config").arg(&config));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("viewport: `viewport` is now `position`"), "{stdout}");
    assert!(stdout.contains("viewport.position: `position` is now `start`"), "{stdout}");
    assert!(
        stdout
            .contains("right_widgets[0].Network.show_network_activity: `show_network_activity` is now `show_activity`"),
        "{stdout}"
    );
}

#[test]
fn fonts_lists_installed_families() {
    let output = run(obi().arg("--fonts"));
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let families: Vec<&str> = stdout.lines().collect();
    assert!(families.iter().all(|family| !family.trim().is_empty()), "{stdout}");
    assert!(families.windows(2).all(|pair| pair[0] < pair[1]), "sorted, each family once: {stdout}");
    if !std::path::Path::new("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").is_file() {
        crate::skip::unavailable("fonts-dejavu-core is not installed: which families are listed cannot be checked");
        return;
    }
    assert!(families.contains(&"DejaVu Sans"), "DejaVuSans.ttf is installed: {stdout}");
}

/// `obi import waybar` on a hand-written Hyprland setup: the config it
/// writes passes `obi check` and draws, each widget in its place, and what
/// was not carried over is on stderr with its line; a second import does
/// not write over the first without `--force`.
#[test]
fn import_waybar_writes_a_config_that_checks_and_draws() {
    let setup = workspace().join("host/tests/fixtures/waybar/hyprland");
    let output = tempfile::tempdir().unwrap();
    let imported = run(obi().args(["import", "waybar"]).arg(&setup).arg("--output").arg(output.path()));
    let stderr = String::from_utf8_lossy(&imported.stderr);
    assert!(imported.status.success(), "{stderr}");
    assert!(stderr.contains("config.jsonc:36:5: `custom/power.rotate` is not carried over"), "{stderr}");
    let config = output.path().join("komorebi.bar.json");
    let checked = run(obi().arg("check").arg(&config));
    assert!(String::from_utf8_lossy(&checked.stdout).contains(": ok (0 warnings)"), "{checked:?}");

    let png = output.path().join("bar.png");
    let drawn = run(obi().arg("--config").arg(&config).arg("--screenshot").arg(&png).args(["--width", "1400"]));
    assert!(drawn.status.success(), "{}", String::from_utf8_lossy(&drawn.stderr));
    let frame = Frame::read(&png);
    assert_eq!((frame.width, frame.height), (1400, 34), "the bar's width and its Waybar height");
    let artifacts = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    std::fs::copy(&png, artifacts.join("imported-waybar-bar.png")).unwrap();
    if have_tools("reading the imported bar", &["convert", "tesseract"]) {
        let words: Vec<String> = words_in(&png).into_iter().map(|(word, _)| word).collect();
        // An icon before a label may be read as a letter of it.
        let shows = |label: &str| words.iter().any(|word| word.contains(label));
        assert!(shows("CPU") && shows("RAM"), "the group's Cpu and Memory are drawn: {words:?}");
    }

    let again = run(obi().args(["import", "waybar"]).arg(&setup).arg("--output").arg(output.path()));
    assert!(!again.status.success() && String::from_utf8_lossy(&again.stderr).contains("--force"), "{again:?}");
    let forced = run(obi().args(["import", "waybar"]).arg(&setup).arg("--output").arg(output.path()).arg("--force"));
    assert!(forced.status.success(), "{forced:?}");
}

//! `obi import waybar` on hand-written Waybar setups — a Hyprland bar with
//! a `style.css` that imports its colours, a sway bar, an array of two
//! bars, one with an `include` —: every config written passes Obi's
//! reading without an error or a warning, each module becomes its widget,
//! the style its font, colours and rounding, and every key and rule not
//! carried over is named with the file and line it was written on.

use obi::config::BarConfig;
use obi::import::{self, Imported, waybar};
use serde_json::json;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/waybar").join(name)
}

/// The monitors of the import: a name the two-bar setup names, and another.
fn monitors() -> Vec<String> {
    vec!["eDP-1".into(), "DP-1".into()]
}

/// The setup imported, each config checked as `obi check` reads it.
fn imported(name: &str) -> Imported {
    let imported =
        waybar::import(Some(&fixture(name)), &monitors()).unwrap_or_else(|error| panic!("{name}: {error:#}"));
    for (index, config) in imported.configs.iter().enumerate() {
        let loaded = BarConfig::parse(&config.to_string(), &format!("{name} bar {index}"))
            .unwrap_or_else(|errors| panic!("{name}: {errors:?}\n{config:#}"));
        assert!(loaded.warnings.is_empty(), "{name}: {:?}", loaded.warnings);
    }
    imported
}

/// The note that names `needle`, as printed.
fn note(imported: &Imported, needle: &str) -> String {
    let notes: Vec<String> = imported.notes.iter().map(ToString::to_string).collect();
    notes
        .iter()
        .find(|note| note.contains(needle))
        .cloned()
        .unwrap_or_else(|| panic!("no note names {needle}: {notes:#?}"))
}

/// The line (from 1) of `file` that holds `text` first.
fn line_of(file: &Path, text: &str) -> usize {
    let content = std::fs::read_to_string(file).unwrap();
    content.lines().position(|line| line.contains(text)).unwrap_or_else(|| panic!("{text} is not in the file")) + 1
}

#[test]
fn a_hyprland_bar_becomes_its_widgets_and_what_is_left_is_named_where_it_was_written() {
    let imported = imported("hyprland");
    let file = fixture("hyprland/config.jsonc");
    assert_eq!(imported.source, file);
    let [bar] = imported.configs.as_slice() else { panic!("one bar: {:?}", imported.configs) };
    assert_eq!((bar["height"].clone(), bar["widget_spacing"].clone()), (json!(34.0), json!(6.0)));
    assert_eq!(bar["margin"], json!({ "top": 4.0, "right": 8.0, "bottom": 0.0, "left": 8.0 }));
    let kinds = |side: &str| -> Vec<String> {
        bar[side]
            .as_array()
            .unwrap()
            .iter()
            .map(|widget| widget.as_object().unwrap().keys().next().unwrap().clone())
            .collect()
    };
    assert_eq!(kinds("left_widgets"), ["Komorebi", "Komorebi", "Komorebi"]);
    assert_eq!(bar["left_widgets"][1]["Komorebi"], json!({ "binding_mode": { "enable": true } }));
    assert_eq!(bar["left_widgets"][2]["Komorebi"]["focused_container"]["enable"], true);
    assert_eq!(kinds("center_widgets"), ["Time"]);
    assert_eq!(
        bar["center_widgets"][0]["Time"],
        json!({ "enable": true, "format": { "Custom": " %A %d %B  %H:%M" }, "label_prefix": "None", "timezone": "Europe/Berlin" })
    );
    assert_eq!(
        kinds("right_widgets"),
        ["Cpu", "Memory", "Storage", "Volume", "Battery", "Brightness", "Systray", "Custom"],
        "the group's members in its place"
    );
    assert_eq!(bar["right_widgets"][0]["Cpu"]["data_refresh_interval"], 2);
    assert_eq!(bar["right_widgets"][4]["Battery"]["auto_select_under"], 15);
    assert_eq!(bar["right_widgets"][5]["Brightness"], json!({ "enable": true, "step": 3 }), "its scroll step, whole");
    assert_eq!(
        bar["right_widgets"][7]["Custom"],
        json!({ "enable": true, "name": "power", "format": "⏻", "tooltip": false, "on_click": "wlogout" })
    );

    assert_eq!(bar.get("edge"), None, "`position: top` is where Obi's bar is");
    let rotate = note(&imported, "custom/power.rotate");
    assert!(rotate.starts_with(&format!("{}:{}:", file.display(), line_of(&file, "\"rotate\""))), "{rotate}");
    for needle in [
        "`layer` is not carried over",
        "hyprland/workspaces.format",
        "hyprland/workspaces.persistent-workspaces",
        "hyprland/window.max-length",
        "clock.tooltip-format",
        "group/hardware.orientation",
        "group/hardware.drawer",
        "cpu.format",
        "disk.path",
        "pulseaudio.on-click",
        "battery.format",
        "backlight.format",
        "`cava`: Obi has no widget",
    ] {
        note(&imported, needle);
    }
    let cava = note(&imported, "`cava`");
    assert!(cava.contains(&format!(":{}:", line_of(&file, "\"modules-right\""))), "where it is listed: {cava}");
    assert_eq!(
        imported.notes.iter().filter(|note| note.place.file == file).count(),
        16,
        "{:#?}",
        imported.notes.iter().map(ToString::to_string).collect::<Vec<_>>()
    );
}

#[test]
fn a_sway_bars_scripts_carry_over_with_their_keys() {
    let imported = imported("sway");
    let bar = &imported.configs[0];
    let right = bar["right_widgets"].as_array().unwrap();
    assert_eq!(
        right[0]["Network"],
        json!({ "enable": true, "show_activity": true, "show_total_activity": false, "data_refresh_interval": 3 }),
        "format-wifi shows the rates"
    );
    assert_eq!(right[1], json!({ "Keyboard": { "enable": true } }));
    assert_eq!(right[2], json!({ "Media": { "enable": true } }));
    assert_eq!(
        right[3]["Custom"],
        json!({ "enable": true, "name": "mail", "exec": "~/bin/mail-count --json", "return_type": "json", "interval": 60,
                "format": "{icon} {}", "format_icons": { "unread": "", "default": "" }, "on_click": "thunderbird",
                "escape": true })
    );
    assert_eq!(right[4]["Custom"]["exec_if"], "which checkupdates");
    assert_eq!(
        (right[4]["Custom"]["signal"].clone(), right[4]["Custom"]["hide_empty_text"].clone()),
        (json!(8), json!(true))
    );
    assert_eq!(right[5]["Time"]["format"], json!({ "Custom": "UTC %H:%M" }));
    assert_eq!(right[5]["Time"]["timezone"], "Etc/UTC");
    assert_eq!(right[6]["Time"]["format"], json!({ "Custom": "%a %e %b %H:%M" }));
    assert_eq!(bar["left_widgets"].as_array().unwrap().len(), 2, "the scratchpad has no widget");
    assert_eq!(bar["edge"], "Bottom", "its `position`");
    for needle in [
        "network.format-wifi",
        "custom/updates.smooth-scrolling-threshold",
        "clock.format-alt",
        "`sway/scratchpad`: Obi has no widget",
    ] {
        note(&imported, needle);
    }
}

#[test]
fn an_array_of_bars_is_a_config_for_each_and_they_are_written_side_by_side() {
    let imported = imported("two-bars");
    assert_eq!(imported.configs.len(), 2);
    assert_eq!(imported.configs[1]["height"], json!(24.0));
    assert_eq!(imported.configs[1]["center_widgets"][0]["Komorebi"]["focused_container"]["enable"], true);
    assert_eq!(imported.configs[0]["monitor"], 1, "DP-1 is the second monitor");
    let outputs: Vec<String> =
        imported.notes.iter().map(ToString::to_string).filter(|note| note.contains("`output`")).collect();
    assert_eq!(outputs.len(), 1, "the list of outputs named: {outputs:?}");
    assert!(outputs[0].contains("--every-monitor"), "{}", outputs[0]);
    let elsewhere = waybar::import(Some(&fixture("two-bars")), &["HDMI-A-1".into()]).unwrap();
    assert!(elsewhere.configs[0].get("monitor").is_none());
    note(&elsewhere, "no monitor named \"DP-1\" is connected now (connected: HDMI-A-1)");
    assert_eq!(
        imported.configs[1]["right_widgets"][2],
        json!({ "IdleInhibitor": { "enable": true, "start_activated": true } }),
        "Waybar's idle inhibitor, on from the start as it was"
    );
    assert_eq!(
        imported.configs[1]["right_widgets"][3],
        json!({ "Volume": { "enable": true, "microphone": true } }),
        "the volume with the microphone its format shows"
    );
    assert_eq!(
        imported.configs[1]["right_widgets"][4],
        json!({ "Privacy": { "enable": true, "ignore": ["cava"] } }),
        "a privacy item that ignores a visualiser's recording"
    );
    note(&imported, "`privacy.ignore`: the entries of other types are not carried over");
    assert!(
        imported.notes.iter().all(|note| !note.to_string().contains("ignore-monitor")),
        "Obi leaves monitors out as `ignore-monitor` asked"
    );
    assert_eq!(
        imported.configs[0]["right_widgets"][1],
        json!({ "Wifi": { "enable": true } }),
        "a network that shows the Wi-Fi network and no rates"
    );

    let folder = tempfile::tempdir().unwrap();
    let written = import::write(&imported.configs, folder.path(), false).unwrap();
    let names: Vec<&str> = written.iter().map(|path| path.file_name().unwrap().to_str().unwrap()).collect();
    assert_eq!(names, ["komorebi.bar.json", "komorebi.bar.2.json"]);
    for path in &written {
        let loaded = BarConfig::load(path).unwrap_or_else(|errors| panic!("{}: {errors:?}", path.display()));
        assert!(loaded.warnings.is_empty());
    }
    std::fs::write(&written[1], "mine").unwrap();
    let refused = import::write(&imported.configs, folder.path(), false).unwrap_err().to_string();
    assert!(refused.contains("komorebi.bar.json is there already") && refused.contains("--force"), "{refused}");
    assert_eq!(std::fs::read_to_string(&written[1]).unwrap(), "mine", "nothing written over");
    import::write(&imported.configs, folder.path(), true).unwrap();
    assert_ne!(std::fs::read_to_string(&written[1]).unwrap(), "mine", "--force writes over");
}

#[test]
fn what_an_include_adds_is_carried_and_named_in_the_included_file() {
    let imported = imported("with-include");
    let bar = &imported.configs[0];
    assert_eq!(bar["right_widgets"][0]["Custom"]["min_length"], 6);
    assert_eq!(
        bar["right_widgets"][1]["Time"]["format"],
        json!({ "Custom": "%H:%M:%S" }),
        "the including file's format wins"
    );
    let included = fixture("with-include/modules.jsonc");
    let menu = note(&imported, "custom/weather.menu");
    assert!(menu.starts_with(&format!("{}:{}:", included.display(), line_of(&included, "\"menu\""))), "{menu}");
    let interval = note(&imported, "clock.interval");
    assert!(
        interval.starts_with(&format!("{}:{}:", included.display(), line_of(&included, "\"interval\": 1,"))),
        "{interval}"
    );
}

/// Lengths Obi would refuse, and a module listed nowhere, are named, not
/// written into a config Obi would not read.
#[test]
fn what_obi_would_refuse_or_waybar_does_not_show_is_named() {
    let folder = tempfile::tempdir().unwrap();
    let config = folder.path().join("config");
    std::fs::write(
        &config,
        r#"{ "height": "30", "spacing": 99999, "margin": "4 auto", "margin-top": -2,
             "modules-left": ["clock", "cpu", "custom/odd"], "clock": { "timezone": "Mars/Olympus" },
             "cpu": { "interval": 0.5 }, "custom/odd": { "exec": "date", "interval": 0.5, "max-length": -1 },
             "custom/unused": { "exec": "date" } }"#,
    )
    .unwrap();
    let imported = waybar::import(Some(&config), &[]).unwrap();
    let bar = &imported.configs[0];
    for key in ["height", "widget_spacing", "margin"] {
        assert!(bar.get(key).is_none(), "{key}: {bar}");
    }
    BarConfig::parse(&bar.to_string(), "refused lengths").unwrap();
    note(&imported, "`height` is not carried over: \"30\" is not a length");
    note(&imported, "`spacing` is not carried over: 99999");
    note(&imported, "`margin` is not carried over: \"4 auto\"");
    note(&imported, "`margin-top` is not carried over: -2");
    note(&imported, "`custom/unused` is listed on no side");
    note(&imported, "`cpu.interval` is not carried over: 0.5 is not whole seconds");
    assert_eq!(bar["left_widgets"][1], json!({ "Cpu": { "enable": true } }));
    note(&imported, "`clock.timezone` is not carried over: no time zone is named \"Mars/Olympus\"");
    note(&imported, "`custom/odd.interval` is not carried over: 0.5 is not a value Obi's Custom takes");
    note(&imported, "`custom/odd.max-length` is not carried over: -1");
    assert_eq!(bar["left_widgets"][2], json!({ "Custom": { "enable": true, "name": "odd", "exec": "date" } }));
}

#[test]
fn a_folder_without_a_config_or_a_broken_one_is_said_plainly() {
    let empty = tempfile::tempdir().unwrap();
    let error = waybar::import(Some(empty.path()), &[]).err().unwrap().to_string();
    assert!(error.contains("holds no Waybar config (config.jsonc, config.json, config)"), "{error}");
    std::fs::write(empty.path().join("config"), "{ \"height\": 30,, }").unwrap();
    let error = format!("{:#}", waybar::import(Some(empty.path()), &[]).err().unwrap());
    assert!(error.contains(&format!("{}:1:", empty.path().join("config").display())), "{error}");
    std::fs::write(empty.path().join("config"), "[ 3 ]").unwrap();
    let error = waybar::import(Some(empty.path()), &[]).err().unwrap().to_string();
    assert!(error.contains("bar 1 is not an object"), "{error}");
}

#[test]
fn the_style_sheet_gives_the_font_the_colours_and_the_rounding() {
    let imported = imported("hyprland");
    let bar = &imported.configs[0];
    assert_eq!(bar["font_family"], "JetBrainsMono Nerd Font", "the first of the list");
    assert_eq!(bar["font_size"], json!(13.33), "10pt");
    assert_eq!(bar["transparency_alpha"], 230, "alpha(@surface, 0.9)");
    assert_eq!(bar["grouping"], json!({ "kind": "Widget", "rounding": 8.0 }), "the modules' border-radius");
    let theme = &bar["theme"];
    assert_eq!((theme["palette"].clone(), theme["auto_select_text"].clone()), (json!("Custom"), json!("Base07")));
    let colours = &theme["colours"];
    assert_eq!(colours["base_01"], "#1a1b26", "the background, from the imported colors.css");
    assert_eq!(colours["base_05"], "#c0caf5", "the text");
    assert_eq!(colours["base_0d"], "#7aa2f7", "the focused workspace's fill");
    assert_eq!(colours["base_07"], "#1a1b26", "its text, from a variable");
    assert_eq!(colours["base_08"], "#f7768e", "an urgent workspace's fill");
    let theme = obi::theme::Theme::from_config(
        serde_json::from_value(bar["theme"].clone()).ok().as_ref(),
        bar["transparency_alpha"].as_u64().unwrap() as u8,
    );
    assert_eq!(theme.selected_fill, obi::colour::Rgba(0x7a, 0xa2, 0xf7, 255), "as Obi's theme reads it");
    assert_eq!(theme.selected_text, obi::colour::Rgba(0x1a, 0x1b, 0x26, 255));

    let style = fixture("hyprland/style.css");
    let at = |needle: &str| format!("{}:{}:", style.display(), line_of(&style, needle));
    let rule = |needle: &str| note(&imported, needle);
    assert!(rule("`*` { min-height: 0 }").starts_with(&at("* {")));
    assert!(rule("`window#waybar` { transition-property").starts_with(&at("window#waybar {")));
    assert!(
        rule("`#workspaces button` { padding: 0 6px; color: @on_surface }").starts_with(&at("#workspaces button {"))
    );
    let modules = "`#clock, #cpu, #memory` { padding: 0 10px; background: alpha(@on_surface, 0.1) }";
    assert!(rule(modules).starts_with(&at("#clock,")));
    let nothing_drawn = rule("`#custom-power` { border-radius: 4px }");
    assert!(nothing_drawn.starts_with(&at("#custom-power {")), "no background, no corners: {nothing_drawn}");
    assert!(rule("`@keyframes blink { … }`").starts_with(&at("@keyframes")));
    let style_notes = imported.notes.iter().filter(|note| note.place.file == style).count();
    assert_eq!(style_notes, 6, "the rules Obi reads whole, and `:root`'s variables, are not named");
}
